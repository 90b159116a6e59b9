/**
 * Scheduled publishing: a publish or unpublish action to carry out at a time (`?at=<ISO date>` on
 * the actions), listed and cancellable through the admin API. Each is stored as a one-entry
 * release (features/releases/single-entry.ts): the releases' leased job publishes it at its time,
 * on one node, in one transaction claimed by a conditional UPDATE, through the document service as
 * the action would (lifecycles, middlewares and webhook events fire). Rows of the table earlier
 * Vellums kept (`vellum_scheduled_actions`) are moved into releases at start-up (`migrate`).
 */
import type { Selectable } from 'kysely';
import type { Database } from '../../core/database/connection.js';
import { shaped } from '../../core/database/system-tables.js';
import { recordAudit, type Audited, type DocumentService } from '../../core/documents/service.js';
import { NotFoundError, QueryValidationError, ValidationError } from '../../core/errors.js';
import type { ContentType } from '../../core/schema/model.js';
import {
  cancelSingleEntry,
  insertSingleEntry,
  listSingleEntries,
  readSingleEntry,
  type NewSingleEntry,
  type SingleEntry,
} from '../releases/index.js';
import { SCHEDULES_TABLE, type ScheduleRow, type ScheduleState } from './tables.js';

export type ScheduledActionName = 'publish' | 'unpublish';

/** A scheduled action as the APIs answer it. */
export interface ScheduledAction {
  id: number;
  action: ScheduledActionName;
  uid: string;
  documentId: string;
  locale: string | null;
  scheduledAt: string | null;
  state: ScheduleState;
  attempts: number;
  lastError: string | null;
  createdAt: string | null;
  doneAt: string | null;
}

const STATES = new Set<ScheduleState>(['pending', 'running', 'done', 'failed', 'cancelled']);

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

function stateOf(entry: SingleEntry): ScheduleState {
  if (entry.cancelledAt !== null) return 'cancelled';
  if (entry.releasedAt !== null) return 'done';
  return entry.status === 'failed' ? 'failed' : 'pending';
}

function present(entry: SingleEntry): ScheduledAction {
  const state = stateOf(entry);
  return {
    id: entry.id,
    action: entry.type,
    uid: entry.uid,
    documentId: entry.documentId,
    locale: entry.locale,
    scheduledAt: iso(entry.scheduledAt),
    state,
    attempts: state === 'done' || state === 'failed' ? 1 : 0,
    lastError: state === 'failed' ? entry.failure : null,
    createdAt: iso(entry.createdAt),
    doneAt: iso(entry.releasedAt ?? entry.cancelledAt ?? (state === 'failed' ? entry.updatedAt : null)),
  };
}

/** A row of the earlier table as the one-entry release it becomes (its state kept). */
function migrated(row: Selectable<ScheduleRow>): NewSingleEntry {
  const at = (value: number | string | null) => (value === null ? null : Number(value));
  const done = at(row.done_at);
  const base = {
    type: row.action,
    uid: row.uid,
    documentId: row.document_id,
    locale: row.locale,
    scheduledAt: Number(row.scheduled_at),
    createdAt: Number(row.created_at),
  };
  switch (row.state) {
    case 'done':
      return { ...base, status: 'done', releasedAt: done ?? Date.now(), updatedAt: done ?? undefined };
    case 'failed':
      return { ...base, status: 'failed', failure: row.last_error, updatedAt: done ?? undefined };
    case 'cancelled':
      return { ...base, cancelledAt: done ?? Date.now(), updatedAt: done ?? undefined };
    default:
      // pending, or running when its node stopped: published at its time (now, when past).
      return base;
  }
}

/** `at`: an ISO 8601 date and time, in the future. */
function parseAt(value: unknown, now: number): number {
  const bad = (message: string) => new QueryValidationError(message, { param: 'at', key: 'at', path: null });
  if (
    typeof value !== 'string' ||
    !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.test(value)
  ) {
    throw bad('at must be an ISO 8601 date and time with its zone, such as 2030-01-31T09:00:00Z');
  }
  const [year, month, day, hour, minute] = value.split(/[-T:]/).map(Number) as [number, number, number, number, number];
  const calendar = new Date(Date.UTC(year, month - 1, day));
  const time = Date.parse(value);
  if (
    Number.isNaN(time) ||
    calendar.getUTCMonth() !== month - 1 ||
    calendar.getUTCDate() !== day ||
    hour > 23 ||
    minute > 59
  ) {
    throw bad(`at ${JSON.stringify(value)} is not a valid date`);
  }
  if (time <= now) throw bad(`at ${value} is in the past: a scheduled action needs a time to come`);
  return time;
}

export class ScheduledActions {
  constructor(
    private readonly database: Database,
    private readonly documents: DocumentService,
    private readonly log: (message: string, error?: unknown) => void,
  ) {}

  /**
   * Schedules `action` of a document's locale at `at`. The document must exist (404), `at` be an
   * ISO date to come (400), and the type have draft and publish (400).
   */
  async schedule(
    action: ScheduledActionName,
    type: ContentType,
    documentId: string,
    locale: unknown,
    at: unknown,
  ): Promise<ScheduledAction> {
    const now = Date.now();
    const time = parseAt(at, now);
    if (!type.draftAndPublish)
      throw new ValidationError(`${type.singularName} does not have draft and publish enabled`);
    const documents = this.documents.of(type);
    // A version of the locale must exist (a bad locale is the read's 400).
    const version =
      (await documents.findVersion({ documentId, locale, status: 'draft', fields: [] })) ??
      (await documents.findVersion({ documentId, locale, status: 'published', fields: [] }));
    if (!version) throw new NotFoundError(`No ${type.singularName} with documentId ${documentId}`);
    const entry: NewSingleEntry = {
      type: action,
      uid: type.uid,
      documentId,
      locale: type.localized
        ? typeof locale === 'string' && locale !== ''
          ? locale
          : this.documents.i18n.defaultLocale
        : null,
      scheduledAt: time,
      createdAt: now,
    };
    const id = await this.database.write((trx) => insertSingleEntry(trx, this.database.dialect, entry));
    return this.get(id);
  }

  async get(id: number): Promise<ScheduledAction> {
    const entry = Number.isSafeInteger(id) ? await readSingleEntry(this.database.system, id) : undefined;
    if (!entry) throw new NotFoundError(`No scheduled action ${id}`);
    return present(entry);
  }

  /** Scheduled actions, soonest first: `state`, `uid`, `documentId` narrow the list. */
  async list(filters: { state?: unknown; uid?: unknown; documentId?: unknown } = {}): Promise<ScheduledAction[]> {
    if (filters.state !== undefined && !STATES.has(filters.state as ScheduleState))
      throw new ValidationError(`state must be one of ${[...STATES].join(', ')}`, { key: 'state' });
    const entries = await listSingleEntries(this.database.system, {
      uid: typeof filters.uid === 'string' ? filters.uid : undefined,
      documentId: typeof filters.documentId === 'string' ? filters.documentId : undefined,
    });
    const listed = entries.map(present);
    return filters.state === undefined ? listed : listed.filter((item) => item.state === filters.state);
  }

  /** Cancels a pending action; one already carried out (or cancelled) is a 400. `audited`: recorded as `scheduled-action.cancel` in its transaction. */
  async cancel(id: number, audited?: Audited): Promise<ScheduledAction> {
    const current = await this.get(id);
    const cancelled = await this.database.write(async (trx) => {
      const done = await cancelSingleEntry(trx, id, Date.now());
      if (done)
        await recordAudit(trx, audited, {
          action: 'scheduled-action.cancel',
          subject: String(id),
          contentType: current.uid,
          documentId: current.documentId,
          locale: current.locale,
          details: { action: current.action, scheduledAt: current.scheduledAt },
        });
      return done;
    });
    if (!cancelled)
      throw new ValidationError(
        `Scheduled action ${id} is ${current.state === 'pending' ? 'running' : current.state}: only a pending one can be cancelled`,
      );
    return this.get(id);
  }

  /**
   * Moves the rows of the table earlier Vellums kept into one-entry releases, each in its own
   * transaction that deletes the row first: of two nodes starting together, one moves each row.
   */
  async migrate(): Promise<number> {
    let moved = 0;
    for (;;) {
      const rows = await this.database.system
        .selectFrom(SCHEDULES_TABLE)
        .selectAll()
        .orderBy('id')
        .limit(100)
        .execute();
      if (rows.length === 0) break;
      for (const row of rows)
        await this.database.write(async (trx) => {
          const deleted = await shaped<ScheduleRow>(trx)
            .deleteFrom(SCHEDULES_TABLE)
            .where('id', '=', row.id)
            .executeTakeFirst();
          if (Number(deleted.numDeletedRows) !== 1) return;
          await insertSingleEntry(trx, this.database.dialect, migrated(row));
          moved += 1;
        });
    }
    if (moved > 0) this.log(`Moved ${moved} scheduled action(s) into one-entry releases`);
    return moved;
  }
}
