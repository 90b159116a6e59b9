/**
 * The one place where project code reaches the document service: `strapi.documents(uid)` with
 * Strapi 5's Document Service defaults (drafts, the default locale, every document unless a page
 * is asked for), and the content API's semantics for the core service (published versions, the
 * default page size and `maxLimit`, what the caller may read). Parameters are Strapi's own
 * (`filters`, `fields`, `populate`, `sort`, `pagination`, `start`, `limit`, `locale`, `status`,
 * `_q`, `data`), checked by the same parser as REST's query strings.
 */
import qs from 'qs';
import type { RestConfig } from '../config/load.js';
import type { CallerOptions, DocumentContext } from '../documents/context.js';
import type { Document } from '../documents/rows.js';
import type { DocumentService } from '../documents/service.js';
import { NotFoundError } from '../errors.js';
import { parseFindOneQuery, parseFindQuery, parseReadOneQuery } from '../query/parse/index.js';
import type { FindManyResult } from '../documents/operations/find-many.js';
import type { ContentType } from '../schema/model.js';

export type Params = Record<string, unknown>;

/**
 * Who a core controller's request reads for, carried by the parameters its `sanitizeQuery`
 * returns: a symbol survives the spreads services make (`{ ...params, documentId }`) and never
 * reaches JSON. Parameters without it read as project code does: everything.
 */
const CALLER = Symbol('vellum.caller');

export function withCaller(params: Params, caller: CallerOptions): Params {
  return Object.assign(params, { [CALLER]: caller });
}

const callerOf = (params: Params | undefined): CallerOptions | undefined => (params as Record<symbol, CallerOptions> | undefined)?.[CALLER];

/**
 * Parameters as the REST parser reads them: what a query string would carry. Project code passes
 * numbers, booleans and arrays (`populate: { author: true }`, `pagination: { page: 1 }`); a round
 * trip through qs writes them as a request would, with no hostile-input limits (this is trusted code).
 */
function asQuery(params: Params): Params {
  const { data: _data, documentId: _documentId, ...rest } = params;
  return qs.parse(qs.stringify(rest, { encodeValuesOnly: true, serializeDate: (d) => d.toISOString() }), {
    depth: 50,
    arrayLimit: 100_000,
    parameterLimit: Number.MAX_SAFE_INTEGER,
    allowPrototypes: false,
  }) as Params;
}

const dataOf = (params: Params): Record<string, unknown> => {
  const data = params.data;
  return data !== null && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : {};
};

/** Every document, when project code asks for no page (Strapi's Document Service has no default limit). */
const ALL = 2_147_483_647;

export interface DocumentResult {
  documentId: string;
  entries: Document[];
}

/** `strapi.documents(uid)`: Strapi 5's Document Service. */
export interface DocumentsApi {
  findMany(params?: Params): Promise<Document[]>;
  findFirst(params?: Params): Promise<Document | null>;
  findOne(params: Params): Promise<Document | null>;
  count(params?: Params): Promise<number>;
  create(params: Params): Promise<Document>;
  update(params: Params): Promise<Document | null>;
  delete(params: Params): Promise<DocumentResult>;
  publish(params: Params): Promise<DocumentResult>;
  unpublish(params: Params): Promise<DocumentResult>;
  discardDraft(params: Params): Promise<DocumentResult>;
}

/** The content API's reads and writes, as REST answers them: what the core service calls. */
export interface RestDocuments {
  findPage(params: Params): Promise<FindManyResult>;
  findOne(documentId: string, params: Params): Promise<Document | null>;
  findSingle(params: Params): Promise<Document | null>;
  create(params: Params): Promise<Document>;
  update(documentId: string, params: Params): Promise<Document>;
  upsertSingle(params: Params): Promise<Document>;
  /** Throws NotFoundError when there is nothing to delete, as REST's DELETE answers 404. */
  delete(documentId: string | null, params: Params): Promise<void>;
}

export class ProjectDocuments {
  constructor(
    private readonly service: DocumentService,
    private readonly context: DocumentContext,
    private readonly restConfig: RestConfig,
  ) {}

  private options(canRead?: CallerOptions['canRead'], rest: RestConfig = this.restConfig) {
    return { rest, i18n: this.context.i18n, canRead: canRead ?? this.context.canRead };
  }

  /** The content API's semantics, for the core service of `type`. */
  rest(type: ContentType): RestDocuments {
    const { service, context } = this;
    const back = (params: Params) => {
      const caller = callerOf(params);
      return { query: parseFindOneQuery(context.schema, type, asQuery(params), this.options(caller?.canRead)), caller };
    };
    return {
      findPage: (params) => {
        const caller = callerOf(params);
        return service.findMany(type, parseFindQuery(context.schema, type, asQuery(params), this.options(caller?.canRead)), caller);
      },
      findOne: (documentId, params) => {
        const caller = callerOf(params);
        return service.findOne(type, documentId, parseReadOneQuery(context.schema, type, asQuery(params), this.options(caller?.canRead)), caller);
      },
      findSingle: (params) => {
        const caller = callerOf(params);
        return service.findSingle(type, parseReadOneQuery(context.schema, type, asQuery(params), this.options(caller?.canRead)), caller);
      },
      create: (params) => service.create(type, dataOf(params), back(params)),
      update: (documentId, params) => service.update(type, documentId, dataOf(params), back(params)),
      upsertSingle: (params) => service.upsertSingle(type, dataOf(params), back(params)),
      delete: async (documentId, params) => {
        const { locale, status } = asQuery(params);
        if (documentId !== null) return service.delete(type, documentId, locale, status);
        if (!(await service.deleteSingle(type, locale, status))) throw new NotFoundError(`No ${type.singularName} found`);
      },
    };
  }

  /** Strapi 5's Document Service of `type`: drafts unless `status: 'published'`, no page limit. */
  strapi(type: ContentType): DocumentsApi {
    const { service, context } = this;
    const unlimited: RestConfig = { ...this.restConfig, defaultLimit: ALL, maxLimit: ALL, withCount: false };
    /** Drafts by default, as Strapi's Document Service reads and writes; types without drafts have one version. */
    const status = (params: Params) => (type.draftAndPublish && params.status !== 'published' ? 'draft' : 'published');
    const listQuery = (params: Params) => {
      const query = asQuery(params);
      const { start, limit, ...rest } = query;
      const pagination = rest.pagination ?? (start !== undefined || limit !== undefined ? { start: start ?? '0', limit: limit ?? String(ALL) } : undefined);
      return parseFindQuery(context.schema, type, { ...rest, pagination, status: status(params) }, this.options(undefined, unlimited));
    };
    const back = (params: Params) => ({ query: parseFindOneQuery(context.schema, type, { ...asQuery(params), status: status(params) }, this.options()) });
    const locales = (params: Params): string[] => {
      if (!type.localized) return [context.i18n.defaultLocale];
      if (params.locale === '*') return context.i18n.locales.length > 0 ? context.i18n.locales : [context.i18n.defaultLocale];
      return [typeof params.locale === 'string' && params.locale !== '' ? params.locale : context.i18n.defaultLocale];
    };
    const documentIdOf = (params: Params): string => {
      if (typeof params.documentId !== 'string' || params.documentId === '') throw new NotFoundError(`${type.uid}: a documentId is needed`);
      return params.documentId;
    };
    /** Each locale asked for; a locale the document lacks is skipped, as Strapi finds no row there. */
    const eachLocale = async (params: Params, run: (locale: string) => Promise<Document | null>): Promise<DocumentResult> => {
      const documentId = documentIdOf(params);
      const entries: Document[] = [];
      for (const locale of locales(params)) {
        try {
          const entry = await run(locale);
          if (entry) entries.push(entry);
        } catch (error) {
          if (!(error instanceof NotFoundError)) throw error;
        }
      }
      return { documentId, entries };
    };
    const api: DocumentsApi = {
      findMany: async (params = {}) => (await service.findMany(type, listQuery(params))).results,
      findFirst: async (params = {}) => (await service.findMany(type, listQuery({ ...params, pagination: undefined, start: 0, limit: 1 }))).results[0] ?? null,
      findOne: (params) =>
        service.findOne(type, documentIdOf(params), parseReadOneQuery(context.schema, type, { ...asQuery(params), status: status(params) }, this.options())),
      count: async (params = {}) => {
        const query = listQuery({ ...params, pagination: undefined, start: 0, limit: 1 });
        const { pagination } = await service.findMany(type, { ...query, pagination: { kind: 'offset', start: 0, limit: 1, withCount: true } });
        return pagination.total ?? 0;
      },
      create: (params) => service.create(type, dataOf(params), back(params)),
      update: (params) => service.update(type, documentIdOf(params), dataOf(params), back(params)),
      delete: async (params) => {
        const documentId = documentIdOf(params);
        try {
          await service.delete(type, documentId, params.locale);
        } catch (error) {
          if (!(error instanceof NotFoundError)) throw error;
        }
        return { documentId, entries: [] };
      },
      publish: (params) => eachLocale(params, (locale) => service.publish(type, documentIdOf(params), locale, back(params))),
      unpublish: (params) => eachLocale(params, (locale) => service.unpublish(type, documentIdOf(params), locale, back(params))),
      discardDraft: (params) => eachLocale(params, (locale) => service.discardDraft(type, documentIdOf(params), locale, back(params))),
    };
    return api;
  }
}
