/**
 * Which entries a deletion of rows took whole: of the entries (documentId, and locale for a
 * localized type) whose rows were just deleted, those with no row left. What the query engine's
 * deletions and an import's removal of versions report to the relations pointing at them and to
 * the deletion listener (deletion-port.ts). One read per 500 documents.
 */
import type { Db } from '../../database/dialect.js';
import type { ContentType } from '../../schema/model.js';
import type { DeletedEntry } from '../deletion-port.js';

/** The rows' documentId and locale columns, as read. */
export interface EntryColumns {
  document_id: unknown;
  locale: unknown;
}

const CHUNK = 500;

export async function entriesWithoutRows(
  db: Db,
  type: ContentType,
  deleted: readonly EntryColumns[],
): Promise<DeletedEntry[]> {
  const key = (documentId: unknown, locale: unknown) => `${String(documentId)}\u0000${type.localized ? locale : ''}`;
  const entries = new Map<string, DeletedEntry>();
  for (const row of deleted)
    entries.set(key(row.document_id, row.locale), {
      documentId: String(row.document_id),
      locale: type.localized && typeof row.locale === 'string' ? row.locale : null,
    });
  const documentIds = [...new Set([...entries.values()].map((entry) => entry.documentId))];
  const left = new Set<string>();
  for (let start = 0; start < documentIds.length; start += CHUNK) {
    const rows = await db
      .selectFrom(type.table)
      .select(['document_id', 'locale'])
      .where('document_id', 'in', documentIds.slice(start, start + CHUNK))
      .execute();
    for (const row of rows) left.add(key(row.document_id, row.locale));
  }
  return [...entries].filter(([entry]) => !left.has(entry)).map(([, entry]) => entry);
}
