import type { ContentType } from '../../schema/model.js';
import type { DocumentContext } from '../context.js';

/**
 * The documentId of a single type's document, or undefined before its first write. A single type
 * has one document (in every locale and status): any of its rows names it.
 */
export async function singleDocumentId(ctx: DocumentContext, type: ContentType): Promise<string | undefined> {
  const row = await ctx.database.db.selectFrom(type.table).select('document_id').limit(1).executeTakeFirst();
  return row ? (row.document_id as string) : undefined;
}
