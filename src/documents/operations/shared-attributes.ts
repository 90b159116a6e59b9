import type { Db } from '../../database/dialect.js';
import type { ContentType } from '../../schema/model.js';
import type { Status } from '../../query/types.js';

/** Columns of the attributes a localized type shares between its locales (`localized: false`). */
export const sharedColumns = (type: ContentType): string[] =>
  type.localized ? type.scalars.filter((a) => !a.localized).map((a) => a.column) : [];

/**
 * Copies the shared attributes just written in one locale to the document's other locales: their
 * drafts always, their published versions too when the write published.
 */
export async function syncSharedAttributes(db: Db, type: ContentType, documentId: string, locale: string | null, values: Record<string, unknown>, status: Status): Promise<void> {
  const columns = sharedColumns(type).filter((column) => column in values);
  if (columns.length === 0 || locale === null) return;
  let query = db
    .updateTable(type.table)
    .set(Object.fromEntries(columns.map((column) => [column, values[column]])))
    .where('document_id', '=', documentId)
    .where('locale', '!=', locale);
  if (type.draftAndPublish && status === 'draft') query = query.where('published_at', 'is', null);
  await query.execute();
}

/** A new locale of an existing document starts with the shared values of its other locales. */
export async function sharedValuesOf(db: Db, type: ContentType, documentId: string): Promise<Record<string, unknown>> {
  const columns = sharedColumns(type);
  if (columns.length === 0) return {};
  let query = db.selectFrom(type.table).select(columns).where('document_id', '=', documentId);
  if (type.draftAndPublish) query = query.where('published_at', 'is', null);
  const row = await query.orderBy('id').executeTakeFirst();
  return row ?? {};
}
