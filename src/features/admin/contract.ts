/**
 * What the admin panel (admin/src) reads of the admin API: the schema `GET /admin/content-types`
 * describes, and the home page's lists and counts.
 */
export type {
  AttributeDescription,
  ComponentDescription,
  ContentTypeDescription,
  SchemaDescription,
} from './schema.js';

// The home page's lists and counts (`/content-manager/homepage/...`, homepage.ts).

export type DocumentStatus = 'draft' | 'published' | 'modified';

/** One entry of the home page's lists (Strapi's `RecentDocument`). */
export interface RecentDocument {
  documentId: string;
  /** null on types without i18n. */
  locale: string | null;
  /** The value of the type's main field (the documentId when the role may not read it). */
  title: unknown;
  contentTypeUid: string;
  contentTypeDisplayName: string;
  kind: 'collectionType' | 'singleType';
  updatedAt: string;
  /** null on drafts and on types without draft and publish. */
  publishedAt: string | null;
  /** Types with draft and publish only. */
  status?: DocumentStatus;
}

/** How many documents are in each status (`GET /content-manager/homepage/count-documents`). */
export interface DocumentCounts {
  draft: number;
  published: number;
  modified: number;
}
