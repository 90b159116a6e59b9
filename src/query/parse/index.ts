/**
 * From a parsed query string to the typed query of ../types.ts, checked against the schema before
 * any SQL exists. Every problem is a 400 naming the parameter and its path.
 */
import type { ContentType, Schema } from '../../schema/model.js';
import type { FindOneQuery, FindQuery, Status } from '../types.js';
import { fail, type ParseOptions } from './common.js';
import { parseFields } from './fields.js';
import { FilterParser } from './filters.js';
import { parsePagination } from './pagination.js';
import { PopulateParser } from './populate.js';
import { parseSort } from './sort.js';

export type { ParseOptions } from './common.js';
export { parseQueryString } from './query-string.js';

export function parseStatus(value: unknown): Status {
  if (value === undefined || value === '' || value === 'published') return 'published';
  if (value === 'draft') return 'draft';
  return fail(['status'], `Invalid status ${JSON.stringify(value)}: use published or draft`);
}

/** The locale a request reads or writes: the default when omitted; unknown codes are a 400. */
export function parseLocale(type: ContentType, value: unknown, i18n: ParseOptions['i18n']): string {
  if (value === undefined || value === '' || value === null) return i18n.defaultLocale;
  if (typeof value !== 'string' || !i18n.locales.includes(value)) {
    if (!type.localized && typeof value === 'string') return i18n.defaultLocale;
    return fail(['locale'], `Unknown locale ${JSON.stringify(value)}; configured locales: ${i18n.locales.join(', ')}`);
  }
  return value;
}

export function parseFindOneQuery(schema: Schema, type: ContentType, query: Record<string, unknown>, options: ParseOptions): FindOneQuery {
  return {
    fields: parseFields(type, query.fields, ['fields']),
    populate: new PopulateParser(schema, options).parse(type, query.populate, ['populate']),
    status: parseStatus(query.status),
    locale: parseLocale(type, query.locale, options.i18n),
  };
}

export function parseFindQuery(schema: Schema, type: ContentType, query: Record<string, unknown>, options: ParseOptions): FindQuery {
  return {
    ...parseFindOneQuery(schema, type, query, options),
    filters: new FilterParser(schema, options).parse(type, query.filters, ['filters']),
    sort: parseSort(schema, type, query.sort, options, ['sort']),
    pagination: parsePagination(query.pagination, options.rest),
  };
}
