/**
 * A deleted entry leaves the releases it was in (actions-removed.ts), as Strapi 5.54's
 * content-releases removes its actions: after a deletion through the document service (its
 * document middleware `deleteActionsOnDelete`: the locale deleted, or every locale) and after the
 * query engine's `deleteMany` on a draft-and-publish collection type (its `afterDeleteMany`
 * subscriber), here in the deletion's own transaction (Strapi: after it, not awaited). An import
 * that removes the versions its source no longer has does the same for the locales it empties.
 */
import type { Db } from '../../core/database/dialect.js';
import { shaped } from '../../core/database/system-tables.js';
import type { DeletedEntry, DeletionListener } from '../../core/documents/service.js';
import type { ContentType } from '../../core/schema/model.js';
import { removeActions, type ActionRef } from './actions-removed.js';
import { RELEASE_ACTIONS_TABLE, type ReleaseActionRow } from './tables.js';

const CHUNK = 500;

export const releaseEntryDeletions: DeletionListener = {
  async deleted(db: Db, type: ContentType, entries: readonly DeletedEntry[]) {
    if (!type.draftAndPublish || entries.length === 0) return;
    // Locales deleted by documentId (null: every locale).
    const deleted = new Map<string, Set<string | null>>();
    for (const entry of entries)
      deleted.set(entry.documentId, (deleted.get(entry.documentId) ?? new Set()).add(entry.locale));
    const documentIds = [...deleted.keys()];
    const actions: ActionRef[] = [];
    for (let start = 0; start < documentIds.length; start += CHUNK) {
      // The (content_type, entry_document_id) index: one read, usually of no row.
      const rows = await shaped<ReleaseActionRow>(db)
        .selectFrom(RELEASE_ACTIONS_TABLE)
        .select(['id', 'release_id', 'entry_document_id', 'locale'])
        .where('content_type', '=', type.uid)
        .where('entry_document_id', 'in', documentIds.slice(start, start + CHUNK))
        .execute();
      for (const row of rows) {
        const locales = deleted.get(String(row.entry_document_id))!;
        if (locales.has(null) || (row.locale !== null && locales.has(row.locale))) actions.push(row);
      }
    }
    await removeActions(db, actions);
  },
};
