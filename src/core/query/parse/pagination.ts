import { PaginationError } from '../../errors.js';
import type { RestConfig } from '../../config/load.js';
import type { Pagination } from '../types.js';
import { asBoolean, asInteger, fail, isPlainObject, type Path } from './common.js';

const KEYS = new Set(['page', 'pageSize', 'start', 'limit', 'withCount']);

/** `pagination` (docs/rest.md "Pagination"): page-based or offset-based, capped at `api.rest.maxLimit`. */
export function parsePagination(value: unknown, rest: RestConfig, path: Path = ['pagination']): Pagination {
  const withCountDefault = rest.withCount;
  if (value === undefined || value === '')
    return { kind: 'page', page: 1, pageSize: rest.defaultLimit, withCount: withCountDefault };
  if (!isPlainObject(value)) fail(path, 'pagination must be an object, e.g. pagination[page]=1');
  for (const key of Object.keys(value)) if (!KEYS.has(key)) fail([...path, key], `Invalid pagination key ${key}`);
  const int = (key: string, min: number): number | undefined => {
    if (value[key] === undefined) return undefined;
    const n = asInteger(value[key]);
    if (n === undefined || n < min) fail([...path, key], `pagination.${key} must be an integer of at least ${min}`);
    return n;
  };
  let withCount = withCountDefault;
  if (value.withCount !== undefined) {
    const flag = asBoolean(value.withCount);
    if (flag === undefined) fail([...path, 'withCount'], 'pagination.withCount must be true or false');
    withCount = flag;
  }
  const pageKeys = value.page !== undefined || value.pageSize !== undefined;
  const offsetKeys = value.start !== undefined || value.limit !== undefined;
  if (pageKeys && offsetKeys) {
    throw new PaginationError(
      'Invalid pagination: page-based (page, pageSize) and offset-based (start, limit) parameters cannot be mixed',
      {
        source: 'query',
        param: 'pagination',
      },
    );
  }
  if (offsetKeys) {
    const start = int('start', 0) ?? 0;
    const limit = int('limit', -1) ?? rest.defaultLimit;
    if (limit === 0) fail([...path, 'limit'], 'pagination.limit must be positive, or -1 for the maximum');
    return { kind: 'offset', start, limit: limit === -1 ? rest.maxLimit : Math.min(limit, rest.maxLimit), withCount };
  }
  const page = int('page', 1) ?? 1;
  const pageSize = int('pageSize', 1) ?? rest.defaultLimit;
  return { kind: 'page', page, pageSize: Math.min(pageSize, rest.maxLimit), withCount };
}
