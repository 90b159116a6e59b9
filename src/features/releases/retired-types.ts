/**
 * At start-up, once the database follows the schema: the release actions of types the schema no
 * longer has, or that no longer have draft and publish, are removed (actions-removed.ts), as
 * Strapi 5.54's content-releases does when it syncs its content-types (`deleteActionsOnDeleteContentType`
 * after the sync, `deleteActionsOnDisableDraftAndPublish` before it). A type deleted in the
 * Content-Type Builder, or its draft and publish turned off there, is served by the project's next
 * version under `vellum develop`, which starts here; a change made in the files, at the next start.
 * Strapi compares the schema with the copy it stored; Vellum reads which types the actions name
 * (the (content_type, entry_document_id) index alone), so a change made while no node ran counts too.
 */
import type { Database } from '../../core/database/connection.js';
import { shaped } from '../../core/database/system-tables.js';
import type { Schema } from '../../core/schema/model.js';
import { removeActions } from './actions-removed.js';
import { RELEASE_ACTIONS_TABLE, type ReleaseActionRow } from './tables.js';

/** Answers the types whose actions were looked at (none: every action's type still has draft and publish). */
export async function removeRetiredTypeActions(database: Database, schema: Schema): Promise<string[]> {
  const named = await shaped<ReleaseActionRow>(database.db)
    .selectFrom(RELEASE_ACTIONS_TABLE)
    .select('content_type')
    .distinct()
    .execute();
  const retired = named.map((row) => row.content_type).filter((uid) => !schema.contentTypes.get(uid)?.draftAndPublish);
  if (retired.length === 0) return [];
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
  return retired;
}
