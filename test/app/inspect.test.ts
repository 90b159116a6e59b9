/**
 * `vellum content-types:list`, `routes:list`, `policies:list`, `middlewares:list` and `vellum
 * console` (docs/cli.md "Inspecting a project"), on a copy of the blog example with a policy and a
 * middleware of its own. The console runs as a process, its input piped.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { cliOutput } from '../helpers/cli.js';
import { ROOT } from '../helpers/paths.js';
import { BLOG } from '../helpers/server.js';

describe('vellum listing commands and console', () => {
  let project: string;
  let env: NodeJS.ProcessEnv;
  before(() => {
    project = mkdtempSync(join(tmpdir(), 'vellum-inspect-'));
    cpSync(BLOG, project, { recursive: true, filter: (source) => !source.includes('.tmp') });
    mkdirSync(join(project, 'src/policies'), { recursive: true });
    writeFileSync(join(project, 'src/policies/is-owner.js'), 'module.exports = () => true;');
    mkdirSync(join(project, 'src/middlewares'), { recursive: true });
    writeFileSync(join(project, 'src/middlewares/timing.js'), 'module.exports = () => async (ctx, next) => next();');
    env = { ...process.env, NODE_ENV: 'test', DATABASE_FILENAME: join(project, 'data.db') };
  });
  after(() => rmSync(project, { recursive: true, force: true }));

  it('lists content-types, routes, policies and middlewares in tables', async () => {
    const types = await cliOutput(['content-types:list', '--project', project], { env });
    assert.match(types, /^┌─+┐\n│ Name +│\n├─+┤\n/);
    assert.match(types, /│ api::article\.article +│/);
    assert.match(types, /│ plugin::users-permissions\.user +│/);
    const routes = await cliOutput(['routes:list', '--project', project], { env });
    assert.match(routes, /│ Method +│ Path +│/);
    assert.match(routes, /│ GET\|PUT\|DELETE +│ \/api\/articles\/:documentId +│/);
    assert.match(routes, /│ POST +│ \/api\/auth\/local +│/);
    assert.doesNotMatch(routes, /HEAD/);
    assert.match(await cliOutput(['policies:list', '--project', project], { env }), /│ global::is-owner +│/);
    assert.match(await cliOutput(['middlewares:list', '--project', project], { env }), /│ global::timing +│/);
  });

  it('console: a REPL with the project’s strapi', () => {
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', join(ROOT, 'src/app/cli/main.ts'), 'console', '--project', project],
      {
        encoding: 'utf8',
        env,
        input: "strapi.contentType('api::article.article').info.pluralName\n.exit\n",
        timeout: 60_000,
      },
    );
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /'articles'/);
  });
});
