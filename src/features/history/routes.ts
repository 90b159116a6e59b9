/**
 * Content history's admin API, at Strapi 5.54's paths and in its shapes (its content manager's
 * history-version routes):
 *
 * - `GET /content-manager/history-versions?contentType=&documentId=&locale=&page=&pageSize=`:
 *   `{ data: HistoryVersion[], meta: { pagination } }`, newest first. Strapi's checks in its order:
 *   `contentType and documentId are required` (`contentType is required` for a single type), a 403;
 *   then the content manager's read permission on the type (`explorer.read`), a 403.
 * - `PUT /content-manager/history-versions/:versionId/restore` with `{ contentType }`: the version
 *   restored as the document's draft, `{ data: { documentId }, meta: { missingRelations } }`. It
 *   needs `explorer.update` on the type, checked on the version's own type as well as the body's
 *   (Strapi checks the body's only).
 *
 * A role limited to some locales lists and restores those locales only; the fields a role may not
 * read are left out of the versions' data.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ForbiddenError } from '../../core/errors.js';
import { isPlainObject } from '../../core/objects.js';
import { restoreContentType, versionIdOf, type HistoryService } from './service.js';

/**
 * The administrator of a request, when they may `action` (the content manager's read or update)
 * documents of `uid` in `locale`: who they are, and which of the type's fields they may read; a 401
 * without credentials, a 403 otherwise.
 */
export type HistoryPermit = (
  request: FastifyRequest,
  action: 'read' | 'update',
  uid: string,
  locale: string | null,
) => Promise<{ actor: number; mayRead(field: string): boolean }>;

export interface HistoryRoutesOptions {
  service: HistoryService;
  permit: HistoryPermit;
  /** The administrator behind a request (a 401 otherwise): checked before anything else. */
  authenticate(request: FastifyRequest): Promise<number>;
}

const BASE = '/content-manager/history-versions';

export function registerHistoryRoutes(app: FastifyInstance, options: HistoryRoutesOptions): void {
  const { service, permit, authenticate } = options;
  void app.register(async (routes) => {
    routes.addHook('onRequest', async (request) => {
      await authenticate(request);
    });
    routes.get(BASE, async (request) => {
      const query = isPlainObject(request.query) ? request.query : {};
      const uid = typeof query.contentType === 'string' ? query.contentType : undefined;
      const single = uid !== undefined && service.isSingleType(uid);
      const documentId = typeof query.documentId === 'string' && query.documentId !== '' ? query.documentId : undefined;
      if (single && !uid) throw new ForbiddenError('contentType is required');
      if (!single && (!uid || !documentId)) throw new ForbiddenError('contentType and documentId are required');
      const type = service.typeOf(uid);
      const locale = service.localeOf(type, query.locale);
      const { mayRead } = await permit(request, 'read', type.uid, locale);
      const { results, pagination } = await service.findVersionsPage({
        contentType: type.uid,
        documentId,
        locale: locale ?? undefined,
        page: query.page as number | undefined,
        pageSize: query.pageSize as number | undefined,
      });
      // As Strapi's sanitizeOutput: the fields the role may not read are left out.
      const data = results.map((version) => ({
        ...version,
        data: Object.fromEntries(Object.entries(version.data).filter(([name]) => mayRead(name))),
      }));
      return { data, meta: { pagination } };
    });
    routes.put<{ Params: { versionId: string } }>(`${BASE}/:versionId/restore`, async (request) => {
      const contentType = restoreContentType(request.body);
      const versionId = versionIdOf(request.params.versionId);
      const version = await service.versionOf(versionId);
      if (contentType !== version.contentType) await permit(request, 'update', contentType, version.locale);
      const { actor } = await permit(request, 'update', version.contentType, version.locale);
      const { documentId, missing } = await service.restoreVersion(versionId, { actor });
      return { data: { documentId }, meta: { missingRelations: missing } };
    });
  });
}
