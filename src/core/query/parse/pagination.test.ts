import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PaginationError, QueryValidationError } from '../../errors.js';
import { parsePagination } from './pagination.js';
import { throwsVellum } from '../../../../test/helpers/unit-errors.js';
import { REST } from '../../../../test/helpers/unit-schema.js';

const page = (value: unknown, rest = REST) => parsePagination(value, rest);
const refused = (value: unknown, message: string, key: string) =>
  throwsVellum(() => page(value), QueryValidationError, message, {
    source: 'query',
    param: 'pagination',
    key,
    path: null,
  });

describe('pagination (docs/rest.md "Pagination")', () => {
  it('defaults to the first page of api.rest.defaultLimit, counted', () => {
    assert.deepEqual(page(undefined), { kind: 'page', page: 1, pageSize: 25, withCount: true });
    assert.deepEqual(page(''), { kind: 'page', page: 1, pageSize: 25, withCount: true });
    assert.deepEqual(page(undefined, { ...REST, defaultLimit: 10, withCount: false }), {
      kind: 'page',
      page: 1,
      pageSize: 10,
      withCount: false,
    });
  });

  it('reads pages, as numbers or digits', () => {
    assert.deepEqual(page({ page: '3', pageSize: '10' }), { kind: 'page', page: 3, pageSize: 10, withCount: true });
    assert.deepEqual(page({ page: 2 }), { kind: 'page', page: 2, pageSize: 25, withCount: true });
    assert.deepEqual(page({ pageSize: ' 7 ' }), { kind: 'page', page: 1, pageSize: 7, withCount: true });
  });

  it('reads offsets; limit -1 is the maximum', () => {
    assert.deepEqual(page({ start: '5', limit: '10' }), { kind: 'offset', start: 5, limit: 10, withCount: true });
    assert.deepEqual(page({ start: '0' }), { kind: 'offset', start: 0, limit: 25, withCount: true });
    assert.deepEqual(page({ limit: '-1' }), { kind: 'offset', start: 0, limit: 100, withCount: true });
  });

  it('caps pageSize and limit at api.rest.maxLimit', () => {
    assert.equal((page({ pageSize: '1000' }) as { pageSize: number }).pageSize, 100);
    assert.equal((page({ limit: '1000' }) as { limit: number }).limit, 100);
    assert.equal((page({ limit: '1000' }, { ...REST, maxLimit: 500 }) as { limit: number }).limit, 500);
  });

  it('reads withCount as a flag', () => {
    assert.equal(page({ withCount: 'false' }).withCount, false);
    assert.equal(page({ withCount: 'f' }).withCount, false);
    assert.equal(page({ page: '1', withCount: '1' }).withCount, true);
    refused({ withCount: 'maybe' }, 'pagination.withCount must be true or false', 'withCount');
  });

  it('refuses numbers out of range, unknown keys and shapes', () => {
    refused({ page: '0' }, 'pagination.page must be an integer of at least 1', 'page');
    refused({ page: '1.5' }, 'pagination.page must be an integer of at least 1', 'page');
    refused({ pageSize: 'ten' }, 'pagination.pageSize must be an integer of at least 1', 'pageSize');
    refused({ start: '-1' }, 'pagination.start must be an integer of at least 0', 'start');
    refused({ limit: '-2' }, 'pagination.limit must be an integer of at least -1', 'limit');
    refused({ limit: '0' }, 'pagination.limit must be positive, or -1 for the maximum', 'limit');
    refused({ limit: '99999999999999999' }, 'pagination.limit must be an integer of at least -1', 'limit');
    refused({ size: '1' }, 'Invalid pagination key size', 'size');
    refused('3', 'pagination must be an object, e.g. pagination[page]=1', 'pagination');
  });

  it('refuses page and offset keys together, with a PaginationError', () => {
    throwsVellum(
      () => page({ page: '1', limit: '5' }),
      PaginationError,
      'Invalid pagination: page-based (page, pageSize) and offset-based (start, limit) parameters cannot be mixed',
      { source: 'query', param: 'pagination' },
    );
  });
});
