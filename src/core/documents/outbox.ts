/**
 * The webhook events of document writes, recorded in the write's own transaction (an outbox): an
 * event is committed with the write that caused it or not at all, so a node that dies after the
 * commit loses nothing, and the delivery (features/events/) happens later, on any node.
 *
 * The events and their payloads are Strapi 5's (its document service's `emitEvent`, the upload
 * plugin's): a document write emits per version row it touches (`entry.create` of the draft, then
 * `entry.publish` of the published copy, ...), the payload is `{ model, uid, entry }` with the row
 * as Strapi's query engine reads it with a deep populate (relations with their fields, media as
 * whole files, components and dynamic zones all the way down), deleted rows as they were (no
 * populate); files emit `media.*` with `{ media }`. Private and password attributes are never
 * included, nor `locale` on a type without i18n. Of the built-in types, users emit entry events
 * (Strapi's users-permissions writes them through the document service) and files media events.
 * Strapi reads the entry after the commit, on every process that wrote; here it is read inside the
 * transaction, so the payload is what was committed.
 *
 * Nothing is read or written unless an enabled webhook listens to the event: the write asks the
 * outbox once per transaction which events are wanted (one statement).
 */
import type { Db } from '../database/dialect.js';
import type { FindOneQuery, PopulateTree } from '../query/types.js';
import { FILE_UID, isHidden, type ContentType, type Model, type Schema } from '../schema/model.js';
import type { CallerOptions, DocumentContext } from './context.js';
import { findRow } from './operations/find-one.js';
import { ReadBudget } from './read/budget.js';
import type { Document } from './rows.js';
import type { Outbox, Subscribers, WebhookEvent } from './outbox-port.js';

export { WEBHOOK_EVENTS, type Outbox, type RecordedEvent, type Subscribers, type WebhookEvent } from './outbox-port.js';

/** The users-permissions users (features/users-permissions/ owns the type; core/documents/ cannot import it). */
const USER_UID = 'plugin::users-permissions.user';

/** What happened to a version row, as the event names it. */
export type RowChange = 'create' | 'update' | 'publish' | 'draft-discard';
export type RowRemoval = 'delete' | 'unpublish';

/**
 * Strapi's content manager's `getPopulateForValidation`, which it asks for on `localizations`: the
 * media, components and zones that hold something to validate (required, unique, min, max,
 * minLength, maxLength), a component's own fields being only those (checked on Strapi 5.54: an
 * unpublish event's localizations carry a required cover, not an optional component).
 */
function validationPopulate(schema: Schema, model: Model): { fields?: string[]; populate?: PopulateTree } {
  const fields: string[] = [];
  const populate: PopulateTree = {};
  for (const attribute of Object.values(model.attributes)) {
    if (attribute.private || isHidden(attribute)) continue;
    const limits = attribute as {
      unique?: boolean;
      min?: number;
      max?: number;
      minLength?: number;
      maxLength?: number;
    };
    const validates =
      attribute.required ||
      limits.unique === true ||
      [limits.min, limits.max, limits.minLength, limits.maxLength].some((v) => v !== undefined);
    if (attribute.kind === 'scalar') {
      if (validates) fields.push(attribute.name);
    } else if (attribute.kind === 'media') {
      if (validates && schema.contentTypes.has(FILE_UID)) populate[attribute.name] = {};
    } else if (attribute.kind === 'component') {
      const component = schema.components.get(attribute.component);
      const inner = component ? validationPopulate(schema, component) : {};
      if (inner.fields || inner.populate) populate[attribute.name] = inner;
    } else if (attribute.kind === 'dynamiczone') {
      const on: Record<string, { fields?: string[]; populate?: PopulateTree }> = {};
      for (const uid of attribute.components) {
        const component = schema.components.get(uid);
        const inner = component ? validationPopulate(schema, component) : {};
        if (inner.fields || inner.populate) on[uid] = inner;
      }
      if (Object.keys(on).length) populate[attribute.name] = { on };
    }
  }
  return { ...(fields.length ? { fields } : {}), ...(Object.keys(populate).length ? { populate } : {}) };
}

/** Strapi's `getDeepPopulate`: relations with their fields, media whole (`select: ['*']`), components and zones all the way down. */
function deepPopulate(schema: Schema, model: Model): PopulateTree {
  const tree: PopulateTree = {};
  for (const attribute of Object.values(model.attributes)) {
    if (isHidden(attribute)) continue;
    switch (attribute.kind) {
      case 'relation':
        if (schema.contentTypes.has(attribute.target)) tree[attribute.name] = {};
        break;
      case 'media':
        if (schema.contentTypes.has(FILE_UID)) tree[attribute.name] = {};
        break;
      case 'component': {
        const component = schema.components.get(attribute.component);
        if (component) tree[attribute.name] = { populate: deepPopulate(schema, component) };
        break;
      }
      case 'dynamiczone': {
        const on: Record<string, { populate: PopulateTree }> = {};
        for (const uid of attribute.components) {
          const component = schema.components.get(uid);
          if (component) on[uid] = { populate: deepPopulate(schema, component) };
        }
        tree[attribute.name] = { on };
        break;
      }
      default:
        break;
    }
  }
  return tree;
}

const deepQueries = new WeakMap<ContentType, FindOneQuery>();

/**
 * The events of one document write (one call of the facade). Each write transaction (a retried
 * one too) asks the outbox once which events are wanted; rows are read only for those.
 */
export class WriteEvents {
  /** Whether an event was recorded (the facade tells the outbox once the write has committed). */
  recorded = false;
  /**
   * What removed rows are read with when the caller named a populate or fields (Strapi reads the
   * rows its unpublish and delete remove with their params: the content manager's unpublish sends
   * its deep populate, relations counted); without, the row as it is.
   */
  removedQuery?: FindOneQuery;
  private wanted?: { db: Db; subscribers: Subscribers };

  constructor(
    private readonly ctx: DocumentContext,
    private readonly type: ContentType,
    private readonly outbox: Outbox,
  ) {}

  /**
   * The events of writes of `type`, when an outbox is configured and the caller does not write
   * silently: entries of project types and users, media of files.
   */
  static of(ctx: DocumentContext, type: ContentType, caller?: CallerOptions): WriteEvents | undefined {
    if (
      !ctx.outbox ||
      caller?.webhookEvents === false ||
      (type.builtIn && type.uid !== FILE_UID && type.uid !== USER_UID)
    )
      return undefined;
    return new WriteEvents(ctx, type, ctx.outbox);
  }

  private get media(): boolean {
    return this.type.uid === FILE_UID;
  }

  private eventOf(change: RowChange | RowRemoval): WebhookEvent | undefined {
    if (this.media)
      return change === 'create'
        ? 'media.create'
        : change === 'update'
          ? 'media.update'
          : change === 'delete'
            ? 'media.delete'
            : undefined;
    return `entry.${change}`;
  }

  private async subscribers(db: Db): Promise<Subscribers> {
    if (this.wanted?.db !== db) this.wanted = { db, subscribers: await this.outbox.subscribers(db) };
    return this.wanted.subscribers;
  }

  /** A row written (`create`, `update`, `publish`, `draft-discard`): read back on the transaction with a deep populate. */
  async row(db: Db, change: RowChange, rowId: number): Promise<void> {
    const event = this.eventOf(change);
    if (!event) return;
    const subscribers = await this.subscribers(db);
    if (!subscribers.has(event)) return;
    const entry = await this.read(db, rowId, !this.media);
    if (entry) await this.record(db, subscribers, event, entry);
  }

  /** Rows about to be deleted (`delete`, `unpublish`): read as they are, without populate, as Strapi sends them. */
  async removing(db: Db, change: RowRemoval, rowIds: number[]): Promise<void> {
    const event = this.eventOf(change);
    if (!event || rowIds.length === 0) return;
    const subscribers = await this.subscribers(db);
    if (!subscribers.has(event)) return;
    for (const rowId of rowIds) {
      const entry = await this.read(db, rowId, false, this.removedQuery);
      if (!entry) continue;
      if (this.removedQuery?.populate.localizations && this.type.localized)
        entry.localizations = await this.otherRows(db, rowId, String(entry.documentId));
      await this.record(db, subscribers, event, entry);
    }
  }

  /**
   * `localizations` as Strapi's query engine populates them on a row it reads itself: every other
   * row of the document (its join on document_id leaves out only the row read), whatever their
   * locale and status, with what its content manager asks for them (validationPopulate).
   */
  private async otherRows(db: Db, rowId: number, documentId: string): Promise<Document[]> {
    const rows = await db
      .selectFrom(this.type.table)
      .select('id')
      .where('document_id', '=', documentId)
      .where('id', '!=', rowId)
      .orderBy('id')
      .execute();
    const others: Document[] = [];
    const query: FindOneQuery = {
      populate: validationPopulate(this.ctx.schema, this.type).populate ?? {},
      status: 'draft',
      locale: this.ctx.i18n.defaultLocale,
    };
    for (const row of rows) {
      const other = await this.read(db, Number(row.id), false, query);
      if (other) others.push(other);
    }
    return others;
  }

  private async record(db: Db, subscribers: Subscribers, event: WebhookEvent, entry: Document): Promise<void> {
    const { type } = this;
    const info = this.media ? { media: entry } : { model: type.singularName, uid: type.uid, entry };
    await this.outbox.record(db, subscribers, {
      event,
      key: `${type.uid}:${String(entry.documentId)}`,
      info,
      createdAt: new Date(),
    });
    this.recorded = true;
  }

  /** The row as Strapi's event shows it: no `locale` on types without i18n (files included). */
  private async read(db: Db, rowId: number, populated: boolean, given?: FindOneQuery): Promise<Document | null> {
    const { ctx, type } = this;
    let query: FindOneQuery = given ?? { populate: {}, status: 'draft', locale: ctx.i18n.defaultLocale };
    if (populated) {
      query = deepQueries.get(type) ?? { ...query, populate: deepPopulate(ctx.schema, type) };
      deepQueries.set(type, query);
    }
    const entry = await findRow(ctx, db, type, rowId, query, {}, ReadBudget.unlimited(), true);
    if (entry && !type.localized) delete entry.locale;
    return entry;
  }
}
