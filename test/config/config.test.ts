import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { join } from 'node:path';
import { loadConfig } from '../../src/core/config/load.js';
import { ProjectError } from '../../src/core/errors.js';
import { copyProject } from '../helpers/projects.js';
import { BLOG } from '../helpers/paths.js';

describe('configuration', () => {
  const projects: ReturnType<typeof copyProject>[] = [];
  after(() => projects.forEach((p) => p.remove()));

  it('has Strapi defaults: port 1337, SQLite at .tmp/data.db in the project, REST limits 25/100', async () => {
    const config = await loadConfig(BLOG, { env: {} });
    assert.equal(config.server.port, 1337);
    // The example listens on this machine only (Strapi's own default, without a config file, is 0.0.0.0).
    assert.equal(config.server.host, 'localhost');
    assert.deepEqual(config.database, {
      client: 'sqlite',
      filename: join(BLOG, '.tmp/data.db'),
      statementTimeout: 10_000,
      source: 'config/database.js',
    });
    assert.deepEqual(config.api.rest, {
      prefix: '/api',
      defaultLimit: 25,
      maxLimit: 100,
      withCount: true,
      strictParams: false,
      costLimit: 25_000,
      cache: { maxBytes: 16 * 1024 * 1024, holdAfterWriteMs: 1000 },
      draftAccess: 'editors',
    });
    assert.deepEqual(config.i18n, { defaultLocale: 'en', locales: ['en', 'fr'] });
  });

  it('reads the environment variables of Strapi default configuration', async () => {
    const config = await loadConfig(BLOG, { env: { HOST: '127.0.0.1', PORT: '4000', DATABASE_FILENAME: '/tmp/x.db' } });
    assert.equal(config.server.host, '127.0.0.1');
    assert.equal(config.server.port, 4000);
    assert.deepEqual(config.database, {
      client: 'sqlite',
      filename: '/tmp/x.db',
      statementTimeout: 10_000,
      source: 'config/database.js',
    });

    const pg = await loadConfig(BLOG, {
      env: {
        DATABASE_CLIENT: 'postgres',
        DATABASE_HOST: 'db.internal',
        DATABASE_PORT: '6543',
        DATABASE_NAME: 'cms',
        DATABASE_USERNAME: 'u',
        DATABASE_PASSWORD: 'p',
        DATABASE_SCHEMA: 'content',
      },
    });
    assert.equal(pg.database.client, 'postgres');
    if (pg.database.client === 'postgres') {
      assert.equal(pg.database.host, 'db.internal');
      assert.equal(pg.database.port, 6543);
      assert.equal(pg.database.database, 'cms');
      assert.equal(pg.database.user, 'u');
      assert.equal(pg.database.password, 'p');
      assert.equal(pg.database.schema, 'content');
    }
    const url = await loadConfig(BLOG, { env: { DATABASE_CLIENT: 'postgres', DATABASE_URL: 'postgres://a:b@h:1/d' } });
    assert.equal(url.database.client !== 'sqlite' && url.database.connectionString, 'postgres://a:b@h:1/d');
    const my = await loadConfig(BLOG, { env: { DATABASE_CLIENT: 'mysql' } });
    assert.equal(my.database.client, 'mysql');
  });

  it('works without any config folder, and from environment variables alone', async () => {
    const project = copyProject();
    projects.push(project);
    const { rmSync } = await import('node:fs');
    rmSync(join(project.dir, 'config'), { recursive: true });
    const config = await loadConfig(project.dir, {
      env: { PORT: '5000', DATABASE_CLIENT: 'mysql', DATABASE_NAME: 'x' },
    });
    assert.equal(config.server.port, 5000);
    assert.equal(config.database.client, 'mysql');
    assert.equal((config.database as { database?: string }).database, 'x');
  });

  it('reads JSON, ESM and TypeScript config files, with env/<NODE_ENV> overrides', async () => {
    const project = copyProject();
    projects.push(project);
    const { rmSync, mkdirSync } = await import('node:fs');
    rmSync(join(project.dir, 'config/api.js'));
    rmSync(join(project.dir, 'config/server.js'));
    project.write('config/api.json', JSON.stringify({ rest: { defaultLimit: 7, maxLimit: 70 } }));
    project.write(
      'config/server.ts',
      'export default ({ env }: { env: (n: string, d: string) => string }) => ({ port: 1400, host: env("HOST", "localhost") });',
    );
    mkdirSync(join(project.dir, 'config/env/production'), { recursive: true });
    project.write('config/env/production/server.mjs', 'export default { port: 1500 };');
    const dev = await loadConfig(project.dir, { env: {} });
    assert.equal(dev.api.rest.defaultLimit, 7);
    assert.equal(dev.api.rest.maxLimit, 70);
    assert.equal(dev.server.port, 1400);
    assert.equal(dev.server.host, 'localhost');
    const prod = await loadConfig(project.dir, { env: { NODE_ENV: 'production' } });
    assert.equal(prod.server.port, 1500);
  });

  it('a wrong configuration stops with a message naming the file', async () => {
    const project = copyProject();
    projects.push(project);
    project.write('config/api.js', 'module.exports = { rest: { defaultLimit: "lots" } };');
    await assert.rejects(
      loadConfig(project.dir, { env: {} }),
      (e: unknown) => e instanceof ProjectError && /config\/api/.test(e.message) && /defaultLimit/.test(e.message),
    );
    project.write('config/api.js', 'module.exports = {};');
    await assert.rejects(
      loadConfig(project.dir, { env: { DATABASE_CLIENT: 'oracle' } }),
      (e: unknown) => e instanceof ProjectError && /oracle/.test(e.message),
    );
  });
});
