import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PaginationError, QueryValidationError, ValidationError } from '../../errors.js';
import { checkTopLevelParams } from './top-level.js';
import { throwsVellum } from '../../../../test/helpers/unit-errors.js';

const MIXED = 'Invalid pagination attributes. The page parameters are incorrect and must be in the pagination object';

describe('top-level query parameters (as Strapi 5.54 checks them)', () => {
  it('ignores unknown parameters unless strictParams is set', () => {
    checkTopLevelParams({ foo: '1', filters: {} }, 'find', false);
    throwsVellum(
      () => checkTopLevelParams({ filters: {}, foo: '1' }, 'find', true),
      QueryValidationError,
      'Invalid key foo',
      {
        source: 'query',
        param: 'foo',
        key: 'foo',
        path: null,
      },
    );
    checkTopLevelParams(
      {
        filters: {},
        sort: 'a',
        fields: 'a',
        populate: '*',
        status: 'draft',
        locale: 'en',
        _q: 'x',
        pagination: {},
        publicationFilter: 'modified',
        hasPublishedVersion: 'true',
        count: '1',
        ordering: 'x',
      },
      'find',
      true,
    );
  });

  it('refuses lookup, which Strapi keeps for itself, with empty details', () => {
    for (const action of ['find', 'findOne', 'write'] as const) {
      throwsVellum(
        () => checkTopLevelParams({ lookup: 'x' }, action, false),
        ValidationError,
        "Invalid params: 'lookup'",
        {},
      );
    }
    checkTopLevelParams({ lookup: null }, 'find', false);
  });

  it('refuses top-level page and pageSize on lists; start and limit are ignored there', () => {
    throwsVellum(() => checkTopLevelParams({ page: '1' }, 'find', false), PaginationError, MIXED, {});
    throwsVellum(() => checkTopLevelParams({ pageSize: '1' }, 'find', false), PaginationError, MIXED);
    checkTopLevelParams({ start: 'x', limit: 'y' }, 'find', false);
  });

  it('ignores well-formed pagination on a single document, and refuses malformed', () => {
    checkTopLevelParams({ page: '2', pageSize: '10' }, 'findOne', false);
    checkTopLevelParams({ start: '0', limit: '-1' }, 'findOne', false);
    throwsVellum(() => checkTopLevelParams({ page: '1', limit: '1' }, 'findOne', false), PaginationError, MIXED);
    throwsVellum(
      () => checkTopLevelParams({ page: '0' }, 'findOne', false),
      PaginationError,
      "Invalid 'page' parameter. Expected an integer > 0, received: 0",
    );
    throwsVellum(
      () => checkTopLevelParams({ pageSize: 'x' }, 'findOne', false),
      PaginationError,
      "Invalid 'pageSize' parameter. Expected an integer > 0, received: x",
    );
    throwsVellum(
      () => checkTopLevelParams({ start: '-1' }, 'findOne', false),
      ValidationError,
      'start must be an integer of at least 0',
    );
    throwsVellum(
      () => checkTopLevelParams({ limit: '-2' }, 'findOne', false),
      ValidationError,
      'limit must be a positive integer, or -1',
    );
  });

  it('checks nothing more on writes', () => {
    checkTopLevelParams({ page: 'x', start: '-5' }, 'write', false);
    assert.ok(true);
  });
});
