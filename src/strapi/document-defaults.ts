/**
 * `strapi.documents(uid)` with Strapi 5's Document Service defaults over the facade: drafts unless
 * `status: 'published'`, every document unless a page is asked for (`start`/`limit` at the top,
 * or `pagination`). The lists are what Strapi answers (arrays), not REST's pages.
 */
import type { DocumentParams, DocumentService, WriteParams } from '../documents/service.js';
import { NotFoundError } from '../errors.js';
import type { EntityDocuments } from './entity-service.js';

type Params = Record<string, unknown>;

/** Every document, when project code asks for no page. */
const ALL = 2_147_483_647;

export function strapiDocuments(service: DocumentService): (uid: string) => EntityDocuments {
  const unlimited = service.withPageLimits({ defaultLimit: ALL, maxLimit: ALL });
  return (uid) => {
    const documents = unlimited.of(uid);
    const type = documents.type;
    const withStatus = (params: Params): DocumentParams => ({ ...params, status: type.draftAndPublish && params.status !== 'published' ? 'draft' : 'published' });
    const list = (params: Params): DocumentParams => {
      const { start, limit, ...rest } = withStatus(params);
      if (rest.pagination !== undefined || (start === undefined && limit === undefined)) return rest;
      return { ...rest, pagination: { start: start ?? 0, limit: limit ?? ALL } };
    };
    return {
      findMany: async (params = {}) => (await documents.findMany(list(params))).results,
      findFirst: (params = {}) => documents.findFirst(list(params)),
      findOne: (params) => documents.findOne(withStatus(params)),
      count: (params = {}) => documents.count(withStatus(params)),
      create: (params) => documents.create(withStatus(params) as WriteParams),
      update: (params) => documents.update(withStatus(params) as WriteParams),
      delete: async (params) => {
        try {
          await documents.delete({ ...params, status: undefined });
        } catch (error) {
          // Strapi deletes nothing, without an error, when there is nothing to delete.
          if (!(error instanceof NotFoundError)) throw error;
        }
        return { documentId: String(params.documentId), entries: [] };
      },
    };
  };
}
