/**
 * The `before` phase of each document write's lifecycle events (row-events.ts has the phases):
 * which rows a create, an update, a publication or a deletion will touch, and the values each
 * row's `before` event shows, in Strapi's order. Made per type, used only when a lifecycle
 * subscriber covers it; a write without subscribers never reaches this module.
 */
import type { Db } from '../database/dialect.js';
import type { FindOneQuery } from '../query/types.js';
import type { ContentType } from '../schema/model.js';
import type { CallerOptions, DocumentContext } from './context.js';
import type { LifecycleHooks } from './hooks.js';
import { findRow } from './operations/find-one.js';
import { findDocumentRows, findVersionRow } from './operations/versions-store.js';
import type { DocumentParams } from './params.js';
import { ReadBudget } from './read/budget.js';
import { RowEvents } from './row-events.js';
import type { Document } from './rows.js';

type Data = Record<string, unknown>;

export class WriteLifecycles {
  constructor(
    private readonly ctx: DocumentContext,
    private readonly type: ContentType,
  ) {}

  /** The lifecycles when a subscriber covers this type (writes: every row event reads its row back). */
  private get lifecycles(): LifecycleHooks | undefined {
    const lifecycles = this.ctx.lifecycles;
    return lifecycles?.covers(this.type.uid) ? lifecycles : undefined;
  }

  /**
   * The row events of one write, when a subscriber covers this type: each row is read back as
   * `query` reads it, for `caller`, within `budget`.
   */
  events(
    params: DocumentParams,
    query: FindOneQuery,
    caller: CallerOptions,
    budget: ReadBudget,
  ): RowEvents | undefined {
    const lifecycles = this.lifecycles;
    if (!lifecycles) return undefined;
    const selection: Data = {};
    if (params.fields !== undefined) selection.select = params.fields;
    if (params.populate !== undefined) selection.populate = params.populate;
    return new RowEvents({ ...this.ctx, lifecycles }, this.type, query, caller, selection, budget);
  }

  /**
   * Before a create: `beforeCreate` on the body; for a published create, also `beforeCreate` of the
   * published copy, which names the document beforehand (`documentId`, made here). Answers the body
   * as the handlers left it.
   */
  async beforeCreate(
    events: RowEvents,
    data: Data,
    query: FindOneQuery,
    locale: string | null,
    documentId: () => string,
  ): Promise<Data> {
    const now = new Date();
    const body = await events.beforeBody(
      'beforeCreate',
      data,
      this.systemData(query, { createdAt: now, updatedAt: now }),
    );
    if (this.type.draftAndPublish && query.status === 'published') {
      await events.beforeCopy(
        this.copyData(
          null,
          body,
          { documentId: documentId(), createdAt: now, updatedAt: now, publishedAt: new Date() },
          locale,
        ),
      );
    }
    return body;
  }

  /**
   * Before an update of `documentId`'s version in `locale`: `beforeUpdate` of the row the body
   * edits (the draft, or the only row), or `beforeCreate` of a new locale; for a published write,
   * the `before` events of publishing. Answers the body as the handlers left it.
   */
  async beforeUpdate(
    events: RowEvents,
    data: Data,
    query: FindOneQuery,
    documentId: string,
    locale: string | null,
  ): Promise<Data> {
    const { db } = this.ctx.database;
    const target = await findVersionRow(db, this.type, documentId, locale, 'draft');
    const exists = target !== undefined || (await findDocumentRows(db, this.type, documentId)).length > 0;
    const now = new Date();
    let body = data;
    if (target)
      body = await events.beforeBody('beforeUpdate', data, this.systemData(query, { updatedAt: now }), {
        id: target.id,
      });
    else if (exists)
      body = await events.beforeBody('beforeCreate', data, {
        documentId,
        ...this.systemData(query, { createdAt: now, updatedAt: now }),
      });
    if (exists && this.type.draftAndPublish && query.status === 'published') {
      const draft = target ? await this.rowValues(db, target.id) : null;
      await this.beforePublishing(
        events,
        documentId,
        locale,
        this.copyData(
          draft,
          body,
          { documentId, createdAt: draft?.createdAt ?? now, updatedAt: now, publishedAt: new Date() },
          locale,
        ),
      );
    }
    return body;
  }

  /**
   * Before a publication of `documentId` in `locale`: publishing deletes the published version and
   * copies the draft; unpublishing deletes the published version; discarding deletes the draft and
   * copies the published version.
   */
  async beforePublication(
    events: RowEvents,
    kind: 'publish' | 'unpublish' | 'discardDraft',
    documentId: string,
    locale: string | null,
  ): Promise<void> {
    const { db } = this.ctx.database;
    const draft = await findVersionRow(db, this.type, documentId, locale, 'draft');
    const published = await findVersionRow(db, this.type, documentId, locale, 'published');
    if (kind === 'publish' && draft) {
      const values = (await this.rowValues(db, draft.id)) ?? {};
      await this.beforePublishing(
        events,
        documentId,
        locale,
        this.copyData(
          values,
          {},
          { documentId, createdAt: values.createdAt, updatedAt: values.updatedAt, publishedAt: new Date() },
          locale,
        ),
      );
    } else if (kind === 'unpublish' && published) {
      await events.beforeDeletes([published.id]);
    } else if (kind === 'discardDraft' && published) {
      if (draft) await events.beforeDeletes([draft.id]);
      const values = (await this.rowValues(db, published.id)) ?? {};
      await events.beforeCopy(
        this.copyData(
          values,
          {},
          { documentId, createdAt: values.createdAt, updatedAt: values.updatedAt, publishedAt: null },
          locale,
        ),
      );
    }
  }

  /** Before a deletion: `beforeDelete` of every version row of `locale` (every locale: null). */
  async beforeDelete(events: RowEvents, documentId: string, locale: string | null | undefined): Promise<void> {
    const rows = await findDocumentRows(this.ctx.database.db, this.type, documentId, locale);
    await events.beforeDeletes(rows.map((row) => row.id));
  }

  /** The `before` events of publishing: the published version deleted, then its copy of the draft created. */
  private async beforePublishing(
    events: RowEvents,
    documentId: string,
    locale: string | null,
    copy: Data,
  ): Promise<void> {
    const published = await findVersionRow(this.ctx.database.db, this.type, documentId, locale, 'published');
    if (published) await events.beforeDeletes([published.id]);
    await events.beforeCopy(copy);
  }

  /** A version row's values (scalars and system fields), as its events show them. */
  private rowValues(db: Db, rowId: number): Promise<Document | null> {
    return findRow(
      this.ctx,
      db,
      this.type,
      rowId,
      { populate: {}, status: 'draft', locale: this.ctx.i18n.defaultLocale },
      {},
      ReadBudget.unlimited(),
    );
  }

  /**
   * The values a copied version will have, as its `beforeCreate` shows them (Strapi's order:
   * documentId, the attributes, the timestamps, publishedAt, locale): the body's over the row's.
   */
  private copyData(row: Document | null, body: Data, system: Data, locale: string | null): Data {
    const data: Data = { documentId: system.documentId };
    for (const [name, attribute] of Object.entries(this.type.attributes)) {
      if (name in body) data[name] = body[name];
      else if (row && name in row) data[name] = row[name];
      else if (attribute.kind === 'scalar' && !attribute.private && attribute.type !== 'password')
        data[name] = attribute.default ?? null;
    }
    return {
      ...data,
      createdAt: system.createdAt,
      updatedAt: system.updatedAt,
      publishedAt: system.publishedAt,
      locale,
    };
  }

  /** The system values of a row a write makes, as Strapi's events show them in `data`. */
  private systemData(query: FindOneQuery, times: Record<string, Date>): Data {
    const system: Data = {};
    if (this.type.draftAndPublish) system.publishedAt = null;
    else if ('createdAt' in times) system.publishedAt = times.createdAt;
    if (this.type.localized) system.locale = query.locale;
    return { ...system, ...times };
  }
}
