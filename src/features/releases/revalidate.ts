/**
 * The publish actions of a type whose schema changed are checked again: a new required attribute
 * the entries lack makes them invalid and their releases `blocked`; a rule dropped, valid and
 * `ready` again. Each pending release holding one gets its status from its actions (a `failed` one
 * too, as Strapi's `updateReleaseStatus` would); a published release keeps its actions as they
 * were and `done`, a one-entry release (scheduled publishing's) its validity (its publication
 * checks at its time). Strapi 5.54's `revalidateChangedContentTypes` is meant to do this at start,
 * but checks an action only with its `entry` relation populated, which Strapi 5's actions no longer
 * have: it changes nothing, `done` or pending (docs/releases.md "A changed schema"). Checking the
 * pending ones is Vellum's deliberate difference; leaving `done` ones alone is Strapi's behaviour.
 *
 * Several nodes may start at once: each reads and checks (reads only), then writes an action only
 * where it is still checked against another schema, in one transaction (a conditional UPDATE: the
 * first node's write wins, the second changes no row), and settles the releases it wrote.
 */
import type { Database } from '../../core/database/connection.js';
import { shaped } from '../../core/database/system-tables.js';
import type { DocumentService } from '../../core/documents/service.js';
import type { ContentType } from '../../core/schema/model.js';
import { checkedSchemaOf } from './schema-fingerprint.js';
import { settleReleaseStatus } from './status.js';
import { RELEASE_ACTIONS_TABLE, type ReleaseActionRow } from './tables.js';
import { actionValidity, type ActionValidity } from './validity.js';

export async function revalidateActions(
  database: Database,
  documents: DocumentService,
  types: readonly ContentType[],
): Promise<void> {
  for (const type of types) {
    const digest = checkedSchemaOf(documents.schema, type);
    // The publish actions of pending releases (not one-entry ones) checked against another schema.
    const actions = await database.system
      .selectFrom('vellum_release_actions as a')
      .innerJoin('vellum_releases as r', 'r.id', 'a.release_id')
      .select(['a.id', 'a.release_id', 'a.entry_document_id', 'a.locale'])
      .where('a.content_type', '=', type.uid)
      .where('a.type', '=', 'publish')
      .where((eb) => eb.or([eb('a.checked_schema', 'is', null), eb('a.checked_schema', '<>', digest)]))
      .where('r.released_at', 'is', null)
      .where('r.origin', 'is', null)
      .execute();
    const checked: { id: number; releaseId: number; validity: ActionValidity }[] = [];
    for (const action of actions)
      checked.push({
        id: Number(action.id),
        releaseId: Number(action.release_id),
        validity: await actionValidity(documents, type, 'publish', action.entry_document_id, action.locale),
      });
    await database.write(async (trx) => {
      const actionsOf = () => shaped<ReleaseActionRow>(trx).updateTable(RELEASE_ACTIONS_TABLE);
      const settled = new Set<number>();
      for (const { id, releaseId, validity } of checked) {
        const written = await actionsOf()
          .set({ is_entry_valid: validity.valid ? 1 : 0, problem: validity.problem, checked_schema: digest })
          .where('id', '=', id)
          .where((eb) => eb.or([eb('checked_schema', 'is', null), eb('checked_schema', '<>', digest)]))
          .executeTakeFirst();
        if (Number(written.numUpdatedRows) === 1) settled.add(releaseId);
      }
      // The others (unpublish actions, published and one-entry releases') keep their validity.
      await actionsOf()
        .set({ checked_schema: digest })
        .where('content_type', '=', type.uid)
        .where((eb) => eb.or([eb('checked_schema', 'is', null), eb('checked_schema', '<>', digest)]))
        .execute();
      for (const releaseId of settled) await settleReleaseStatus(trx, releaseId);
    });
  }
}
