/**
 * The documents of one content-type, as the document service hands them out (`service.of(type)`).
 * Every method is async: bad parameters reject the promise, they never throw.
 * Every method takes raw parameters, as a query string parses them or as project code passes them,
 * and runs the same steps:
 * 1. the caller (callers.ts): what it may read, its budget, drafts (a 403 here);
 * 2. the Document Service middlewares around the call (middleware-call.ts);
 * 3. for reads, the read lifecycle events around it (read-events.ts); for writes, the `before`
 *    phase of the row events (write-lifecycles.ts), each only when a subscriber covers the type;
 * 4. parse the parameters against the schema (core/query/parse), run the operation
 *    (operations/*), read the result back (the row events' `after` phase answers it when they ran).
 */
import type { RestConfig } from '../config/load.js';
import { ValidationError, NotFoundError } from '../errors.js';
import { parseFindOneQuery, parseFindQuery, parseReadOneQuery } from '../query/parse/index.js';
import type { FindOneQuery, FindQuery } from '../query/types.js';
import type { ContentType } from '../schema/model.js';
import { DocumentAudit } from './audit.js';
import { DocumentHistory } from './history.js';
import { Callers, draftReader } from './callers.js';
import type { CallerOptions, DocumentContext } from './context.js';
import { createDocumentId } from './document-id.js';
import type { LifecycleAction, LifecycleHooks } from './hooks.js';
import { throughMiddlewares } from './middleware-call.js';
import { count } from './operations/count.js';
import { create } from './operations/create.js';
import { deleteDocument, deletionLocale } from './operations/delete.js';
import { findMany, type FindManyResult } from './operations/find-many.js';
import { findOne } from './operations/find-one.js';
import type { WriteOptions } from './operations/options.js';
import { discardDraft, publicationProblem, publish, unpublish } from './operations/publication.js';
import { singleDocumentId } from './operations/single.js';
import { update } from './operations/update.js';
import { WriteEvents } from './outbox.js';
import type { DocumentParams, WriteParams } from './params.js';
import { aroundRead, type EventfulRead } from './read-events.js';
import type { RowEvents } from './row-events.js';
import type { Document } from './rows.js';
import { WriteLifecycles } from './write-lifecycles.js';

export type { DocumentParams, WriteParams } from './params.js';

export type { FindManyResult } from './operations/find-many.js';

const PUBLICATIONS = { publish, unpublish, discardDraft };

export class TypeDocuments {
  private readonly callers: Callers;
  private readonly writes: WriteLifecycles;

  constructor(
    private readonly ctx: DocumentContext,
    readonly type: ContentType,
    rest: RestConfig,
  ) {
    this.callers = new Callers(ctx, type, rest);
    this.writes = new WriteLifecycles(ctx, type);
  }

  /**
   * Whether a read's answer depends on the database only: no Document Service middleware and no
   * lifecycle subscriber may change it (REST's response cache answers only such reads).
   */
  get cacheable(): boolean {
    return !this.ctx.middlewares?.active && !this.hooks(...READ_ACTIONS);
  }

  /** The lifecycles when a subscriber of this type handles one of these actions (reads: a slug lifecycle costs them nothing). */
  private hooks(...actions: LifecycleAction[]): LifecycleHooks | undefined {
    const lifecycles = this.ctx.lifecycles;
    return lifecycles && actions.some((action) => lifecycles.wants(this.type.uid, action)) ? lifecycles : undefined;
  }

  /** Runs a call through the Document Service middlewares, if any (middleware-call.ts). */
  private chain<T>(action: string, params: DocumentParams, call: (params: DocumentParams) => Promise<T>): Promise<T> {
    return throughMiddlewares(this.ctx, this.type, action, params, call);
  }

  /** A read, between the events of `action` when a subscriber handles them. */
  private read<Q, R>(action: 'FindMany' | 'FindOne' | 'Count', params: DocumentParams, how: EventfulRead<Q, R>) {
    const lifecycles = this.hooks(`before${action}`, `after${action}`);
    if (!lifecycles) return how.read(how.parse(params));
    return aroundRead(lifecycles, action, this.type, this.ctx.i18n.defaultLocale, params, how);
  }

  /** The caller as project code sees the documents (callers.ts `seen`). */
  private seen(caller: CallerOptions | undefined): CallerOptions {
    return this.callers.seen(caller, this.cacheable);
  }

  /** A page of documents: `filters`, `_q`, `sort`, `pagination`, `fields`, `populate`, `status`, `locale` (`*`, lists). */
  async findMany(params: DocumentParams = {}, asked?: CallerOptions): Promise<FindManyResult> {
    const caller = this.callers.reader(params, asked);
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

  private runFindMany(params: DocumentParams, caller: CallerOptions | undefined): Promise<FindManyResult> {
    return this.read('FindMany', params, {
      parse: (raw) =>
        this.callers.noted(caller, parseFindQuery(this.ctx.schema, this.type, raw, this.callers.parseOptions(caller))),
      read: (query) => findMany(this.ctx, this.type, query, this.seen(caller), this.callers.budget(caller)),
      page: (query) => offsetOf(query.pagination),
      shown: (page) => page.results,
    });
  }

  /** The first document a list with these parameters would show (its `pagination` aside), or null. */
  async findFirst(params: DocumentParams = {}, asked?: CallerOptions): Promise<Document | null> {
    const caller = this.callers.reader(params, asked);
    return this.chain('findFirst', params, (given) =>
      this.read('FindOne', given, {
        parse: (raw): FindQuery =>
          this.callers.noted(caller, {
            ...parseFindQuery(this.ctx.schema, this.type, raw, this.callers.parseOptions(caller)),
            pagination: FIRST,
          }),
        read: (query) =>
          findMany(this.ctx, this.type, query, this.seen(caller), this.callers.budget(caller)).then(
            (page) => page.results[0] ?? null,
          ),
      }),
    );
  }

  /** How many documents match `filters` and `_q` in the versions of `status` and `locale`. */
  async count(params: DocumentParams = {}, asked?: CallerOptions): Promise<number> {
    const caller = this.callers.reader(params, asked);
    return this.chain('count', params, (given) =>
      this.read('Count', given, {
        parse: (raw) =>
          this.callers.noted(
            caller,
            parseFindQuery(
              this.ctx.schema,
              this.type,
              { ...raw, pagination: undefined },
              this.callers.parseOptions(caller),
            ),
          ),
        read: (query) => count(this.ctx, this.type, query),
      }),
    );
  }

  /**
   * One document, read as `GET /api/:plural/:documentId` reads it: `filters`, `_q`, `sort` and the
   * publication cohorts apply too (a document they exclude is null), `locale` names one locale.
   * A single type without `documentId`: its document.
   */
  async findOne(params: DocumentParams, asked?: CallerOptions): Promise<Document | null> {
    const caller = this.callers.reader(params, asked);
    return this.chain(this.oneAction(params), params, (given) =>
      this.read('FindOne', given, {
        parse: (raw) =>
          this.callers.noted(
            caller,
            parseReadOneQuery(this.ctx.schema, this.type, raw, this.callers.parseOptions(caller)),
          ),
        read: (query) =>
          findOne(this.ctx, this.type, this.documentIdOf(given), query, this.seen(caller), this.callers.budget(caller)),
      }),
    );
  }

  /**
   * One version of a document as a write reads it back: only `documentId`, `status`, `locale` (one
   * configured code), `fields` and `populate` count; other parameters are ignored. A single type
   * without `documentId`: its document.
   */
  async findVersion(params: DocumentParams, asked?: CallerOptions): Promise<Document | null> {
    const caller = this.callers.reader(params, asked);
    return this.chain(this.oneAction(params), params, (given) =>
      this.read('FindOne', given, {
        parse: (raw) => this.callers.noted(caller, this.backQuery(raw, caller)),
        read: (query) =>
          findOne(this.ctx, this.type, this.documentIdOf(given), query, this.seen(caller), this.callers.budget(caller)),
      }),
    );
  }

  private oneAction(params: DocumentParams): string {
    return params.documentId === undefined || params.documentId === null ? 'findFirst' : 'findOne';
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
    const options: WriteOptions = {
      ...this.writeOptions(query),
      events,
      outbox,
      canLink: asked?.canLink,
      actor: asked?.actor,
      audit: DocumentAudit.of(this.ctx, this.type, asked),
      history: DocumentHistory.of(this.ctx, this.type, asked),
    };
    // A published create's copy names the document in its events, before it exists.
    if (events)
      data = await this.writes.beforeCreate(
        events,
        data,
        query,
        options.locale,
        () => (options.documentId = createDocumentId()),
      );
    const documentId = await create(this.ctx, this.type, data, options);
    this.committed(outbox);
    return (
      (await this.answer(events)) ??
      (await findOne(this.ctx, this.type, documentId, query, caller ?? {}, this.callers.budget(caller)))!
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
    const options: WriteOptions = {
      ...this.writeOptions(query),
      events,
      outbox,
      canLink: asked?.canLink,
      actor: asked?.actor,
      audit: DocumentAudit.of(this.ctx, this.type, asked),
      history: DocumentHistory.of(this.ctx, this.type, asked),
    };
    if (events) data = await this.writes.beforeUpdate(events, data, query, documentId, options.locale);
    await update(this.ctx, this.type, documentId, data, options);
    this.committed(outbox);
    return (
      (await this.answer(events)) ??
      (await findOne(this.ctx, this.type, documentId, query, caller ?? {}, this.callers.budget(caller)))!
    );
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
      if (events) await this.writes.beforeDelete(events, documentId, locale);
      const outbox = WriteEvents.of(this.ctx, this.type, caller);
      if (outbox && (given.populate !== undefined || given.fields !== undefined))
        outbox.removedQuery = this.backQuery({ ...given, locale: undefined, status: undefined }, caller);
      const audit = DocumentAudit.of(this.ctx, this.type, caller);
      await deleteDocument(this.ctx, this.type, documentId, locale, events, outbox, audit);
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

  /**
   * Why `publish` with these parameters (`documentId`, `locale`) would be refused now: the
   * ValidationError of the publish rules, a NotFoundError without a draft, or null. Reads only.
   */
  async publishProblem(params: DocumentParams): Promise<ValidationError | NotFoundError | null> {
    const query = this.backQuery(params, undefined);
    const documentId = this.documentIdOf(params) ?? (await singleDocumentId(this.ctx, this.type));
    if (documentId === undefined) return NotFoundError.missing(`No ${this.type.singularName} found`);
    return publicationProblem(this.ctx, this.type, documentId, this.writeOptions(query).locale);
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
    if (events) await this.writes.beforePublication(events, kind, documentId, locale);
    const outbox = WriteEvents.of(this.ctx, this.type, asked);
    if (outbox && (params.populate !== undefined || params.fields !== undefined)) outbox.removedQuery = query;
    const audit = DocumentAudit.of(this.ctx, this.type, asked);
    const history = DocumentHistory.of(this.ctx, this.type, asked);
    await PUBLICATIONS[kind](this.ctx, this.type, documentId, locale, events, outbox, audit, history);
    this.committed(outbox);
    const answered = await this.answer(events);
    if (answered !== undefined && kind !== 'unpublish') return answered;
    return findOne(
      this.ctx,
      this.type,
      documentId,
      { ...query, status: kind === 'publish' ? 'published' : 'draft' },
      caller ?? {},
      this.callers.budget(caller),
    );
  }

  /** After a write's commit: delivery of the webhook events it recorded may start. */
  private committed(outbox: WriteEvents | undefined): void {
    if (outbox?.recorded) this.ctx.outbox?.committed();
  }

  /** The row events of a write, when a subscriber covers this type (write-lifecycles.ts). */
  private events(
    params: DocumentParams,
    query: FindOneQuery,
    caller: CallerOptions | undefined,
  ): RowEvents | undefined {
    return this.writes.events(params, query, this.seen(caller), this.callers.budget(caller));
  }

  /** What a write reads back, or a read of one version: fields, populate, status, locale. */
  private backQuery(params: DocumentParams, caller: CallerOptions | undefined): FindOneQuery {
    return parseFindOneQuery(this.ctx.schema, this.type, params, this.callers.parseOptions(caller));
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
