/**
 * `vellum ts:generate-types` (docs/cli.md): writes types/generated/contentTypes.d.ts and
 * components.d.ts in the project, the text Strapi 5.54 writes (test/fixtures/typegen). No database.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { cliOutput } from '../helpers/cli.js';
import { BLOG, fixture } from '../helpers/server.js';

describe('vellum ts:generate-types', () => {
  const project = mkdtempSync(join(tmpdir(), 'vellum-typegen-'));
  after(() => rmSync(project, { recursive: true, force: true }));

  it("writes Strapi's two files in the project's types/generated", async () => {
    cpSync(BLOG, project, { recursive: true, filter: (source) => !source.includes('.tmp') });
    const out = await cliOutput(['ts:generate-types'], { cwd: project });
    assert.match(out, /^Saved types\/generated\/contentTypes\.d\.ts\nSaved types\/generated\/components\.d\.ts\n$/);
    for (const file of ['contentTypes.d.ts', 'components.d.ts'])
      assert.equal(
        readFileSync(join(project, 'types/generated', file), 'utf8'),
        readFileSync(join(fixture('typegen'), 'blog', file), 'utf8'),
      );
  });
});
