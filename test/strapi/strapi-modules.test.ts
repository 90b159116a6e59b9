/**
 * Vellum's `@strapi/utils` errors and the names Strapi gives project files, without a server:
 * `instanceof` holds both ways between the errors project code throws and Vellum's own, HTTP
 * errors are named as the http-errors package names them, files are named as Strapi's loaders do.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as vellum from '../../src/core/errors.js';
import { kebabName } from '../../src/core/project/api-code.js';
import { createHttpError, errors, HttpError } from '../../src/strapi/errors.js';

describe("@strapi/utils errors and Strapi's names", () => {
  it('takes Strapi default messages and renders as the Vellum error of the same kind', () => {
    const cases: [Error, number, string, string][] = [
      [new errors.ApplicationError(), 400, 'ApplicationError', 'An application error occurred'],
      [new errors.NotFoundError(), 404, 'NotFoundError', 'Entity not found'],
      [new errors.ForbiddenError(), 403, 'ForbiddenError', 'Forbidden access'],
      [new errors.UnauthorizedError(), 401, 'UnauthorizedError', 'Unauthorized'],
      [new errors.PolicyError(), 403, 'PolicyError', 'Policy Failed'],
      [new errors.PaginationError(), 400, 'PaginationError', 'Invalid pagination'],
      [new errors.PayloadTooLargeError(), 413, 'PayloadTooLargeError', 'Entity too large'],
      [new errors.NotImplementedError(), 501, 'NotImplementedError', 'This feature is not implemented yet'],
    ];
    for (const [error, status, name, message] of cases) {
      assert.ok(error instanceof vellum.VellumError, name);
      assert.equal((error as vellum.VellumError).status, status, name);
      assert.equal(error.name, name);
      assert.equal(error.message, message);
      assert.deepEqual((error as vellum.VellumError).details, {});
    }
  });

  it('instanceof holds both ways, and every error is an ApplicationError as in Strapi', () => {
    assert.ok(new vellum.ValidationError('from the document service') instanceof errors.ValidationError);
    assert.ok(new vellum.NotFoundError() instanceof errors.NotFoundError);
    assert.ok(new errors.PolicyError() instanceof errors.ForbiddenError);
    assert.ok(new errors.NotFoundError() instanceof errors.ApplicationError);
    assert.ok(
      new vellum.QueryValidationError('bad', { param: 'p', key: 'k', path: null }) instanceof errors.ApplicationError,
    );
    assert.ok(!(new errors.NotFoundError() instanceof errors.ValidationError));
    assert.ok(!(new Error('plain') instanceof errors.ApplicationError));
    // A project's subclass keeps the ordinary rule.
    class Teapot extends errors.ApplicationError {}
    assert.ok(new Teapot('short and stout') instanceof Teapot);
    assert.ok(!(new errors.ApplicationError() instanceof Teapot));
  });

  it('names HTTP errors as http-errors does (ctx.throw)', () => {
    assert.equal(createHttpError(400, 'x').name, 'BadRequestError');
    assert.equal(createHttpError(409).name, 'ConflictError');
    assert.equal(createHttpError(418).name, 'ImATeapotError');
    assert.equal(createHttpError('gone', 410).message, 'gone');
    assert.equal((createHttpError(500) as HttpError).expose, false);
  });

  it('names files as Strapi loads them', () => {
    assert.equal(kebabName('article'), 'article');
    assert.equal(kebabName('page-populate'), 'page-populate');
    assert.equal(kebabName('pagePopulate'), 'page-populate');
    assert.equal(kebabName('page_populate'), 'page-populate');
    assert.equal(kebabName('01-custom'), '01-custom');
  });
});
