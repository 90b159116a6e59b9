/**
 * `strapi.entityService`, the Strapi v4 API many projects still call, as Strapi 5 keeps it: on
 * top of the Document Service (drafts by default) and the query engine (numeric ids).
 * `findOne(uid, id)`, `update(uid, id)` and `delete(uid, id)` address a row by its id and act on
 * its document; `create` publishes unless `data.publishedAt` is null, `update` writes the version
 * the row is (a draft row: the draft). Checked on Strapi 5.54: `findOne` of a published row's id
 * on a draft-and-publish type reads the document's draft, so it is null for a document without one.
 */
import type { Document, RowRepository } from '../core/documents/service.js';
import type { Schema } from '../core/schema/model.js';
import type { DocumentsApi } from './documents.js';

type Params = Record<string, unknown>;

/** What the entity service uses of `strapi.documents(uid)`. */
export type EntityDocuments = Pick<
  DocumentsApi,
  'findMany' | 'findFirst' | 'findOne' | 'count' | 'create' | 'update' | 'delete'
>;

export interface EntityService {
  findMany(uid: string, params?: Params): Promise<Document[] | Document | null>;
  findOne(uid: string, id: number | string, params?: Params): Promise<Document | null>;
  findPage(uid: string, params?: Params): Promise<unknown>;
  count(uid: string, params?: Params): Promise<number>;
  create(uid: string, params: Params): Promise<Document>;
  update(uid: string, id: number | string, params?: Params): Promise<Document | null>;
  delete(uid: string, id: number | string, params?: Params): Promise<Document | null>;
}

const objectOf = (value: unknown): Params =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Params) : {};

export function createEntityService(
  schema: Schema,
  documents: (uid: string) => EntityDocuments,
  query: (uid: string) => RowRepository,
): EntityService {
  const draftAndPublish = (uid: string) => schema.contentTypes.get(uid)?.draftAndPublish === true;
  const row = (uid: string, id: number | string) => query(uid).findOne({ where: { id } });
  return {
    async findMany(uid, params = {}) {
      if (schema.contentTypes.get(uid)?.kind === 'singleType') return documents(uid).findFirst(params);
      return documents(uid).findMany(params);
    },
    async findOne(uid, id, params = {}) {
      const found = await row(uid, id);
      return found ? documents(uid).findOne({ ...params, documentId: found.documentId }) : null;
    },
    /** The query engine's page, with the v4 parameters (`filters`, `fields`, `sort`, `populate`, `page`, `pageSize`). */
    findPage(uid, params = {}) {
      const { filters, fields, sort, populate, page, pageSize } = params;
      return query(uid).findPage({
        ...(filters !== undefined ? { where: filters } : {}),
        ...(fields !== undefined ? { select: fields } : {}),
        ...(sort !== undefined ? { orderBy: sort } : {}),
        ...(populate !== undefined ? { populate } : {}),
        ...(page !== undefined ? { page } : {}),
        ...(pageSize !== undefined ? { pageSize } : {}),
      });
    },
    count: (uid, params = {}) => documents(uid).count(params),
    async create(uid, params) {
      const data = objectOf(params?.data);
      if (params?.data === undefined) throw new TypeError('entityService.create needs data');
      const draft = draftAndPublish(uid) && data.publishedAt === null;
      return documents(uid).create({ ...params, status: draft ? 'draft' : 'published' });
    },
    async update(uid, id, params = {}) {
      const found = await row(uid, id);
      if (!found) return null;
      const draft = draftAndPublish(uid) && found.publishedAt === null;
      return documents(uid).update({ ...params, status: draft ? 'draft' : 'published', documentId: found.documentId });
    },
    async delete(uid, id, params = {}) {
      const found = await row(uid, id);
      if (!found) return null;
      await documents(uid).delete({ ...params, documentId: found.documentId });
      return found;
    },
  };
}
