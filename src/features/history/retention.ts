/**
 * Retention of history versions: `config/admin` `history.retentionDays` (Strapi's setting, 90 days
 * by default) and Vellum's `history.maxVersionsPerDocument` (100 by default: how many versions of
 * one document, its locales together, are kept, which also bounds what a page of versions folds).
 * A leased job (features/events/ runs it: each tick on one node, claimed by one conditional UPDATE
 * of its lease) deletes what is beyond either, a document at a time, each in its own short
 * transaction: since a row holds only what its write changed, each locale's oldest row kept is
 * first rewritten as a `full` row (the fold of those deleted and itself), so every kept version
 * reads as before. A write appending meanwhile only adds rows after those the job rewrites.
 */
import type { Database } from '../../core/database/connection.js';
import { BACKGROUND, type SystemDb } from '../../core/database/system-tables.js';
import { ProjectError } from '../../core/errors.js';
import { asRecord } from '../../core/objects.js';
import { foldDocument, fullData } from './fold.js';
import { HISTORY_TABLE } from './tables.js';

const DEFAULT_RETENTION_DAYS = 90;
const DEFAULT_MAX_VERSIONS = 100;
const DAY = 86_400_000;
const HOUR = 3_600_000;
/** Chains per read of work: a tick handles at most MAX_CHAINS chains; the next tick goes on. */
const CHAINS = 100;
const MAX_CHAINS = 10_000;
/** Documents written lately whose chains are counted per tick (a chain beyond them is trimmed after its next write). */
const RECENT = 1000;

export interface HistorySettings {
  retentionDays: number;
  maxVersionsPerDocument: number;
}

function positive(value: unknown, name: string, fallback: number, integer: boolean): number {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value)))
    throw new ProjectError(
      `history.${name} must be a positive ${integer ? 'whole number' : 'number of days'} (default ${fallback}), not ${JSON.stringify(value)}`,
      'config/admin',
    );
  return value;
}

/** `config/admin` `history`: anything but positive numbers stops start-up with one line naming the setting. */
export function historySettings(admin: Record<string, unknown>): HistorySettings {
  const history = asRecord(admin.history);
  return {
    retentionDays: positive(history.retentionDays, 'retentionDays', DEFAULT_RETENTION_DAYS, false),
    maxVersionsPerDocument: positive(
      history.maxVersionsPerDocument,
      'maxVersionsPerDocument',
      DEFAULT_MAX_VERSIONS,
      true,
    ),
  };
}

/** A job as features/events/' LeaseScheduler runs it (the same shape: no import of that feature). */
export interface HistoryJob {
  key: string;
  next(after: Date): Date | null;
  due(): Promise<boolean>;
  run(tick: Date): Promise<void>;
}

/** One document's versions (every locale). */
export interface ChainKey {
  related_document_id: string;
  content_type: string;
}

export interface RetentionOptions {
  now?: () => number;
  /** The attributes a type's locales share (fold.ts sharedNames), by uid. */
  shared?: (contentType: string) => ReadonlySet<string>;
  /** The job's tick (an hour). */
  interval?: number;
}

export class HistoryRetention {
  private readonly now: () => number;
  private readonly shared: (contentType: string) => ReadonlySet<string>;
  private readonly interval: number;

  constructor(
    private readonly database: Database,
    private readonly settings: HistorySettings,
    options: RetentionOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.shared = options.shared ?? (() => new Set());
    this.interval = options.interval ?? HOUR;
  }

  private cutoff(): number {
    return this.now() - this.settings.retentionDays * DAY;
  }

  private get system(): SystemDb {
    return this.database.system;
  }

  /** Chains with a row older than the retention (the time index, one range). */
  private async oldChains(): Promise<ChainKey[]> {
    return this.system
      .selectFrom(HISTORY_TABLE)
      .select(['related_document_id', 'content_type'])
      .distinct()
      .where('created_at', '<', this.cutoff())
      .limit(CHAINS)
      .modifyEnd(BACKGROUND)
      .execute();
  }

  /**
   * Chains longer than the setting. Only a write makes a chain longer, so the candidates are the
   * documents written since two ticks ago (a range of the time index), counted on the chain index:
   * the read grows with recent writes, not with the table.
   */
  private async longChains(): Promise<ChainKey[]> {
    const recent = await this.system
      .selectFrom(HISTORY_TABLE)
      .select('related_document_id')
      .distinct()
      .where('created_at', '>=', this.now() - 2 * this.interval)
      .limit(RECENT)
      .modifyEnd(BACKGROUND)
      .execute();
    if (recent.length === 0) return [];
    return this.system
      .selectFrom(HISTORY_TABLE)
      .select(['related_document_id', 'content_type'])
      .where(
        'related_document_id',
        'in',
        recent.map((row) => row.related_document_id),
      )
      .groupBy(['related_document_id', 'content_type'])
      .having((eb) => eb.fn.countAll(), '>', this.settings.maxVersionsPerDocument)
      .limit(CHAINS)
      .modifyEnd(BACKGROUND)
      .execute();
  }

  async due(): Promise<boolean> {
    return (await this.oldChains()).length > 0 || (await this.longChains()).length > 0;
  }

  /**
   * Trims one document's versions to the settings; answers how many rows went. The cut is one
   * place in the document's rows (every locale together: their shared attributes fold across
   * them), and each locale's first row kept becomes whole.
   */
  async trim(key: ChainKey): Promise<number> {
    const cutoff = this.cutoff();
    const max = this.settings.maxVersionsPerDocument;
    return this.database.write(async (trx: SystemDb) => {
      const rows = (
        await trx
          .selectFrom(HISTORY_TABLE)
          .select(['id', 'locale', 'kind', 'status', 'data', 'created_at'])
          .where('related_document_id', '=', key.related_document_id)
          .where('content_type', '=', key.content_type)
          .orderBy('id')
          .modifyEnd(BACKGROUND)
          .execute()
      ).map((row) => ({ ...row, id: Number(row.id), data: String(row.data), created_at: Number(row.created_at) }));
      let drop = rows.findIndex((row) => row.created_at >= cutoff);
      if (drop < 0) drop = rows.length;
      drop = Math.max(drop, rows.length - max);
      if (drop <= 0) return 0;
      const gone = rows.slice(0, drop);
      const kept = rows.slice(drop);
      const { states, publishedBefore } = foldDocument(rows, this.shared(key.content_type));
      const firsts = new Map<string | null, (typeof rows)[number]>();
      for (const row of kept) if (!firsts.has(row.locale)) firsts.set(row.locale, row);
      for (const first of firsts.values()) {
        if (first.kind === 'create' || first.kind === 'full') continue;
        await trx
          .updateTable(HISTORY_TABLE)
          .set({ kind: 'full', data: fullData(states.get(first.id)!, publishedBefore.get(first.id) ?? null) })
          .where('id', '=', first.id)
          .modifyEnd(BACKGROUND)
          .execute();
      }
      const result = await trx
        .deleteFrom(HISTORY_TABLE)
        .where(
          'id',
          'in',
          gone.map((row) => row.id),
        )
        .modifyEnd(BACKGROUND)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    });
  }

  /** Applies the settings to every chain beyond them (at most MAX_CHAINS a call); answers how many rows went. */
  async prune(): Promise<number> {
    let deleted = 0;
    let handled = 0;
    for (const find of [() => this.oldChains(), () => this.longChains()]) {
      while (handled < MAX_CHAINS) {
        const chains = await find();
        if (chains.length === 0) break;
        let progress = 0;
        for (const chain of chains) {
          progress += await this.trim(chain);
          handled += 1;
        }
        deleted += progress;
        // A chain whose old rows are all kept (the newest of a long chain) is no progress: stop.
        if (progress === 0 || chains.length < CHAINS) break;
      }
    }
    return deleted;
  }

  /** The leased job: hourly ticks (the same on every node), each run on one node only. */
  job(): HistoryJob {
    const { interval } = this;
    return {
      key: 'vellum:history-retention',
      next: (after) => new Date((Math.floor(after.getTime() / interval) + 1) * interval),
      due: () => this.due(),
      run: async () => {
        await this.prune();
      },
    };
  }
}
