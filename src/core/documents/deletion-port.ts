/**
 * What goes with a deleted document: records other features keep about documents, removed in the
 * deletion's own transaction (features/releases/ implements it: the release actions of the
 * deleted entry, as Strapi 5.54's content-releases document middleware removes them).
 */
import type { Db } from '../database/dialect.js';
import type { ContentType } from '../schema/model.js';

export interface DeletionListener {
  /**
   * Called inside the deletion's transaction, after its rows are gone. `locale`: the locale
   * deleted, or null for every locale (and for a type without i18n).
   */
  deleted(db: Db, type: ContentType, documentId: string, locale: string | null): Promise<void>;
}
