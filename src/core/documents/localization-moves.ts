/**
 * A type's i18n turned on or off between two starts (`pluginOptions.i18n.localized` in its
 * schema.json, edited by hand or through the Content-Type Builder under `vellum develop`): its
 * entries move as Strapi 5.54's core migration moves them (`migrations/i18n.js`, run by its
 * `strapi::content-types` sync hooks at start):
 *
 * - turned on: every row of the type without a locale, draft and published, gets the default locale;
 * - turned off: the rows of every locale but the default one are deleted, and the default
 *   locale's rows lose their locale (a document with no version in the default locale is gone).
 *
 * Strapi compares the schema with the content-types it stored at its last start; Vellum keeps which
 * types were localized in `vellum_meta` (`localized_types`), read and rewritten under the schema
 * lock in the moves' own transaction: nodes starting together move each type once (the second
 * reads what the first recorded), and a start that fails moves nothing.
 *
 * Strapi links rows to rows, so its links follow the rows it keeps, and its join tables' foreign
 * keys (`on delete cascade`) take the links of a deleted row away, on both sides. Vellum links a
 * row to a (documentId, locale): the links to the type get the default locale, or lose it, and
 * the links to a deleted locale go. A deleted row's components and media links go with it (Strapi
 * leaves its component rows and media links behind, unreachable). Unlike Strapi, no lifecycle
 * subscriber runs (Strapi's `deleteMany` and `updateMany` fire `beforeDeleteMany` and the like):
 * project code never runs under the schema lock (docs/architecture.md "Lifecycles, Document Service
 * middlewares and the query engine").
 */
import { sql } from 'kysely';
import type { Db } from '../database/dialect.js';
import { readMeta, writeMeta } from '../database/meta.js';
import type { ContentType } from '../schema/model.js';
import type { DocumentContext } from './context.js';
import { deleteVersionRows, writersFor } from './operations/versions-store.js';

/** `vellum_meta`'s name for the record: uid -> localized, as of the last start. */
const RECORD = 'localized_types';
type LocalizedRecord = Record<string, boolean>;

/** What a start moved, and what it refused to move (nothing written for that type), one line each. */
export interface LocalizationMoves {
  moved: string[];
  warnings: string[];
}

/** Rows deleted per statement group (their ids are bound parameters). */
const CHUNK = 500;

/**
 * Under the schema lock (`db` is its connection), once the tables exist and the locales are read:
 * moves the entries of every type whose i18n changed since the record, then records the schema's.
 */
export async function moveForLocalization(ctx: DocumentContext, lockDb: Db): Promise<LocalizationMoves> {
  const result: LocalizationMoves = { moved: [], warnings: [] };
  const locale = ctx.i18n.defaultLocale;
  // Read before any transaction: the lock keeps other nodes out, and a start where nothing changed
  // (every start but a toggle's) writes nothing and opens no transaction (MariaDB: two statements fewer).
  const recorded = await readMeta<LocalizedRecord>(lockDb, RECORD);
  const next: LocalizedRecord = {};
  const changed: { type: ContentType; before: boolean }[] = [];
  for (const type of ctx.schema.contentTypes.values()) {
    next[type.uid] = type.localized;
    const before = recorded ? recorded[type.uid] : await inferredBefore(lockDb, type);
    // A type the record does not name is new: nothing to move (Strapi: not in its stored content-types).
    if (before !== undefined && before !== type.localized) changed.push({ type, before });
  }
  const same = (record: LocalizedRecord | undefined) =>
    record !== undefined &&
    Object.keys(record).length === Object.keys(next).length &&
    Object.entries(next).every(([uid, localized]) => record[uid] === localized);
  if (changed.length === 0 && same(recorded)) return result;
  await ctx.database.dialect.schemaLockTransaction(lockDb, async (db) => {
    for (const { type, before } of changed) {
      const clashes = await clashingDocuments(db, type, locale);
      if (clashes.length) {
        result.warnings.push(
          `${type.uid}: i18n turned ${type.localized ? 'on' : 'off'}, but documents ${clashes.join(', ')} have ` +
            `versions both without a locale and in the default locale "${locale}", which would collide: ` +
            `nothing of the type was moved. Delete one of each pair (strapi.db.query or the database), then start again.`,
        );
        // Recorded as it was: the next start tries again.
        next[type.uid] = before;
        continue;
      }
      result.moved.push(
        type.localized ? await localize(ctx, db, type, locale) : await unlocalize(ctx, db, type, locale),
      );
    }
    if (!same(recorded)) await writeMeta(db, RECORD, next);
  });
  return result;
}

/**
 * A database no start has recorded yet (it was synchronised by an earlier Vellum, which moved no
 * entry): a localized type holding rows without a locale had i18n turned on then, and its entries
 * are given the default locale now. A type without i18n holding rows with a locale is left as it
 * is (deleting them on a guess is not done): undefined, nothing moved.
 */
async function inferredBefore(db: Db, type: ContentType): Promise<boolean | undefined> {
  if (!type.localized) return undefined;
  const row = await db.selectFrom(type.table).select('id').where('locale', 'is', null).limit(1).executeTakeFirst();
  return row ? false : undefined;
}

/**
 * Documents (up to five) that hold a version without a locale and one in the default locale, of
 * the same status: one of the two would have to go for either move to keep one version per
 * (documentId, locale, status).
 */
async function clashingDocuments(db: Db, type: ContentType, locale: string): Promise<string[]> {
  const rows = await db
    .selectFrom(`${type.table} as a`)
    .innerJoin(`${type.table} as b`, (join) =>
      join
        .onRef('b.document_id', '=', 'a.document_id')
        .on('b.locale', '=', locale)
        .on(sql<boolean>`(a.published_at is null) = (b.published_at is null)`),
    )
    .select('a.document_id')
    .where('a.locale', 'is', null)
    .distinct()
    .limit(5)
    .execute();
  return rows.map((row) => JSON.stringify(String(row.document_id)));
}

/** The link tables whose targets are the type's entries (owned by any type or component). */
const linksTo = (ctx: DocumentContext, type: ContentType) =>
  ctx.schema.linkTables.filter((link) => link.targetUid === type.uid);

/** i18n turned on: the rows without a locale, and the links to them, get the default locale. */
async function localize(ctx: DocumentContext, db: Db, type: ContentType, locale: string): Promise<string> {
  const counted = await db
    .selectFrom(type.table)
    .select([sql<number>`count(*)`.as('rows'), sql<number>`count(distinct document_id)`.as('documents')])
    .where('locale', 'is', null)
    .executeTakeFirstOrThrow();
  await db.updateTable(type.table).set({ locale }).where('locale', 'is', null).execute();
  for (const link of linksTo(ctx, type))
    await db.updateTable(link.table).set({ target_locale: locale }).where('target_locale', 'is', null).execute();
  if (Number(counted.rows) === 0) return `${type.uid}: i18n turned on (no entries to move)`;
  return (
    `${type.uid}: i18n turned on: ${Number(counted.documents)} documents (${Number(counted.rows)} versions) ` +
    `given the default locale "${locale}"`
  );
}

/**
 * i18n turned off: the rows of the other locales go (with their components, relation and media
 * links, and the links to them), the default locale's rows and the links to them lose the locale.
 */
async function unlocalize(ctx: DocumentContext, db: Db, type: ContentType, locale: string): Promise<string> {
  const doomed = await db
    .selectFrom(type.table)
    .select(['id', 'document_id'])
    .where('locale', 'is not', null)
    .where('locale', '<>', locale)
    .orderBy('id')
    .execute();
  const writers = writersFor(ctx, db);
  for (let start = 0; start < doomed.length; start += CHUNK) {
    const ids = doomed.slice(start, start + CHUNK).map((row) => Number(row.id));
    await deleteVersionRows(writers, type, ids);
  }
  for (const link of linksTo(ctx, type)) {
    await db
      .deleteFrom(link.table)
      .where('target_locale', 'is not', null)
      .where('target_locale', '<>', locale)
      .execute();
    await db.updateTable(link.table).set({ target_locale: null }).where('target_locale', '=', locale).execute();
  }
  const kept = await db.updateTable(type.table).set({ locale: null }).where('locale', '=', locale).executeTakeFirst();
  const gone = await documentsWithoutRows(db, type, [...new Set(doomed.map((row) => String(row.document_id)))]);
  if (doomed.length === 0 && Number(kept.numUpdatedRows) === 0)
    return `${type.uid}: i18n turned off (no entries to move)`;
  return (
    `${type.uid}: i18n turned off: its versions in the default locale "${locale}" kept ` +
    `(${Number(kept.numUpdatedRows)}), those of other locales deleted (${doomed.length})` +
    (gone ? `; ${gone} documents had no version in "${locale}" and are gone` : '')
  );
}

/** How many of these documents have no row left. */
async function documentsWithoutRows(db: Db, type: ContentType, documentIds: string[]): Promise<number> {
  let left = 0;
  for (let start = 0; start < documentIds.length; start += CHUNK) {
    const row = await db
      .selectFrom(type.table)
      .select(sql<number>`count(distinct document_id)`.as('n'))
      .where('document_id', 'in', documentIds.slice(start, start + CHUNK))
      .executeTakeFirstOrThrow();
    left += Number(row.n);
  }
  return documentIds.length - left;
}
