/** The admin content API's paths and answers (`/admin/content-manager/...`). */
import type { ContentTypeDescription } from './schema.ts';

export type Document = Record<string, unknown> & { documentId: string };

export interface PublicationState {
  publishedAt: string | null;
  /** The draft was saved after the published version was made. */
  modified: boolean;
}

export interface ListAnswer {
  data: Document[];
  meta: {
    pagination: { page: number; pageSize: number; pageCount: number; total: number };
    publication: Record<string, PublicationState>;
  };
}

export interface DocumentAnswer {
  data: Document | null;
  meta: { publication: PublicationState | null };
}

/** The path of a type's documents, or of one document (a single type has one, without id). */
export function contentPath(type: ContentTypeDescription, documentId?: string): string {
  const kind = type.kind === 'collectionType' ? 'collection-types' : 'single-types';
  const base = `/admin/content-manager/${kind}/${type.uid}`;
  return documentId ? `${base}/${encodeURIComponent(documentId)}` : base;
}

/** Draft, Published, or Modified (published, with a newer draft); nothing for a type without draft and publish. */
export function statusOf(
  type: ContentTypeDescription,
  publication: PublicationState | null | undefined,
): 'Draft' | 'Published' | 'Modified' | null {
  if (!type.draftAndPublish) return null;
  if (!publication) return 'Draft';
  return publication.modified ? 'Modified' : 'Published';
}

export const STATUS_COLORS = { Draft: 'gray', Published: 'green', Modified: 'orange' } as const;
