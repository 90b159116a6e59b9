/**
 * At start-up, once the database follows the schema and the locales are read: the releases follow
 * what changed in the schema since their actions were stored, as Strapi 5.54's content-releases
 * follows it when it syncs its content-types (its `strapi::content-types` sync hooks):
 *
 * - a type deleted, or without draft and publish: its actions are removed (retired-types.ts);
 * - a type's i18n turned on or off: its actions' locales follow (action-locales.ts);
 * - a type's attributes (or its components', or i18n) changed: its publish actions in pending
 *   releases are checked again and their releases' statuses follow (revalidate.ts; Strapi's
 *   check of them finds no action to check, a published release stays `done` on both).
 *
 * Strapi compares the schema with the copy it stored at its last start; Vellum reads what the
 * actions name, the schema their validity was checked against (a digest, schema-fingerprint.ts)
 * and their locales: one read of the (content_type, checked_schema, locale) index per start, and
 * nothing more when nothing changed. A change made while no node ran counts too, and a type
 * deleted in the Content-Type Builder under `vellum develop` is followed as its next version
 * starts. Strapi's `migrateIsValidAndStatusReleases` (releases stored without a status by its
 * earlier versions) has nothing to do here: Vellum's releases always have one; actions stored
 * before the digest existed have none, and are checked once at the first start that has it.
 */
import type { Database } from '../../core/database/connection.js';
import { shaped } from '../../core/database/system-tables.js';
import type { DocumentService } from '../../core/documents/service.js';
import type { ContentType } from '../../core/schema/model.js';
import { alignActionLocales } from './action-locales.js';
import { removeRetiredTypeActions } from './retired-types.js';
import { revalidateActions } from './revalidate.js';
import { checkedSchemaOf } from './schema-fingerprint.js';
import { RELEASE_ACTIONS_TABLE, type ReleaseActionRow } from './tables.js';

/** What start-up found changed (empty lists: nothing), by type uid. */
export interface SchemaFollowed {
  removed: string[];
  relocalized: string[];
  revalidated: string[];
}

export async function followSchemaChanges(database: Database, documents: DocumentService): Promise<SchemaFollowed> {
  const named = await shaped<ReleaseActionRow>(database.db)
    .selectFrom(RELEASE_ACTIONS_TABLE)
    .select(['content_type', 'checked_schema', 'locale'])
    .distinct()
    .execute();
  const schema = documents.schema;
  const retired = new Set<string>();
  const relocalized = new Set<ContentType>();
  const changed = new Set<ContentType>();
  for (const row of named) {
    const type = schema.contentTypes.get(row.content_type);
    if (!type?.draftAndPublish) {
      retired.add(row.content_type);
      continue;
    }
    if (type.localized ? row.locale === null : row.locale !== null) relocalized.add(type);
    if (row.checked_schema !== checkedSchemaOf(schema, type)) changed.add(type);
  }
  await removeRetiredTypeActions(database, [...retired]);
  // Locales first: the checks that follow read each entry in the locale its action now names.
  await alignActionLocales(database, [...relocalized], documents.i18n.defaultLocale);
  await revalidateActions(database, documents, [...changed]);
  const uids = (types: Set<ContentType>) => [...types].map((type) => type.uid);
  return { removed: [...retired], relocalized: uids(relocalized), revalidated: uids(changed) };
}
