/** Configuration from the environment and overrides alone: a project folder without config/. */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ProjectError } from '../errors.js';
import { loadConfig, type LoadConfigOptions } from './load.js';

const PROJECT = join('/nonexistent', 'vellum-unit-project');
const load = (options: LoadConfigOptions = {}) => loadConfig(PROJECT, { env: {}, ...options });
const refused = (options: LoadConfigOptions, message: string) =>
  assert.rejects(load(options), (error: unknown) => {
    assert.ok(error instanceof ProjectError, String(error));
    assert.equal(error.message, message);
    return true;
  });

describe('configuration without config files', () => {
  it("has Strapi's defaults", async () => {
    const config = await load();
    assert.equal(config.projectDir, PROJECT);
    assert.equal(config.environment, 'development');
    assert.deepEqual(config.server, {
      host: '0.0.0.0',
      port: 1337,
      bodyLimit: 1024 * 1024,
      bodyTimeout: 30_000,
      logger: false,
      url: '',
      dirs: { public: join(PROJECT, 'public') },
      http: { serverOptions: { requestTimeout: 300_000, headersTimeout: 60_000, keepAliveTimeout: 5_000 } },
      webhooks: {
        defaultHeaders: {},
        timeout: 10_000,
        maxAttempts: 10,
        retryDelay: 1_000,
        maxRetryDelay: 3_600_000,
        pollInterval: 1_000,
        concurrency: 10,
        webhookConcurrency: 2,
        logDays: 7,
        allowPrivateAddresses: true,
      },
      // Strapi's cron is off unless enabled.
      cron: { enabled: false, tasks: {}, scheduleInterval: 1_000 },
      proxy: { koa: false, ipHeader: 'x-forwarded-for', maxIpsCount: 0 },
      // Strapi's bcrypt cost.
      passwords: { rounds: 10 },
    });
    assert.deepEqual(config.database, {
      client: 'sqlite',
      filename: join(PROJECT, '.tmp/data.db'),
      statementTimeout: 10_000,
    });
    assert.deepEqual(config.api.rest, {
      prefix: '/api',
      defaultLimit: 25,
      maxLimit: 100,
      withCount: true,
      strictParams: false,
      cache: { maxBytes: 16 * 1024 * 1024, holdAfterWriteMs: 1000 },
      costLimit: 25_000,
      draftAccess: 'editors',
    });
    assert.deepEqual(config.i18n, { defaultLocale: 'en', locales: ['en'] });
    assert.deepEqual(config.middlewares, []);
  });

  it('reads the database from the environment variables of Strapi default configuration', async () => {
    const env = {
      NODE_ENV: 'production',
      DATABASE_CLIENT: 'postgresql',
      DATABASE_HOST: 'db',
      DATABASE_PORT: '6543',
      DATABASE_NAME: 'cms',
      DATABASE_USERNAME: 'u',
      DATABASE_PASSWORD: '',
      DATABASE_SCHEMA: 's',
      DATABASE_SSL: 'true',
    };
    const config = await load({ env });
    assert.equal(config.environment, 'production');
    assert.equal(
      config.server.webhooks.allowPrivateAddresses,
      false,
      'webhooks stay on the public internet in production',
    );
    assert.deepEqual(config.database, {
      client: 'postgres',
      connectionString: undefined,
      host: 'db',
      port: 6543,
      database: 'cms',
      user: 'u',
      password: '',
      schema: 's',
      ssl: {},
      pool: { min: 0, max: 10 },
      pgbouncer: false,
      statementTimeout: 10_000,
    });
    const mysql = await load({ env: { DATABASE_CLIENT: 'mariadb', DATABASE_URL: 'mysql://r@h/d' } });
    assert.deepEqual(mysql.database, {
      client: 'mysql',
      connectionString: 'mysql://r@h/d',
      host: '127.0.0.1',
      port: 3306,
      database: 'strapi',
      user: 'root',
      password: undefined,
      schema: undefined,
      ssl: undefined,
      pool: { min: 0, max: 10 },
      pgbouncer: false,
      statementTimeout: 10_000,
    });
    assert.deepEqual((await load({ env: { DATABASE_FILENAME: ':memory:' } })).database, {
      client: 'sqlite',
      filename: ':memory:',
      statementTimeout: 10_000,
    });
    assert.deepEqual((await load({ env: { DATABASE_FILENAME: 'data/x.db' } })).database, {
      client: 'sqlite',
      filename: join(PROJECT, 'data/x.db'),
      statementTimeout: 10_000,
    });
  });

  it('takes config/database as Strapi writes it, over the environment', async () => {
    const database = {
      connection: {
        client: 'pg',
        connection: { host: 'h', port: 1, database: 'd', user: 'x', schema: 'vt' },
        pool: { min: 1, max: 3 },
      },
      settings: { statementTimeout: 0 },
    };
    const config = await load({ env: { DATABASE_HOST: 'ignored' }, overrides: { database } });
    assert.deepEqual(config.database, {
      client: 'postgres',
      connectionString: undefined,
      host: 'h',
      port: 1,
      database: 'd',
      user: 'x',
      password: undefined,
      schema: 'vt',
      ssl: undefined,
      pool: { min: 1, max: 3 },
      pgbouncer: false,
      statementTimeout: 0,
    });
  });

  // docs/deployment.md "Connection pools and PgBouncer"
  it('reads the pool and PgBouncer from config/database or DATABASE_POOL_MIN, DATABASE_POOL_MAX, DATABASE_PGBOUNCER', async () => {
    const database = {
      connection: {
        client: 'postgres',
        connection: { host: 'h', pgbouncer: true },
        pool: { min: 0, max: 4, idleTimeoutMillis: 30_000 },
      },
    };
    const config = await load({ overrides: { database } });
    assert.deepEqual(config.database.client === 'postgres' && [config.database.pool, config.database.pgbouncer], [
      { min: 0, max: 4, idleTimeoutMillis: 30_000 },
      true,
    ]);
    const fromEnv = await load({
      env: { DATABASE_CLIENT: 'postgres', DATABASE_PGBOUNCER: 'true', DATABASE_POOL_MIN: '1', DATABASE_POOL_MAX: '5' },
    });
    assert.deepEqual(fromEnv.database.client === 'postgres' && [fromEnv.database.pool, fromEnv.database.pgbouncer], [
      { min: 1, max: 5 },
      true,
    ]);
    // MySQL has no PgBouncer: the switch is PostgreSQL's only.
    const mysql = await load({ env: { DATABASE_CLIENT: 'mysql', DATABASE_PGBOUNCER: 'true' } });
    assert.equal(mysql.database.client === 'mysql' && mysql.database.pgbouncer, false);
    await assert.rejects(
      load({ overrides: { database: { connection: { client: 'postgres', connection: { pgbouncer: 'yes' } } } } }),
      /"connection.connection.pgbouncer" must be true or false, not "yes"/,
    );
  });

  it('reads HOST and PORT, and the REST limits and cache switch', async () => {
    const config = await load({
      env: { HOST: '127.0.0.1', PORT: '4000' },
      overrides: { api: { rest: { cache: { enabled: false }, maxLimit: '500' } } },
    });
    assert.equal(config.server.host, '127.0.0.1');
    assert.equal(config.server.port, 4000);
    assert.equal(config.api.rest.cache.maxBytes, 0);
    assert.equal(config.api.rest.maxLimit, 500);
  });

  it("reads Strapi 5's server.proxy (koa, ipHeader, maxIpsCount) and Strapi 4's proxy: true", async () => {
    const proxy = async (value: unknown) => (await load({ overrides: { server: { proxy: value } } })).server.proxy;
    assert.deepEqual(await proxy(true), { koa: true, ipHeader: 'x-forwarded-for', maxIpsCount: 0 });
    assert.deepEqual(await proxy(false), { koa: false, ipHeader: 'x-forwarded-for', maxIpsCount: 0 });
    assert.deepEqual(await proxy({ koa: true, ipHeader: 'CF-Connecting-IP', maxIpsCount: '1' }), {
      koa: true,
      ipHeader: 'cf-connecting-ip',
      maxIpsCount: 1,
    });
    // Outgoing proxies (Strapi's proxy.global, proxy.fetch) do not make the client's address trusted.
    assert.deepEqual(await proxy({ global: 'http://proxy:3128' }), {
      koa: false,
      ipHeader: 'x-forwarded-for',
      maxIpsCount: 0,
    });
    await refused(
      { overrides: { server: { proxy: { koa: true, maxIpsCount: -1 } } } },
      'config/server: proxy.maxIpsCount: Too small: expected number to be >=0',
    );
  });

  // docs/security.md "Password hashing"
  it('reads passwords.rounds, a whole number from 4 to 15, and refuses less than 10 in production', async () => {
    const rounds = async (value: unknown, env: NodeJS.ProcessEnv = {}) =>
      (await load({ env, overrides: { server: { passwords: { rounds: value } } } })).server.passwords.rounds;
    assert.equal(await rounds(4), 4);
    assert.equal(await rounds('12'), 12, 'from an environment variable');
    assert.equal(await rounds(12, { NODE_ENV: 'production' }), 12);
    assert.equal(await rounds(undefined, { NODE_ENV: 'production' }), 10);
    for (const value of [3, 16, 10.5, 'ten', true])
      await refused(
        { overrides: { server: { passwords: { rounds: value } } } },
        `config/server: passwords.rounds: must be a whole number from 4 to 15 (bcrypt's cost; 10, Strapi's, by default), not ${JSON.stringify(value)}`,
      );
    await refused(
      { env: { NODE_ENV: 'production' }, overrides: { server: { passwords: { rounds: 4 } } } },
      "config/server: passwords.rounds 4 is too low for production: use 10 or more (Strapi's cost; lower costs are for tests), or leave it out",
    );
  });

  it('adds the default locale to the configured ones', async () => {
    const config = await load({
      overrides: { plugins: { i18n: { config: { defaultLocale: 'fr', locales: ['en', 'de-CH'] } } } },
    });
    assert.deepEqual(config.i18n, { defaultLocale: 'fr', locales: ['fr', 'en', 'de-CH'] });
  });

  it('refuses what it cannot serve, naming the file', async () => {
    await refused(
      { env: { DATABASE_CLIENT: 'oracle' } },
      'DATABASE_CLIENT: unknown database client "oracle": Vellum serves sqlite, postgres and mysql (MariaDB too)',
    );
    await refused(
      { overrides: { api: { rest: { defaultLimit: 200 } } } },
      'config/api: rest.defaultLimit must not exceed rest.maxLimit',
    );
    await refused(
      { overrides: { server: { port: 70000 } } },
      'config/server: port: Too big: expected number to be <=65535',
    );
    await refused(
      { overrides: { plugins: { i18n: { config: { locales: ['english'] } } } } },
      'config/plugins (i18n): locales.0: a locale code such as en or fr-FR',
    );
    await refused(
      { overrides: { server: { webhooks: { defaultHeaders: { 'X-A': 1 } } } } },
      'config/server: webhooks.defaultHeaders.X-A: Invalid input: expected string, received number',
    );
    await refused(
      { overrides: { server: { webhooks: { timeout: -5 } } } },
      'config/server: webhooks.timeout: Too small: expected number to be >0',
    );
    await refused(
      { overrides: { server: { cron: { enabled: 'yes' } } } },
      'config/server: cron.enabled: Invalid input: expected boolean, received string',
    );
  });
});
