/** Secrets from the environment and the configuration: weak ones stop a production start-up. */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { loadConfig } from '../config/load.js';
import { ProjectError } from '../errors.js';
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
      await refused(resolve({ NODE_ENV: 'production', JWT_SECRET: STRONG, [name]: 'x' }), new RegExp(`^${name} is too weak: it has 1 character;`));
      await refused(resolve({ NODE_ENV: 'production', JWT_SECRET: STRONG, [name]: 'aaaaaaaaaaaaaaaaaaaaaaaa' }), new RegExp(`^${name} is too weak`));
    });

    it(`a weak ${name} is a warning outside production`, async () => {
      const config = await resolve({ NODE_ENV: 'development', [name]: 'x' });
      assert.equal(config.warnings.length, 1);
      assert.match(config.warnings[0]!, new RegExp(`^${name} is weak: it has 1 character; accepted outside production`));
    });
  }

  it('secrets of the configuration files are checked alike, naming the setting and its file', async () => {
    const production = { NODE_ENV: 'production', JWT_SECRET: STRONG };
    await refused(resolve(production, { plugins: { 'users-permissions': { config: { jwtSecret: 'short' } } } }), /^config\/plugins: users-permissions\.config\.jwtSecret is too weak/);
    await refused(resolve(production, { admin: { auth: { secret: 'short' } } }), /^config\/admin: auth\.secret is too weak/);
    await refused(resolve(production, { admin: { apiToken: { salt: 'short' } } }), /^config\/admin: apiToken\.salt is too weak/);
  });

  it('strong secrets start; an empty variable is no secret (generated outside production, required in it)', async () => {
    const config = await resolve({ NODE_ENV: 'production', JWT_SECRET: STRONG, ADMIN_JWT_SECRET: `${STRONG}1`, API_TOKEN_SALT: `${STRONG}2` });
    assert.deepEqual([config.jwtSecret, config.adminJwtSecret, config.apiTokenSalt, config.warnings], [STRONG, `${STRONG}1`, `${STRONG}2`, []]);
    assert.equal((await resolve({ JWT_SECRET: '' })).jwtSecret, undefined);
    await refused(resolve({ NODE_ENV: 'production', JWT_SECRET: '' }), /JWT_SECRET .*is required in production/);
  });
});
