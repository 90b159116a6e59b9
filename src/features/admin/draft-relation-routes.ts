/**
 * What Strapi 5.54's panel asks before publishing (docs/admin-panel.md): how many relations of a
 * document's draft point to documents without a published version, at
 * `GET /content-manager/collection-types/:uid/:documentId/actions/countDraftRelations` and
 * `GET /content-manager/single-types/:uid/actions/countDraftRelations` (`{ data: {
 * unpublishedRelations, draftM2mLinks } }`), and of a selection's drafts, summed, at
 * `GET /content-manager/collection-types/:uid/actions/countManyEntriesDraftRelations`
 * (`{ data: n }`). The counting is draft-relations.ts; here, Strapi's refusals in its order: the
 * read permission on the type (its `hasPermissions` policy: a 403 `PolicyError`, an unknown type
 * too), the query's `locale` and `status` (a 400), the document (a 404, or none to count).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { CallerOptions } from '../../core/documents/context.js';
import type { DocumentService } from '../../core/documents/service.js';
import { ForbiddenError, NotFoundError, PolicyError, ValidationError } from '../../core/errors.js';
import type { ContentType } from '../../core/schema/model.js';
import { EXPLORER, type Scope } from '../admin-roles/index.js';
import type { Auth } from '../users-permissions/index.js';
import { sendJson } from '../../api/json-body.js';
import {
  countDraftRelations,
  countManyDraftRelations,
  NO_DRAFT_RELATIONS,
  queriedIds,
  type DraftRelationCounts,
} from './draft-relations.js';
import { requireAction } from './guard.js';

type Query = Record<string, unknown>;

export interface DraftRelationAccess {
  /** The read permission's scope and caller (a 403 for a locale it does not cover). */
  access(request: FastifyRequest, action: string, type: ContentType): Promise<{ scope: Scope; caller: CallerOptions }>;
}

const notFound = () => new NotFoundError('Not Found');

/** Strapi's `getDocumentLocaleAndStatus`: one locale (a string, or none) and a status, else its zod 400. */
function dimensions(query: Query): { locale: string | undefined; status: 'draft' | 'published' | undefined } {
  const { locale, status } = query;
  if (locale !== undefined && locale !== null && typeof locale !== 'string')
    throw zodError('locale', `Invalid input: expected string, received ${Array.isArray(locale) ? 'array' : 'object'}`);
  if (status !== undefined && status !== 'draft' && status !== 'published') throw zodError('status', 'Invalid status');
  return { locale: locale ?? undefined, status };
}

const zodError = (key: string, message: string) =>
  new ValidationError(message, { errors: [{ path: [key], message, name: 'ValidationError' }] });

export function registerDraftRelationRoutes(
  cm: FastifyInstance,
  base: string,
  auth: Auth,
  service: DocumentService,
  rights: DraftRelationAccess,
): void {
  type Params = { uid: string; documentId?: string };

  /** Strapi's `hasPermissions` policy first: a type the administrator may not read (or none) is its 403. */
  const readable = async (request: FastifyRequest, uid: string): Promise<ContentType> => {
    await requireAction(auth, request, EXPLORER.read, uid);
    const type = service.schema.contentTypes.get(uid);
    if (!type || (type.builtIn && type.uid !== 'plugin::users-permissions.user')) throw new PolicyError();
    return type;
  };

  /**
   * The draft's counts, once the document is known to be the administrator's to read. A locale
   * the project does not have holds no draft (Strapi finds none; Vellum's reads would refuse it).
   */
  const knownLocale = (type: ContentType, locale: string | undefined) =>
    !type.localized || locale === undefined || service.i18n.locales.includes(locale);
  const counts = (type: ContentType, documentId: string, locale: string | undefined): Promise<DraftRelationCounts> =>
    knownLocale(type, locale)
      ? countDraftRelations(service, type, documentId, type.localized ? locale : undefined)
      : Promise.resolve(NO_DRAFT_RELATIONS);

  /**
   * The version asked for, when there is one the administrator may not read, is a 403; when there
   * is none: a 404 if the document has no version at all, a 403 if it has only versions they may
   * not read, else no counts (Strapi's order, which checks this only under a permission's
   * conditions for a collection type, always for a single type).
   */
  const checkVersion = async (
    type: ContentType,
    documentId: string | undefined,
    dims: ReturnType<typeof dimensions>,
    caller: CallerOptions,
  ): Promise<'absent' | 'readable'> => {
    const documents = service.of(type);
    const status = type.draftAndPublish ? (dims.status ?? 'draft') : undefined;
    const locale = type.localized ? dims.locale : undefined;
    const asked = { documentId, locale, status, fields: ['documentId'] };
    if (knownLocale(type, locale) && (await documents.findOne(asked))) {
      if (caller.createdBy !== undefined && !(await documents.findOne(asked, caller)))
        throw new ForbiddenError('Forbidden');
      return 'readable';
    }
    const every = { filters: documentId === undefined ? {} : { documentId }, locale: type.localized ? '*' : undefined };
    if ((await documents.count(every)) === 0) throw notFound();
    if (caller.createdBy !== undefined && (await documents.count(every, caller)) === 0)
      throw new ForbiddenError('Forbidden');
    return 'absent';
  };

  cm.get<{ Params: Params }>(
    `${base}/collection-types/:uid/:documentId/actions/countDraftRelations`,
    async (request, reply) => {
      const type = await readable(request, request.params.uid);
      const dims = dimensions(request.query as Query);
      const { caller } = await rights.access(request, EXPLORER.read, type);
      const documentId = request.params.documentId!;
      if (caller.createdBy !== undefined && (await checkVersion(type, documentId, dims, caller)) === 'absent')
        return sendJson(reply, { data: NO_DRAFT_RELATIONS });
      return sendJson(reply, { data: await counts(type, documentId, dims.locale) });
    },
  );

  cm.get<{ Params: Params }>(`${base}/single-types/:uid/actions/countDraftRelations`, async (request, reply) => {
    const type = await readable(request, request.params.uid);
    // The status is checked, then left: Strapi finds a single type's draft whatever it says.
    const dims = { ...dimensions(request.query as Query), status: undefined };
    const { caller } = await rights.access(request, EXPLORER.read, type);
    if ((await checkVersion(type, undefined, dims, caller)) === 'absent')
      return sendJson(reply, { data: NO_DRAFT_RELATIONS });
    const found = await service.of(type).findOne({
      locale: type.localized ? dims.locale : undefined,
      status: type.draftAndPublish ? 'draft' : undefined,
      fields: ['documentId'],
    });
    return sendJson(reply, { data: await counts(type, String(found!.documentId), dims.locale) });
  });

  // Before a bulk publish: how many relations of the selected drafts point to unpublished documents.
  cm.get<{ Params: Params }>(
    `${base}/collection-types/:uid/actions/countManyEntriesDraftRelations`,
    async (request, reply) => {
      const type = await readable(request, request.params.uid);
      const { documentIds, locale } = request.query as Query;
      const ids = queriedIds(documentIds);
      // Strapi answers 404 when none of them exists, in any locale or status.
      const known =
        ids.length === 0
          ? 0
          : await service.of(type).count({
              filters: { documentId: { $in: ids } },
              locale: type.localized ? '*' : undefined,
              status: type.draftAndPublish ? 'draft' : undefined,
            });
      if (known === 0) throw notFound();
      const asked = type.localized ? locale : undefined;
      return sendJson(reply, { data: await countManyDraftRelations(service, type, ids, asked) });
    },
  );
}
