/**
 * What the admin panel reads of content history (Strapi 5.54's `HistoryVersions` contract):
 * `GET /content-manager/history-versions` answers `{ data: HistoryVersion[], meta: { pagination } }`,
 * `PUT /content-manager/history-versions/:versionId/restore` answers
 * `{ data: { documentId }, meta: { missingRelations } }` (the meta is Vellum's).
 */

/** An administrator as Strapi picks them for a version's author. */
export interface HistoryAuthor {
  id: number;
  firstname: string | null;
  lastname: string | null;
  username: string | null;
  email: string;
}

export interface HistoryVersion {
  id: number;
  contentType: string;
  relatedDocumentId: string;
  locale: { code: string; name: string } | null;
  status: 'draft' | 'published' | 'modified';
  /** Attribute values; relations and media as `{ results, meta: { missingCount } }`. */
  data: Record<string, unknown>;
  /** The attributes as the version shows them. */
  schema: Record<string, Record<string, unknown>>;
  createdAt: string;
  createdBy?: HistoryAuthor;
  meta: { unknownAttributes: { added: Record<string, unknown>; removed: Record<string, unknown> } };
}

export interface HistoryPagination {
  page: number;
  pageSize: number;
  pageCount: number;
  total: number;
}

export interface HistoryVersionsPage {
  results: HistoryVersion[];
  pagination: HistoryPagination;
}

/** A relation (or media) of a restored version whose target no longer exists: left out, named. */
export interface MissingRelation {
  attribute: string;
  /** The target's documentId (a file's id for media). */
  documentId: string;
  locale: string | null;
}
