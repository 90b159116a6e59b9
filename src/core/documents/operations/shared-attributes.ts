/**
 * The attributes the locales of a localized document share (`localized: false`, or no i18n option
 * at all: Strapi's rule): scalars, media, components and dynamic zones. Relations always belong to
 * one locale, as in Strapi. Shared values are one value per status: every write copies the ones
 * it sets to the other locales' drafts, and publishing a locale copies its published values to the
 * other locales' published versions (discarding a draft, its draft values to the other drafts).
 */
import type { Db } from '../../database/dialect.js';
import type { Status } from '../../query/types.js';
import type { ContentType } from '../../schema/model.js';
import type { ModelInput } from '../input.js';
import type { VersionRow, Writers } from './versions-store.js';

/**
 * The document's version rows this write read under the document's lock, before writing (it adds
 * none of another locale): when given, the other locales' rows are taken from them, not read again
 * (a PUT that publishes a document with one locale: two statements fewer).
 */
export type KnownRows = readonly VersionRow[];

/** Of known rows, the ids of the other locales' rows of one status, as `otherLocaleRows` selects them. */
const knownOthers = (type: ContentType, known: KnownRows, locale: string, status: Status): number[] =>
  known
    .filter(
      (row) =>
        row.locale !== null &&
        row.locale !== locale &&
        (!type.draftAndPublish || (status === 'draft') === (row.published_at === null)),
    )
    .map((row) => Number(row.id));

/** Columns of the shared scalars. */
const sharedColumns = (type: ContentType): string[] =>
  type.localized ? type.scalars.filter((a) => !a.localized).map((a) => a.column) : [];

/** Names of the shared media, component and zone attributes. */
function sharedNestedNames(type: ContentType): { media: string[]; components: string[] } {
  if (!type.localized) return { media: [], components: [] };
  const attributes = Object.values(type.attributes).filter((a) => !a.localized);
  return {
    media: attributes.filter((a) => a.kind === 'media').map((a) => a.name),
    components: attributes.filter((a) => a.kind === 'component' || a.kind === 'dynamiczone').map((a) => a.name),
  };
}

/** Names of every shared attribute: what a new locale may leave out of its body. */
export function sharedAttributeNames(type: ContentType): Set<string> {
  if (!type.localized) return new Set();
  return new Set(
    Object.values(type.attributes)
      .filter((a) => !a.localized && a.kind !== 'relation')
      .map((a) => a.name),
  );
}

/** The other locales' rows of a document, of one status (every row for types without draft and publish). */
function otherLocaleRows(db: Db, type: ContentType, documentId: string, locale: string, status: Status) {
  let query = db
    .selectFrom(type.table)
    .select(['id', 'locale'])
    .where('document_id', '=', documentId)
    .where('locale', '!=', locale);
  if (type.draftAndPublish) query = query.where('published_at', status === 'draft' ? 'is' : 'is not', null);
  return query;
}

/** Copies the shared scalars a write set in one locale to the document's other locales' drafts. */
export async function syncSharedAttributes(
  db: Db,
  type: ContentType,
  documentId: string,
  locale: string | null,
  values: Record<string, unknown>,
  known?: KnownRows,
): Promise<void> {
  const columns = sharedColumns(type).filter((column) => column in values);
  if (columns.length === 0 || locale === null) return;
  if (known && knownOthers(type, known, locale, 'draft').length === 0) return;
  let query = db
    .updateTable(type.table)
    .set(Object.fromEntries(columns.map((column) => [column, values[column]])))
    .where('document_id', '=', documentId)
    .where('locale', '!=', locale);
  if (type.draftAndPublish) query = query.where('published_at', 'is', null);
  await query.execute();
}

/** The row a new locale of an existing document takes its shared values from: another locale's draft. */
export async function sharedSourceRow(
  db: Db,
  type: ContentType,
  documentId: string,
): Promise<Record<string, unknown> | undefined> {
  if (!type.localized) return undefined;
  let query = db.selectFrom(type.table).selectAll().where('document_id', '=', documentId);
  if (type.draftAndPublish) query = query.where('published_at', 'is', null);
  return (await query.orderBy('id').executeTakeFirst()) as Record<string, unknown> | undefined;
}

/** The shared scalar values of a source row, but those a body sets. */
export function sharedValuesOf(
  type: ContentType,
  source: Record<string, unknown> | undefined,
  given: Set<string>,
): Record<string, unknown> {
  if (!source) return {};
  return Object.fromEntries(
    sharedColumns(type)
      .filter((column) => !given.has(column))
      .map((column) => [column, source[column]]),
  );
}

/** A new locale starts with the shared media, components and zones of the source row, but those its body sets. */
export async function copySharedNested(
  writers: Writers,
  type: ContentType,
  sourceId: number,
  newRowId: number,
  given: Set<string>,
): Promise<void> {
  const { media, components } = sharedNestedNames(type);
  const mediaToCopy = media.filter((name) => !given.has(name));
  if (mediaToCopy.length) await writers.media.copy(type, sourceId, newRowId, mediaToCopy);
  await writers.components.copyFields(
    type,
    sourceId,
    newRowId,
    components.filter((name) => !given.has(name)),
  );
}

/** The shared media, components and zones a write set in one locale, written again on the other locales' drafts. */
export async function syncSharedNested(
  writers: Writers,
  type: ContentType,
  documentId: string,
  locale: string | null,
  input: ModelInput,
): Promise<void> {
  if (!type.localized || locale === null) return;
  const shared: ModelInput = {
    scalars: new Map(),
    components: new Map([...input.components].filter(([attribute]) => !attribute.localized)),
    zones: new Map([...input.zones].filter(([attribute]) => !attribute.localized)),
    relations: new Map(),
    media: new Map([...input.media].filter(([attribute]) => !attribute.localized)),
  };
  if (shared.components.size + shared.zones.size + shared.media.size === 0) return;
  for (const row of await otherLocaleRows(writers.db, type, documentId, locale, 'draft').execute()) {
    await writers.components.writeNested(
      type,
      { id: Number(row.id), documentId, locale: row.locale as string },
      shared,
      'update',
    );
  }
}

/**
 * A locale's version of one status was just made (published, or its draft restored): the other
 * locales' versions of that status take all its shared values.
 */
export async function syncSharedVersion(
  writers: Writers,
  type: ContentType,
  documentId: string,
  locale: string | null,
  sourceId: number,
  status: Status,
  known?: KnownRows,
): Promise<void> {
  if (!type.localized || locale === null) return;
  const targets = known
    ? knownOthers(type, known, locale, status)
    : (await otherLocaleRows(writers.db, type, documentId, locale, status).execute()).map((row) => Number(row.id));
  if (targets.length === 0) return;
  const columns = sharedColumns(type);
  if (columns.length) {
    const source = await writers.db
      .selectFrom(type.table)
      .select(columns)
      .where('id', '=', sourceId)
      .executeTakeFirstOrThrow();
    await writers.db.updateTable(type.table).set(source).where('id', 'in', targets).execute();
  }
  const { media, components } = sharedNestedNames(type);
  for (const id of targets) {
    if (media.length) {
      await writers.media.deleteFor(type, [id], media);
      await writers.media.copy(type, sourceId, id, media);
    }
    if (components.length) {
      await writers.components.deleteFields(type, id, components);
      await writers.components.copyFields(type, sourceId, id, components);
    }
  }
}
