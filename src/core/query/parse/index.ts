/**
 * From a parsed query string to the typed query of ../types.ts, checked against the schema before
 * any SQL exists. Every problem is a 400 naming the parameter and its path.
 */
import type { ContentType, Schema } from '../../schema/model.js';
import type { FindOneQuery, FindQuery, Status } from '../types.js';
import { fail, isPlainObject, type ParseOptions } from './common.js';
import { parseFields } from './fields.js';
import { FilterParser } from './filters.js';
import { parsePagination } from './pagination.js';
import { parsePublication, parseReadLocales, parseSearch } from './read-params.js';
import { PopulateParser } from './populate.js';
import { parseSort } from './sort.js';

export type { ParseOptions } from './common.js';

function parseStatus(value: unknown): Status {
  if (value === undefined || value === '' || value === 'published') return 'published';
  if (value === 'draft') return 'draft';
  return fail(['status'], `Invalid status ${JSON.stringify(value)}: use published or draft`);
}

/** The locale a request reads or writes: the default when omitted; unknown codes are a 400. */
function parseLocale(type: ContentType, value: unknown, i18n: ParseOptions['i18n']): string {
  if (value === undefined || value === '' || value === null) return i18n.defaultLocale;
  if (typeof value !== 'string' || !i18n.locales.includes(value)) {
    if (!type.localized && typeof value === 'string') return i18n.defaultLocale;
    return fail(['locale'], `Unknown locale ${JSON.stringify(value)}; configured locales: ${i18n.locales.join(', ')}`);
  }
  return value;
}

/** What a write answers with, or a GraphQL read of one document: fields, populate, status, locale. */
export function parseFindOneQuery(
  schema: Schema,
  type: ContentType,
  query: Record<string, unknown>,
  options: Omit<ParseOptions, 'rest'>,
): FindOneQuery {
  return {
    fields: parseFields(type, query.fields, ['fields']),
    populate: new PopulateParser(schema, options).parse(type, query.populate, ['populate']),
    status: parseStatus(query.status),
    locale: parseLocale(type, query.locale, options.i18n),
  };
}

/**
 * A read of one document (`GET /api/:plural/:documentId`, a single type): Strapi applies filters,
 * `_q`, sort and the publication cohorts there too, and a document they exclude is not found.
 * `locale=*` names no single locale: a 400 here.
 */
export function parseReadOneQuery(
  schema: Schema,
  type: ContentType,
  query: Record<string, unknown>,
  options: ParseOptions,
): FindOneQuery {
  if (type.localized && query.locale !== undefined && typeof query.locale !== 'string') {
    fail(['locale'], 'A single document is read in one locale: locale must be one code');
  }
  const chosenByFilter = isPlainObject(query.filters) && 'locale' in query.filters;
  if (type.localized && query.locale === '*' && !chosenByFilter) {
    fail(
      ['locale'],
      'A single document is read in one locale: use locale=<code>, or filters[locale] to choose among them',
    );
  }
  return readQuery(schema, type, query, options);
}

function readQuery(
  schema: Schema,
  type: ContentType,
  query: Record<string, unknown>,
  options: ParseOptions,
): Omit<FindQuery, 'pagination'> {
  return {
    fields: parseFields(type, query.fields, ['fields']),
    populate: new PopulateParser(schema, options).parse(type, query.populate, ['populate']),
    status: parseStatus(query.status),
    ...parseReadLocales(type, query.locale, query.filters, options.i18n),
    filters: new FilterParser(schema, options).parse(type, query.filters, ['filters']),
    search: parseSearch(query._q),
    sort: parseSort(schema, type, query.sort, options, ['sort']),
    publication: parsePublication(query.publicationFilter, query.hasPublishedVersion),
  };
}

export function parseFindQuery(
  schema: Schema,
  type: ContentType,
  query: Record<string, unknown>,
  options: ParseOptions,
): FindQuery {
  return {
    ...readQuery(schema, type, query, options),
    pagination: parsePagination(query.pagination, options.rest),
  };
}
