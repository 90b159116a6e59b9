/**
 * `POST /content-manager/collection-types/:uid/clone/:sourceId` (the body's values over the copy)
 * and `auto-clone/:sourceId` (refused, as Strapi 5.54 does, when the type has fields a copy would
 * collide on: clone.ts), with Strapi's create permission; Vellum also asks that the administrator
 * may read the source (a copy shows what it copied). Answers the new draft as the content
 * manager shows a document, with an empty `meta` as Strapi's.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { CallerOptions } from '../../core/documents/context.js';
import type { DocumentService } from '../../core/documents/service.js';
import { BadRequestError, ForbiddenError, NotFoundError, ValidationError } from '../../core/errors.js';
import { isPlainObject } from '../../core/objects.js';
import type { ContentType } from '../../core/schema/model.js';
import { EXPLORER, type Scope } from '../admin-roles/index.js';
import { sendJson } from '../../api/json-body.js';
import { panelBody } from './panel-body.js';
import type { BulkAccess } from './bulk-actions.js';
import { cloneData, clonePopulate, overClone, prohibitedCloningFields } from './clone.js';

type Query = Record<string, unknown>;

export interface CloneDeps extends BulkAccess {
  written(type: ContentType, scope: Scope, data: Record<string, unknown>): Record<string, unknown>;
  /** The new draft as the content manager answers a document. */
  answer(request: FastifyRequest, type: ContentType, documentId: string): Promise<{ data: unknown }>;
}

export function registerClone(
  app: FastifyInstance,
  base: string,
  service: DocumentService,
  typeOf: (uid: string) => ContentType,
  deps: CloneDeps,
): void {
  type Params = { uid: string; sourceId: string };
  const clone = async (request: FastifyRequest<{ Params: Params }>, auto: boolean) => {
    const type = typeOf(request.params.uid);
    if (auto) {
      const prohibitedFields = prohibitedCloningFields(service.schema, type);
      if (prohibitedFields.length)
        throw new BadRequestError(
          'Entity could not be cloned as it has unique and/or relational fields. ' +
            'Please edit those fields manually and save to complete the cloning.',
          { prohibitedFields },
        );
    }
    const body = request.body == null ? {} : request.body;
    if (!isPlainObject(body)) throw new ValidationError('The request body must be a JSON object');
    const { locale: bodyLocale, id: _id, documentId: _documentId, ...overrides } = body;
    const locale = bodyLocale ?? (request.query as Query).locale;
    if (locale != null && typeof locale !== 'string') throw new ValidationError('locale must be a locale code');
    const { scope, caller } = await deps.accessTo(request, EXPLORER.create, type);
    const read = await deps.accessTo(request, EXPLORER.read, type);
    if (!deps.allowsLocale(type, scope, locale) || !deps.allowsLocale(type, read.scope, locale))
      throw new ForbiddenError('Forbidden');
    const source = await readSource(type, request.params.sourceId, locale ?? undefined, read.caller);
    const data = overClone(
      type,
      deps.written(type, scope, cloneData(service.schema, type, source)),
      deps.written(type, scope, panelBody(service.schema, type, overrides)),
    );
    const created = await service
      .of(type)
      .create({ locale, status: type.draftAndPublish ? 'draft' : undefined, data }, { actor: caller.actor });
    const { data: document } = await deps.answer(request, type, String(created.documentId));
    return { data: document, meta: { availableLocales: [], availableStatus: [] } };
  };

  /** The source's draft in the locale, whole; a 403 for one the administrator may not read. */
  const readSource = async (
    type: ContentType,
    documentId: string,
    locale: string | undefined,
    caller: CallerOptions,
  ) => {
    const documents = service.of(type);
    const params = {
      documentId,
      locale,
      // Drafts: a copy links what its source links, published or not (as Strapi's clone).
      status: 'draft',
      populate: clonePopulate(service.schema, type),
    };
    const source = await documents.findOne(params, caller);
    if (source) return source;
    if (caller.createdBy !== undefined && (await documents.findOne({ ...params, populate: undefined, fields: [] })))
      throw new ForbiddenError('Forbidden');
    throw new NotFoundError('Not Found');
  };

  app.post<{ Params: Params }>(`${base}/:uid/clone/:sourceId`, async (request, reply) =>
    sendJson(reply, await clone(request, false)),
  );
  app.post<{ Params: Params }>(`${base}/:uid/auto-clone/:sourceId`, async (request, reply) =>
    sendJson(reply, await clone(request, true)),
  );
}
