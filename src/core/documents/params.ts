/**
 * Strapi 5 Document Service parameters, raw: as a query string parses them or as project code
 * passes them. Their meaning is the REST content API's: `status` published and the default locale
 * unless given, `pagination` with the defaults and limits of `config/api` `rest` (top-level
 * `start`/`limit` are not read: REST ignores them; put them in `pagination`).
 */
export interface DocumentParams {
  documentId?: string;
  locale?: unknown;
  status?: unknown;
  filters?: unknown;
  fields?: unknown;
  populate?: unknown;
  sort?: unknown;
  pagination?: unknown;
  start?: unknown;
  limit?: unknown;
  _q?: unknown;
  publicationFilter?: unknown;
  hasPublishedVersion?: unknown;
  /** Attribute values of a create or update. */
  data?: Record<string, unknown>;
  [key: string]: unknown;
}

export type WriteParams = DocumentParams & { data: Record<string, unknown> };
