/**
 * Retention: entries older than `config/admin` `auditLogs.retentionDays` (Strapi's setting, 90 by
 * default) are deleted by a leased job (features/events/ runs it: each tick on one node, claimed
 * by one conditional UPDATE of its lease row), in batches of BATCH ids, each its own short
 * transaction, so a node never holds the write lock long nor deletes millions in one statement. A
 * tick deletes at most MAX_BATCHES batches; the next tick goes on. An idle tick (nothing old
 * enough) reads one index entry and writes nothing.
 */
import type { Database } from '../../core/database/connection.js';
import { BACKGROUND, type SystemDb } from '../../core/database/system-tables.js';
import { ProjectError } from '../../core/errors.js';
import { asRecord } from '../../core/objects.js';
import { AUDIT_TABLE } from './tables.js';

const DEFAULT_RETENTION_DAYS = 90;
const DAY = 86_400_000;
const HOUR = 3_600_000;
/** Ids per delete: a short transaction on every dialect (and an IN list every driver takes). */
const BATCH = 1000;
/** Batches per tick: a million entries an hour, beyond any steady rate of administrators' changes. */
const MAX_BATCHES = 1000;

/** `config/admin` `auditLogs.retentionDays`: a positive number of days (default 90); anything else stops start-up naming it. */
export function retentionDays(admin: Record<string, unknown>): number {
  const value = asRecord(admin.auditLogs).retentionDays;
  if (value === undefined || value === null) return DEFAULT_RETENTION_DAYS;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0)
    throw new ProjectError(
      `auditLogs.retentionDays must be a positive number of days (default ${DEFAULT_RETENTION_DAYS}), not ${JSON.stringify(value)}`,
      'config/admin',
    );
  return value;
}

/** A job as features/events/' LeaseScheduler runs it (the same shape: no import of that feature). */
export interface RetentionJob {
  key: string;
  next(after: Date): Date | null;
  due(): Promise<boolean>;
  run(tick: Date): Promise<void>;
}

export class AuditRetention {
  constructor(
    private readonly database: Database,
    private readonly days: number,
    private readonly now: () => number = Date.now,
  ) {}

  private cutoff(): number {
    return this.now() - this.days * DAY;
  }

  /** Whether an entry is older than the retention (one index entry read). */
  async due(): Promise<boolean> {
    const row = await this.database.system
      .selectFrom(AUDIT_TABLE)
      .select('id')
      .where('created_at', '<', this.cutoff())
      .limit(1)
      .modifyEnd(BACKGROUND)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Deletes the entries older than the retention, batch by batch; answers how many. */
  async prune(maxBatches = MAX_BATCHES): Promise<number> {
    const cutoff = this.cutoff();
    let deleted = 0;
    for (let batch = 0; batch < maxBatches; batch++) {
      const ids = (
        await this.database.system
          .selectFrom(AUDIT_TABLE)
          .select('id')
          .where('created_at', '<', cutoff)
          .orderBy('created_at')
          .limit(BATCH)
          .modifyEnd(BACKGROUND)
          .execute()
      ).map((row) => row.id);
      if (ids.length === 0) break;
      const result = await this.database.write((trx: SystemDb) =>
        trx.deleteFrom(AUDIT_TABLE).where('id', 'in', ids).modifyEnd(BACKGROUND).executeTakeFirst(),
      );
      // Another node's prune may have deleted some of them first (two at once delete each row once).
      deleted += Number(result.numDeletedRows);
      if (ids.length < BATCH) break;
    }
    return deleted;
  }

  /** The leased job: hourly ticks (the same on every node), each run on one node only. */
  job(interval = HOUR): RetentionJob {
    return {
      key: 'vellum:audit-retention',
      next: (after) => new Date((Math.floor(after.getTime() / interval) + 1) * interval),
      due: () => this.due(),
      run: async () => {
        await this.prune();
      },
    };
  }
}
