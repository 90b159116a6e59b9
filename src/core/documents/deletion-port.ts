/**
 * What goes with deleted entries: records other features keep about documents, removed in the
 * deletion's own transaction (features/releases/ implements it: the release actions of the
 * deleted entries, as Strapi 5.54's content-releases removes them).
 */
import type { Db } from '../database/dialect.js';
import type { ContentType } from '../schema/model.js';

/** An entry deleted whole: a document in one locale, or in every locale (`locale` null, and for a type without i18n). */
export interface DeletedEntry {
  documentId: string;
  locale: string | null;
}

export interface DeletionListener {
  /**
   * Called inside the deletion's transaction, after its rows are gone: by the document service's
   * `delete` (one entry), by the query engine's `deleteMany` on a draft-and-publish collection
   * type and by an import's removal of versions (the entries left without a row).
   */
  deleted(db: Db, type: ContentType, entries: readonly DeletedEntry[]): Promise<void>;
}
