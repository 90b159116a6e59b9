/**
 * A deleted entry leaves the releases it was in, as Strapi 5.54's content-releases document
 * middleware (`deleteActionsOnDelete`): the actions of the deleted document (of the locale deleted,
 * or of every locale) go, in the deletion's own transaction (Strapi: after it, not awaited), and
 * each pending release it was in gets its status again from the actions left (`empty`, `ready` or
 * `blocked`). A published release loses the action too (its count follows, as Strapi's) but stays
 * `done` (Strapi sets it from the actions left). One-entry releases (scheduled publishing's) are
 * left alone: their publication fails and says why, as scheduled publishing documents.
 */
import type { Db } from '../../core/database/dialect.js';
import { shaped } from '../../core/database/system-tables.js';
import type { DeletionListener } from '../../core/documents/service.js';
import { settleReleaseStatus } from './status.js';
import { RELEASES_TABLE, RELEASE_ACTIONS_TABLE, type ReleaseActionRow, type ReleaseRow } from './tables.js';

export const releaseEntryDeletions: DeletionListener = {
  async deleted(db: Db, type, documentId, locale) {
    if (!type.draftAndPublish) return;
    // The (content_type, entry_document_id) index: one read, usually of no row.
    let query = shaped<ReleaseActionRow>(db)
      .selectFrom(RELEASE_ACTIONS_TABLE)
      .select(['id', 'release_id'])
      .where('content_type', '=', type.uid)
      .where('entry_document_id', '=', documentId);
    if (locale !== null) query = query.where('locale', '=', locale);
    const actions = await query.execute();
    if (actions.length === 0) return;
    const releases = await shaped<ReleaseRow>(db)
      .selectFrom(RELEASES_TABLE)
      .select(['id', 'released_at'])
      .where('id', 'in', [...new Set(actions.map((action) => Number(action.release_id)))])
      .where('origin', 'is', null)
      .execute();
    if (releases.length === 0) return;
    const kept = new Set(releases.map((release) => Number(release.id)));
    await shaped<ReleaseActionRow>(db)
      .deleteFrom(RELEASE_ACTIONS_TABLE)
      .where(
        'id',
        'in',
        actions.filter((action) => kept.has(Number(action.release_id))).map((action) => Number(action.id)),
      )
      .execute();
    for (const release of releases) if (release.released_at === null) await settleReleaseStatus(db, Number(release.id));
  },
};
