/**
 * WAL checkpoints off the main thread. SQLite copies the write-ahead log back into the database
 * file once it holds 1,000 pages, in the commit that passes them, on the connection that commits:
 * the main thread held the event loop for the copy and two fsyncs (a whole article's commit: 0.25
 * ms at the median, 1.0 ms on average, up to 23 ms; ~6% of its CPU). Here a thread of its own with
 * a connection of its own checkpoints every `every` commits of the main connection (PASSIVE: it
 * never waits for, nor blocks, the writer or a reader). The main connection keeps a checkpoint of
 * its own for a log this thread let grow past `CHECKPOINT_BACKSTOP` pages (it failed to start, or
 * fell behind). The thread starts at the first checkpoint and ends after `IDLE_MS` without one: a
 * node that stopped writing does not keep its memory (a thread with a connection: ~5-10 MB).
 */
import { createRequire } from 'node:module';
import { WorkerThread } from '../../worker-thread.js';

/** The thread's code (core/worker-thread.ts). */
const WORKER_SOURCE = `
const Database = require(workerData.driver);
const db = new Database(workerData.filename, { fileMustExist: true });
// The checkpoint syncs as the main connection's commits do (NORMAL: the log before, the file after).
db.pragma('synchronous = NORMAL');
serve(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // Busy or gone: the next commits ask again.
  }
  return 0;
});
`;

/** Pages of log the main connection leaves to this thread before it checkpoints itself. */
export const CHECKPOINT_BACKSTOP = 10_000;

const IDLE_MS = 30_000;

export class SqliteCheckpointer {
  private thread: WorkerThread<0, 0> | undefined;
  private idle: NodeJS.Timeout | undefined;
  private commits = 0;
  private running = false;
  private pending = false;
  private failed = false;
  private readonly driver = createRequire(import.meta.url).resolve('better-sqlite3');

  constructor(
    private readonly filename: string,
    /** Called when the thread fails: the main connection checkpoints itself again. */
    private readonly onFailure: () => void,
    private readonly every = 20,
  ) {}

  /** The main connection committed (a transaction, or a write outside one). */
  committed(): void {
    if (++this.commits < this.every || this.failed) return;
    this.commits = 0;
    if (this.running) this.pending = true;
    else this.start();
  }

  /** Ends the thread once the checkpoint under way, if any, is done (SQLite's call runs to its end). */
  async close(): Promise<void> {
    this.failed = true;
    clearTimeout(this.idle);
    const thread = this.thread;
    this.thread = undefined;
    await thread?.close();
  }

  private start(): void {
    this.running = true;
    clearTimeout(this.idle);
    (this.thread ??= this.spawn()).request(0).then(
      () => {
        this.running = false;
        if (this.failed) return;
        if (this.pending) {
          this.pending = false;
          this.start();
        } else this.retireLater();
      },
      // The thread failed: onEnd says so.
      () => undefined,
    );
  }

  /** Ends the thread after IDLE_MS without a checkpoint (the next one starts another). */
  private retireLater(): void {
    this.idle = setTimeout(() => {
      const thread = this.thread;
      this.thread = undefined;
      thread?.terminate(new Error('The checkpoint thread retired'));
    }, IDLE_MS);
    this.idle.unref();
  }

  private spawn(): WorkerThread<0, 0> {
    return new WorkerThread({
      source: WORKER_SOURCE,
      workerData: { driver: this.driver, filename: this.filename },
      exitError: 'The checkpoint thread exited',
      // A checkpoint under way does not keep a finished process alive either.
      holdWhileBusy: false,
      // A thread retired or closed on purpose is expected to end.
      onEnd: (expected) => {
        if (this.failed || expected) return;
        this.failed = true;
        this.onFailure();
      },
    });
  }
}
