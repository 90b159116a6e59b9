/**
 * The parameters of reads beside filters, sort, fields, populate and pagination: the locales the
 * documents are read in, `_q`, and Strapi 5.54's publication cohorts (`publicationFilter`, and
 * the older `hasPublishedVersion`).
 */
import { ValidationError } from '../../errors.js';
import type { ContentType } from '../../schema/model.js';
import { PUBLICATION_FILTERS, type FindOneQuery, type PublicationFilter } from '../types.js';
import { asList, fail, isPlainObject, type ParseOptions } from './common.js';

/**
 * `locale` of a read: `*` reads every locale, a list (`locale[0]=en&locale[1]=fr`) several; a
 * `locale` key at the top of `filters` replaces the lookup (Strapi merges the two, filters last).
 * Types without i18n ignore it all, as in Strapi.
 */
export function parseReadLocales(
  type: ContentType,
  value: unknown,
  filters: unknown,
  i18n: ParseOptions['i18n'],
): Pick<FindOneQuery, 'locale' | 'locales'> {
  if (!type.localized) return { locale: i18n.defaultLocale };
  const known = (code: unknown, path: (string | number)[]): string => {
    if (typeof code !== 'string' || !i18n.locales.includes(code)) {
      fail(
        path,
        `Unknown locale ${JSON.stringify(code)}; configured locales: ${i18n.locales.join(', ')} (or * for every locale)`,
      );
    }
    return code;
  };
  const filtered = isPlainObject(filters) && 'locale' in filters;
  if (value === '*') return { locale: i18n.defaultLocale, locales: '*' };
  const list = typeof value === 'string' ? undefined : asList(value);
  if (list) {
    const locales = list.map((code, i) => known(code, ['locale', i]));
    if (locales.length === 0) return { locale: i18n.defaultLocale, ...(filtered ? { locales: '*' } : {}) };
    return { locale: locales[0]!, locales: filtered ? '*' : locales };
  }
  const locale = value === undefined || value === '' || value === null ? i18n.defaultLocale : known(value, ['locale']);
  return filtered ? { locale, locales: '*' } : { locale };
}

/** `_q`: undefined when absent or empty (an empty search matches every document). */
export function parseSearch(value: unknown): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') fail(['_q'], '_q must be a text, e.g. _q=hello');
  return value;
}

/** `publicationFilter`, or the older `hasPublishedVersion=true|false` when it is absent. */
export function parsePublication(
  publicationFilter: unknown,
  hasPublishedVersion: unknown,
): PublicationFilter | undefined {
  if (publicationFilter !== undefined && publicationFilter !== null) {
    if (
      typeof publicationFilter !== 'string' ||
      !(PUBLICATION_FILTERS as readonly string[]).includes(publicationFilter)
    ) {
      throw new ValidationError(
        `Invalid value for 'publicationFilter'. Expected one of: ${PUBLICATION_FILTERS.join(', ')}.`,
        { source: 'query', param: 'publicationFilter' },
      );
    }
    return publicationFilter as PublicationFilter;
  }
  if (hasPublishedVersion === undefined || hasPublishedVersion === null) return undefined;
  if (hasPublishedVersion === true || hasPublishedVersion === 'true') return 'has-published-version-document';
  if (hasPublishedVersion === false || hasPublishedVersion === 'false') return 'never-published-document';
  // Strapi's details are empty here.
  throw new ValidationError("Invalid value for 'hasPublishedVersion'. Expected boolean or 'true'/'false' string.");
}
