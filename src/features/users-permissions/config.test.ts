/** Secrets from the environment and the configuration (weak ones stop a production start-up); the login and registration limits. */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { loadConfig } from '../../core/config/load.js';
import { ProjectError } from '../../core/errors.js';
import { resolveAuthConfig, secretWeakness } from './config.js';

const PROJECT = join('/nonexistent', 'vellum-unit-project');
const STRONG = 'Zq3vN8pXr2LkW5tYb7HcJ0mD4sFgA9eU';

async function resolve(env: Record<string, string>, overrides: Record<string, unknown> = {}) {
  const config = await loadConfig(PROJECT, { env, overrides });
  return resolveAuthConfig(config, env);
}

const refused = (promise: Promise<unknown>, pattern: RegExp) =>
  assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof ProjectError, String(error));
    assert.match(error.message, pattern);
    assert.match(error.message, /openssl rand -base64 32/);
    return true;
  });

describe('secrets', () => {
  it('a secret needs 16 characters, 8 of them different, and is no placeholder', () => {
    assert.match(secretWeakness('a')!, /1 character$/);
    assert.match(secretWeakness('abcdefghijklmno')!, /15 characters/);
    assert.match(secretWeakness('abababababababababab')!, /fewer than 8 different/);
    assert.match(secretWeakness('tobemodified-tobemodified')!, /placeholder/);
    assert.equal(secretWeakness(STRONG), undefined);
    assert.equal(secretWeakness('0123456789abcdef'), undefined);
  });

  for (const name of ['JWT_SECRET', 'ADMIN_JWT_SECRET', 'API_TOKEN_SALT']) {
    it(`a weak ${name} stops a production start-up, naming the variable`, async () => {
      await refused(
        resolve({ NODE_ENV: 'production', JWT_SECRET: STRONG, [name]: 'x' }),
        new RegExp(`^${name} is too weak: it has 1 character;`),
      );
      await refused(
        resolve({ NODE_ENV: 'production', JWT_SECRET: STRONG, [name]: 'aaaaaaaaaaaaaaaaaaaaaaaa' }),
        new RegExp(`^${name} is too weak`),
      );
    });

    it(`a weak ${name} is a warning outside production`, async () => {
      const config = await resolve({ NODE_ENV: 'development', [name]: 'x' });
      assert.equal(config.warnings.length, 1);
      assert.match(
        config.warnings[0]!,
        new RegExp(`^${name} is weak: it has 1 character; accepted outside production`),
      );
    });
  }

  it('secrets of the configuration files are checked alike, naming the setting and its file', async () => {
    const production = { NODE_ENV: 'production', JWT_SECRET: STRONG };
    await refused(
      resolve(production, { plugins: { 'users-permissions': { config: { jwtSecret: 'short' } } } }),
      /^config\/plugins: users-permissions\.config\.jwtSecret is too weak/,
    );
    await refused(
      resolve(production, { admin: { auth: { secret: 'short' } } }),
      /^config\/admin: auth\.secret is too weak/,
    );
    await refused(
      resolve(production, { admin: { apiToken: { salt: 'short' } } }),
      /^config\/admin: apiToken\.salt is too weak/,
    );
  });

  it('strong secrets start; an empty variable is no secret (generated outside production, required in it)', async () => {
    const config = await resolve({
      NODE_ENV: 'production',
      JWT_SECRET: STRONG,
      ADMIN_JWT_SECRET: `${STRONG}1`,
      API_TOKEN_SALT: `${STRONG}2`,
    });
    assert.deepEqual(
      [config.jwtSecret, config.adminJwtSecret, config.apiTokenSalt, config.warnings],
      [STRONG, `${STRONG}1`, `${STRONG}2`, []],
    );
    assert.equal((await resolve({ JWT_SECRET: '' })).jwtSecret, undefined);
    await refused(resolve({ NODE_ENV: 'production', JWT_SECRET: '' }), /JWT_SECRET .*is required in production/);
  });
});

/** The users-permissions settings `upConfig` gives, outside production. */
const withPlugin = (upConfig: Record<string, unknown>) =>
  resolve({}, { plugins: { 'users-permissions': { config: upConfig } } });

describe('users-permissions rate limits', () => {
  it("default to Strapi 5.54's plugin default: 10 in 60 s, for logins and registrations alike, counted as Strapi counts", async () => {
    const config = await withPlugin({});
    assert.equal(config.perAccount, false);
    assert.deepEqual(config.loginLimit, { enabled: true, max: 10, windowSeconds: 60 });
    assert.deepEqual(config.registerLimit, { enabled: true, max: 10, windowSeconds: 60 });
    assert.deepEqual(config.adminLoginLimit, { enabled: true, max: 5, windowSeconds: 300 });
  });

  it("perAccount: Vellum's stricter counting, 5 in 5 minutes unless max and interval say otherwise", async () => {
    const config = await withPlugin({ ratelimit: { perAccount: true } });
    assert.equal(config.perAccount, true);
    assert.deepEqual(config.loginLimit, { enabled: true, max: 5, windowSeconds: 300 });
    assert.deepEqual(config.registerLimit, { enabled: true, max: 5, windowSeconds: 300 });
    assert.equal((await withPlugin({ ratelimit: { perAccount: true, max: 3 } })).loginLimit.max, 3);
  });

  it("take koa2-ratelimit's interval: milliseconds or a time object", async () => {
    assert.equal((await withPlugin({ ratelimit: { interval: 90_000 } })).loginLimit.windowSeconds, 90);
    assert.equal((await withPlugin({ ratelimit: { interval: { min: 5 } } })).loginLimit.windowSeconds, 300);
    assert.equal((await withPlugin({ ratelimit: { interval: { hour: 1, min: 30 } } })).loginLimit.windowSeconds, 5400);
    assert.equal(
      (await withPlugin({ ratelimit: { interval: { ms: 1 } } })).loginLimit.windowSeconds,
      1,
      'at least a second',
    );
  });

  it('ratelimit applies to registrations unless register.ratelimit sets them apart; enabled: false turns a limit off', async () => {
    const shared = await withPlugin({ ratelimit: { max: 3, interval: { hour: 1 } } });
    assert.deepEqual(shared.registerLimit, { enabled: true, max: 3, windowSeconds: 3600 });
    const apart = await withPlugin({
      ratelimit: { max: 3 },
      register: { ratelimit: { max: 20, interval: { day: 1 } } },
    });
    assert.deepEqual(apart.loginLimit, { enabled: true, max: 3, windowSeconds: 60 });
    assert.deepEqual(apart.registerLimit, { enabled: true, max: 20, windowSeconds: 86_400 });
    const off = await withPlugin({ ratelimit: { enabled: false }, register: { ratelimit: { enabled: true } } });
    assert.equal(off.loginLimit.enabled, false);
    assert.equal(off.registerLimit.enabled, true);
    // Other koa2-ratelimit options are accepted and ignored.
    assert.equal((await withPlugin({ ratelimit: { max: 7, prefixKey: 'x', message: 'slow down' } })).loginLimit.max, 7);
  });

  it('refuses what it cannot count, naming the setting', async () => {
    const refusedLimit = (upConfig: Record<string, unknown>, message: RegExp) =>
      assert.rejects(
        withPlugin(upConfig),
        (error: unknown) => error instanceof ProjectError && message.test(error.message),
      );
    await refusedLimit({ ratelimit: { max: 0 } }, /users-permissions\.config\.ratelimit\.max/);
    await refusedLimit({ ratelimit: { interval: { minutes: 5 } } }, /users-permissions\.config\.ratelimit\.interval/);
    await refusedLimit({ ratelimit: { interval: { min: 0 } } }, /users-permissions\.config\.ratelimit\.interval/);
    await refusedLimit(
      { register: { ratelimit: { max: 'many' } } },
      /users-permissions\.config\.register\.ratelimit\.max/,
    );
  });
});
