/**
 * A project's `.env`, its other `config/` files, and the `config/database` mistakes that stop
 * start-up (no database is opened here: test/app/startup.test.ts connects).
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { ProjectError } from '../errors.js';
import { loadConfig } from './load.js';

const dirs: string[] = [];
after(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A project folder holding `files` (path -> text). */
function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'vellum-unit-config-'));
  dirs.push(dir);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  return dir;
}

const refused = (dir: string, env: NodeJS.ProcessEnv, message: string) =>
  assert.rejects(loadConfig(dir, { env }), (error: unknown) => {
    assert.ok(error instanceof ProjectError, String(error));
    assert.equal(error.message, message);
    return true;
  });

const STRAPI_DATABASE = `module.exports = ({ env }) => ({
  connection: {
    client: env('DATABASE_CLIENT', 'sqlite'),
    connection: env('DATABASE_CLIENT', 'sqlite') === 'sqlite'
      ? { filename: env('DATABASE_FILENAME', '.tmp/data.db') }
      : { host: env('DATABASE_HOST', 'localhost'), port: env.int('DATABASE_PORT', 5432), database: env('DATABASE_NAME', 'strapi'), user: env('DATABASE_USERNAME', 'strapi'), password: env('DATABASE_PASSWORD', 'strapi') },
  },
});
`;

describe("the project's .env", () => {
  it('is read before the configuration files: DATABASE_CLIENT=postgres is PostgreSQL, not SQLite', async () => {
    const dir = project({
      'config/database.js': STRAPI_DATABASE,
      '.env': '# database\nDATABASE_CLIENT=postgres\nDATABASE_HOST=db.internal\nDATABASE_PASSWORD="p#ss word"\n',
    });
    const config = await loadConfig(dir, { env: {} });
    assert.equal(config.database.client, 'postgres');
    assert.equal(config.database.client === 'postgres' && config.database.host, 'db.internal');
    assert.equal(config.database.client === 'postgres' && config.database.password, 'p#ss word');
    assert.equal(config.env.DATABASE_CLIENT, 'postgres');
  });

  it('loses to a variable the environment sets, even to an empty one, as dotenv does', async () => {
    const dir = project({
      'config/database.js': STRAPI_DATABASE,
      '.env': 'DATABASE_CLIENT=postgres\nDATABASE_PASSWORD=from-file\nPORT=4001\n',
    });
    const config = await loadConfig(dir, { env: { DATABASE_CLIENT: 'mysql', DATABASE_PASSWORD: '' } });
    assert.equal(config.database.client, 'mysql');
    assert.equal(config.database.client === 'mysql' && config.database.password, '');
    assert.equal(config.server.port, 4001);
  });

  it('sets NODE_ENV, secrets and any variable project code reads; ENV_PATH names another file', async () => {
    const dir = project({
      '.env': 'NODE_ENV=production\nJWT_SECRET=from-dot-env\n',
      'other.env': 'NODE_ENV=staging\n',
      'config/env/production/server.js': 'module.exports = { port: 1500 };',
    });
    const config = await loadConfig(dir, { env: {} });
    assert.equal(config.environment, 'production');
    assert.equal(config.server.port, 1500);
    assert.equal(config.env.JWT_SECRET, 'from-dot-env');
    assert.equal((await loadConfig(dir, { env: { ENV_PATH: join(dir, 'other.env') } })).environment, 'staging');
  });

  it('fills process.env where it has no value, when the configuration reads process.env', async () => {
    const name = `VELLUM_UNIT_${process.pid}`;
    const dir = project({ '.env': `${name}=from-file\nPATH=not-this\n` });
    const path = process.env.PATH;
    try {
      const config = await loadConfig(dir);
      assert.equal(process.env[name], 'from-file');
      assert.equal(process.env.PATH, path);
      assert.equal(config.env, process.env);
    } finally {
      delete process.env[name];
    }
  });
});

describe('every config/ file is configuration', () => {
  it("config/custom.js and others by their name, the environment merged over them; Strapi's reserved names are not", async () => {
    const dir = project({
      'config/custom.js': "module.exports = ({ env }) => ({ greeting: env('GREETING', 'hello'), list: [1, 2] });",
      'config/env/production/custom.json': '{ "list": [3], "extra": true }',
      'config/features.ts': 'export default { future: { flag: true as boolean } };',
      'config/cron-tasks.js': "module.exports = { '0 * * * *': () => undefined };",
      'config/info.js': 'module.exports = { reserved: true };',
      'config/types.d.ts': 'export {};',
    });
    const config = await loadConfig(dir, { env: {} });
    assert.deepEqual(config.custom.custom, { greeting: 'hello', list: [1, 2] });
    assert.deepEqual(config.custom.features, { future: { flag: true } });
    assert.deepEqual(Object.keys(config.custom), ['cron-tasks', 'custom', 'features']);
    const production = await loadConfig(dir, { env: { NODE_ENV: 'production', GREETING: 'bonjour' } });
    assert.deepEqual(production.custom.custom, { greeting: 'bonjour', list: [3], extra: true });
  });

  it('a syntax error names the file, line and column', async () => {
    const cases: [string, string, string][] = [
      [
        'config/server.js',
        'module.exports = ({ env }) => ({\n  port: 1,\n  host: ,\n});\n',
        'config/server.js:3:9: syntax error: Unexpected ","',
      ],
      [
        'config/api.mjs',
        'export default {\n  rest: {}\n  b: 2,\n};\n',
        'config/api.mjs:3:3: syntax error: Expected "}" but found "b"',
      ],
      [
        'config/admin.ts',
        'export default {\n  a: 1 as number,\n  b: ,\n};\n',
        'config/admin.ts:3:6: syntax error: Unexpected ","',
      ],
      [
        'config/plugins.json',
        '{\n  "a": 1,\n  "b": \n}\n',
        'config/plugins.json:4:1: syntax error: Unexpected "}" in JSON',
      ],
      [
        'config/custom.js',
        'module.exports = {\n  greeting: "hi",,\n};\n',
        'config/custom.js:2:18: syntax error: Expected identifier but found ","',
      ],
    ];
    for (const [file, text, message] of cases) await refused(project({ [file]: text }), {}, message);
  });
});

describe('config/database mistakes stop start-up, naming the file and the fix', () => {
  const database = (text: string) => project({ 'config/database.js': text });
  it('an unknown key, at each level', async () => {
    await refused(
      database("module.exports = { conection: { client: 'postgres' } };"),
      {},
      'config/database.js: unknown key "conection": did you mean "connection"?',
    );
    await refused(
      database("module.exports = { connection: { client: 'postgres', conection: { host: 'db' } } };"),
      {},
      'config/database.js: unknown key "connection.conection": did you mean "connection.connection"?',
    );
    await refused(
      database("module.exports = { connection: { client: 'postgres', connection: { hots: 'db' } } };"),
      {},
      'config/database.js: unknown key "connection.connection.hots": did you mean "connection.connection.host"?',
    );
    await refused(
      database("module.exports = { connection: { client: 'mysql', connection: { username: 'u' } } };"),
      {},
      'config/database.js: unknown key "connection.connection.username": did you mean "connection.connection.user"?',
    );
    await refused(
      database('module.exports = { connections: {} };'),
      {},
      'config/database.js: unknown key "connections": did you mean "connection"?',
    );
  });

  it('a client Vellum lacks, no connection, a connection function', async () => {
    await refused(
      database("module.exports = { connection: { client: 'mssql' } };"),
      {},
      'config/database.js: unknown database client "mssql": Vellum serves sqlite, postgres and mysql (MariaDB too)',
    );
    await refused(
      database('// all comments\n'),
      {},
      'config/database.js: exports no "connection": Strapi stops here too; export { connection: { client, connection: { ... } } } or remove the file to use the DATABASE_* variables',
    );
    await refused(
      database("module.exports = { connection: { client: 'pg', connection: async () => ({}) } };"),
      {},
      'config/database.js: "connection.connection" is a function (Knex\'s connection provider), which Vellum cannot call: give the settings as an object',
    );
  });

  it('accepts what Strapi projects write: Knex options, driver options Vellum leaves to the driver, a URL', async () => {
    const config = await loadConfig(
      database(
        "module.exports = { connection: { client: 'postgres', connection: { host: 'h', application_name: 'cms', ssl: { rejectUnauthorized: false } }, debug: false, acquireConnectionTimeout: 60000, pool: { min: 0, max: 7 } }, settings: { forceMigration: true } };",
      ),
      { env: {} },
    );
    assert.equal(config.database.client === 'postgres' && config.database.pool.max, 7);
    const url = await loadConfig(
      database("module.exports = { connection: { client: 'postgres', connection: 'postgres://u@h:1/d' } };"),
      { env: {} },
    );
    assert.equal(url.database.client === 'postgres' && url.database.connectionString, 'postgres://u@h:1/d');
  });
});
