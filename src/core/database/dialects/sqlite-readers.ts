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
import { Worker } from 'node:worker_threads';
import { statementTimeoutError } from '../dialect.js';

/**
 * The worker's code, plain JavaScript evaluated in the thread: no file to find next to a bundle,
 * no TypeScript loader to start per thread. Rows come back as the main connection's statements
 * give them: array rows for the response path's statements (`/*rows*\/` prefix), else objects
 * with integers exact (numbers, or digits beyond 2^53), as `readIntegersExactly` in sqlite.ts.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
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
parentPort.postMessage({ ready: true });
parentPort.on('message', ({ sql, parameters }) => {
  try {
    const statement = prepare(sql);
    const rows = statement.all(parameters);
    if (!sql.startsWith(workerData.arrayRows)) for (const row of rows) for (const key in row) row[key] = exact(row[key]);
    parentPort.postMessage({ rows });
  } catch (error) {
    parentPort.postMessage({ error: { message: String(error && error.message), code: error && error.code } });
  }
});
`;

interface Job {
  sql: string;
  parameters: readonly unknown[];
  resolve(rows: unknown[]): void;
  reject(error: unknown): void;
}

interface Reader {
  worker: Worker;
  job?: Job;
  timer?: NodeJS.Timeout;
  /** Terminated past the budget, still finishing its statement. */
  abandoned?: boolean;
  /** Its connection is open: the budget counts from then, not from the thread's start. */
  ready?: boolean;
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
  /** Reads sent and not yet answered (settled either way). */
  private readonly inFlight = new Set<Promise<unknown>>();
  /**
   * Threads terminated past the budget whose statement still runs. At most `size` of them: past
   * that, reads wait for one to end, so that repeating a slow request cannot start threads without
   * end (each holds a core until SQLite returns).
   */
  private abandoned = 0;

  constructor(private readonly options: ReaderOptions) {}

  run(sql: string, parameters: readonly unknown[]): Promise<unknown[]> {
    if (this.closed) return Promise.reject(new Error('The database is closed'));
    const answer = new Promise<unknown[]>((resolve, reject) => {
      this.queue.push({ sql, parameters, resolve, reject });
      this.dispatch();
    });
    const settled: Promise<unknown> = answer.then(
      () => this.inFlight.delete(settled),
      () => this.inFlight.delete(settled),
    );
    this.inFlight.add(settled);
    return answer;
  }

  /** Refuses new reads, lets those under way answer (within the budget), then stops the threads. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new Error('The database is closed'));
    await Promise.all(this.inFlight);
    await Promise.all(this.idle.splice(0).map((reader) => reader.worker.terminate()));
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
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { driver: this.driver, filename: this.options.filename, arrayRows: this.options.arrayRows },
      // Not the parent's `--import tsx` and the like: the code is plain JavaScript.
      execArgv: [],
    });
    // An idle thread must not keep a finished process alive (a CLI command's last read).
    worker.unref();
    const reader: Reader = { worker };
    worker.on(
      'message',
      (message: { ready?: boolean; rows?: unknown[]; error?: { message: string; code?: string } }) => {
        if (message.ready) {
          reader.ready = true;
          if (reader.job) this.arm(reader);
          return;
        }
        const job = this.finish(reader);
        if (!job) return;
        if (message.error) job.reject(Object.assign(new Error(message.error.message), { code: message.error.code }));
        else job.resolve(message.rows!);
        this.idle.push(reader);
        this.dispatch();
      },
    );
    worker.on('error', (error) => {
      this.finish(reader)?.reject(error);
      this.drop(reader);
    });
    worker.on('exit', () => {
      if (reader.abandoned) this.abandoned -= 1;
      this.finish(reader)?.reject(new Error('A database reader thread exited'));
      this.drop(reader);
    });
    return reader;
  }

  private start(reader: Reader, job: Job): void {
    reader.job = job;
    this.busy.add(reader);
    // A read in flight keeps the process alive (an idle thread does not).
    reader.worker.ref();
    if (reader.ready) this.arm(reader);
    reader.worker.postMessage({ sql: job.sql, parameters: job.parameters });
  }

  /** Starts the budget of the reader's job. */
  private arm(reader: Reader): void {
    if (this.options.budget > 0) {
      reader.timer = setTimeout(() => {
        const stopped = this.finish(reader);
        reader.abandoned = true;
        this.abandoned += 1;
        this.drop(reader);
        void reader.worker.terminate();
        stopped?.reject(statementTimeoutError(this.options.budget));
      }, this.options.budget);
    }
  }

  /** The reader's job, taken off it (undefined when it has none: answered already). */
  private finish(reader: Reader): Job | undefined {
    const job = reader.job;
    reader.job = undefined;
    if (job) reader.worker.unref();
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
