/**
 * Releases and actions as the API answers them, and the helpers both services share: a refusal
 * stored and read back as its reason, an entry's main field, the status its actions give a release.
 */
import type { Selectable } from 'kysely';
import { isHidden, type ContentType } from '../../core/schema/model.js';
import type { EntryProblem, Release, ReleaseAction } from './contract.js';
import { isoTime, type ReleaseActionRow, type ReleaseRow, type ReleaseStatus } from './tables.js';

type StoredRelease = Selectable<ReleaseRow>;
type StoredAction = Selectable<ReleaseActionRow>;

export function presentRelease(row: StoredRelease): Release {
  return {
    id: Number(row.id),
    documentId: row.document_id,
    name: row.name,
    releasedAt: isoTime(row.released_at),
    scheduledAt: isoTime(row.scheduled_at),
    timezone: row.timezone,
    status: row.status,
    createdAt: isoTime(row.created_at)!,
    updatedAt: isoTime(row.updated_at)!,
    publishedAt: null,
    locale: null,
    failureReason: row.status === 'failed' ? row.failure : null,
  };
}

export function presentAction(row: StoredAction): ReleaseAction {
  return {
    id: Number(row.id),
    documentId: row.document_id,
    type: row.type,
    contentType: row.content_type,
    entryDocumentId: row.entry_document_id,
    locale: row.locale,
    isEntryValid: Number(row.is_entry_valid) === 1,
    createdAt: isoTime(row.created_at)!,
    updatedAt: isoTime(row.updated_at)!,
    publishedAt: null,
  };
}

/** A refusal's reason as stored (JSON text of EntryProblem). */
export function problemText(error: Error & { details?: Record<string, unknown> }): string {
  const errors = Array.isArray(error.details?.errors)
    ? (error.details.errors as { path?: unknown; message?: unknown }[]).map((item) => ({
        path: Array.isArray(item.path) ? (item.path as (string | number)[]) : [],
        message: String(item.message ?? ''),
      }))
    : [];
  const reason = typeof error.details?.reason === 'string' ? error.details.reason : undefined;
  return JSON.stringify({ message: reason ?? error.message, errors } satisfies EntryProblem);
}

export function parseProblem(text: string | null): EntryProblem | null {
  if (!text) return null;
  try {
    return JSON.parse(text) as EntryProblem;
  } catch {
    return { message: text, errors: [] };
  }
}

/** The attribute an entry is shown by: the first visible string attribute, else its documentId. */
export function mainFieldOf(type: ContentType): string {
  const first = Object.values(type.attributes).find(
    (attribute) => attribute.kind === 'scalar' && attribute.type === 'string' && !isHidden(attribute),
  );
  return first?.name ?? 'documentId';
}

/** Strapi's status of an action after its actions changed: empty, blocked, ready. */
export function statusOf(total: number, invalid: number): ReleaseStatus {
  if (total === 0) return 'empty';
  return invalid > 0 ? 'blocked' : 'ready';
}
