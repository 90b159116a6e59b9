/**
 * One-entry releases: what scheduled publishing (`?at=` on the publish and unpublish actions,
 * `/admin/scheduled-actions`, features/events/schedules.ts) stores. Each is a release of origin
 * `schedule` holding one action, published at its time by the releases' leased job like any
 * scheduled release (all or nothing, once); cancelling one marks it `cancelled_at`, which the
 * releases' lists and the job leave out. These functions read and write them on a given
 * connection or transaction.
 */
import type { Db, Dialect } from '../../core/database/dialect.js';
import { shaped, type SystemDb } from '../../core/database/system-tables.js';
import { createDocumentId } from '../../core/documents/document-id.js';
import {
  RELEASES_TABLE,
  RELEASE_ACTIONS_TABLE,
  type ReleaseActionRow,
  type ReleaseActionType,
  type ReleaseRow,
  type ReleaseStatus,
} from './tables.js';

const SCHEDULE_ORIGIN = 'schedule';

/** A one-entry release as stored: its release row's columns and its action's, side by side. */
export interface SingleEntry {
  id: number;
  type: ReleaseActionType;
  uid: string;
  documentId: string;
  locale: string | null;
  scheduledAt: number;
  status: ReleaseStatus;
  releasedAt: number | null;
  cancelledAt: number | null;
  failure: string | null;
  createdAt: number;
  updatedAt: number;
}

export interface NewSingleEntry {
  type: ReleaseActionType;
  uid: string;
  documentId: string;
  locale: string | null;
  scheduledAt: number;
  createdAt: number;
  /** What a migrated row had become (defaults: pending). */
  status?: ReleaseStatus;
  releasedAt?: number | null;
  cancelledAt?: number | null;
  failure?: string | null;
  updatedAt?: number;
}

/** Stores a one-entry release (on `db`, a transaction of the caller's); answers its id. */
export async function insertSingleEntry(db: Db, dialect: Dialect, entry: NewSingleEntry): Promise<number> {
  const release: Omit<ReleaseRow, 'id'> = {
    document_id: createDocumentId(),
    name: `Scheduled ${entry.type} of ${entry.uid} ${entry.documentId}${entry.locale ? ` (${entry.locale})` : ''}`,
    // Its validity is the publication's to find out, at its time: the entry may change until then.
    status: entry.status ?? 'ready',
    scheduled_at: entry.scheduledAt,
    timezone: 'UTC',
    released_at: entry.releasedAt ?? null,
    failure: entry.failure ?? null,
    created_at: entry.createdAt,
    updated_at: entry.updatedAt ?? entry.createdAt,
    created_by_id: null,
    origin: SCHEDULE_ORIGIN,
    cancelled_at: entry.cancelledAt ?? null,
  };
  const id = await dialect.insertReturningId(db, RELEASES_TABLE, release);
  const action: Omit<ReleaseActionRow, 'id'> = {
    document_id: createDocumentId(),
    release_id: id,
    type: entry.type,
    content_type: entry.uid,
    entry_document_id: entry.documentId,
    locale: entry.locale,
    is_entry_valid: 1,
    problem: null,
    // Never checked: the publication finds out at its time.
    checked_schema: null,
    created_at: entry.createdAt,
    updated_at: entry.createdAt,
  };
  await dialect.insertReturningId(db, RELEASE_ACTIONS_TABLE, action);
  return id;
}

function joined(db: SystemDb) {
  return db
    .selectFrom('vellum_releases as r')
    .innerJoin('vellum_release_actions as a', 'a.release_id', 'r.id')
    .select([
      'r.id',
      'r.status',
      'r.scheduled_at',
      'r.released_at',
      'r.cancelled_at',
      'r.failure',
      'r.created_at',
      'r.updated_at',
      'a.type',
      'a.content_type',
      'a.entry_document_id',
      'a.locale',
    ])
    .where('r.origin', '=', SCHEDULE_ORIGIN);
}

type Joined = Awaited<ReturnType<ReturnType<typeof joined>['executeTakeFirstOrThrow']>>;

const entryOf = (row: Joined): SingleEntry => ({
  id: Number(row.id),
  type: row.type,
  uid: row.content_type,
  documentId: row.entry_document_id ?? '',
  locale: row.locale,
  scheduledAt: Number(row.scheduled_at),
  status: row.status,
  releasedAt: row.released_at === null ? null : Number(row.released_at),
  cancelledAt: row.cancelled_at === null ? null : Number(row.cancelled_at),
  failure: row.failure,
  createdAt: Number(row.created_at),
  updatedAt: Number(row.updated_at),
});

/** The one-entry release `id`, or undefined. */
export async function readSingleEntry(db: SystemDb, id: number): Promise<SingleEntry | undefined> {
  const row = await joined(db).where('r.id', '=', id).executeTakeFirst();
  return row ? entryOf(row) : undefined;
}

/** One-entry releases, soonest first, narrowed by their type and document (at most 1,000). */
export async function listSingleEntries(
  db: SystemDb,
  filters: { uid?: string; documentId?: string },
): Promise<SingleEntry[]> {
  let query = joined(db);
  if (filters.uid !== undefined) query = query.where('a.content_type', '=', filters.uid);
  if (filters.documentId !== undefined) query = query.where('a.entry_document_id', '=', filters.documentId);
  const rows = await query.orderBy('r.scheduled_at').orderBy('r.id').limit(1000).execute();
  return rows.map(entryOf);
}

/** Cancels a pending one-entry release; true when this call did. */
export async function cancelSingleEntry(db: Db, id: number, now: number): Promise<boolean> {
  const result = await shaped<ReleaseRow>(db)
    .updateTable(RELEASES_TABLE)
    .set({ cancelled_at: now, updated_at: now })
    .where('id', '=', id)
    .where('origin', '=', SCHEDULE_ORIGIN)
    .where('released_at', 'is', null)
    .where('cancelled_at', 'is', null)
    .where('status', '<>', 'failed')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
