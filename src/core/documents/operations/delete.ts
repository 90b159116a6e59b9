import { lockDocuments } from '../../database/locks.js';
import { NotFoundError, ValidationError } from '../../errors.js';
import type { ContentType } from '../../schema/model.js';
import type { DocumentAudit } from '../audit.js';
import type { DocumentContext } from '../context.js';
import type { WriteEvents } from '../outbox.js';
import type { RowEvents } from '../row-events.js';
import { lockTargetingOwners } from '../write/relation-locks.js';
import { deleteVersionRows, findDocumentRows, writersFor } from './versions-store.js';

/** Every locale of a document. */
const ALL_LOCALES = null;

/**
 * Which locale a deletion removes, as Strapi 5.54's document service: the default locale when no
 * locale is named (never the others: deleting more is data loss), every locale for `*`; types
 * without i18n ignore `locale`. Unlike Strapi, an unknown locale is a 400 (Strapi deletes nothing
 * and answers 204) and `status=draft` a 400 (Strapi: 500 "Cannot delete a draft document").
 */
export function deletionLocale(
  ctx: DocumentContext,
  type: ContentType,
  locale: unknown,
  status: unknown,
): string | null {
  if (type.draftAndPublish && status === 'draft') {
    throw new ValidationError(
      'A draft cannot be deleted on its own: delete the document, or use the discard-draft action',
      {
        source: 'query',
        param: 'status',
        key: 'status',
        path: 'status',
      },
    );
  }
  if (!type.localized || locale === '*') return ALL_LOCALES;
  return resolveLocale(ctx, locale);
}

/** The locale named in the query of a localized type: the default locale when none, a 400 when unknown. */
function resolveLocale(ctx: DocumentContext, locale: unknown): string {
  if (locale === undefined || locale === null || locale === '') return ctx.i18n.defaultLocale;
  if (typeof locale !== 'string' || !ctx.i18n.locales.includes(locale)) {
    throw new ValidationError(
      `Unknown locale ${JSON.stringify(locale)}; configured locales: ${ctx.i18n.locales.join(', ')}`,
      {
        source: 'query',
        param: 'locale',
        key: 'locale',
        path: 'locale',
      },
    );
  }
  return locale;
}

/**
 * Deletes the versions of a document (all statuses) in one locale, or in every locale
 * (`ALL_LOCALES`), with their components and links, and removes them from every relation that
 * pointed to them.
 */
export async function deleteDocument(
  ctx: DocumentContext,
  type: ContentType,
  documentId: string,
  locale: string | null,
  events?: RowEvents,
  outbox?: WriteEvents,
  audit?: DocumentAudit,
): Promise<void> {
  await ctx.database.write(async (trx) => {
    await lockDocuments(trx, ctx.database.dialect, type.table, [documentId]);
    const rows = await findDocumentRows(trx, type, documentId, locale);
    if (rows.length === 0)
      throw NotFoundError.missing(
        `No ${type.singularName} with documentId ${documentId}${locale ? ` in locale ${locale}` : ''}`,
      );
    const writers = writersFor(ctx, trx, events);
    await outbox?.removing(
      trx,
      'delete',
      rows.map((row) => row.id),
    );
    await deleteVersionRows(
      writers,
      type,
      rows.map((row) => row.id),
    );
    await lockTargetingOwners(trx, ctx.database.dialect, ctx.schema, type, documentId);
    await writers.relations.deleteTargeting(type, documentId, locale);
    await audit?.deleted(trx, documentId, rows);
    await ctx.deletions?.deleted(trx, type, [{ documentId, locale }]);
  });
}
