/**
 * The admin panel's content API, under `/admin/` and reached with an administrator's JWT only:
 * the schema as the panel builds its forms from it (`GET /admin/content-types`), and the content
 * manager's reads and writes (`/admin/content-manager/...`, Strapi's admin paths). Administrators
 * see and write everything: the document service is called without a caller's limits, drafts
 * first (a draft-and-publish type is edited as its draft, then published).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Auth } from '../users-permissions/index.js';
import type { DocumentService, TypeDocuments } from '../../core/documents/service.js';
import type { Document } from '../../core/documents/rows.js';
import { NotFoundError, ValidationError } from '../../core/errors.js';
import { EXPLORER } from '../admin-roles/index.js';
import { adminCaller } from './guard.js';
import { contentAccess } from './content-access.js';
import { sendCompressibleJson, sendJson } from '../../api/json-body.js';
import { describeSchema } from './schema.js';
import { isHidden, isToManyRelation, type ContentType, type Model, type Schema } from '../../core/schema/model.js';

type Query = Record<string, unknown>;
type TypeParams = { uid: string };
type DocumentParams = { uid: string; documentId: string };
type ActionParams = DocumentParams & { action: string };

export interface AdminContentOptions {
  auth: Auth;
  documents: DocumentService;
  prefix?: string;
}

/** `data` of a write's body, a JSON object. */
function bodyData(body: unknown): Record<string, unknown> {
  const data =
    body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>).data : undefined;
  if (!data || typeof data !== 'object' || Array.isArray(data))
    throw new ValidationError('Missing "data" payload in the request body');
  return data as Record<string, unknown>;
}

/** What a published version tells beside its draft: when, and whether the draft changed since. */
interface PublicationState {
  publishedAt: string | null;
  /** The draft was saved after the published version was made. */
  modified: boolean;
}

const stamp = (document: Document | null | undefined, key: string): string | null => {
  const value = document?.[key];
  return typeof value === 'string' ? value : value instanceof Date ? value.toISOString() : null;
};

/**
 * Strapi's content manager's deep populate (`populateDeep(Infinity).countRelations()`), which its
 * unpublish hands to the document service, so entry.unpublish carries it: relations counted, media
 * whole, components and zones all the way down, a localized type's localizations.
 */
export function managerPopulate(schema: Schema, model: Model, list = false, depth = 0): Record<string, unknown> {
  const populate: Record<string, unknown> = {};
  for (const attribute of Object.values(model.attributes)) {
    if (isHidden(attribute)) continue;
    if (attribute.kind === 'relation')
      // A list shows a to-one relation's document (null when none), a to-many one's count.
      populate[attribute.name] = list && !isToManyRelation(attribute.relation) ? true : { count: true };
    else if (attribute.kind === 'media') {
      // A list leaves out the media inside components (Strapi 5.54's list populate).
      if (!list || depth === 0) populate[attribute.name] = true;
    } else if (attribute.kind === 'component') {
      const component = schema.components.get(attribute.component);
      if (component) populate[attribute.name] = { populate: managerPopulate(schema, component, list, depth + 1) };
    } else if (attribute.kind === 'dynamiczone') {
      const on: Record<string, unknown> = {};
      for (const uid of attribute.components) {
        const component = schema.components.get(uid);
        if (component) on[uid] = { populate: managerPopulate(schema, component, list, depth + 1) };
      }
      populate[attribute.name] = { on };
    }
  }
  if (model.modelType === 'contentType' && model.localized) populate.localizations = true;
  return populate;
}

export function registerAdminContentRoutes(app: FastifyInstance, options: AdminContentOptions): void {
  const { auth, documents: service } = options;
  const prefix = options.prefix ?? '/admin';
  const manager = `${prefix}/content-manager`;

  /** A content-type the content manager edits (the built-in users and files have screens of their own). */
  const typeOf = (uid: string, kind: ContentType['kind']): ContentType => {
    const type = service.schema.contentTypes.get(uid);
    if (!type || type.builtIn || type.kind !== kind)
      throw new NotFoundError(`No ${kind === 'collectionType' ? 'collection' : 'single'} type ${uid}`);
    return type;
  };
  /** Drafts first: what an editor works on (a type without draft and publish has one version). */
  const draftQuery = (type: ContentType, query: Query): Query =>
    type.draftAndPublish ? { ...query, status: 'draft' } : { ...query };

  /** The published versions of these documents, by documentId (one query). */
  const publication = async (
    type: ContentType,
    documents: TypeDocuments,
    drafts: Document[],
    locale: unknown,
  ): Promise<Record<string, PublicationState>> => {
    if (!type.draftAndPublish || drafts.length === 0) return {};
    const ids = drafts.map((draft) => String(draft.documentId));
    const { results } = await documents.findMany({
      status: 'published',
      locale,
      filters: { documentId: { $in: ids } },
      fields: ['updatedAt', 'publishedAt'],
      pagination: { page: 1, pageSize: ids.length },
    });
    const published = new Map(results.map((version) => [String(version.documentId), version]));
    const states: Record<string, PublicationState> = {};
    for (const draft of drafts) {
      const version = published.get(String(draft.documentId));
      if (!version) continue;
      const draftAt = stamp(draft, 'updatedAt');
      const publishedAt = stamp(version, 'updatedAt');
      states[String(draft.documentId)] = {
        publishedAt: stamp(version, 'publishedAt'),
        modified: draftAt !== null && publishedAt !== null && draftAt > publishedAt,
      };
    }
    return states;
  };

  /** One document as the edit view shows it: its draft and whether it is published. */
  const editable = async (type: ContentType, documents: TypeDocuments, document: Document | null, locale: unknown) => {
    if (!document) return { data: null, meta: { publication: null } };
    const states = await publication(type, documents, [document], locale);
    return { data: document, meta: { publication: states[String(document.documentId)] ?? null } };
  };

  const { access, checkOwn, readScope, shown, written } = contentAccess(auth, service);

  void app.register(async (admin) => {
    admin.addHook('onRequest', async (request) => {
      await adminCaller(auth, request);
    });

    admin.get(`${prefix}/content-types`, async (request, reply) =>
      sendCompressibleJson(request, reply, { data: describeSchema(service.schema) }),
    );

    // Collection types.
    const collection = `${manager}/collection-types/:uid`;
    admin.get<{ Params: TypeParams }>(collection, async (request, reply) => {
      const type = typeOf(request.params.uid, 'collectionType');
      const { scope, caller } = await access(request, EXPLORER.read, type);
      const documents = service.of(type);
      const query = request.query as Query;
      const { results, pagination } = await documents.findMany(draftQuery(type, query), caller);
      return sendJson(reply, {
        data: results.map((document) => shown(type, scope, document)),
        meta: { pagination, publication: await publication(type, documents, results, query.locale) },
      });
    });
    admin.post<{ Params: TypeParams }>(collection, async (request, reply) => {
      const type = typeOf(request.params.uid, 'collectionType');
      const { scope, caller } = await access(request, EXPLORER.create, type);
      const documents = service.of(type);
      const query = request.query as Query;
      const document = await documents.create(
        { ...draftQuery(type, query), data: written(type, scope, bodyData(request.body)) },
        { actor: caller.actor },
      );
      const read = await readScope(request, type);
      return sendJson(reply, await editable(type, documents, shown(type, read, document), query.locale), 201);
    });
    admin.get<{ Params: DocumentParams }>(`${collection}/:documentId`, async (request, reply) => {
      const type = typeOf(request.params.uid, 'collectionType');
      const { scope, caller } = await access(request, EXPLORER.read, type);
      const documents = service.of(type);
      const query = request.query as Query;
      await checkOwn(type, caller, request.params.documentId, query.locale);
      const document = await documents.findOne(
        { ...draftQuery(type, query), documentId: request.params.documentId },
        caller,
      );
      if (!document) throw new NotFoundError(`No ${type.singularName} with documentId ${request.params.documentId}`);
      return sendJson(reply, await editable(type, documents, shown(type, scope, document), query.locale));
    });
    admin.put<{ Params: DocumentParams }>(`${collection}/:documentId`, async (request, reply) => {
      const type = typeOf(request.params.uid, 'collectionType');
      const { scope, caller } = await access(request, EXPLORER.update, type);
      const documents = service.of(type);
      const query = request.query as Query;
      await checkOwn(type, caller, request.params.documentId, query.locale);
      const document = await documents.update(
        {
          ...draftQuery(type, query),
          documentId: request.params.documentId,
          data: written(type, scope, bodyData(request.body)),
        },
        { actor: caller.actor },
      );
      const read = await readScope(request, type);
      return sendJson(reply, await editable(type, documents, shown(type, read, document), query.locale));
    });
    admin.delete<{ Params: DocumentParams }>(`${collection}/:documentId`, async (request, reply) => {
      const type = typeOf(request.params.uid, 'collectionType');
      const { caller } = await access(request, EXPLORER.delete, type);
      const { locale } = request.query as Query;
      await checkOwn(type, caller, request.params.documentId, locale);
      await service.of(type).delete({ documentId: request.params.documentId, locale }, { actor: caller.actor });
      return reply.status(204).send();
    });
    admin.post<{ Params: ActionParams }>(`${collection}/:documentId/actions/:action`, async (request, reply) => {
      const type = typeOf(request.params.uid, 'collectionType');
      return sendJson(reply, await publicationAction(type, request, request.params.documentId));
    });

    // Single types: the type's one document.
    const single = `${manager}/single-types/:uid`;
    admin.get<{ Params: TypeParams }>(single, async (request, reply) => {
      const type = typeOf(request.params.uid, 'singleType');
      const { scope, caller } = await access(request, EXPLORER.read, type);
      const documents = service.of(type);
      const query = request.query as Query;
      const document = await documents.findOne({ ...draftQuery(type, query), documentId: undefined }, caller);
      return sendJson(reply, await editable(type, documents, shown(type, scope, document), query.locale));
    });
    admin.put<{ Params: TypeParams }>(single, async (request, reply) => {
      const type = typeOf(request.params.uid, 'singleType');
      const { scope, caller } = await access(request, EXPLORER.update, type);
      const documents = service.of(type);
      const query = request.query as Query;
      await checkOwn(type, caller, undefined, query.locale);
      const document = await documents.update(
        { ...draftQuery(type, query), documentId: undefined, data: written(type, scope, bodyData(request.body)) },
        { actor: caller.actor },
      );
      const read = await readScope(request, type);
      return sendJson(reply, await editable(type, documents, shown(type, read, document), query.locale));
    });
    admin.delete<{ Params: TypeParams }>(single, async (request, reply) => {
      const type = typeOf(request.params.uid, 'singleType');
      const { caller } = await access(request, EXPLORER.delete, type);
      const { locale } = request.query as Query;
      await checkOwn(type, caller, undefined, locale);
      await service.of(type).delete({ locale }, { actor: caller.actor });
      return reply.status(204).send();
    });
    admin.post<{ Params: TypeParams & { action: string } }>(`${single}/actions/:action`, async (request, reply) => {
      const type = typeOf(request.params.uid, 'singleType');
      return sendJson(reply, await publicationAction(type, request, undefined));
    });
  });

  /** Publish, unpublish or discard the draft; answers the document's draft and its state after. */
  async function publicationAction(
    type: ContentType,
    request: FastifyRequest<{ Params: { action: string } }>,
    documentId: string | undefined,
  ) {
    const documents = service.of(type);
    const { locale, status: _status, ...read } = request.query as Query;
    // Unpublishing takes Strapi's publish permission, discarding a draft its update permission.
    const needed =
      request.params.action === 'discard' || request.params.action === 'discard-draft'
        ? EXPLORER.update
        : EXPLORER.publish;
    const { scope, caller } = await access(request, needed, type);
    await checkOwn(type, caller, documentId, locale);
    const actor = { actor: caller.actor };
    // `discard` is Strapi's content manager's name for it.
    const run = {
      publish: documents.publish,
      unpublish: documents.unpublish,
      'discard-draft': documents.discardDraft,
      discard: documents.discardDraft,
    }[request.params.action];
    if (!run) throw new NotFoundError(`No action ${request.params.action}: publish, unpublish or discard-draft`);
    if (!type.draftAndPublish) throw new ValidationError(`${type.displayName} has no draft and publish`);
    // As Strapi's content manager: publishing saves the draft first (with the body's `data`, or as
    // it is), so it emits entry.update of the draft before entry.publish; both in one transaction,
    // as a published write is: a draft that cannot be published is not saved either, and emits nothing.
    if (request.params.action === 'publish' && (await documents.findOne({ documentId, locale, status: 'draft' }))) {
      const data = (request.body as { data?: unknown } | null)?.data;
      await documents.update(
        {
          documentId,
          locale,
          status: 'published',
          data: data === undefined ? {} : written(type, scope, bodyData(request.body)),
        },
        actor,
      );
    } else {
      const populate = request.params.action === 'unpublish' ? { populate: managerPopulate(service.schema, type) } : {};
      await run.call(documents, { documentId, locale, ...populate }, actor);
    }
    // The draft as the request's populate and fields show it.
    const draft = await documents.findOne({ ...read, documentId, locale, status: 'draft' });
    return editable(type, documents, shown(type, await readScope(request, type), draft), locale);
  }
}
