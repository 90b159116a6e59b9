/**
 * The release actions of types the schema no longer has, or that no longer have draft and publish,
 * are removed (actions-removed.ts), as Strapi 5.54's content-releases does when it syncs its
 * content-types (`deleteActionsOnDeleteContentType` after the sync,
 * `deleteActionsOnDisableDraftAndPublish` before it). Which types those are, start-up reads from
 * the actions themselves (schema-followed.ts).
 */
import type { Database } from '../../core/database/connection.js';
import { shaped } from '../../core/database/system-tables.js';
import { removeActions } from './actions-removed.js';
import { RELEASE_ACTIONS_TABLE, type ReleaseActionRow } from './tables.js';

/** Removes every action of these types, in one transaction; each pending release they were in is settled. */
export async function removeRetiredTypeActions(database: Database, retired: readonly string[]): Promise<void> {
  if (retired.length === 0) return;
  await database.write(async (trx) => {
    for (const uid of retired) {
      const actions = await shaped<ReleaseActionRow>(trx)
        .selectFrom(RELEASE_ACTIONS_TABLE)
        .select(['id', 'release_id'])
        .where('content_type', '=', uid)
        .execute();
      await removeActions(trx, actions);
    }
  });
}
