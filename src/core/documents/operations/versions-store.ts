/**
 * Row-level work on the versions of a document, shared by the write operations: finding a
 * version's row, copying a version onto another status (publish, discard), deleting versions with
 * everything that hangs below them.
 */
import type { Db } from '../../database/dialect.js';
import { runShape, shapeKey } from '../../database/shapes.js';
import type { ContentType } from '../../schema/model.js';
import type { Status } from '../../query/types.js';
import type { DocumentContext } from '../context.js';
import { ComponentTrees, sameValue } from '../write/components.js';
import { MediaLinks } from '../write/media.js';
import { RelationLinks } from '../write/relations.js';
import { deleteWhereIn, rowsById, updateById } from '../write/statements.js';
import type { WriteEvents } from '../outbox.js';
import type { RowEvents } from '../row-events.js';

export interface VersionRow {
  id: number;
  document_id: string;
  locale: string | null;
  published_at: unknown;
}

/** The writers of one transaction. */
export interface Writers {
  db: Db;
  relations: RelationLinks;
  media: MediaLinks;
  components: ComponentTrees;
  /** The lifecycle events of the write, when a subscriber covers its type (row-events.ts). */
  events?: RowEvents;
  /** The webhook events of the write, when an outbox is configured (outbox.ts). */
  outbox?: WriteEvents;
}

/** `canLink`: which types the body's relations may name (CallerOptions.canLink; every type without it). */
export function writersFor(
  ctx: DocumentContext,
  db: Db,
  events?: RowEvents,
  canLink?: (type: ContentType) => boolean,
  outbox?: WriteEvents,
): Writers {
  const relations = new RelationLinks(db, ctx, canLink);
  const media = new MediaLinks(db);
  const components = new ComponentTrees(db, ctx.database.dialect, ctx.schema, relations, media, ctx.passwords);
  return { db, relations, media, components, events, outbox };
}

/** The write's events when they are about rows of `type`. */
const eventsOf = (writers: Writers, type: ContentType): RowEvents | undefined =>
  writers.events?.type === type ? writers.events : undefined;

/** The row of one version; for types without draft and publish the status is ignored. */
export async function findVersionRow(
  db: Db,
  type: ContentType,
  documentId: string,
  locale: string | null,
  status: Status,
): Promise<VersionRow | undefined> {
  const draft = status === 'draft';
  const { rows } = await runShape<VersionRow>(
    db,
    shapeKey('version row', type.table, type.localized, type.draftAndPublish, draft),
    type.localized ? [documentId, locale] : [documentId],
    (slots) => {
      let query = db
        .selectFrom(type.table)
        .select(['id', 'document_id', 'locale', 'published_at'])
        .where('document_id', '=', slots[0]);
      if (type.localized) query = query.where('locale', '=', slots[1]);
      if (type.draftAndPublish) query = query.where('published_at', draft ? 'is' : 'is not', null);
      return query.orderBy('id').limit(1);
    },
  );
  return rows[0];
}

/**
 * Every row of a document: all statuses, and all locales unless one is named. `scalarsOf`: the
 * rows of that locale (every row without i18n) also carry their scalar columns, read by the same
 * statement (what history compares an edit with); the other locales' come back null, so an edit
 * of one locale of a document in many does not read them all.
 */
export async function findDocumentRows(
  db: Db,
  type: ContentType,
  documentId: string,
  locale?: string | null,
  scalarsOf?: { locale: string | null },
): Promise<VersionRow[]> {
  // Compiled once per shape (core/database/shapes.ts): which columns, whether a locale is named.
  const scalarsLocale = Boolean(scalarsOf) && type.localized;
  const byLocale = type.localized && Boolean(locale);
  const values: unknown[] = [documentId];
  if (scalarsLocale) values.push(scalarsOf!.locale);
  if (byLocale) values.push(locale);
  const { rows } = await runShape<VersionRow>(
    db,
    shapeKey('document rows', type.table, Boolean(scalarsOf), scalarsLocale, byLocale),
    values,
    (slots) => {
      let query = db
        .selectFrom(type.table)
        .select(['id', 'document_id', 'locale', 'published_at'])
        .where('document_id', '=', slots[0]);
      if (scalarsOf)
        query = query.select((eb) =>
          type.scalars.map((attribute) =>
            scalarsLocale
              ? eb.case().when('locale', '=', slots[1]).then(eb.ref(attribute.column)).end().as(attribute.column)
              : eb.ref(attribute.column).as(attribute.column),
          ),
        );
      if (byLocale) query = query.where('locale', '=', slots[scalarsLocale ? 2 : 1]);
      return query;
    },
  );
  return rows;
}

/** What a create that publishes knows of the draft it just inserted (see `copyVersion`). */
export interface CreatedDraft {
  /** The values it inserted (every other column holds its default). */
  row: Record<string, unknown>;
  /** The attributes its body named: nothing hangs below the row for the others. */
  attributes: ReadonlySet<string>;
}

/**
 * Copies a version row with its components, relations and media; `publishedAt` null makes a draft.
 * `created`: the draft was inserted by this write, its values are not read back.
 */
export async function copyVersion(
  ctx: DocumentContext,
  writers: Writers,
  type: ContentType,
  fromId: number,
  publishedAt: Date | null,
  created?: CreatedDraft,
): Promise<number> {
  const id = await copyRow(ctx, writers, type, fromId, publishedAt, created);
  await eventsOf(writers, type)?.copied(writers.db, id);
  return id;
}

async function copyRow(
  ctx: DocumentContext,
  writers: Writers,
  type: ContentType,
  fromId: number,
  publishedAt: Date | null,
  created?: CreatedDraft,
): Promise<number> {
  const { db } = writers;
  const dialect = ctx.database.dialect;
  const source = created?.row ?? (await rowsById(db, type.table, [fromId]))[0];
  if (!source) throw new Error(`copyVersion: row ${fromId} of ${type.table} is gone`);
  const { id: _id, ...values } = source;
  values.published_at = publishedAt === null ? null : dialect.encode('datetime', publishedAt);
  const toId = await dialect.insertReturningId(db, type.table, values);
  await writers.components.copyBelow(
    type,
    fromId,
    toId,
    type.localized ? ((source.locale as string | null) ?? null) : null,
    created?.attributes,
  );
  return toId;
}

/**
 * Copies a version onto an existing row of the same document and locale (publishing over the
 * published version): the row takes the source's values in place, so its id stays and only the
 * index entries of the columns that changed are rewritten, and what hangs below it (components,
 * owned relation and media links) becomes a copy of the source's (ComponentTrees.replaceBelow). Deleting the row and
 * inserting a copy rewrote every index entry of both (21 on an article: docs/performance.md).
 */
export async function overwriteVersion(
  ctx: DocumentContext,
  writers: Writers,
  type: ContentType,
  fromId: number,
  toId: number,
  publishedAt: Date,
): Promise<void> {
  const { db } = writers;
  const rows = await rowsById(db, type.table, [fromId, toId]);
  const source = rows.find((row) => Number(row.id) === fromId);
  const target = rows.find((row) => Number(row.id) === toId);
  if (!source || !target) throw new Error(`overwriteVersion: row ${source ? toId : fromId} of ${type.table} is gone`);
  const values: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(source))
    if (column !== 'id' && column !== 'published_at' && !sameValue(value, target[column])) values[column] = value;
  values.published_at = ctx.database.dialect.encode('datetime', publishedAt);
  await updateById(db, type.table, values, toId);
  const locale = type.localized ? ((source.locale as string | null) ?? null) : null;
  await writers.components.replaceBelow(type, [[fromId, toId]], locale);
  await eventsOf(writers, type)?.copied(db, toId);
}

/** Deletes version rows and their components and owned links (not links pointing at the document). */
export async function deleteVersionRows(writers: Writers, type: ContentType, rowIds: number[]): Promise<void> {
  if (rowIds.length === 0) return;
  await writers.components.deleteBelow(type, rowIds);
  await deleteWhereIn(writers.db, type.table, 'id', rowIds);
}
