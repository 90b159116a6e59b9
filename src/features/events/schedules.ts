/**
 * Scheduled publishing: a publish or unpublish action to carry out at a time (`?at=<ISO date>` on
 * the actions), stored in `vellum_scheduled_actions`, listed and cancellable through the admin API.
 * A leased job (cron.ts) looks for actions due, on one node per look; each action is claimed by a
 * conditional UPDATE before it runs, so it runs once even if two looks overlap, and an action
 * whose node died while running it is taken again once its claim lapses. It runs through the
 * document service, as the action would: lifecycles, middlewares and webhook events fire.
 */
import type { Selectable } from 'kysely';
import type { Database } from '../../core/database/connection.js';
import { BACKGROUND, shaped } from '../../core/database/system-tables.js';
import { recordAudit, type Audited, type DocumentService } from '../../core/documents/service.js';
import { NotFoundError, QueryValidationError, ValidationError } from '../../core/errors.js';
import type { ContentType } from '../../core/schema/model.js';
import { SCHEDULES_TABLE, isoTime, type ScheduleRow, type ScheduleState } from './tables.js';

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
/** How long a node may take to carry out an action before another may take it over. */
const CLAIM = 60_000;
/** Actions one look carries out at most (the next look takes the rest). */
const BATCH = 20;

type StoredSchedule = Selectable<ScheduleRow>;

function present(row: StoredSchedule): ScheduledAction {
  return {
    id: Number(row.id),
    action: row.action,
    uid: row.uid,
    documentId: row.document_id,
    locale: row.locale,
    scheduledAt: isoTime(row.scheduled_at),
    state: row.state,
    attempts: Number(row.attempts),
    lastError: row.last_error,
    createdAt: isoTime(row.created_at),
    doneAt: isoTime(row.done_at),
  };
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
    const values: Omit<ScheduleRow, 'id'> = {
      action,
      uid: type.uid,
      document_id: documentId,
      locale: type.localized
        ? typeof locale === 'string' && locale !== ''
          ? locale
          : this.documents.i18n.defaultLocale
        : null,
      scheduled_at: time,
      state: 'pending',
      next_at: time,
      attempts: 0,
      last_error: null,
      created_at: now,
      done_at: null,
    };
    const id = await this.database.write((trx) =>
      this.database.dialect.insertReturningId(trx, SCHEDULES_TABLE, values),
    );
    return this.get(id);
  }

  async get(id: number): Promise<ScheduledAction> {
    const row = Number.isSafeInteger(id)
      ? await this.database.system.selectFrom(SCHEDULES_TABLE).selectAll().where('id', '=', id).executeTakeFirst()
      : undefined;
    if (!row) throw new NotFoundError(`No scheduled action ${id}`);
    return present(row);
  }

  /** Scheduled actions, soonest first: `state`, `uid`, `documentId` narrow the list. */
  async list(filters: { state?: unknown; uid?: unknown; documentId?: unknown } = {}): Promise<ScheduledAction[]> {
    let query = this.database.system.selectFrom(SCHEDULES_TABLE).selectAll();
    if (filters.state !== undefined) {
      if (!STATES.has(filters.state as ScheduleState))
        throw new ValidationError(`state must be one of ${[...STATES].join(', ')}`, { key: 'state' });
      query = query.where('state', '=', filters.state as ScheduleState);
    }
    if (typeof filters.uid === 'string') query = query.where('uid', '=', filters.uid);
    if (typeof filters.documentId === 'string') query = query.where('document_id', '=', filters.documentId);
    const rows = await query.orderBy('scheduled_at').orderBy('id').limit(1000).execute();
    return rows.map(present);
  }

  /** Cancels a pending action; one already carried out (or cancelled) is a 400. */
  /** Cancels a pending action; `audited`: recorded as `scheduled-action.cancel` in its transaction. */
  async cancel(id: number, audited?: Audited): Promise<ScheduledAction> {
    const current = await this.get(id);
    const result = await this.database.write(async (trx) => {
      const result = await shaped<ScheduleRow>(trx)
        .updateTable(SCHEDULES_TABLE)
        .set({ state: 'cancelled', done_at: Date.now() })
        .where('id', '=', id)
        .where('state', '=', 'pending')
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 1)
        await recordAudit(trx, audited, {
          action: 'scheduled-action.cancel',
          subject: String(id),
          contentType: current.uid,
          documentId: current.documentId,
          locale: current.locale,
          details: { action: current.action, scheduledAt: current.scheduledAt },
        });
      return result;
    });
    if (Number(result.numUpdatedRows) !== 1)
      throw new ValidationError(
        `Scheduled action ${id} is ${current.state === 'pending' ? 'running' : current.state}: only a pending one can be cancelled`,
      );
    return this.get(id);
  }

  /** Whether an action is due (the leased job claims its tick only then). */
  async due(): Promise<boolean> {
    const row = await this.database.system
      .selectFrom(SCHEDULES_TABLE)
      .select('id')
      .where('state', 'in', ['pending', 'running'])
      .where('next_at', '<=', Date.now())
      .limit(1)
      .modifyEnd(BACKGROUND)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Carries out the actions due, each after claiming it. */
  async runDue(): Promise<void> {
    const now = Date.now();
    const rows = await this.database.system
      .selectFrom(SCHEDULES_TABLE)
      .selectAll()
      .where('state', 'in', ['pending', 'running'])
      .where('next_at', '<=', now)
      .orderBy('scheduled_at')
      .orderBy('id')
      .limit(BATCH)
      .modifyEnd(BACKGROUND)
      .execute();
    for (const row of rows) {
      const claimed = await shaped<ScheduleRow>(this.database.db)
        .updateTable(SCHEDULES_TABLE)
        .set((eb) => ({ state: 'running', next_at: Date.now() + CLAIM, attempts: eb('attempts', '+', 1) }))
        .where('id', '=', row.id)
        .where('state', '=', row.state)
        .where('next_at', '=', row.next_at)
        .modifyEnd(BACKGROUND)
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) === 1) await this.carryOut(row);
    }
  }

  private async carryOut(row: StoredSchedule): Promise<void> {
    let state: ScheduleState = 'done';
    let error: string | null = null;
    try {
      const documents = this.documents.of(row.uid);
      const params = { documentId: row.document_id, locale: row.locale ?? undefined };
      if (row.action === 'publish') await documents.publish(params);
      else await documents.unpublish(params);
    } catch (failure) {
      state = 'failed';
      // A 404 says "Not Found" (Strapi's words) and what was missing in its details: the log says the latter.
      const reason =
        failure instanceof NotFoundError && typeof failure.details.reason === 'string'
          ? failure.details.reason
          : undefined;
      error = reason ?? (failure instanceof Error ? failure.message : String(failure));
      if (!(failure instanceof ValidationError || failure instanceof NotFoundError))
        this.log(`Scheduled ${row.action} of ${row.uid} ${row.document_id} failed`, failure);
    }
    await shaped<ScheduleRow>(this.database.db)
      .updateTable(SCHEDULES_TABLE)
      .set({ state, last_error: error, done_at: Date.now() })
      .where('id', '=', row.id)
      .modifyEnd(BACKGROUND)
      .execute();
  }
}
