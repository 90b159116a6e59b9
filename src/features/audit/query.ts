/**
 * The list's parameters, as Strapi's admin API takes them (`page`, `pageSize` up to 100, `sort` one
 * of `date:DESC|ASC`, `action:ASC|DESC`, and `filters` in its query syntax, `$and` of conditions as
 * its panel sends them), plus Vellum's `cursor` (the next page after a given entry, from the
 * previous answer's `pagination.next`). Anything else is a 400 naming the parameter and the problem.
 *
 * Filters: `action`, `user` (`user[id][$eq]=1`, or `user[$eq]=1`), `date`, `contentType` (or
 * `uid`), `documentId`, `locale`. Text and ids take `$eq`, `$ne`, `$in`, `$notIn` (a bare value
 * is `$eq`); `date` takes `$gt`, `$gte`, `$lt`, `$lte` with an ISO 8601 date or milliseconds.
 */
import { QueryValidationError } from '../../core/errors.js';
import { isPlainObject } from '../../core/objects.js';

/** The filterable fields and their columns. */
const FILTER_COLUMNS = {
  action: 'action',
  user: 'actor_id',
  contentType: 'content_type',
  documentId: 'document_id',
  locale: 'locale',
  date: 'created_at',
} as const;

export type FilterField = keyof typeof FILTER_COLUMNS;

export type Condition =
  | { field: 'action' | 'contentType' | 'documentId' | 'locale'; op: 'eq' | 'ne'; value: string }
  | { field: 'action' | 'contentType' | 'documentId' | 'locale'; op: 'in' | 'notIn'; value: string[] }
  | { field: 'user'; op: 'eq' | 'ne'; value: number }
  | { field: 'user'; op: 'in' | 'notIn'; value: number[] }
  | { field: 'date'; op: 'gt' | 'gte' | 'lt' | 'lte'; value: number };

const SORTS = ['date:DESC', 'date:ASC', 'action:ASC', 'action:DESC'] as const;
export type AuditSort = (typeof SORTS)[number];

/** After (for date sorts) this entry: its time and id. */
export interface Cursor {
  at: number;
  id: number;
}

export interface AuditQuery {
  conditions: Condition[];
  sort: AuditSort;
  pageSize: number;
  /** Offset paging (Strapi's): the page, from 1. */
  page: number;
  /** Keyset paging: the entries after this one (in the sort's order); `page` is then 1. */
  cursor?: Cursor;
}

/**
 * Offset pages reach this many entries of a list, and its total counts up to this many: each page
 * then costs at most this many index entries, however many rows match (millions). Past it, the
 * `cursor` of the previous page goes on, as deep as the log goes, at the cost of one page.
 */
export const COUNT_CAP = 10_000;

const DEFAULT_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 100;
/** Values of one `$in` or `$notIn`. */
const MAX_LIST = 100;

const PARAMS = new Set(['page', 'pageSize', 'sort', 'filters', 'cursor']);
const TEXT_OPERATORS = { $eq: 'eq', $ne: 'ne', $in: 'in', $notIn: 'notIn' } as const;
const DATE_OPERATORS = { $gt: 'gt', $gte: 'gte', $lt: 'lt', $lte: 'lte' } as const;

const fail = (message: string, param: string, path: string | null = null, key = param): never => {
  throw new QueryValidationError(message, { param, key, path });
};

/** A positive integer parameter (its text, as a query string gives it), within `max`. */
function positiveInteger(value: unknown, name: string, max = Number.MAX_SAFE_INTEGER): number {
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text !== 'string' || !/^\d{1,15}$/.test(text) || Number(text) < 1 || Number(text) > max)
    fail(`${name} must be an integer from 1${max < Number.MAX_SAFE_INTEGER ? ` to ${max}` : ''}`, name);
  return Number(text);
}

/** `date:DESC` and its spellings (`date:desc`, `date` for ascending). */
function parseSort(value: unknown): AuditSort {
  if (value === undefined || value === '') return 'date:DESC';
  if (typeof value === 'string') {
    const [field, direction = 'ASC'] = value.split(':');
    const sort = `${field}:${direction.toUpperCase()}`;
    if ((SORTS as readonly string[]).includes(sort)) return sort as AuditSort;
  }
  return fail(`sort must be one of ${SORTS.join(', ')}`, 'sort');
}

/** `<milliseconds>_<id>`, as `pagination.next` gives it. */
export const formatCursor = (cursor: Cursor): string => `${cursor.at}_${cursor.id}`;

function parseCursor(value: unknown): Cursor {
  const match = typeof value === 'string' ? /^(\d{1,15})_(\d{1,15})$/.exec(value) : null;
  if (!match) return fail('cursor must be the pagination.next of an earlier answer', 'cursor');
  return { at: Number(match[1]), id: Number(match[2]) };
}

/** A date as milliseconds: ISO 8601 text, or milliseconds since 1970. */
function parseDate(value: unknown, path: string): number {
  if (typeof value === 'string' && /^\d{1,15}$/.test(value)) return Number(value);
  const ms = typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value) ? Date.parse(value) : NaN;
  if (Number.isNaN(ms))
    fail(`${path} must be a date (ISO 8601, such as 2025-01-31T00:00:00Z) or milliseconds`, 'filters', path, 'date');
  return ms;
}

/** One value or a list (`$in`): qs gives an array, or an object of indexes past 20 items. */
function listOf(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (isPlainObject(value)) return Object.values(value);
  return [value];
}

function textValue(value: unknown, path: string, field: string): string {
  if (typeof value !== 'string' || value === '') fail(`${path} must be a non-empty text`, 'filters', path, field);
  return value as string;
}

function idValue(value: unknown, path: string): number {
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text !== 'string' || !/^\d{1,15}$/.test(text))
    fail(`${path} must be an administrator's id (an integer)`, 'filters', path, 'user');
  return Number(text);
}

/** The operators of one field: `{ $eq: ... }`, or a bare value (`$eq`). */
function operatorsOf(value: unknown): Record<string, unknown> {
  return isPlainObject(value) ? value : { $eq: value };
}

function parseField(field: string, value: unknown, path: string, into: Condition[]): void {
  if (!(field in FILTER_COLUMNS))
    fail(
      `${path}: audit logs are filtered by ${Object.keys(FILTER_COLUMNS).join(', ')}, not ${field}`,
      'filters',
      path,
      field,
    );
  if (field === 'date') {
    for (const [operator, operand] of Object.entries(operatorsOf(value))) {
      const op = DATE_OPERATORS[operator as keyof typeof DATE_OPERATORS];
      if (!op)
        fail(
          `${path}.${operator}: a date takes ${Object.keys(DATE_OPERATORS).join(', ')}`,
          'filters',
          `${path}.${operator}`,
          field,
        );
      into.push({ field: 'date', op, value: parseDate(operand, `${path}.${operator}`) });
    }
    return;
  }
  let operators = operatorsOf(value);
  // `user[id][$eq]=1`, as Strapi's panel filters a relation by its id.
  if (field === 'user' && isPlainObject(value) && Object.keys(value).length === 1 && 'id' in value) {
    operators = operatorsOf(value.id);
    path = `${path}.id`;
  }
  for (const [operator, operand] of Object.entries(operators)) {
    const op = TEXT_OPERATORS[operator as keyof typeof TEXT_OPERATORS];
    const at = `${path}.${operator}`;
    if (!op) fail(`${at}: ${field} takes ${Object.keys(TEXT_OPERATORS).join(', ')}`, 'filters', at, field);
    const list = op === 'in' || op === 'notIn';
    const values = list ? listOf(operand) : [operand];
    if (list && (values.length === 0 || values.length > MAX_LIST))
      fail(`${at} takes 1 to ${MAX_LIST} values`, 'filters', at, field);
    if (field === 'user') {
      const ids = values.map((item) => idValue(item, at));
      into.push(
        list ? { field, op: op as 'in' | 'notIn', value: ids } : { field, op: op as 'eq' | 'ne', value: ids[0]! },
      );
    } else {
      const texts = values.map((item) => textValue(item, at, field));
      const named = field as 'action' | 'contentType' | 'documentId' | 'locale';
      into.push(
        list
          ? { field: named, op: op as 'in' | 'notIn', value: texts }
          : { field: named, op: op as 'eq' | 'ne', value: texts[0]! },
      );
    }
  }
}

/** `filters`: fields, and `$and` of such objects (nested too). */
function parseFilters(value: unknown, path: string, into: Condition[]): void {
  if (!isPlainObject(value))
    fail(`${path} must be an object of conditions, such as filters[action][$eq]=entry.update`, 'filters', path);
  for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
    if (key === '$and') {
      const items = listOf(inner);
      items.forEach((item, index) => parseFilters(item, `${path}.$and.${index}`, into));
    } else if (key.startsWith('$')) {
      fail(`${path}.${key}: audit log filters combine conditions with $and only`, 'filters', `${path}.${key}`, key);
    } else parseField(key, inner, `${path}.${key}`, into);
  }
}

/** The list's query string, checked. */
export function parseAuditQuery(raw: Record<string, unknown>): AuditQuery {
  for (const key of Object.keys(raw))
    if (!PARAMS.has(key)) fail(`Unknown parameter ${key}: the audit log takes ${[...PARAMS].join(', ')}`, key);
  const conditions: Condition[] = [];
  if (raw.filters !== undefined && raw.filters !== '') parseFilters(raw.filters, 'filters', conditions);
  const sort = parseSort(raw.sort);
  const pageSize =
    raw.pageSize === undefined ? DEFAULT_PAGE_SIZE : positiveInteger(raw.pageSize, 'pageSize', MAX_PAGE_SIZE);
  if (raw.cursor !== undefined) {
    if (raw.page !== undefined)
      fail('cursor and page cannot be combined: a cursor names where the page starts', 'cursor');
    if (!sort.startsWith('date')) fail('cursor pages are sorted by date (date:DESC or date:ASC)', 'cursor');
    return { conditions, sort, pageSize, page: 1, cursor: parseCursor(raw.cursor) };
  }
  const page = raw.page === undefined ? 1 : positiveInteger(raw.page, 'page');
  if ((page - 1) * pageSize >= COUNT_CAP)
    fail(
      `page ${page} starts past the first ${COUNT_CAP} entries: narrow the filters (a date range), or page on with cursor (pagination.next)`,
      'page',
    );
  return { conditions, sort, pageSize, page };
}
