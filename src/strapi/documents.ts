/**
 * The one place where project code reaches the document service: `strapi.documents(uid)` with
 * Strapi 5's Document Service defaults (drafts, the default locale, every document unless a page
 * is asked for), and the content API's semantics for the core service (published versions, the
 * default page size and `maxLimit`, what the caller may read). Parameters are Strapi's own
 * (`filters`, `fields`, `populate`, `sort`, `pagination`, `start`, `limit`, `locale`, `status`,
 * `_q`, `data`), checked by the facade with REST's parser.
 */
import type { CallerOptions } from '../core/documents/context.js';
import type {
  Document,
  DocumentParams,
  DocumentService,
  FindManyResult,
  WriteParams,
} from '../core/documents/service.js';
import { NotFoundError } from '../core/errors.js';
import type { ContentType } from '../core/schema/model.js';
import { withKnownData } from './known-data.js';
import { withNullLocales } from './null-locales.js';

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

const callerOf = (params: Params | undefined): CallerOptions | undefined =>
  (params as Record<symbol, CallerOptions> | undefined)?.[CALLER];

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
  /** Rejects with NotFoundError when there is nothing to delete, as REST's DELETE answers 404. */
  delete(documentId: string | null, params: Params): Promise<void>;
}

export class ProjectDocuments {
  /** The same documents without a page size: Strapi's Document Service reads every document. */
  private readonly unlimited: DocumentService;

  constructor(private readonly service: DocumentService) {
    this.unlimited = service.withPageLimits({ defaultLimit: ALL, maxLimit: ALL });
  }

  /** The content API's semantics, for the core service of `type`. */
  rest(type: ContentType): RestDocuments {
    const documents = this.service.of(type);
    return {
      findPage: (params) => documents.findMany(params, callerOf(params)),
      findOne: (documentId, params) => documents.findOne({ ...params, documentId }, callerOf(params)),
      findSingle: (params) => documents.findOne({ ...params, documentId: undefined }, callerOf(params)),
      create: (params) => documents.create(params as WriteParams, callerOf(params)),
      update: (documentId, params) => documents.update({ ...params, documentId } as WriteParams, callerOf(params)),
      upsertSingle: (params) => documents.update({ ...params, documentId: undefined } as WriteParams, callerOf(params)),
      delete: async (documentId, params) => {
        await documents.delete(
          { locale: params.locale, status: params.status, documentId: documentId ?? undefined },
          callerOf(params),
        );
      },
    };
  }

  /** Strapi 5's Document Service of `type`: drafts unless `status: 'published'`, no page limit. */
  strapi(type: ContentType): DocumentsApi {
    const documents = this.unlimited.of(type);
    const { i18n, schema } = this.service;
    /**
     * Drafts by default, as Strapi's Document Service reads and writes. A type without drafts has
     * one version whatever the status, but the status still picks the version of the draft-and-publish
     * types its relations reach: Strapi links such a row to the target's draft and published rows,
     * and its Document Service populates and filters them in the status asked (drafts by default).
     */
    const withStatus = (params: Params): DocumentParams => ({
      ...params,
      status: params.status === 'published' ? 'published' : 'draft',
    });
    /** Strapi reads top-level `start` and `limit`; the facade reads them in `pagination`. */
    const list = (params: Params): DocumentParams => {
      const { start, limit, ...rest } = withStatus(params);
      if (rest.pagination !== undefined || (start === undefined && limit === undefined)) return rest;
      return { ...rest, pagination: { start: start ?? 0, limit: limit ?? ALL } };
    };
    const locales = (params: Params): unknown[] => {
      if (type.localized && params.locale === '*') return i18n.locales.length > 0 ? i18n.locales : [i18n.defaultLocale];
      return [params.locale];
    };
    /** Each locale asked for; a locale the document lacks is skipped, as Strapi finds no row there. */
    const eachLocale = async (
      params: Params,
      run: (locale: unknown) => Promise<Document | null>,
    ): Promise<DocumentResult> => {
      const entries: Document[] = [];
      for (const locale of locales(params)) {
        try {
          const entry = await run(locale);
          if (entry) entries.push(entry);
        } catch (error) {
          if (!(error instanceof NotFoundError)) throw error;
        }
      }
      return { documentId: String(params.documentId), entries: withNullLocales(schema, type, entries) };
    };
    const shaped = <T>(value: T): T => withNullLocales(schema, type, value);
    return {
      findMany: async (params = {}) => shaped((await documents.findMany(list(params))).results),
      findFirst: async (params = {}) => shaped(await documents.findFirst(list(params))),
      findOne: async (params) => shaped(await documents.findOne(withStatus(params))),
      count: (params = {}) => documents.count(withStatus(params)),
      // Keys the model does not have are left out, as Strapi's query engine ignores them.
      create: async (params) =>
        shaped(await documents.create(withStatus(withKnownData(schema, type, params)) as WriteParams)),
      update: async (params) =>
        shaped(await documents.update(withStatus(withKnownData(schema, type, params)) as WriteParams)),
      delete: async (params) => {
        // Strapi answers the rows it deletes (every version, in the locale asked for) as its query
        // engine reads them, with the call's `fields` and `populate`: read before they are gone.
        const locale =
          !type.localized || params.locale === '*'
            ? undefined
            : typeof params.locale === 'string'
              ? params.locale
              : i18n.defaultLocale;
        const where = { documentId: params.documentId, ...(locale !== undefined ? { locale } : {}) };
        // `fields` selects those plus `id` and `documentId`, as Strapi's query transform does.
        const fields = typeof params.fields === 'string' ? [params.fields] : params.fields;
        const selection = {
          ...(Array.isArray(fields) ? { select: [...new Set(['id', 'documentId', ...fields])] } : {}),
          ...(params.populate !== undefined ? { populate: params.populate } : {}),
        };
        const entries =
          typeof params.documentId === 'string'
            ? await this.service.engine.query(type.uid).findMany({ where, ...selection, orderBy: { id: 'asc' } })
            : [];
        try {
          await documents.delete({ ...params, status: undefined });
        } catch (error) {
          // Strapi deletes nothing, without an error, when there is nothing to delete.
          if (!(error instanceof NotFoundError)) throw error;
          return { documentId: String(params.documentId), entries: [] };
        }
        // Private attributes stay out, as everywhere in strapi.documents (Strapi's answer has them).
        const hidden = Object.values(type.attributes)
          .filter((attribute) => attribute.private)
          .map((attribute) => attribute.name);
        for (const entry of entries) for (const name of hidden) delete entry[name];
        return { documentId: String(params.documentId), entries };
      },
      publish: (params) => eachLocale(params, (locale) => documents.publish({ ...params, locale })),
      unpublish: (params) => eachLocale(params, (locale) => documents.unpublish({ ...params, locale })),
      discardDraft: (params) => eachLocale(params, (locale) => documents.discardDraft({ ...params, locale })),
    };
  }
}
