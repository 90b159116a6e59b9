import { ValidationError } from '../errors.js';
import type { ContentType } from '../schema/model.js';
import type { Status } from '../query/types.js';
import type { DocumentContext } from './context.js';

export type { VersionScope } from '../query/sql/scope.js';

/**
 * A document is stored as one row per version: per locale, a draft row (published_at null) and,
 * once published, a published row. Types without draft and publish keep one row per locale, always
 * published; types without i18n keep locale null.
 */
export function resolveLocale(ctx: DocumentContext, type: ContentType, locale: unknown, source: 'query' | 'body' = 'query'): string | null {
  if (!type.localized) return null;
  if (locale === undefined || locale === null || locale === '') return ctx.i18n.defaultLocale;
  if (typeof locale !== 'string' || !ctx.i18n.locales.includes(locale)) {
    throw new ValidationError(`Unknown locale ${JSON.stringify(locale)}; configured locales: ${ctx.i18n.locales.join(', ')}`, {
      source,
      param: 'locale',
      key: 'locale',
      path: 'locale',
    });
  }
  return locale;
}

export function resolveStatus(status: unknown): Status {
  if (status === undefined || status === null || status === '' || status === 'published') return 'published';
  if (status === 'draft') return 'draft';
  throw new ValidationError(`Invalid status ${JSON.stringify(status)}: use published or draft`, {
    source: 'query',
    param: 'status',
    key: 'status',
    path: 'status',
  });
}

