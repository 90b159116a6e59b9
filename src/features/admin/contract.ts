/** What the admin panel (admin/src) reads of the admin API: the schema `GET /admin/content-types` describes. */
export type {
  AttributeDescription,
  ComponentDescription,
  ContentTypeDescription,
  SchemaDescription,
} from './schema.js';
/** The home page's lists and counts (`/content-manager/homepage/...`). */
export type { DocumentCounts, DocumentStatus, RecentDocument } from './homepage.js';
