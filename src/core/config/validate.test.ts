import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { ProjectError } from '../errors.js';
import { deepMerge } from './files.js';
import { parseConfig } from './validate.js';

const schema = z.object({
  port: z.coerce.number().int().max(65535).default(1337),
  rest: z.object({ maxLimit: z.number().positive() }).optional(),
});

describe('configuration sections', () => {
  it('parse with their defaults; an absent section reads as {}', () => {
    assert.deepEqual(parseConfig(schema, undefined, 'config/server'), { port: 1337 });
    assert.deepEqual(parseConfig(schema, { port: '4000' }, 'config/server'), { port: 4000 });
  });

  it('name the file and the path of the first problem', () => {
    assert.throws(
      () => parseConfig(schema, { port: 'x' }, 'config/server'),
      (error: unknown) => {
        assert.ok(error instanceof ProjectError);
        assert.equal(error.file, 'config/server');
        assert.match(error.message, /^config\/server: port: /);
        return true;
      },
    );
    // A regular expression is matched against `${error.name}: ${error.message}`.
    assert.throws(
      () => parseConfig(schema, { rest: { maxLimit: -1 } }, 'config/api', 'api.'),
      /^ProjectError: config\/api: api\.rest\.maxLimit: /,
    );
    assert.throws(() => parseConfig(schema, 'text', 'config/server'), /^ProjectError: config\/server: \(root\): /);
  });

  it('merge an environment file over the base file, objects deeply, everything else replaced', () => {
    assert.deepEqual(
      deepMerge(
        { a: 1, rest: { maxLimit: 10, prefix: '/api' }, list: [1, 2] },
        { b: 2, rest: { maxLimit: 20 }, list: [3] },
      ),
      { a: 1, b: 2, rest: { maxLimit: 20, prefix: '/api' }, list: [3] },
    );
    assert.deepEqual(deepMerge({ rest: { a: 1 } }, { rest: null }), { rest: null });
  });
});
