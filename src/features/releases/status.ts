/**
 * A pending release's status from its actions (Strapi's `updateReleaseStatus`): `empty` without
 * actions, `blocked` when one is not valid, else `ready`. Set on the caller's transaction, after it
 * changed the actions.
 */
import type { Db } from '../../core/database/dialect.js';
import { shaped } from '../../core/database/system-tables.js';
import { statusOf } from './present.js';
import { RELEASES_TABLE, RELEASE_ACTIONS_TABLE, type ReleaseActionRow, type ReleaseRow } from './tables.js';

export async function settleReleaseStatus(db: Db, releaseId: number): Promise<void> {
  const [totals] = await shaped<ReleaseActionRow>(db)
    .selectFrom(RELEASE_ACTIONS_TABLE)
    .select((eb) => [
      eb.fn.countAll<number | string>().as('total'),
      eb.fn.sum<number | string | null>(eb.case().when('is_entry_valid', '=', 0).then(1).else(0).end()).as('invalid'),
    ])
    .where('release_id', '=', releaseId)
    .execute();
  await shaped<ReleaseRow>(db)
    .updateTable(RELEASES_TABLE)
    .set({ status: statusOf(Number(totals?.total ?? 0), Number(totals?.invalid ?? 0)), failure: null })
    .where('id', '=', releaseId)
    .where('released_at', 'is', null)
    .execute();
}
