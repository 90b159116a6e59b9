/** The Strapi major version a project's package.json declares. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ProjectError } from '../errors.js';
import { declaredStrapiMajor, majorOf } from './package.js';

function withManifest(text: string | undefined, check: (dir: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'vellum-package-'));
  try {
    if (text !== undefined) writeFileSync(join(dir, 'package.json'), text);
    check(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('declared @strapi/strapi version', () => {
  it('reads the major of npm ranges', () => {
    for (const [range, major] of [
      ['5.54.0', 5],
      ['^5.0.0', 5],
      ['~5.1', 5],
      ['>=5 <6', 5],
      ['v5', 5],
      ['4.25.1', 4],
      ['^4.15.0', 4],
      ['latest', 5],
      ['*', 5],
    ] as const) {
      assert.equal(majorOf(range), major, range);
    }
    assert.equal(majorOf('file:../strapi'), undefined);
  });

  it('reads dependencies, then devDependencies; none without a package.json or the dependency', () => {
    withManifest(JSON.stringify({ dependencies: { '@strapi/strapi': '5.12.1' } }), (dir) =>
      assert.equal(declaredStrapiMajor(dir), 5),
    );
    withManifest(JSON.stringify({ devDependencies: { '@strapi/strapi': '^4.0.0' } }), (dir) =>
      assert.equal(declaredStrapiMajor(dir), 4),
    );
    withManifest(JSON.stringify({ dependencies: { react: '18' } }), (dir) =>
      assert.equal(declaredStrapiMajor(dir), undefined),
    );
    withManifest(undefined, (dir) => assert.equal(declaredStrapiMajor(dir), undefined));
  });

  it('a package.json that is not JSON stops start-up naming the file', () => {
    withManifest('{ "dependencies": ', (dir) =>
      assert.throws(
        () => declaredStrapiMajor(dir),
        (error: unknown) => error instanceof ProjectError && /^package\.json: not valid JSON/.test(error.message),
      ),
    );
  });
});
