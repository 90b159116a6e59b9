/**
 * Generated types side by side with Strapi 5.54: `strapi ts:generate-types` run in the reference
 * app serving a project, against Vellum's text for the same project (features/typegen), file for
 * file. On demand: `npm run test:strapi -- typegen`. The blog's files are pinned in
 * test/fixtures/typegen (src/features/typegen/render.test.ts).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { promisify } from 'node:util';
import { builtInTypes } from '../../src/app/built-ins.js';
import { rawSchemaOf } from '../../src/app/open-project.js';
import { loadProjectSchema } from '../../src/core/schema/load.js';
import { generatedTypes } from '../../src/features/typegen/index.js';
import { fixture } from '../helpers/paths.js';
import { openDifferential, type Differential } from './harness.js';

const run = promisify(execFile);
const opened: Differential[] = [];
after(async () => {
  for (const diff of opened) await diff.close();
});

for (const name of ['all-types', 'relation-matrix', 'strapi5-shop']) {
  test(`${name}: the same contentTypes.d.ts and components.d.ts as Strapi's`, async () => {
    const project = fixture(name);
    const diffName = `typegen-${name}`;
    opened.push(await openDifferential({ name: diffName, project }));
    const strapiDir = `/tmp/vellum-diff-${diffName}`;
    await run(process.execPath, ['node_modules/@strapi/strapi/bin/strapi.js', 'ts:generate-types'], {
      cwd: strapiDir,
      timeout: 120_000,
    });
    // Strapi's copy of the project: the relation kinds Strapi refuses (oneWay, manyWay) left out.
    const served = existsSync(join(strapiDir, 'project')) ? join(strapiDir, 'project') : project;
    const { schema } = loadProjectSchema(served, builtInTypes(served));
    const types = await generatedTypes({ dir: tmpdir(), schema, rawSchema: rawSchemaOf(served) });
    const strapi = (file: string) => readFileSync(join(strapiDir, 'types/generated', file), 'utf8');
    assert.equal(types.components, strapi('components.d.ts'));
    assert.equal(types.contentTypes, strapi('contentTypes.d.ts'));
  });
}
