/**
 * The documents of one content-type, as the document service hands them out (`service.of(type)`).
 * Every method is async: bad parameters reject the promise, they never throw.
 * Every method takes raw parameters, as a query string parses them or as project code passes them,
 * and does the three steps in one place: parse them against the schema (core/query/parse, with the
 * ParseOptions built here only), run the operation (operations/*), read the result back.
 */
import type { RestConfig } from '../config/load.js';
import type { Db } from '../database/dialect.js';
import { ForbiddenError, ValidationError, NotFoundError } from '../errors.js';
import { parseFindOneQuery, parseFindQuery, parseReadOneQuery, type ParseOptions } from '../query/parse/index.js';
import type { FindOneQuery, FindQuery } from '../query/types.js';
import type { ContentType } from '../schema/model.js';
import type { CallerOptions, DocumentContext } from './context.js';
import { ReadBudget } from './read/budget.js';
import { readDependencies } from './dependencies.js';
import { createDocumentId } from './document-id.js';
import { count } from './operations/count.js';
import { create } from './operations/create.js';
import { deleteDocument, deletionLocale } from './operations/delete.js';
import { findMany, type FindManyResult } from './operations/find-many.js';
import { findOne, findRow } from './operations/find-one.js';
import { discardDraft, publish, unpublish } from './operations/publication.js';
import { singleDocumentId } from './operations/single.js';
import type { WriteOptions } from './operations/options.js';
import { update } from './operations/update.js';
import { findDocumentRows, findVersionRow } from './operations/versions-store.js';
import type { LifecycleAction, LifecycleHooks } from './hooks.js';
import { paramsAfter, readEvent } from './read-events.js';
import { RowEvents } from './row-events.js';
import { WriteEvents } from './outbox.js';
import type { Document } from './rows.js';
import type { DocumentParams, WriteParams } from './params.js';

export type { DocumentParams, WriteParams } from './params.js';

export type { FindManyResult } from './operations/find-many.js';

const PUBLICATIONS = { publish, unpublish, discardDraft };

export class TypeDocuments {
  /** ParseOptions of a caller without read restrictions: the same object every time. */
  private readonly open: ParseOptions;

  constructor(
    private readonly ctx: DocumentContext,
    readonly type: ContentType,
    private readonly rest: RestConfig,
  ) {
    this.open = { rest, i18n: ctx.i18n };
  }

  /** The caller's budget, or one of `api.rest.costLimit` for this read alone. */
  private budget(caller: CallerOptions | undefined): ReadBudget {
    return caller?.budget ?? new ReadBudget(this.rest.costLimit, 'api.rest.costLimit');
  }

  /** The one place ParseOptions are built: `api.rest` pagination, the locales, what the caller may read. */
  private options(caller: CallerOptions | undefined): ParseOptions {
    return caller?.canRead ? { ...this.open, canRead: caller.canRead } : this.open;
  }

  /**
   * The caller of a read as `params` ask it. A read of drafts (`status: 'draft'`) or of publication
   * cohorts (which tell whether a document has a draft) needs the caller's `canReadDrafts` for this
   * type, or it is a 403. In a read of drafts, relations to the draft-and-publish types whose drafts
   * it may not read are left out, as those it may not read (their drafts would show).
   */
  private reader(params: DocumentParams, caller: CallerOptions | undefined): CallerOptions | undefined {
    const drafts = caller?.canReadDrafts;
    if (!drafts) return caller;
    const cohorts =
      (params.publicationFilter !== undefined && params.publicationFilter !== null) ||
      (params.hasPublishedVersion !== undefined && params.hasPublishedVersion !== null);
    if (this.type.draftAndPublish && (params.status === 'draft' || cohorts) && !drafts(this.type)) {
      throw new ForbiddenError(`This caller may not read drafts of ${this.type.uid}`);
    }
    return draftReader(caller, params.status === 'draft');
  }

  /**
   * Whether a read's answer depends on the database only: no Document Service middleware and no
   * lifecycle subscriber may change it (REST's response cache answers only such reads).
   */
  get cacheable(): boolean {
    return !this.ctx.middlewares?.active && !this.hooks(...READ_ACTIONS);
  }

  /** The lifecycles when a subscriber covers this type (writes: every row event reads its row back). */
  private get lifecycles(): LifecycleHooks | undefined {
    const lifecycles = this.ctx.lifecycles;
    return lifecycles?.covers(this.type.uid) ? lifecycles : undefined;
  }

  /** The lifecycles when a subscriber of this type handles one of these actions (reads: a slug lifecycle costs them nothing). */
  private hooks(...actions: LifecycleAction[]): LifecycleHooks | undefined {
    const lifecycles = this.ctx.lifecycles;
    return lifecycles && actions.some((action) => lifecycles.wants(this.type.uid, action)) ? lifecycles : undefined;
  }

  /**
   * The caller as project code sees the documents: a middleware or handler reads json values as
   * values, not as the raw text REST copies into its answers.
   */
  private seen(caller: CallerOptions | undefined): CallerOptions {
    return caller?.rawJson && !this.cacheable ? { canRead: caller.canRead, budget: caller.budget } : (caller ?? {});
  }

  /**
   * Runs `call` through the Document Service middlewares, if any, with `context.params` showing
   * the status a call without one reads or writes (published, as REST).
   */
  private chain<T>(action: string, params: DocumentParams, call: (params: DocumentParams) => Promise<T>): Promise<T> {
    const refresh = this.ctx.locales?.refreshFor(params);
    if (refresh) return refresh.then(() => this.chainNow(action, params, call));
    return this.chainNow(action, params, call);
  }

  private chainNow<T>(
    action: string,
    params: DocumentParams,
    call: (params: DocumentParams) => Promise<T>,
  ): Promise<T> {
    const middlewares = this.ctx.middlewares;
    if (!middlewares?.active) return call(params);
    let shown = params;
    if (params.status === undefined) {
      const { status: _status, ...rest } = params;
      shown = { status: 'published', ...rest };
    }
    return middlewares.run(this.type, action, shown, call) as Promise<T>;
  }

  /** A page of documents: `filters`, `_q`, `sort`, `pagination`, `fields`, `populate`, `status`, `locale` (`*`, lists). */
  async findMany(params: DocumentParams = {}, asked?: CallerOptions): Promise<FindManyResult> {
    const caller = this.reader(params, asked);
    const refresh = this.ctx.locales?.refreshFor(params);
    if (refresh) await refresh;
    if (!this.ctx.middlewares?.active) return this.runFindMany(params, caller);
    // Middlewares see and answer the documents, as Strapi's findMany answers; the page's counts stay beside.
    let pagination: FindManyResult['pagination'] | undefined;
    const results = await this.chain('findMany', params, async (given) => {
      const page = await this.runFindMany(given, caller);
      pagination = page.pagination;
      return page.results;
    });
    if (!Array.isArray(results))
      throw new TypeError(
        `A document middleware answered findMany of ${this.type.uid} with something other than a list`,
      );
    return {
      results,
      pagination: pagination ?? { page: 1, pageSize: results.length, pageCount: 1, total: results.length },
    };
  }

  private async runFindMany(params: DocumentParams, caller: CallerOptions | undefined): Promise<FindManyResult> {
    const lifecycles = this.hooks('beforeFindMany', 'afterFindMany');
    if (!lifecycles)
      return findMany(
        this.ctx,
        this.type,
        this.noted(caller, parseFindQuery(this.ctx.schema, this.type, params, this.options(caller))),
        caller ?? {},
        this.budget(caller),
      );
    let query = parseFindQuery(this.ctx.schema, this.type, params, this.options(caller));
    const event = readEvent(this.type, params, this.ctx.i18n.defaultLocale, offsetOf(query.pagination));
    const states = await lifecycles.run('beforeFindMany', this.type, event);
    const changed = paramsAfter(event, params);
    if (changed !== params) query = parseFindQuery(this.ctx.schema, this.type, changed, this.options(caller));
    const page = await findMany(this.ctx, this.type, query, this.seen(caller), this.budget(caller));
    await lifecycles.run('afterFindMany', this.type, { params: event.params, result: page.results }, states);
    return page;
  }

  /** `query`, its change groups noted where the caller collects them (`CallerOptions.dependsOn`). */
  private noted<Q extends FindOneQuery>(caller: CallerOptions | undefined, query: Q): Q {
    const into = caller?.dependsOn;
    if (into) for (const group of readDependencies(this.ctx.schema, this.type, query)) into.add(group);
    return query;
  }

  /** The first document a list with these parameters would show (its `pagination` aside), or null. */
  async findFirst(params: DocumentParams = {}, asked?: CallerOptions): Promise<Document | null> {
    const caller = this.reader(params, asked);
    return this.chain('findFirst', params, (given) => {
      const parse = (raw: DocumentParams): FindQuery =>
        this.noted(caller, {
          ...parseFindQuery(this.ctx.schema, this.type, raw, this.options(caller)),
          pagination: FIRST,
        });
      return this.readOne(
        given,
        (query: FindQuery) =>
          findMany(this.ctx, this.type, query, this.seen(caller), this.budget(caller)).then(
            (page) => page.results[0] ?? null,
          ),
        () => parse(given),
        parse,
      );
    });
  }

  /** How many documents match `filters` and `_q` in the versions of `status` and `locale`. */
  async count(params: DocumentParams = {}, asked?: CallerOptions): Promise<number> {
    const caller = this.reader(params, asked);
    return this.chain('count', params, async (given) => {
      const parse = (raw: DocumentParams) =>
        this.noted(
          caller,
          parseFindQuery(this.ctx.schema, this.type, { ...raw, pagination: undefined }, this.options(caller)),
        );
      const lifecycles = this.hooks('beforeCount', 'afterCount');
      if (!lifecycles) return count(this.ctx, this.type, parse(given));
      const event = readEvent(this.type, given, this.ctx.i18n.defaultLocale);
      const states = await lifecycles.run('beforeCount', this.type, event);
      const result = await count(this.ctx, this.type, parse(paramsAfter(event, given)));
      await lifecycles.run('afterCount', this.type, { params: event.params, result }, states);
      return result;
    });
  }

  /**
   * One document, read as `GET /api/:plural/:documentId` reads it: `filters`, `_q`, `sort` and the
   * publication cohorts apply too (a document they exclude is null), `locale` names one locale.
   * A single type without `documentId`: its document.
   */
  async findOne(params: DocumentParams, asked?: CallerOptions): Promise<Document | null> {
    const caller = this.reader(params, asked);
    return this.chain(this.oneAction(params), params, (given) => {
      const parse = (raw: DocumentParams) =>
        this.noted(caller, parseReadOneQuery(this.ctx.schema, this.type, raw, this.options(caller)));
      return this.readOne(
        given,
        (query) =>
          findOne(this.ctx, this.type, this.documentIdOf(given), query, this.seen(caller), this.budget(caller)),
        () => parse(given),
        parse,
      );
    });
  }

  /**
   * One version of a document as a write reads it back: only `documentId`, `status`, `locale` (one
   * configured code), `fields` and `populate` count; other parameters are ignored. A single type
   * without `documentId`: its document.
   */
  async findVersion(params: DocumentParams, asked?: CallerOptions): Promise<Document | null> {
    const caller = this.reader(params, asked);
    return this.chain(this.oneAction(params), params, (given) => {
      const parse = (raw: DocumentParams) => this.noted(caller, this.backQuery(raw, caller));
      return this.readOne(
        given,
        (query) =>
          findOne(this.ctx, this.type, this.documentIdOf(given), query, this.seen(caller), this.budget(caller)),
        () => parse(given),
        parse,
      );
    });
  }

  private oneAction(params: DocumentParams): string {
    return params.documentId === undefined || params.documentId === null ? 'findFirst' : 'findOne';
  }

  /** A read of one document, with `beforeFindOne`/`afterFindOne` around it when a subscriber covers the type. */
  private async readOne<Q>(
    params: DocumentParams,
    read: (query: Q) => Promise<Document | null>,
    parse: () => Q,
    reparse: (params: DocumentParams) => Q,
  ): Promise<Document | null> {
    const lifecycles = this.hooks('beforeFindOne', 'afterFindOne');
    if (!lifecycles) return read(parse());
    const query = parse();
    const event = readEvent(this.type, params, this.ctx.i18n.defaultLocale);
    const states = await lifecycles.run('beforeFindOne', this.type, event);
    const changed = paramsAfter(event, params);
    const result = await read(changed === params ? query : reparse(changed));
    await lifecycles.run('afterFindOne', this.type, { params: event.params, result }, states);
    return result;
  }

  /** Creates a document (`status=draft`: a draft only) and reads it back in the version written. */
  async create(params: WriteParams, caller?: CallerOptions): Promise<Document> {
    return this.chain('create', params, (given) => this.runCreate(given as WriteParams, caller));
  }

  private async runCreate(params: WriteParams, asked: CallerOptions | undefined): Promise<Document> {
    // What the write reads back: the version it wrote, which the writer may read.
    const caller = draftReader(asked, params.status === 'draft');
    const query = this.backQuery(params, caller);
    let data = dataOf(params);
    const events = this.events(params, query, caller);
    const outbox = WriteEvents.of(this.ctx, this.type, asked);
    const options: WriteOptions = { ...this.writeOptions(query), events, outbox, canLink: asked?.canLink };
    if (events) {
      const now = new Date();
      data = await events.beforeBody('beforeCreate', data, this.systemData(query, { createdAt: now, updatedAt: now }));
      if (this.type.draftAndPublish && query.status === 'published') {
        // The published version is a copy of the draft: its events name the document beforehand.
        options.documentId = createDocumentId();
        await events.beforeCopy(
          this.copyData(
            null,
            data,
            { documentId: options.documentId, createdAt: now, updatedAt: now, publishedAt: new Date() },
            options.locale,
          ),
        );
      }
    }
    const documentId = await create(this.ctx, this.type, data, options);
    this.committed(outbox);
    return (
      (await this.answer(events)) ??
      (await findOne(this.ctx, this.type, documentId, query, caller ?? {}, this.budget(caller)))!
    );
  }

  /** After a write with events: their `after` phase, and the row they answer (undefined without events). */
  private async answer(events: RowEvents | undefined): Promise<Document | null | undefined> {
    if (!events) return undefined;
    await events.afterAll();
    return events.last;
  }

  /**
   * Updates a document's version of `status` and `locale` (a new locale creates it) and reads it
   * back. A single type without `documentId` updates its document, or creates it the first time.
   */
  async update(params: WriteParams, caller?: CallerOptions): Promise<Document> {
    return this.chain('update', params, async (given) => {
      const write = given as WriteParams;
      const documentId = this.documentIdOf(write) ?? (await singleDocumentId(this.ctx, this.type));
      if (documentId === undefined) return this.runCreate(write, caller);
      return this.runUpdate(write, documentId, caller);
    });
  }

  private async runUpdate(
    params: WriteParams,
    documentId: string,
    asked: CallerOptions | undefined,
  ): Promise<Document> {
    const caller = draftReader(asked, params.status === 'draft');
    const query = this.backQuery(params, caller);
    let data = dataOf(params);
    const events = this.events(params, query, caller);
    const outbox = WriteEvents.of(this.ctx, this.type, asked);
    const options: WriteOptions = { ...this.writeOptions(query), events, outbox, canLink: asked?.canLink };
    if (events) {
      // The row the body edits (the draft, or the only row), or a new locale of the document.
      const { db } = this.ctx.database;
      const target = await findVersionRow(db, this.type, documentId, options.locale, 'draft');
      const exists = target !== undefined || (await findDocumentRows(db, this.type, documentId)).length > 0;
      const now = new Date();
      if (target)
        data = await events.beforeBody('beforeUpdate', data, this.systemData(query, { updatedAt: now }), {
          id: target.id,
        });
      else if (exists)
        data = await events.beforeBody('beforeCreate', data, {
          documentId,
          ...this.systemData(query, { createdAt: now, updatedAt: now }),
        });
      if (exists && this.type.draftAndPublish && query.status === 'published') {
        const draft = target ? await this.rowValues(db, target.id) : null;
        await this.beforePublishing(
          events,
          documentId,
          options.locale,
          this.copyData(
            draft,
            data,
            { documentId, createdAt: draft?.createdAt ?? now, updatedAt: now, publishedAt: new Date() },
            options.locale,
          ),
        );
      }
    }
    await update(this.ctx, this.type, documentId, data, options);
    this.committed(outbox);
    return (
      (await this.answer(events)) ??
      (await findOne(this.ctx, this.type, documentId, query, caller ?? {}, this.budget(caller)))!
    );
  }

  /** The `before` events of publishing: the published version deleted, then its copy of the draft created. */
  private async beforePublishing(
    events: RowEvents,
    documentId: string,
    locale: string | null,
    copy: Record<string, unknown>,
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
  private copyData(
    row: Document | null,
    body: Record<string, unknown>,
    system: Record<string, unknown>,
    locale: string | null,
  ): Record<string, unknown> {
    const data: Record<string, unknown> = { documentId: system.documentId };
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

  /**
   * Deletes the versions (draft and published) of one locale of a document, as Strapi 5: the
   * default locale when none is named, every locale with `*`. `status` draft is refused: a draft
   * alone cannot be deleted (discard it, or unpublish the published version). Unknown: a 404.
   */
  async delete(params: DocumentParams = {}, caller?: CallerOptions): Promise<{ documentId: string }> {
    return this.chain('delete', params, async (given) => {
      const locale = deletionLocale(this.ctx, this.type, given.locale, given.status);
      const documentId = this.documentIdOf(given) ?? (await singleDocumentId(this.ctx, this.type));
      if (documentId === undefined) throw NotFoundError.missing(`No ${this.type.singularName} found`);
      const events = this.events(
        given,
        this.backQuery({ ...given, locale: undefined, status: undefined }, caller),
        caller,
      );
      if (events)
        await events.beforeDeletes(
          (await findDocumentRows(this.ctx.database.db, this.type, documentId, locale)).map((row) => row.id),
        );
      const outbox = WriteEvents.of(this.ctx, this.type, caller);
      if (outbox && (given.populate !== undefined || given.fields !== undefined))
        outbox.removedQuery = this.backQuery({ ...given, locale: undefined, status: undefined }, caller);
      await deleteDocument(this.ctx, this.type, documentId, locale, events, outbox);
      this.committed(outbox);
      await this.answer(events);
      return { documentId };
    });
  }

  /** Publishes the draft of `locale`; answers the published version. */
  async publish(params: DocumentParams, caller?: CallerOptions): Promise<Document | null> {
    return this.chain('publish', params, (given) => this.publication('publish', given, caller));
  }

  /** Removes the published version of `locale`; answers the draft. */
  async unpublish(params: DocumentParams, caller?: CallerOptions): Promise<Document | null> {
    return this.chain('unpublish', params, (given) => this.publication('unpublish', given, caller));
  }

  /** Restores the draft of `locale` from its published version; answers the draft. */
  async discardDraft(params: DocumentParams, caller?: CallerOptions): Promise<Document | null> {
    return this.chain('discardDraft', params, (given) => this.publication('discardDraft', given, caller));
  }

  private async publication(
    kind: 'publish' | 'unpublish' | 'discardDraft',
    params: DocumentParams,
    asked: CallerOptions | undefined,
  ): Promise<Document | null> {
    // Unpublishing and discarding answer the draft.
    const caller = draftReader(asked, kind !== 'publish');
    const query = this.backQuery(params, caller);
    const documentId = this.documentIdOf(params) ?? (await singleDocumentId(this.ctx, this.type));
    if (documentId === undefined) throw NotFoundError.missing(`No ${this.type.singularName} found`);
    const { locale } = this.writeOptions(query);
    const events = this.type.draftAndPublish ? this.events(params, query, caller) : undefined;
    if (events) {
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
    const outbox = WriteEvents.of(this.ctx, this.type, asked);
    if (outbox && (params.populate !== undefined || params.fields !== undefined)) outbox.removedQuery = query;
    await PUBLICATIONS[kind](this.ctx, this.type, documentId, locale, events, outbox);
    this.committed(outbox);
    const answered = await this.answer(events);
    if (answered !== undefined && kind !== 'unpublish') return answered;
    return findOne(
      this.ctx,
      this.type,
      documentId,
      { ...query, status: kind === 'publish' ? 'published' : 'draft' },
      caller ?? {},
      this.budget(caller),
    );
  }

  /** After a write's commit: delivery of the webhook events it recorded may start. */
  private committed(outbox: WriteEvents | undefined): void {
    if (outbox?.recorded) this.ctx.outbox?.committed();
  }

  /** The row events of a write, when a subscriber covers this type. */
  private events(
    params: DocumentParams,
    query: FindOneQuery,
    caller: CallerOptions | undefined,
  ): RowEvents | undefined {
    const lifecycles = this.lifecycles;
    if (!lifecycles) return undefined;
    const selection: Record<string, unknown> = {};
    if (params.fields !== undefined) selection.select = params.fields;
    if (params.populate !== undefined) selection.populate = params.populate;
    return new RowEvents(
      { ...this.ctx, lifecycles },
      this.type,
      query,
      this.seen(caller),
      selection,
      this.budget(caller),
    );
  }

  /** The system values of a row a write makes, as Strapi's events show them in `data`. */
  private systemData(query: FindOneQuery, times: Record<string, Date>): Record<string, unknown> {
    const system: Record<string, unknown> = {};
    if (this.type.draftAndPublish) system.publishedAt = null;
    else if ('createdAt' in times) system.publishedAt = times.createdAt;
    if (this.type.localized) system.locale = query.locale;
    return { ...system, ...times };
  }

  /** What a write reads back, or a read of one version: fields, populate, status, locale. */
  private backQuery(params: DocumentParams, caller: CallerOptions | undefined): FindOneQuery {
    return parseFindOneQuery(this.ctx.schema, this.type, params, this.options(caller));
  }

  private writeOptions(query: FindOneQuery) {
    return { status: query.status, locale: this.type.localized ? query.locale : null };
  }

  /** `documentId` as given; null for a single type without one (its only document). */
  private documentIdOf(params: DocumentParams): string | null {
    const { documentId } = params;
    if (documentId === undefined || documentId === null) {
      if (this.type.kind === 'singleType') return null;
      throw new ValidationError(`A documentId is needed to address a ${this.type.singularName}`, { key: 'documentId' });
    }
    if (typeof documentId !== 'string' || documentId === '')
      throw new ValidationError('documentId must be a non-empty text', { key: 'documentId' });
    return documentId;
  }
}

const FIRST = { kind: 'offset', start: 0, limit: 1, withCount: false } as const;

/**
 * The caller of a read of drafts (`draft`), when it says whose drafts it may read: it reads the
 * types whose drafts it may read among those it may read. The caller itself otherwise.
 */
function draftReader(caller: CallerOptions | undefined, draft: boolean): CallerOptions | undefined {
  const drafts = caller?.canReadDrafts;
  if (!draft || !drafts) return caller;
  const { canRead } = caller;
  return { ...caller, canRead: (type) => (!canRead || canRead(type)) && (!type.draftAndPublish || drafts(type)) };
}

/** The lifecycle actions of reads: with none handled, a read's answer is the database's. */
const READ_ACTIONS: LifecycleAction[] = [
  'beforeFindMany',
  'afterFindMany',
  'beforeFindOne',
  'afterFindOne',
  'beforeCount',
  'afterCount',
];

/** The rows a page skips and takes, as the events' `offset` and `limit`. */
function offsetOf(pagination: FindQuery['pagination']): { offset: number; limit: number } {
  return pagination.kind === 'page'
    ? { offset: (pagination.page - 1) * pagination.pageSize, limit: pagination.pageSize }
    : { offset: pagination.start, limit: pagination.limit };
}

function dataOf(params: DocumentParams): Record<string, unknown> {
  const { data } = params;
  if (data === undefined || data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw new ValidationError('data must be an object of attribute values', { key: 'data' });
  }
  return data;
}
