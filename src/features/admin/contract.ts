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

/** The project's counts (`GET /admin/homepage/key-statistics`), Strapi's keys. */
export interface KeyStatistics {
  assets: number;
  /** The content-types Strapi's builder shows, the content API's users included. */
  contentTypes: number;
  /** Component categories, as Strapi counts them. */
  components: number;
  locales: number;
  admins: number;
  webhooks: number;
  apiTokens: number;
}

/** How many documents are in each status (`GET /content-manager/homepage/count-documents`). */
export interface DocumentCounts {
  draft: number;
  published: number;
  modified: number;
}
