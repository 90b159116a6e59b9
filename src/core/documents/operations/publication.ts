import type { Db } from '../../database/dialect.js';
import { lockDocuments } from '../../database/locks.js';
import { NotFoundError, ValidationError } from '../../errors.js';
import type { ContentType } from '../../schema/model.js';
import type { DocumentAudit } from '../audit.js';
import type { DocumentHistory } from '../history.js';
import type { DocumentContext } from '../context.js';
import type { WriteEvents } from '../outbox.js';
import type { RowEvents } from '../row-events.js';
import { settleCopiedVersion } from '../write/relation-exclusivity.js';
import { lockSettledOwners } from '../write/relation-locks.js';
import { syncSharedVersion, type KnownRows } from './shared-attributes.js';
import { checkPublishable } from './publishable.js';
import {
  copyVersion,
  deleteVersionRows,
  type CreatedDraft,
  findDocumentRows,
  findVersionRow,
  overwriteVersion,
  writersFor,
  type Writers,
} from './versions-store.js';

/**
 * Replaces the published version of a document's locale by a copy of its draft row, once the draft
 * passes every rule (unless `validate` is false: the caller checked them) and holds no value of a
 * `unique` attribute that another published document holds.
 */
export async function publishVersion(
  ctx: DocumentContext,
  writers: Writers,
  type: ContentType,
  draftId: number,
  documentId: string,
  locale: string | null,
  {
    validate = true,
    generated,
    audit,
    created,
    given,
    known,
  }: {
    validate?: boolean;
    /** The document's version rows this write read under its lock (see KnownRows). */
    known?: KnownRows;
    /** The body this write just stored in the draft (an update's): see checkPublishable. */
    given?: Record<string, unknown>;
    generated?: ReadonlySet<string>;
    audit?: DocumentAudit;
    /**
     * The draft this write inserted, when it created the document (a new documentId): it has no
     * published version and no other locale to look for, its values are not read back and only
     * the attributes its body named can have anything below it (a small create that publishes:
     * 13 -> 5 statements; a whole article: 43 -> 40).
     */
    created?: CreatedDraft;
  } = {},
): Promise<void> {
  await checkPublishable(ctx, writers.db, type, draftId, documentId, locale, validate, generated, created?.row, given);
  // Over a published version, in place: its id stays (Strapi 5 deletes it and inserts a new row).
  const published = created
    ? undefined
    : known
      ? known
          .filter((row) => row.published_at !== null && (!type.localized || row.locale === locale))
          .sort((a, b) => Number(a.id) - Number(b.id))[0]
      : await findVersionRow(writers.db, type, documentId, locale, 'published');
  let id: number;
  if (published) {
    id = published.id;
    await overwriteVersion(ctx, writers, type, draftId, id, new Date());
  } else id = await copyVersion(ctx, writers, type, draftId, new Date(), created);
  await lockSettledOwners(writers.db, ctx.database.dialect, ctx.schema, type, { id, documentId });
  await settleCopiedVersion(writers.db, ctx.schema, type, { id, documentId, locale }, 'published');
  if (!created) await syncSharedVersion(writers, type, documentId, locale, id, 'published', known);
  await writers.outbox?.row(writers.db, 'publish', id);
  await audit?.published(writers.db, 'publish', documentId, locale);
}

/**
 * Why the draft of a document's locale could not be published now, by the rules `publish` checks
 * (checkPublishable): the ValidationError it would throw, a NotFoundError without a draft, or null.
 * Reads only: nothing is locked or written.
 */
export async function publicationProblem(
  ctx: DocumentContext,
  type: ContentType,
  documentId: string,
  locale: string | null,
): Promise<ValidationError | NotFoundError | null> {
  requireDraftAndPublish(type);
  const db = ctx.database.db;
  const draft = await findVersionRow(db, type, documentId, locale, 'draft');
  if (!draft)
    return NotFoundError.missing(
      `No draft of ${type.singularName} ${documentId}${locale ? ` in locale ${locale}` : ''}`,
    );
  try {
    await checkPublishable(ctx, db, type, draft.id, documentId, locale, true);
    return null;
  } catch (error) {
    if (error instanceof ValidationError) return error;
    throw error;
  }
}

function requireDraftAndPublish(type: ContentType): void {
  if (!type.draftAndPublish) throw new ValidationError(`${type.singularName} does not have draft and publish enabled`);
}

/** Locks the document's rows (see core/database/locks.ts), then checks that it exists. */
async function lockDocument(
  ctx: DocumentContext,
  db: Db,
  type: ContentType,
  documentId: string,
  locale: string | null,
): Promise<void> {
  await lockDocuments(db, ctx.database.dialect, type.table, [documentId]);
  const rows = await findDocumentRows(db, type, documentId, locale);
  if (rows.length === 0)
    throw NotFoundError.missing(
      `No ${type.singularName} with documentId ${documentId}${locale ? ` in locale ${locale}` : ''}`,
    );
}

const noPublishedVersion = (type: ContentType, documentId: string, locale: string | null): NotFoundError =>
  NotFoundError.missing(
    `No published version of ${type.singularName} ${documentId}${locale ? ` in locale ${locale}` : ''}`,
  );

export async function publish(
  ctx: DocumentContext,
  type: ContentType,
  documentId: string,
  locale: string | null,
  events?: RowEvents,
  outbox?: WriteEvents,
  audit?: DocumentAudit,
  history?: DocumentHistory,
): Promise<void> {
  requireDraftAndPublish(type);
  await ctx.database.write(async (trx) => {
    await lockDocument(ctx, trx, type, documentId, locale);
    const draft = await findVersionRow(trx, type, documentId, locale, 'draft');
    if (!draft) throw NotFoundError.missing(`No draft of ${type.singularName} ${documentId}`);
    const writers = writersFor(ctx, trx, events, undefined, outbox);
    await publishVersion(ctx, writers, type, draft.id, documentId, locale, { audit });
    await history?.moved(trx, 'publish', documentId, locale);
  });
}

export async function unpublish(
  ctx: DocumentContext,
  type: ContentType,
  documentId: string,
  locale: string | null,
  events?: RowEvents,
  outbox?: WriteEvents,
  audit?: DocumentAudit,
  history?: DocumentHistory,
): Promise<void> {
  requireDraftAndPublish(type);
  await ctx.database.write(async (trx) => {
    await lockDocument(ctx, trx, type, documentId, locale);
    const published = await findVersionRow(trx, type, documentId, locale, 'published');
    // As Strapi's content manager: nothing published to remove is a 404.
    if (!published) throw noPublishedVersion(type, documentId, locale);
    await outbox?.removing(trx, 'unpublish', [published.id]);
    await deleteVersionRows(writersFor(ctx, trx, events), type, [published.id]);
    await audit?.published(trx, 'unpublish', documentId, locale);
    await history?.moved(trx, 'unpublish', documentId, locale);
  });
}

/** Restores the draft from the published version. */
export async function discardDraft(
  ctx: DocumentContext,
  type: ContentType,
  documentId: string,
  locale: string | null,
  events?: RowEvents,
  outbox?: WriteEvents,
  audit?: DocumentAudit,
  history?: DocumentHistory,
): Promise<void> {
  requireDraftAndPublish(type);
  await ctx.database.write(async (trx) => {
    await lockDocument(ctx, trx, type, documentId, locale);
    const writers = writersFor(ctx, trx, events);
    const published = await findVersionRow(trx, type, documentId, locale, 'published');
    // As Strapi's content manager: a document never published has nothing to restore, a 404.
    if (!published) throw noPublishedVersion(type, documentId, locale);
    const draft = await findVersionRow(trx, type, documentId, locale, 'draft');
    const before = draft ? await audit?.snapshot(trx, draft.id) : undefined;
    if (draft) await deleteVersionRows(writers, type, [draft.id]);
    const id = await copyVersion(ctx, writers, type, published.id, null);
    await lockSettledOwners(trx, ctx.database.dialect, ctx.schema, type, { id, documentId });
    await settleCopiedVersion(trx, ctx.schema, type, { id, documentId, locale }, 'draft');
    await syncSharedVersion(writers, type, documentId, locale, id, 'draft');
    await outbox?.row(trx, 'draft-discard', id);
    await audit?.discarded(trx, id, documentId, locale, before);
    await history?.moved(trx, 'discard', documentId, locale);
  });
}
