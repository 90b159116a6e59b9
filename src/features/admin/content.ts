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
import { sendJson } from '../../api/json-body.js';
import { actorOf, rememberActor } from './actor.js';
import { describeSchema } from './schema.js';
import { isHidden, type ContentType, type Model, type Schema } from '../../core/schema/model.js';

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
function managerPopulate(schema: Schema, model: Model): Record<string, unknown> {
  const populate: Record<string, unknown> = {};
  for (const attribute of Object.values(model.attributes)) {
    if (isHidden(attribute)) continue;
    if (attribute.kind === 'relation') populate[attribute.name] = { count: true };
    else if (attribute.kind === 'media') populate[attribute.name] = true;
    else if (attribute.kind === 'component') {
      const component = schema.components.get(attribute.component);
      if (component) populate[attribute.name] = { populate: managerPopulate(schema, component) };
    } else if (attribute.kind === 'dynamiczone') {
      const on: Record<string, unknown> = {};
      for (const uid of attribute.components) {
        const component = schema.components.get(uid);
        if (component) on[uid] = { populate: managerPopulate(schema, component) };
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

  void app.register(async (admin) => {
    admin.addHook('onRequest', async (request) => {
      rememberActor(request, await auth.admins.authenticate(request.headers.authorization));
    });

    admin.get(`${prefix}/content-types`, async (_request, reply) =>
      sendJson(reply, { data: describeSchema(service.schema) }),
    );

    // Collection types.
    const collection = `${manager}/collection-types/:uid`;
    admin.get<{ Params: TypeParams }>(collection, async (request, reply) => {
      const type = typeOf(request.params.uid, 'collectionType');
      const documents = service.of(type);
      const query = request.query as Query;
      const { results, pagination } = await documents.findMany(draftQuery(type, query));
      return sendJson(reply, {
        data: results,
        meta: { pagination, publication: await publication(type, documents, results, query.locale) },
      });
    });
    admin.post<{ Params: TypeParams }>(collection, async (request, reply) => {
      const type = typeOf(request.params.uid, 'collectionType');
      const documents = service.of(type);
      const query = request.query as Query;
      const document = await documents.create(
        { ...draftQuery(type, query), data: bodyData(request.body) },
        { actor: actorOf(request) },
      );
      return sendJson(reply, await editable(type, documents, document, query.locale), 201);
    });
    admin.get<{ Params: DocumentParams }>(`${collection}/:documentId`, async (request, reply) => {
      const type = typeOf(request.params.uid, 'collectionType');
      const documents = service.of(type);
      const query = request.query as Query;
      const document = await documents.findOne({ ...draftQuery(type, query), documentId: request.params.documentId });
      if (!document) throw new NotFoundError(`No ${type.singularName} with documentId ${request.params.documentId}`);
      return sendJson(reply, await editable(type, documents, document, query.locale));
    });
    admin.put<{ Params: DocumentParams }>(`${collection}/:documentId`, async (request, reply) => {
      const type = typeOf(request.params.uid, 'collectionType');
      const documents = service.of(type);
      const query = request.query as Query;
      const document = await documents.update(
        { ...draftQuery(type, query), documentId: request.params.documentId, data: bodyData(request.body) },
        { actor: actorOf(request) },
      );
      return sendJson(reply, await editable(type, documents, document, query.locale));
    });
    admin.delete<{ Params: DocumentParams }>(`${collection}/:documentId`, async (request, reply) => {
      const type = typeOf(request.params.uid, 'collectionType');
      const { locale } = request.query as Query;
      await service.of(type).delete({ documentId: request.params.documentId, locale }, { actor: actorOf(request) });
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
      const documents = service.of(type);
      const query = request.query as Query;
      const document = await documents.findOne({ ...draftQuery(type, query), documentId: undefined });
      return sendJson(reply, await editable(type, documents, document, query.locale));
    });
    admin.put<{ Params: TypeParams }>(single, async (request, reply) => {
      const type = typeOf(request.params.uid, 'singleType');
      const documents = service.of(type);
      const query = request.query as Query;
      const document = await documents.update(
        { ...draftQuery(type, query), documentId: undefined, data: bodyData(request.body) },
        { actor: actorOf(request) },
      );
      return sendJson(reply, await editable(type, documents, document, query.locale));
    });
    admin.delete<{ Params: TypeParams }>(single, async (request, reply) => {
      const type = typeOf(request.params.uid, 'singleType');
      const { locale } = request.query as Query;
      await service.of(type).delete({ locale }, { actor: actorOf(request) });
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
    const caller = { actor: actorOf(request) };
    const { locale, status: _status, ...read } = request.query as Query;
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
        { documentId, locale, status: 'published', data: data === undefined ? {} : bodyData(request.body) },
        caller,
      );
    } else {
      const populate = request.params.action === 'unpublish' ? { populate: managerPopulate(service.schema, type) } : {};
      await run.call(documents, { documentId, locale, ...populate }, caller);
    }
    // The draft as the request's populate and fields show it.
    const draft = await documents.findOne({ ...read, documentId, locale, status: 'draft' });
    return editable(type, documents, draft, locale);
  }
}
