/**
 * Row locks that order concurrent writers. Every transaction that changes a document's versions, or
 * the relation links its versions own, first locks every row of that document; a writer that
 * changes links owned by other documents (the inverse side of a relation) locks theirs before it
 * reads them. Two writers of one document therefore run one after the other, on every node, and
 * the second reads what the first committed (MariaDB writes read committed data, as PostgreSQL).
 * Several documents are locked in one statement in documentId order, the same order everywhere,
 * so that writers locking overlapping sets do not deadlock. SQLite needs none of this: a write
 * transaction holds the whole database. This module chooses the rows and their order; the dialect
 * takes the locks (`Dialect.lockRows`).
 */
import type { Db, Dialect } from './dialect.js';

export async function lockDocuments(
  db: Db,
  dialect: Dialect,
  table: string,
  documentIds: Iterable<string>,
): Promise<void> {
  const ids = [...new Set(documentIds)].sort();
  if (ids.length > 0) await dialect.lockRows(db, table, 'document_id', ids);
}

/** Locks rows by id (components, or versions already known), in id order. */
export async function lockRows(db: Db, dialect: Dialect, table: string, ids: Iterable<number>): Promise<void> {
  const sorted = [...new Set(ids)].sort((a, b) => a - b);
  if (sorted.length > 0) await dialect.lockRows(db, table, 'id', sorted);
}
