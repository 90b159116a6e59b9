/**
 * Strapi's query-engine parameters (`where`, `select`, `populate`, `orderBy`) in the shapes
 * Vellum's query parser reads (`filters`, `fields`, `populate`, `sort`): the engine and the
 * lifecycle events of document reads share them. `where` is `filters`' syntax already (attribute
 * names, `$and`/`$or`/`$not`, the same operators); a populate node's `select`, `where` and
 * `orderBy` are REST's `fields`, `filters` and `sort`.
 */
import { QueryValidationError } from '../../errors.js';
import { isPlainObject } from '../../objects.js';
import { FilterParser } from '../../query/parse/filters.js';
import { PopulateParser } from '../../query/parse/populate.js';
import { parseSort } from '../../query/parse/sort.js';
import type { FilterNode, PopulateTree, SortItem } from '../../query/types.js';
import type { ContentType, Schema } from '../../schema/model.js';

const NODE_KEYS: Record<string, string> = {
  select: 'fields',
  where: 'filters',
  orderBy: 'sort',
  fields: 'fields',
  filters: 'filters',
  sort: 'sort',
  count: 'count',
};

/** A query-engine populate as REST's `populate` parameter (`true`, `'*'`, names, lists, nested objects). */
export function populateToRest(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(populateToRest);
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (!isPlainObject(inner)) {
      out[key] = inner;
      continue;
    }
    const node: Record<string, unknown> = {};
    for (const [name, part] of Object.entries(inner)) {
      if (name === 'populate') node.populate = populateToRest(part);
      else if (name === 'on' && isPlainObject(part))
        node.on = Object.fromEntries(
          Object.entries(part).map(([uid, sub]) => [
            uid,
            isPlainObject(sub) ? (populateToRest({ x: sub }) as Record<string, unknown>).x : sub,
          ]),
        );
      // limit/offset of a populated relation: Vellum reads every related row (left out).
      else if (name === 'limit' || name === 'offset') continue;
      else node[NODE_KEYS[name] ?? name] = part;
    }
    out[key] = node;
  }
  return out;
}

/** A query-engine read, checked against the schema: nothing of it reaches SQL but bound values and schema names. */
export interface RowQuery {
  filter?: FilterNode;
  /** Fields to answer (scalars, private ones included, and `id`, `documentId`, timestamps, `locale`); undefined: all. */
  select?: string[];
  populate: PopulateTree;
  sort: SortItem[];
  limit?: number;
  offset?: number;
}

const SYSTEM_FIELDS = new Set(['id', 'documentId', 'createdAt', 'updatedAt', 'publishedAt', 'locale']);

const PARAM_KEYS = new Set([
  'where',
  'filters',
  'select',
  'populate',
  'orderBy',
  'limit',
  'offset',
  'data',
  '_q',
  'page',
  'pageSize',
  'lookup',
]);

function bad(param: string, message: string): never {
  throw new QueryValidationError(message, { param, key: param, path: null });
}

/** `select`: a field name or a list of them (scalars, private ones too, and the system fields). */
function parseSelect(type: ContentType, value: unknown): string[] | undefined {
  if (value === undefined || value === null || value === '*') return undefined;
  const list =
    typeof value === 'string'
      ? [value]
      : Array.isArray(value)
        ? value
        : bad('select', 'select must be a field name or a list of field names');
  const names: string[] = [];
  for (const item of list) {
    if (typeof item !== 'string') bad('select', 'select must be a field name or a list of field names');
    if (item === '*') return undefined;
    const attribute = type.attributes[item];
    if (!SYSTEM_FIELDS.has(item) && attribute?.kind !== 'scalar')
      bad(
        'select',
        `Invalid key ${item} in select: a scalar attribute or a system field is expected (populate relations, components and media)`,
      );
    if (!names.includes(item)) names.push(item);
  }
  return names;
}

function parseCount(param: string, value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0) bad(param, `${param} must be a non-negative integer`);
  return n;
}

/**
 * The parameters of a query-engine read (`where`, `select`, `populate`, `orderBy`, `limit`,
 * `offset`) against a content-type. Trusted code: private attributes may be named. An unknown
 * parameter, attribute or operator is a 400 naming it.
 */
export function parseRowQuery(schema: Schema, type: ContentType, params: Record<string, unknown>): RowQuery {
  for (const key of Object.keys(params))
    if (!PARAM_KEYS.has(key))
      bad(key, `Invalid query-engine parameter ${key} (use where, select, populate, orderBy, limit, offset)`);
  const options = { hidden: true };
  const where = params.where ?? params.filters;
  return {
    filter:
      where === undefined || where === null
        ? undefined
        : new FilterParser(schema, options).parse(type, where, ['where']),
    select: parseSelect(type, params.select),
    populate:
      params.populate === undefined || params.populate === null
        ? {}
        : new PopulateParser(schema, options).parse(type, populateToRest(params.populate), ['populate']),
    sort:
      params.orderBy === undefined || params.orderBy === null
        ? []
        : parseSort(schema, type, params.orderBy, options, ['orderBy']),
    limit: parseCount('limit', params.limit),
    offset: parseCount('offset', params.offset),
  };
}
