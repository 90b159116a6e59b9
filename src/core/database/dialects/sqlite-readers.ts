/**
 * SQLite reads off the main thread, under a time budget. better-sqlite3 runs a statement
 * synchronously and exposes neither `sqlite3_interrupt` nor a progress handler, so a read that
 * scans for seconds held the event loop: `/_health` and every other request waited with it (4.7 s
 * in the security probe). Reads outside a write transaction run here instead, in worker threads
 * with their own read-only connection (WAL: readers never wait for the writer, and see what it
 * committed before they started). One that passes the budget is answered with the 503 at once and
 * its thread is terminated: the node goes on serving; SQLite finishes that statement on the
 * abandoned thread (nothing can stop it sooner), which then exits.
 */
import { createRequire } from 'node:module';
import { WorkerThread } from '../../worker-thread.js';
import { statementTimeoutError } from '../dialect.js';

/**
 * The worker's code (core/worker-thread.ts). Rows come back as the main connection's statements
 * give them: array rows for the response path's statements (`/*rows*\/` prefix), else objects
 * with integers exact (numbers, or digits beyond 2^53), as `readIntegersExactly` in sqlite.ts.
 */
const WORKER_SOURCE = `
const Database = require(workerData.driver);
const db = new Database(workerData.filename, { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 5000');
db.pragma('cache_size = -8192');
db.function('vellum_lower', { deterministic: true }, (value) => (typeof value === 'string' ? value.toLowerCase() : value));
const MIN = BigInt(Number.MIN_SAFE_INTEGER), MAX = BigInt(Number.MAX_SAFE_INTEGER);
const exact = (v) => (typeof v === 'bigint' ? (v >= MIN && v <= MAX ? Number(v) : v.toString()) : v);
const cache = new Map();
const prepare = (sql) => {
  let statement = cache.get(sql);
  if (!statement) {
    statement = db.prepare(sql);
    if (sql.startsWith(workerData.arrayRows)) statement.raw(true);
    else statement.safeIntegers(true);
    if (cache.size >= 500) cache.delete(cache.keys().next().value);
    cache.set(sql, statement);
  }
  return statement;
};
serve(({ sql, parameters }) => {
  const rows = prepare(sql).all(parameters);
  if (!sql.startsWith(workerData.arrayRows)) for (const row of rows) for (const key in row) row[key] = exact(row[key]);
  return rows;
});
`;

interface Job {
  sql: string;
  parameters: readonly unknown[];
  resolve(rows: unknown[]): void;
  reject(error: unknown): void;
}

interface Reader {
  thread: WorkerThread<{ sql: string; parameters: readonly unknown[] }, unknown[]>;
  job?: Job;
  timer?: NodeJS.Timeout;
  /** Terminated past the budget, still finishing its statement. */
  abandoned?: boolean;
}

export interface ReaderOptions {
  filename: string;
  /** Milliseconds a read may run; 0: no limit. */
  budget: number;
  /** Threads at most (each holds a connection and its page cache). */
  size: number;
  /** The prefix of statements whose rows are arrays. */
  arrayRows: string;
}

/** Worker threads running read-only statements, started when first needed, at most `size`. */
export class SqliteReaders {
  private readonly idle: Reader[] = [];
  private readonly busy = new Set<Reader>();
  private readonly queue: Job[] = [];
  private readonly driver = createRequire(import.meta.url).resolve('better-sqlite3');
  private closed = false;
  /**
   * Threads terminated past the budget whose statement still runs. At most `size` of them: past
   * that, reads wait for one to end, so that repeating a slow request cannot start threads without
   * end (each holds a core until SQLite returns).
   */
  private abandoned = 0;

  constructor(private readonly options: ReaderOptions) {}

  run(sql: string, parameters: readonly unknown[]): Promise<unknown[]> {
    if (this.closed) return Promise.reject(new Error('The database is closed'));
    return new Promise<unknown[]>((resolve, reject) => {
      this.queue.push({ sql, parameters, resolve, reject });
      this.dispatch();
    });
  }

  /** Refuses new reads, lets those under way answer (within the budget), then stops the threads. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new Error('The database is closed'));
    const readers = [...this.busy, ...this.idle.splice(0)];
    await Promise.all(readers.map((reader) => reader.thread.close()));
    this.idle.length = 0;
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const room = this.busy.size < this.options.size && this.abandoned < this.options.size;
      const reader = this.idle.pop() ?? (room ? this.spawn() : undefined);
      if (!reader) return;
      this.start(reader, this.queue.shift()!);
    }
  }

  private spawn(): Reader {
    const reader = {} as Reader;
    reader.thread = new WorkerThread({
      source: WORKER_SOURCE,
      workerData: { driver: this.driver, filename: this.options.filename, arrayRows: this.options.arrayRows },
      exitError: 'A database reader thread exited',
      // Its connection is open: the budget counts from then, not from the thread's start.
      onReady: () => reader.job && this.arm(reader),
      onEnd: () => {
        if (reader.abandoned) this.abandoned -= 1;
        this.drop(reader);
      },
    });
    return reader;
  }

  private start(reader: Reader, job: Job): void {
    reader.job = job;
    this.busy.add(reader);
    if (reader.thread.ready) this.arm(reader);
    reader.thread.request({ sql: job.sql, parameters: job.parameters }).then(
      (rows) => {
        if (this.finish(reader) !== job) return;
        job.resolve(rows);
        this.idle.push(reader);
        this.dispatch();
      },
      (error: unknown) => {
        if (this.finish(reader) !== job) return;
        job.reject(error);
        // A statement's error leaves the thread serving; a thread's failure does not.
        if (!reader.thread.usable) return this.drop(reader);
        this.idle.push(reader);
        this.dispatch();
      },
    );
  }

  /** Starts the budget of the reader's job. */
  private arm(reader: Reader): void {
    if (this.options.budget > 0) {
      reader.timer = setTimeout(() => {
        const stopped = this.finish(reader);
        reader.abandoned = true;
        this.abandoned += 1;
        this.drop(reader);
        const error = statementTimeoutError(this.options.budget);
        reader.thread.terminate(error);
        stopped?.reject(error);
      }, this.options.budget);
    }
  }

  /** The reader's job, taken off it (undefined when it has none: answered already). */
  private finish(reader: Reader): Job | undefined {
    const job = reader.job;
    reader.job = undefined;
    if (reader.timer) clearTimeout(reader.timer);
    reader.timer = undefined;
    this.busy.delete(reader);
    return job;
  }

  private drop(reader: Reader): void {
    this.busy.delete(reader);
    const at = this.idle.indexOf(reader);
    if (at >= 0) this.idle.splice(at, 1);
    if (!this.closed) this.dispatch();
  }
}
