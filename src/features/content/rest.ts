/**
 * The REST content API (docs/rest.md "Routes"): for each collection type `/api/:pluralApiId` and
 * `/api/:pluralApiId/:documentId`, for each single type `/api/:singularApiId`, plus the
 * draft-and-publish actions. Each handler is the same pipeline: access, the top-level parameters
 * Strapi refuses, the document service (which parses the query, writes and reads back), the
 * envelope.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RestConfig } from '../../core/config/load.js';
import type { DocumentService, TypeDocuments } from '../../core/documents/service.js';
import { NotFoundError, QueryValidationError, ValidationError } from '../../core/errors.js';
import { checkTopLevelParams, type Action } from '../../core/query/parse/top-level.js';
import type { ContentType } from '../../core/schema/model.js';
import type { AccessControl, Caller } from '../../api/access.js';
import { legacyData, wantsLegacyFormat } from '../../api/legacy-format.js';
import type { Document } from '../../core/documents/rows.js';
import { queryTouched } from '../../api/http.js';
import { jsonBody, sendBody, sendJson } from '../../api/json-body.js';
import type { ResponseCache } from '../../api/response-cache.js';
import type { ScheduledActions } from '../events/index.js';

type Query = Record<string, unknown>;
type Params = { documentId: string };

export interface ContentApiOptions {
  service: DocumentService;
  /** `api.rest`: limits, strict parameters. */
  rest: RestConfig;
  /** The response cache (`api.rest.cache`), shared with GraphQL; absent when switched off. */
  cache?: ResponseCache;
  access: AccessControl;
  prefix: string;
  /**
   * The actions served, by content-type uid, when the project has routers of its own (Strapi
   * serves what they declare; the project serves its other routes itself). Absent: every
   * content-type's actions (a project without routers). The draft-and-publish actions go with
   * `update`.
   */
  routes?: Map<string, ReadonlySet<string>>;
  /** Scheduled publishing: `publish` and `unpublish` with `?at=<ISO date>` store the action for later. */
  schedules?: ScheduledActions;
}

/** `data` of a POST/PUT body; anything else is a 400 naming what is wrong. */
function bodyData(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ValidationError('Missing "data" payload in the request body');
  }
  const data = (body as Record<string, unknown>).data;
  if (data === undefined || data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw new ValidationError('Missing "data" payload in the request body');
  }
  return data as Record<string, unknown>;
}

export function registerContentApi(app: FastifyInstance, options: ContentApiOptions): void {
  const { service, rest, access, prefix, cache } = options;
  /** The current format, or the earlier one when the request asks for it (docs/rest.md "Earlier response format (v4)"). */
  const shape = (request: FastifyRequest, type: ContentType, data: Document | Document[] | null) =>
    wantsLegacyFormat(request.headers) ? legacyData(service.schema, type, data) : data;
  /** The envelope `{ data, meta }`, written by jsonBody. */
  const envelope = (
    request: FastifyRequest,
    type: ContentType,
    data: Document | Document[] | null,
    meta: object = {},
  ) => ({
    data: shape(request, type, data),
    meta,
  });
  const answer = (
    request: FastifyRequest,
    reply: FastifyReply,
    type: ContentType,
    data: Document | Document[] | null,
    meta: object = {},
    status = 200,
  ) => sendJson(reply, envelope(request, type, data, meta), status);
  /**
   * A read answered from the response cache when nothing it read has changed since the same
   * request was answered for a caller with the same grants; `read` runs otherwise, noting what it
   * reads (`dependsOn`). The counters are read before `read` runs, so what is stored is never
   * older than the counters it is stored with.
   */
  const cachedRead = async (
    request: FastifyRequest,
    reply: FastifyReply,
    caller: Caller,
    documents: TypeDocuments,
    read: () => Promise<unknown>,
  ) => {
    // A query project code read or changed (a global middleware) is not the URL's: not shared. A
    // document middleware or a lifecycle may answer what the database does not hold: not cached.
    // Every answer of a type reads the type's own group: while it moves, no entry can be served.
    const scope =
      cache &&
      !cache.moving(documents.type.table) &&
      !queryTouched(request) &&
      documents.cacheable &&
      caller.cacheScope;
    if (!cache || !scope) return sendJson(reply, await read());
    const versions = await service.changeVersions();
    const key = `${scope}\n${wantsLegacyFormat(request.headers) ? 'v4' : ''}\n${request.url}`;
    const hit = cache.lookup(key, versions);
    if (hit) return sendBody(reply, hit);
    const dependsOn = new Set<string>();
    caller.dependsOn = dependsOn;
    const body = jsonBody(await read());
    cache.store(key, versions, [...dependsOn], body);
    return sendBody(reply, body);
  };
  const notFound = (type: ContentType, documentId?: string) =>
    NotFoundError.missing(
      documentId ? `No ${type.singularName} with documentId ${documentId}` : `No ${type.singularName} found`,
    );

  for (const type of service.schema.contentTypes.values()) {
    if (type.builtIn) continue;
    const documents = service.of(type);
    const actions = options.routes?.get(type.uid);
    const serves = (action: string) => !options.routes || actions?.has(action) === true;

    // Every answer is serialised by jsonBody, which writes stored JSON text through (rawJson).
    const authorize = async (request: FastifyRequest, action: 'find' | 'findOne' | 'create' | 'update') => {
      // Marked, not copied: a copy would evaluate cacheScope, which is lazy, on every request.
      const caller = await access.authorize(request.headers, { uid: type.uid, action });
      caller.rawJson = true;
      return caller;
    };
    const checkParams = (request: FastifyRequest, action: Action) =>
      checkTopLevelParams(request.query as Query, action, rest.strictParams);
    /**
     * What a DELETE answers in the earlier format (the deleted entry: docs/rest.md "Earlier response format (v4)"): the document as the
     * request's fields and populate show it, published or else its draft, in the locale deleted
     * (the default locale without `locale` or with `*`).
     */
    const deletedEntry = async (
      request: FastifyRequest,
      caller: Caller,
      documentId: string | undefined,
    ): Promise<Document | null> => {
      const raw = request.query as Query;
      const locale = raw.locale === '*' ? undefined : raw.locale;
      const read = (status: 'published' | 'draft') =>
        documents.findVersion({ ...raw, documentId, locale, status }, caller);
      return (await read('published')) ?? (type.draftAndPublish ? read('draft') : null);
    };
    /** A write's caller, once the parameters Strapi refuses are refused. */
    const writer = async (request: FastifyRequest, action: 'create' | 'update') => {
      const caller = await authorize(request, action);
      checkParams(request, 'write');
      return caller;
    };

    if (type.kind === 'collectionType') {
      const base = `${prefix}/${type.pluralName}`;

      if (serves('find'))
        app.get(base, async (request, reply) => {
          const caller = await authorize(request, 'find');
          return cachedRead(request, reply, caller, documents, async () => {
            checkParams(request, 'find');
            const { results, pagination } = await documents.findMany(request.query as Query, caller);
            return envelope(request, type, results, { pagination });
          });
        });

      if (serves('findOne'))
        app.get<{ Params: Params }>(`${base}/:documentId`, async (request, reply) => {
          const caller = await authorize(request, 'findOne');
          return cachedRead(request, reply, caller, documents, async () => {
            checkParams(request, 'findOne');
            const document = await documents.findOne(
              { ...(request.query as Query), documentId: request.params.documentId },
              caller,
            );
            if (!document) throw notFound(type, request.params.documentId);
            return envelope(request, type, document);
          });
        });

      if (serves('create'))
        app.post(base, async (request, reply) => {
          const caller = await writer(request, 'create');
          const document = await documents.create(
            { ...(request.query as Query), data: bodyData(request.body) },
            caller,
          );
          return answer(request, reply, type, document, {}, 201);
        });

      if (serves('update'))
        app.put<{ Params: Params }>(`${base}/:documentId`, async (request, reply) => {
          const caller = await writer(request, 'update');
          const params = {
            ...(request.query as Query),
            documentId: request.params.documentId,
            data: bodyData(request.body),
          };
          const document = await documents.update(params, caller);
          return answer(request, reply, type, document);
        });

      if (serves('delete'))
        app.delete<{ Params: Params }>(`${base}/:documentId`, async (request, reply) => {
          const caller = await access.authorize(request.headers, { uid: type.uid, action: 'delete' });
          checkParams(request, 'write');
          const { locale, status } = request.query as Query;
          const { documentId } = request.params;
          const before = wantsLegacyFormat(request.headers)
            ? await deletedEntry(request, caller, documentId)
            : undefined;
          await documents.delete({ documentId, locale, status }, caller);
          return before === undefined ? reply.status(204).send() : answer(request, reply, type, before);
        });

      const publication = {
        publish: documents.publish,
        unpublish: documents.unpublish,
        'discard-draft': documents.discardDraft,
      } as const;
      for (const [name, run] of Object.entries(publication)) {
        if (serves('update'))
          app.post<{ Params: Params }>(`${base}/:documentId/actions/${name}`, async (request, reply) => {
            const { at, ...query } = request.query as Query;
            const { documentId } = request.params;
            if (at !== undefined) {
              // Scheduled publishing: stored now, carried out at `at` by one node (features/events/schedules.ts).
              await authorize(request, 'update');
              if (name === 'discard-draft' || !options.schedules)
                throw new QueryValidationError(`at applies to the publish and unpublish actions only`, {
                  param: 'at',
                  key: 'at',
                  path: null,
                });
              const scheduled = await options.schedules.schedule(
                name as 'publish' | 'unpublish',
                type,
                documentId,
                query.locale,
                at,
              );
              return sendJson(reply, { data: scheduled, meta: {} }, 202);
            }
            const caller = await writer(request, 'update');
            const document = await run.call(documents, { ...query, documentId }, caller);
            return answer(request, reply, type, document);
          });
      }
    } else {
      const base = `${prefix}/${type.singularName}`;

      if (serves('find'))
        app.get(base, async (request, reply) => {
          const caller = await authorize(request, 'find');
          return cachedRead(request, reply, caller, documents, async () => {
            checkParams(request, 'findOne');
            // The type's one document: a `documentId` in the query string names nothing here.
            const document = await documents.findOne({ ...(request.query as Query), documentId: undefined }, caller);
            if (!document) throw notFound(type);
            return envelope(request, type, document);
          });
        });

      if (serves('update'))
        app.put(base, async (request, reply) => {
          const caller = await writer(request, 'update');
          const document = await documents.update(
            { ...(request.query as Query), documentId: undefined, data: bodyData(request.body) },
            caller,
          );
          return answer(request, reply, type, document);
        });

      if (serves('delete'))
        app.delete(base, async (request, reply: FastifyReply) => {
          const caller = await access.authorize(request.headers, { uid: type.uid, action: 'delete' });
          checkParams(request, 'write');
          const { locale, status } = request.query as Query;
          const before = wantsLegacyFormat(request.headers)
            ? await deletedEntry(request, caller, undefined)
            : undefined;
          await documents.delete({ locale, status }, caller);
          return before === undefined ? reply.status(204).send() : answer(request, reply, type, before);
        });
    }
  }
}
