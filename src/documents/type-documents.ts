/**
 * The documents of one content-type, as the document service hands them out (`service.of(type)`).
 * Every method is async: bad parameters reject the promise, they never throw.
 * Every method takes raw parameters, as a query string parses them or as project code passes them,
 * and does the three steps in one place: parse them against the schema (query/parse, with the
 * ParseOptions built here only), run the operation (operations/*), read the result back.
 */
import type { RestConfig } from '../config/load.js';
import { ValidationError, NotFoundError } from '../errors.js';
import { parseFindOneQuery, parseFindQuery, parseReadOneQuery, type ParseOptions } from '../query/parse/index.js';
import type { FindOneQuery, Status } from '../query/types.js';
import type { ContentType } from '../schema/model.js';
import type { CallerOptions, DocumentContext } from './context.js';
import { ReadBudget } from './read/budget.js';
import { count } from './operations/count.js';
import { create } from './operations/create.js';
import { deleteDocument, deletionLocale } from './operations/delete.js';
import { findMany, type FindManyResult } from './operations/find-many.js';
import { findOne } from './operations/find-one.js';
import { discardDraft, publish, unpublish } from './operations/publication.js';
import { singleDocumentId } from './operations/single.js';
import { update } from './operations/update.js';
import type { Document } from './rows.js';

/**
 * Strapi 5 Document Service parameters, raw: as a query string parses them or as project code
 * passes them. Their meaning is the REST content API's: `status` published and the default locale
 * unless given, `pagination` with the defaults and limits of `config/api` `rest` (top-level
 * `start`/`limit` are not read: REST ignores them; put them in `pagination`).
 */
export interface DocumentParams {
  documentId?: string;
  locale?: unknown;
  status?: unknown;
  filters?: unknown;
  fields?: unknown;
  populate?: unknown;
  sort?: unknown;
  pagination?: unknown;
  start?: unknown;
  limit?: unknown;
  _q?: unknown;
  publicationFilter?: unknown;
  hasPublishedVersion?: unknown;
  /** Attribute values of a create or update. */
  data?: Record<string, unknown>;
  [key: string]: unknown;
}

export type WriteParams = DocumentParams & { data: Record<string, unknown> };

export type { FindManyResult } from './operations/find-many.js';

type Publication = typeof publish;

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

  /** A page of documents: `filters`, `_q`, `sort`, `pagination`, `fields`, `populate`, `status`, `locale` (`*`, lists). */
  async findMany(params: DocumentParams = {}, caller?: CallerOptions): Promise<FindManyResult> {
    const query = parseFindQuery(this.ctx.schema, this.type, params, this.options(caller));
    return findMany(this.ctx, this.type, query, caller ?? {}, this.budget(caller));
  }

  /** The first document a list with these parameters would show (its `pagination` aside), or null. */
  async findFirst(params: DocumentParams = {}, caller?: CallerOptions): Promise<Document | null> {
    const query = parseFindQuery(this.ctx.schema, this.type, params, this.options(caller));
    const first = { ...query, pagination: { kind: 'offset', start: 0, limit: 1, withCount: false } as const };
    return (await findMany(this.ctx, this.type, first, caller ?? {}, this.budget(caller))).results[0] ?? null;
  }

  /** How many documents match `filters` and `_q` in the versions of `status` and `locale`. */
  async count(params: DocumentParams = {}, caller?: CallerOptions): Promise<number> {
    const query = parseFindQuery(this.ctx.schema, this.type, { ...params, pagination: undefined }, this.options(caller));
    return count(this.ctx, this.type, query);
  }

  /**
   * One document, read as `GET /api/:plural/:documentId` reads it: `filters`, `_q`, `sort` and the
   * publication cohorts apply too (a document they exclude is null), `locale` names one locale.
   * A single type without `documentId`: its document.
   */
  async findOne(params: DocumentParams, caller?: CallerOptions): Promise<Document | null> {
    const documentId = this.documentIdOf(params);
    return findOne(this.ctx, this.type, documentId, parseReadOneQuery(this.ctx.schema, this.type, params, this.options(caller)), caller ?? {}, this.budget(caller));
  }

  /**
   * One version of a document as a write reads it back: only `documentId`, `status`, `locale` (one
   * configured code), `fields` and `populate` count; other parameters are ignored. A single type
   * without `documentId`: its document.
   */
  async findVersion(params: DocumentParams, caller?: CallerOptions): Promise<Document | null> {
    const documentId = this.documentIdOf(params);
    return findOne(this.ctx, this.type, documentId, this.backQuery(params, caller), caller ?? {}, this.budget(caller));
  }

  /** Creates a document (`status=draft`: a draft only) and reads it back in the version written. */
  async create(params: WriteParams, caller?: CallerOptions): Promise<Document> {
    const query = this.backQuery(params, caller);
    const documentId = await create(this.ctx, this.type, dataOf(params), this.writeOptions(query));
    return (await findOne(this.ctx, this.type, documentId, query, caller ?? {}, this.budget(caller)))!;
  }

  /**
   * Updates a document's version of `status` and `locale` (a new locale creates it) and reads it
   * back. A single type without `documentId` updates its document, or creates it the first time.
   */
  async update(params: WriteParams, caller?: CallerOptions): Promise<Document> {
    const query = this.backQuery(params, caller);
    const data = dataOf(params);
    const documentId = this.documentIdOf(params) ?? (await singleDocumentId(this.ctx, this.type));
    if (documentId === undefined) return this.create(params, caller);
    await update(this.ctx, this.type, documentId, data, this.writeOptions(query));
    return (await findOne(this.ctx, this.type, documentId, query, caller ?? {}, this.budget(caller)))!;
  }

  /**
   * Deletes the versions (draft and published) of one locale of a document, as Strapi 5: the
   * default locale when none is named, every locale with `*`. `status` draft is refused: a draft
   * alone cannot be deleted (discard it, or unpublish the published version). Unknown: a 404.
   */
  async delete(params: DocumentParams = {}, _caller?: CallerOptions): Promise<{ documentId: string }> {
    const locale = deletionLocale(this.ctx, this.type, params.locale, params.status);
    const documentId = this.documentIdOf(params) ?? (await singleDocumentId(this.ctx, this.type));
    if (documentId === undefined) throw new NotFoundError(`No ${this.type.singularName} found`);
    await deleteDocument(this.ctx, this.type, documentId, locale);
    return { documentId };
  }

  /** Publishes the draft of `locale`; answers the published version. */
  async publish(params: DocumentParams, caller?: CallerOptions): Promise<Document | null> {
    return this.publication(publish, 'published', params, caller);
  }

  /** Removes the published version of `locale`; answers the draft. */
  async unpublish(params: DocumentParams, caller?: CallerOptions): Promise<Document | null> {
    return this.publication(unpublish, 'draft', params, caller);
  }

  /** Restores the draft of `locale` from its published version; answers the draft. */
  async discardDraft(params: DocumentParams, caller?: CallerOptions): Promise<Document | null> {
    return this.publication(discardDraft, 'draft', params, caller);
  }

  private async publication(run: Publication, status: Status, params: DocumentParams, caller: CallerOptions | undefined): Promise<Document | null> {
    const query = this.backQuery(params, caller);
    const documentId = this.documentIdOf(params) ?? (await singleDocumentId(this.ctx, this.type));
    if (documentId === undefined) throw new NotFoundError(`No ${this.type.singularName} found`);
    await run(this.ctx, this.type, documentId, this.writeOptions(query).locale);
    return findOne(this.ctx, this.type, documentId, { ...query, status }, caller ?? {}, this.budget(caller));
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
    if (typeof documentId !== 'string' || documentId === '') throw new ValidationError('documentId must be a non-empty text', { key: 'documentId' });
    return documentId;
  }
}

function dataOf(params: DocumentParams): Record<string, unknown> {
  const { data } = params;
  if (data === undefined || data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw new ValidationError('data must be an object of attribute values', { key: 'data' });
  }
  return data;
}
