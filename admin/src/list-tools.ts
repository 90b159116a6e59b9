/**
 * The content manager's list tools as the panel calls them (Strapi 5.54's paths,
 * src/features/admin/bulk-actions.ts and clone-routes.ts): bulk publish, unpublish and delete, and
 * duplicating a document.
 */
import { api, ApiError } from './api.ts';

export type BulkKind = 'bulkPublish' | 'bulkUnpublish' | 'bulkDelete';

export interface BulkFailure {
  documentId: string;
  locale: string | null;
  error: { status: number; name: string; message: string };
}

export interface BulkAnswer {
  count: number;
  errors?: BulkFailure[];
}

const collection = (uid: string) => `/content-manager/collection-types/${uid}`;

/** Runs a bulk action; a batch of which nothing exists is answered as nothing done. */
export async function bulkAction(
  uid: string,
  kind: BulkKind,
  documentIds: string[],
  locale: string | undefined,
): Promise<BulkAnswer> {
  try {
    return await api<BulkAnswer>(`${collection(uid)}/actions/${kind}`, {
      method: 'POST',
      body: { documentIds, ...(locale ? { locale } : {}) },
    });
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 404) throw error;
    return {
      count: 0,
      errors: documentIds.map((documentId) => ({
        documentId,
        locale: locale ?? null,
        error: { status: 404, name: 'NotFoundError', message: 'Document not found' },
      })),
    };
  }
}

export const BULK_VERBS: Record<BulkKind, { label: string; done: string }> = {
  bulkPublish: { label: 'Publish', done: 'Published' },
  bulkUnpublish: { label: 'Unpublish', done: 'Unpublished' },
  bulkDelete: { label: 'Delete', done: 'Deleted' },
};

/** `Published 2 of 3 entries`. */
export function bulkSummary(kind: BulkKind, answer: BulkAnswer, asked: number): string {
  const noun = asked === 1 ? 'entry' : 'entries';
  return `${BULK_VERBS[kind].done} ${answer.count} of ${asked} ${noun}`;
}

/** A field a copy cannot take unattended, as the server names it: its path and why. */
export type ProhibitedField = [string[], 'unique' | 'relation'];

/** The fields `auto-clone` refused, from its 400 (none for any other error). */
export function prohibitedFields(error: unknown): ProhibitedField[] {
  if (!(error instanceof ApiError) || error.status !== 400) return [];
  const fields = error.details.prohibitedFields;
  return Array.isArray(fields) ? (fields as ProhibitedField[]) : [];
}

/** The body of a copy that leaves those fields out: a unique value empty, a relation unlinked. */
export function withoutProhibited(fields: ProhibitedField[]): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  // Fields inside components are copied with their component: only top-level ones are cleared.
  for (const [path, why] of fields) if (path.length === 1) body[path[0]!] = why === 'relation' ? { set: [] } : null;
  return body;
}

/** Duplicates a document: unattended, or without the fields named when given. */
export async function duplicate(
  uid: string,
  documentId: string,
  locale: string | undefined,
  without?: ProhibitedField[],
): Promise<string> {
  const path = `${collection(uid)}/${without ? 'clone' : 'auto-clone'}/${encodeURIComponent(documentId)}`;
  const answer = await api<{ data: { documentId: string } }>(path, {
    method: 'POST',
    body: { ...(without ? withoutProhibited(without) : {}), ...(locale ? { locale } : {}) },
  });
  return answer.data.documentId;
}
