/** Assertions on the typed errors of src/core/errors.ts, for the unit tier. */
import assert from 'node:assert/strict';
import { VellumError } from '../../src/core/errors.js';

type ErrorClass = abstract new (...args: never[]) => VellumError;

/**
 * `fn` throws an instance of `cls` whose message matches `message` (a RegExp, or the exact text)
 * and whose details equal `details` when given. Returns the error.
 */
export function throwsVellum<E extends VellumError>(
  fn: () => unknown,
  cls: ErrorClass & (abstract new (...args: never[]) => E),
  message: RegExp | string,
  details?: Record<string, unknown>,
): E {
  let caught: unknown;
  try {
    fn();
  } catch (error) {
    caught = error;
  }
  assert.ok(caught !== undefined, `expected ${cls.name}, nothing was thrown`);
  assert.ok(caught instanceof cls, `expected ${cls.name}, got ${String(caught)}`);
  const error = caught as E;
  if (typeof message === 'string') assert.equal(error.message, message);
  else assert.match(error.message, message);
  if (details !== undefined) assert.deepEqual(error.details, details);
  return error;
}
