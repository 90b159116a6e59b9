/**
 * Release actions whose entry is gone (deleted, or of a type deleted or without draft and publish
 * any more) are removed, as Strapi 5.54's content-releases removes them, on the caller's
 * transaction: each pending release they were in gets its status again from the actions left
 * (`empty`, `ready` or `blocked`), a published one loses them but stays `done`. One-entry releases
 * (scheduled publishing's) keep theirs: their publication fails at its time and says why, as
 * scheduled publishing documents.
 */
import type { Db } from '../../core/database/dialect.js';
import { shaped } from '../../core/database/system-tables.js';
import { settleReleaseStatus } from './status.js';
import { RELEASES_TABLE, RELEASE_ACTIONS_TABLE, type ReleaseActionRow, type ReleaseRow } from './tables.js';

/** Ids per statement: well under every dialect's limit of parameters. */
const CHUNK = 500;

/** An action's id and its release's, as read. */
export interface ActionRef {
  id: number;
  release_id: number;
}

export async function removeActions(db: Db, actions: readonly ActionRef[]): Promise<void> {
  if (actions.length === 0) return;
  const releaseIds = [...new Set(actions.map((action) => Number(action.release_id)))];
  const releases: { id: number; released_at: number | string | null }[] = [];
  for (let start = 0; start < releaseIds.length; start += CHUNK)
    releases.push(
      ...(await shaped<ReleaseRow>(db)
        .selectFrom(RELEASES_TABLE)
        .select(['id', 'released_at'])
        .where('id', 'in', releaseIds.slice(start, start + CHUNK))
        .where('origin', 'is', null)
        .execute()),
    );
  if (releases.length === 0) return;
  const kept = new Set(releases.map((release) => Number(release.id)));
  const ids = actions.filter((action) => kept.has(Number(action.release_id))).map((action) => Number(action.id));
  for (let start = 0; start < ids.length; start += CHUNK)
    await shaped<ReleaseActionRow>(db)
      .deleteFrom(RELEASE_ACTIONS_TABLE)
      .where('id', 'in', ids.slice(start, start + CHUNK))
      .execute();
  for (const release of releases) if (release.released_at === null) await settleReleaseStatus(db, Number(release.id));
}
