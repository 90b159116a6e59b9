import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  ApplicationError,
  NotFoundError,
  PaginationError,
  ProjectError,
  QueryValidationError,
  RateLimitError,
  ValidationError,
  VellumError,
} from './errors.js';

describe('the error registry (src/core/errors.ts)', () => {
  it('gives each instance the status, name and codes of its class', () => {
    const error = new NotFoundError('Not Found');
    assert.ok(error instanceof VellumError && error instanceof Error);
    assert.deepEqual(
      [error.status, error.name, error.code, error.graphqlCode, error.message],
      [404, 'NotFoundError', 'VELLUM_NOT_FOUND', 'STRAPI_NOT_FOUND_ERROR', 'Not Found'],
    );
    assert.deepEqual(error.details, {});
  });

  it('keeps the parent name of a subclass, with its own code', () => {
    const error = new QueryValidationError('Invalid key x', { param: 'filters', key: 'x', path: null });
    assert.ok(error instanceof ValidationError);
    assert.deepEqual(
      [error.status, error.name, error.code, error.graphqlCode],
      [400, 'ValidationError', 'VELLUM_QUERY_VALIDATION', 'BAD_USER_INPUT'],
    );
    assert.deepEqual(error.details, { source: 'query', param: 'filters', key: 'x', path: null });
    assert.equal(
      new QueryValidationError('m', { param: 'p', key: 'k', path: 'a', source: 'body' }).details.source,
      'body',
    );
  });

  it('builds one ValidationError from field errors: the message of one, or their count', () => {
    const one = ValidationError.fromFieldErrors([
      { path: ['title'], message: 'title must be defined.', name: 'ValidationError' },
    ]);
    assert.equal(one.message, 'title must be defined.');
    assert.deepEqual(one.details, {
      errors: [{ path: ['title'], message: 'title must be defined.', name: 'ValidationError' }],
    });
    const two = ValidationError.fromFieldErrors([
      { path: ['a'], message: 'x', name: 'ValidationError' },
      { path: ['b'], message: 'y', name: 'ValidationError' },
    ]);
    assert.equal(two.message, '2 errors occurred');
    assert.equal((two.details.errors as unknown[]).length, 2);
  });

  it('lets ApplicationError keep another 4xx status, and the others their own', () => {
    assert.equal(new ApplicationError('Method Not Allowed', {}, 405).status, 405);
    assert.equal(new ApplicationError('closed').status, 400);
    assert.equal(new PaginationError('bad').name, 'PaginationError');
    assert.equal(new RateLimitError().status, 429);
  });

  it('names the file of a ProjectError in its message', () => {
    const error = new ProjectError('must export an object', 'config/api.js');
    assert.equal(error.message, 'config/api.js: must export an object');
    assert.equal(error.file, 'config/api.js');
    assert.equal(error.name, 'ProjectError');
    assert.equal(new ProjectError('no src/ folder').message, 'no src/ folder');
    assert.equal(error instanceof VellumError, false, 'it stops start-up; no client sees it');
  });
});
