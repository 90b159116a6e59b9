/**
 * The content manager's bulk actions at Strapi 5.54's paths:
 * `POST /content-manager/collection-types/:uid/actions/bulkPublish|bulkUnpublish|bulkDelete` with
 * `{ documentIds, locale? }` (the locale in the body as Strapi reads it, or in the query; one, a
 * list, or `*`). Strapi answers `{ count }` and refuses the whole batch (a 403) when one entry is
 * not the administrator's to touch; Vellum checks each entry against the role and runs each in a
 * transaction of its own, answers `{ count }` of what was done and, when something could not be,
 * `errors: [{ documentId, locale, error: { status, name, message, details } }]` (the panel's
 * summary). A batch holds at most `MAX_BATCH` documents: each entry costs a write of a few
 * statements, two reads find the batch's versions, so a request's statements are bounded by it.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { CallerOptions } from '../../core/documents/context.js';
import type { Document } from '../../core/documents/rows.js';
import type { DocumentService, TypeDocuments } from '../../core/documents/service.js';
import { ForbiddenError, NotFoundError, PolicyError, ValidationError, VellumError } from '../../core/errors.js';
import { isPlainObject } from '../../core/objects.js';
import type { ContentType } from '../../core/schema/model.js';
import { EXPLORER, type Scope } from '../admin-roles/index.js';
import { sendJson } from '../../api/json-body.js';
import { managerPopulate } from './content.js';

/** The largest page Strapi's list offers (and Vellum's): a bulk action acts on a page's selection. */
const MAX_BATCH = 100;

type Query = Record<string, unknown>;
type Kind = 'bulkPublish' | 'bulkUnpublish' | 'bulkDelete';

export interface BulkFailure {
  documentId: string;
  locale: string | null;
  error: { status: number; name: string; message: string; details: Record<string, unknown> };
}

export interface BulkAccess {
  accessTo(
    request: FastifyRequest,
    action: string,
    type: ContentType,
  ): Promise<{ scope: Scope; caller: CallerOptions }>;
  allowsLocale(type: ContentType, scope: Scope, locale: unknown): boolean;
  /** A document as the administrator may read it (the fields of the read permission). */
  shown(type: ContentType, scope: Scope, document: Document | null): Document | null;
}

export interface BulkFindAccess extends BulkAccess {
  /** Documents as the content manager lists them: their creators, `locale` null without i18n, the fields shown. */
  presented(type: ContentType, scope: Scope, documents: Document[]): Promise<unknown[]>;
}

/** `{ documentIds: [1..MAX_BATCH ids], locale? }`: the batch, deduplicated, and its locales. */
function parseBatch(body: unknown, query: Query): { documentIds: string[]; locales: unknown[] } {
  const fields = isPlainObject(body) ? body : {};
  const ids = fields.documentIds;
  // Zod's messages, as Strapi's `validateBulkActionInput` answers them.
  if (!Array.isArray(ids))
    throw new ValidationError(`Invalid input: expected array, received ${ids === null ? 'null' : typeof ids}`, {
      errors: [badIds(`Invalid input: expected array, received ${ids === null ? 'null' : typeof ids}`)],
    });
  if (ids.length === 0)
    throw new ValidationError('Too small: expected array to have >=1 items', {
      errors: [badIds('Too small: expected array to have >=1 items')],
    });
  if (ids.some((id) => !(typeof id === 'string' && id !== '') && !Number.isInteger(id)))
    throw new ValidationError('Invalid input', { errors: [badIds('Invalid input')] });
  const documentIds = [...new Set(ids.map(String))];
  if (documentIds.length > MAX_BATCH)
    throw new ValidationError(`A bulk action takes at most ${MAX_BATCH} documents (${documentIds.length} given)`);
  const locale = fields.locale ?? query.locale;
  if (
    locale != null &&
    typeof locale !== 'string' &&
    !(Array.isArray(locale) && locale.every((l) => typeof l === 'string'))
  )
    throw new ValidationError('locale must be a locale code or a list of them');
  const locales: unknown[] = Array.isArray(locale) ? [...new Set(locale)] : [locale ?? undefined];
  if (locales.length === 0) throw new ValidationError('locale must name at least one locale');
  return { documentIds, locales };
}

const badIds = (message: string) => ({ path: ['documentIds'], message, name: 'ValidationError' });

const failure = (documentId: string, locale: unknown, error: VellumError): BulkFailure => ({
  documentId,
  locale: typeof locale === 'string' ? locale : null,
  error: { status: error.status, name: error.name, message: error.message, details: error.details },
});

export function registerBulkActions(
  app: FastifyInstance,
  base: string,
  service: DocumentService,
  typeOf: (uid: string) => ContentType,
  rights: BulkAccess,
): void {
  for (const kind of ['bulkPublish', 'bulkUnpublish', 'bulkDelete'] as const)
    app.post<{ Params: { uid: string } }>(`${base}/:uid/actions/${kind}`, async (request, reply) => {
      const type = typeOf(request.params.uid);
      const { documentIds, locales } = parseBatch(request.body, request.query as Query);
      if (kind !== 'bulkDelete' && !type.draftAndPublish)
        throw new ValidationError(`${type.displayName} has no draft and publish`);
      // Unpublishing takes Strapi's publish permission, as its bulkUnpublish checks.
      const action = kind === 'bulkDelete' ? EXPLORER.delete : EXPLORER.publish;
      const { scope, caller } = await rights.accessTo(request, action, type);
      const documents = service.of(type);
      const errors: BulkFailure[] = [];
      let count = 0;
      // `*`: every locale the document has (Strapi's document service's meaning of it).
      const every = locales.includes('*');
      const named = every ? service.i18n.locales : (locales as (string | undefined)[]);
      for (const locale of type.localized ? named : [undefined]) {
        const permitted = rights.allowsLocale(type, scope, locale);
        for (const documentId of documentIds) {
          const found = await state(documents, type, kind, documentId, locale, caller);
          if (found === 'missing') {
            if (!every) errors.push(failure(documentId, locale, new NotFoundError(notFoundMessage(kind))));
            continue;
          }
          if (found === 'forbidden' || !permitted) {
            errors.push(failure(documentId, locale, new ForbiddenError('Forbidden')));
            continue;
          }
          try {
            const params = { documentId, locale };
            const actor = { actor: caller.actor };
            if (kind === 'bulkPublish') await documents.publish(params, actor);
            else if (kind === 'bulkUnpublish') await documents.unpublish(params, actor);
            else await documents.delete(params, actor);
            count += 1;
          } catch (error) {
            // A typed refusal (a draft that does not validate, a unique value taken) is this entry's;
            // anything else is a fault of the server, answered as one.
            if (!(error instanceof VellumError) || error.status >= 500) throw error;
            errors.push(failure(documentId, locale, error));
          }
        }
      }
      // Strapi's bulkDelete answers a 404 when none of the documents exists.
      if (kind === 'bulkDelete' && count === 0 && errors.every((e) => e.error.status === 404))
        throw new NotFoundError('Not Found');
      return sendJson(reply, errors.length ? { count, errors } : { count });
    });
}

/**
 * `POST .../actions/bulkFindForValidation` with `{ documentIds, locale?, sort? }`: the drafts of a
 * selection, deeply populated as the edit view reads them (relations counted), which Strapi's
 * panel validates before a bulk publish: `{ results }`, the fields the read permission shows, the
 * documents the administrator may read (Strapi 5.54's route; no `meta`, no status).
 */
export function registerBulkFind(
  app: FastifyInstance,
  base: string,
  service: DocumentService,
  typeOf: (uid: string) => ContentType,
  rights: BulkFindAccess,
): void {
  app.post<{ Params: { uid: string } }>(`${base}/:uid/actions/bulkFindForValidation`, async (request, reply) => {
    // Strapi's route policy (the read permission) answers first: an unknown type is its 403.
    if (!service.schema.contentTypes.has(request.params.uid)) throw new PolicyError();
    const type = typeOf(request.params.uid);
    const { scope, caller } = await rights.accessTo(request, EXPLORER.read, type);
    const { documentIds } = parseBatch(request.body, {});
    const { locale, sort } = request.body as { locale?: unknown; sort?: unknown };
    if (!rights.allowsLocale(type, scope, locale)) throw new ForbiddenError('Forbidden');
    const versions = type.localized && locale === '*' ? service.i18n.locales.length : 1;
    const { results } = await service.of(type).findMany(
      {
        filters: { documentId: { $in: documentIds } },
        locale: type.localized ? locale : undefined,
        sort,
        status: type.draftAndPublish ? 'draft' : undefined,
        populate: managerPopulate(service.schema, type),
        pagination: { page: 1, pageSize: documentIds.length * versions },
      },
      caller,
    );
    return sendJson(reply, { results: await rights.presented(type, scope, results) });
  });
}

const notFoundMessage = (kind: Kind) =>
  kind === 'bulkUnpublish' ? 'The document has no published version' : 'Document not found';

/**
 * Whether a document has the version the action works on (a draft to publish or delete, a published
 * version to unpublish), and whether the administrator may touch it (under a creator condition, the
 * draft's creator decides): one or two reads by primary key, whatever the page size the project allows.
 */
async function state(
  documents: TypeDocuments,
  type: ContentType,
  kind: Kind,
  documentId: string,
  locale: string | undefined,
  caller: CallerOptions,
): Promise<'missing' | 'forbidden' | 'ok'> {
  const params = {
    documentId,
    locale,
    status: type.draftAndPublish ? (kind === 'bulkUnpublish' ? 'published' : 'draft') : undefined,
    fields: ['documentId'],
  };
  if (!(await documents.findOne(params))) return 'missing';
  if (caller.createdBy === undefined) return 'ok';
  const mine = await documents.findOne({ ...params, status: type.draftAndPublish ? 'draft' : undefined }, caller);
  return mine ? 'ok' : 'forbidden';
}
