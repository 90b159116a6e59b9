/**
 * The query-engine parameters of a model Vellum keeps in its own table rather than as documents
 * (the core store, users-permissions' permission rows): which keys are allowed, `select`,
 * `orderBy`, `limit` and `offset`. The adapters differ only in the table's alias and field list.
 */
import { sql, type RawBuilder } from 'kysely';
import { ValidationError } from '../../errors.js';
import { parseSort } from '../../query/parse/sort.js';
import type { SortItem } from '../../query/types.js';
import type { Model, Schema } from '../../schema/model.js';
import type { QueryParams } from './index.js';

const PARAMS = new Set(['where', 'filters', 'select', 'populate', 'orderBy', 'limit', 'offset', 'data']);

export function bad(message: string, key: string): never {
  throw new ValidationError(message, { key });
}

/** Refuses a parameter Strapi's query engine does not have (a typo would otherwise be ignored). */
export function checkParams(params: QueryParams): void {
  for (const key of Object.keys(params)) if (!PARAMS.has(key)) bad(`Invalid query-engine parameter ${key}`, key);
}

/** `limit` or `offset`: absent, or a non-negative safe integer. */
export function boundOf(value: unknown, key: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
    bad(`${key} must be a non-negative integer`, key);
  return value;
}

/** ` limit n offset m` of a statement; an offset alone needs a limit in MySQL's grammar. */
export function pageSql(limit: number | undefined, offset: number | undefined): RawBuilder<unknown> {
  const limitPart =
    limit !== undefined
      ? sql` limit ${sql.lit(limit)}`
      : offset
        ? sql` limit ${sql.lit(Number.MAX_SAFE_INTEGER)}`
        : sql``;
  return sql`${limitPart}${offset ? sql` offset ${sql.lit(offset)}` : sql``}`;
}

/** `select`: undefined for every field, else the names asked for, each one of `names`. */
export function selectOf(params: QueryParams, names: readonly string[]): string[] | undefined {
  const value = params.select;
  if (value === undefined || value === null || value === '*') return undefined;
  const list =
    typeof value === 'string'
      ? [value]
      : Array.isArray(value)
        ? value
        : bad('select must be a field name or a list of them', 'select');
  for (const name of list)
    if (typeof name !== 'string' || !names.includes(name))
      bad(`Invalid key ${String(name)} in select (${names.join(', ')})`, 'select');
  return list as string[];
}

/**
 * `order by` terms over the table aliased `alias`, id last so pages are stable. `check` may refuse
 * an item (a sort through a relation the table has no join for).
 */
export function orderSql(
  schema: Schema,
  model: Model,
  alias: string,
  params: QueryParams,
  check?: (item: SortItem) => void,
): RawBuilder<unknown> {
  const items =
    params.orderBy === undefined || params.orderBy === null
      ? []
      : parseSort(schema, model, params.orderBy, { hidden: true }, ['orderBy']);
  const terms = items.map((item) => {
    check?.(item);
    return sql`${sql.ref(`${alias}.${item.field.column}`)} ${item.direction === 'desc' ? sql`desc` : sql`asc`}`;
  });
  return sql.join([...terms, sql`${sql.ref(`${alias}.id`)} asc`]);
}
