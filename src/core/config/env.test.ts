import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createEnv } from './env.js';

describe("Strapi's env() helper for configuration files", () => {
  const env = createEnv({
    HOST: '127.0.0.1',
    EMPTY: '',
    PORT: '4000',
    RATIO: '0.5',
    ON: 'true',
    ONE: '1',
    OFF: 'no',
    LIST: '[a, "b" ,c]',
    JSON_OK: '{"a":1}',
    JSON_BAD: '{',
    WHEN: '2024-01-02T00:00:00Z',
  });

  it('answers a set variable, even empty, else the fallback', () => {
    assert.equal(env('HOST'), '127.0.0.1');
    assert.equal(env('EMPTY', 'fallback'), '', 'DATABASE_PASSWORD= is the empty password');
    assert.equal(env('MISSING', 'fallback'), 'fallback');
    assert.equal(env('MISSING'), undefined);
    assert.equal(env('hasOwnProperty'), undefined, 'no prototype names');
  });

  it('reads numbers, flags, lists, JSON and dates; an empty value is unset for them', () => {
    assert.equal(env.int('PORT', 1), 4000);
    assert.equal(env.int('EMPTY', 1), 1);
    assert.equal(env.float('RATIO'), 0.5);
    assert.deepEqual(
      [env.bool('ON'), env.bool('ONE'), env.bool('OFF'), env.bool('MISSING', true), env.bool('EMPTY', false)],
      [true, true, false, true, false],
    );
    assert.deepEqual(env.array('LIST'), ['a', 'b', 'c']);
    assert.deepEqual(env.array('MISSING', ['x']), ['x']);
    assert.deepEqual(env.json('JSON_OK'), { a: 1 });
    assert.equal(env.json('MISSING', 3), 3);
    assert.throws(() => env.json('JSON_BAD'), /environment variable JSON_BAD is not valid JSON/);
    assert.equal(env.date('WHEN')?.toISOString(), '2024-01-02T00:00:00.000Z');
  });
});
