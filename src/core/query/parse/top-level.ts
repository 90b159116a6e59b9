/**
 * The top-level query parameters of the REST content API, checked as Strapi 5.54 checks them
 * before a read or write: those it refuses are refused the same way (never silently ignored), and
 * with `api.rest.strictParams` every parameter it does not know is a 400.
 */
import { PaginationError, ValidationError } from '../../errors.js';
import { asInteger, fail } from './common.js';

/** What Strapi's content API knows (`ALLOWED_QUERY_PARAM_KEYS`); others are ignored unless strict. */
const KNOWN_PARAMS = new Set([
  'filters',
  'sort',
  'fields',
  'populate',
  'status',
  'locale',
  'page',
  'pageSize',
  'start',
  'limit',
  '_q',
  'publicationFilter',
  'hasPublishedVersion',
  'pagination',
  'count',
  'ordering',
]);

export type Action = 'find' | 'findOne' | 'write';

const MIXED = 'Invalid pagination attributes. The page parameters are incorrect and must be in the pagination object';
const present = (value: unknown) => value !== undefined && value !== null;

/** Error details are Strapi's: none for these, `{ key, path, source, param }` for strict ones. */
export function checkTopLevelParams(query: Record<string, unknown>, action: Action, strict: boolean): void {
  if (strict) {
    for (const key of Object.keys(query)) if (!KNOWN_PARAMS.has(key)) fail([key], `Invalid key ${key}`);
  }
  // Strapi keeps `lookup` for itself.
  if (present(query.lookup)) throw new ValidationError("Invalid params: 'lookup'");
  if (action === 'write') return;
  const pageKeys = present(query.page) || present(query.pageSize);
  if (action === 'find') {
    // Pagination of a list goes in `pagination`: a top-level page or pageSize meets the list's own
    // start and limit, which Strapi refuses; a top-level start or limit is replaced by them.
    if (pageKeys) throw new PaginationError(MIXED);
    return;
  }
  // A single document ignores pagination, once it is well formed.
  if (pageKeys && (present(query.start) || present(query.limit))) throw new PaginationError(MIXED);
  for (const key of ['page', 'pageSize'] as const) {
    if (!present(query[key])) continue;
    const n = asInteger(query[key]);
    if (n === undefined || n <= 0)
      throw new PaginationError(`Invalid '${key}' parameter. Expected an integer > 0, received: ${String(query[key])}`);
  }
  if (present(query.start)) {
    const n = asInteger(query.start);
    if (n === undefined || n < 0) throw new ValidationError('start must be an integer of at least 0');
  }
  if (present(query.limit)) {
    const n = asInteger(query.limit);
    if (n === undefined || n < -1) throw new ValidationError('limit must be a positive integer, or -1');
  }
}
