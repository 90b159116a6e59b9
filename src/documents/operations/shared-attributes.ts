import type { Db } from '../../database/dialect.js';
import type { ContentType } from '../../schema/model.js';
import type { Status } from '../../query/types.js';
import type { ModelInput } from '../input.js';
import type { Writers } from './versions-store.js';

/** Columns of the attributes a localized type shares between its locales (`localized: false`). */
export const sharedColumns = (type: ContentType): string[] =>
  type.localized ? type.scalars.filter((a) => !a.localized).map((a) => a.column) : [];

/**
 * Copies the shared attributes just written in one locale to the document's other locales: their
 * drafts always, their published versions too when the write published.
 */
export async function syncSharedAttributes(db: Db, type: ContentType, documentId: string, locale: string | null, values: Record<string, unknown>, status: Status): Promise<void> {
  const columns = sharedColumns(type).filter((column) => column in values);
  if (columns.length === 0 || locale === null) return;
  let query = db
    .updateTable(type.table)
    .set(Object.fromEntries(columns.map((column) => [column, values[column]])))
    .where('document_id', '=', documentId)
    .where('locale', '!=', locale);
  if (type.draftAndPublish && status === 'draft') query = query.where('published_at', 'is', null);
  await query.execute();
}

/** A new locale of an existing document starts with the shared values of its other locales. */
export async function sharedValuesOf(db: Db, type: ContentType, documentId: string): Promise<Record<string, unknown>> {
  const columns = sharedColumns(type);
  if (columns.length === 0) return {};
  let query = db.selectFrom(type.table).select(columns).where('document_id', '=', documentId);
  if (type.draftAndPublish) query = query.where('published_at', 'is', null);
  const row = await query.orderBy('id').executeTakeFirst();
  return row ?? {};
}

/**
 * The shared (non-localized) relations, components, zones and media just written in one locale,
 * written again on the document's other locales (same status rule as the scalars).
 */
export async function syncSharedNested(writers: Writers, type: ContentType, documentId: string, locale: string | null, input: ModelInput, status: Status): Promise<void> {
  if (!type.localized || locale === null) return;
  const shared: ModelInput = {
    scalars: new Map(),
    components: new Map([...input.components].filter(([attribute]) => !attribute.localized)),
    zones: new Map([...input.zones].filter(([attribute]) => !attribute.localized)),
    relations: new Map([...input.relations].filter(([attribute]) => !attribute.localized)),
    media: new Map([...input.media].filter(([attribute]) => !attribute.localized)),
  };
  if (shared.components.size + shared.zones.size + shared.relations.size + shared.media.size === 0) return;
  let query = writers.db.selectFrom(type.table).select(['id', 'locale']).where('document_id', '=', documentId).where('locale', '!=', locale);
  if (type.draftAndPublish && status === 'draft') query = query.where('published_at', 'is', null);
  for (const row of await query.execute()) {
    await writers.components.writeNested(type, { id: Number(row.id), documentId, locale: row.locale as string }, shared, 'update');
  }
}

/** A new locale starts with the shared relations and media of the document's other locales. */
export async function copySharedLinks(writers: Writers, type: ContentType, documentId: string, newRowId: number): Promise<void> {
  if (!type.localized) return;
  const relations = Object.values(type.attributes).filter((a) => a.kind === 'relation' && !a.localized).map((a) => a.name);
  const media = Object.values(type.attributes).filter((a) => a.kind === 'media' && !a.localized).map((a) => a.name);
  if (relations.length + media.length === 0) return;
  let query = writers.db.selectFrom(type.table).select('id').where('document_id', '=', documentId).where('id', '!=', newRowId);
  if (type.draftAndPublish) query = query.where('published_at', 'is', null);
  const source = await query.orderBy('id').executeTakeFirst();
  if (!source) return;
  if (relations.length) await writers.relations.copyOwned(type, Number(source.id), newRowId, relations);
  if (media.length) await writers.media.copy(type, Number(source.id), newRowId, media);
}
