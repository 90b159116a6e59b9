import { NotFoundError } from '../../errors.js';
import type { ContentType } from '../../schema/model.js';
import type { DocumentContext } from '../context.js';
import { deleteVersionRows, findDocumentRows, writersFor } from './versions-store.js';

/**
 * Deletes every version of a document (all statuses; all locales unless one is named), with its
 * components and links, and removes it from every relation that pointed to it.
 */
export async function deleteDocument(ctx: DocumentContext, type: ContentType, documentId: string, locale: string | null): Promise<void> {
  await ctx.database.db.transaction().execute(async (trx) => {
    const rows = await findDocumentRows(trx, type, documentId, locale);
    if (rows.length === 0) throw new NotFoundError(`No ${type.singularName} with documentId ${documentId}`);
    const writers = writersFor(ctx, trx);
    await deleteVersionRows(writers, type, rows.map((row) => row.id));
    await writers.relations.deleteTargeting(type, documentId, locale);
  });
}
