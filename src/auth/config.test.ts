/** Users-and-permissions settings: the login and registration limits as Strapi's `ratelimit` spells them. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { VellumConfig } from '../config/load.js';
import { ProjectError } from '../errors.js';
import { resolveAuthConfig } from './config.js';

const resolve = (upConfig: Record<string, unknown>) =>
  resolveAuthConfig({ plugins: { 'users-permissions': { config: upConfig } }, admin: {}, environment: 'test' } as unknown as VellumConfig, {});

describe('users-permissions rate limits', () => {
  it("default to Strapi's: 5 in 5 minutes, for logins and registrations alike", () => {
    const config = resolve({});
    assert.deepEqual(config.loginLimit, { enabled: true, max: 5, windowSeconds: 300 });
    assert.deepEqual(config.registerLimit, { enabled: true, max: 5, windowSeconds: 300 });
  });

  it("take koa2-ratelimit's interval: milliseconds or a time object", () => {
    assert.equal(resolve({ ratelimit: { interval: 90_000 } }).loginLimit.windowSeconds, 90);
    assert.equal(resolve({ ratelimit: { interval: { min: 5 } } }).loginLimit.windowSeconds, 300);
    assert.equal(resolve({ ratelimit: { interval: { hour: 1, min: 30 } } }).loginLimit.windowSeconds, 5400);
    assert.equal(resolve({ ratelimit: { interval: { ms: 1 } } }).loginLimit.windowSeconds, 1, 'at least a second');
  });

  it('ratelimit applies to registrations unless register.ratelimit sets them apart; enabled: false turns a limit off', () => {
    const shared = resolve({ ratelimit: { max: 3, interval: { hour: 1 } } });
    assert.deepEqual(shared.registerLimit, { enabled: true, max: 3, windowSeconds: 3600 });
    const apart = resolve({ ratelimit: { max: 3 }, register: { ratelimit: { max: 20, interval: { day: 1 } } } });
    assert.deepEqual(apart.loginLimit, { enabled: true, max: 3, windowSeconds: 300 });
    assert.deepEqual(apart.registerLimit, { enabled: true, max: 20, windowSeconds: 86_400 });
    const off = resolve({ ratelimit: { enabled: false }, register: { ratelimit: { enabled: true } } });
    assert.equal(off.loginLimit.enabled, false);
    assert.equal(off.registerLimit.enabled, true);
    // Other koa2-ratelimit options are accepted and ignored.
    assert.equal(resolve({ ratelimit: { max: 7, prefixKey: 'x', message: 'slow down' } }).loginLimit.max, 7);
  });

  it('refuses what it cannot count, naming the setting', () => {
    const refused = (upConfig: Record<string, unknown>, message: RegExp) =>
      assert.throws(() => resolve(upConfig), (error: unknown) => error instanceof ProjectError && message.test(error.message));
    refused({ ratelimit: { max: 0 } }, /users-permissions\.config\.ratelimit\.max/);
    refused({ ratelimit: { interval: { minutes: 5 } } }, /users-permissions\.config\.ratelimit\.interval/);
    refused({ ratelimit: { interval: { min: 0 } } }, /users-permissions\.config\.ratelimit\.interval/);
    refused({ register: { ratelimit: { max: 'many' } } }, /users-permissions\.config\.register\.ratelimit\.max/);
  });
});
