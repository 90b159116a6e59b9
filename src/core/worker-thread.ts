/**
 * One worker thread running plain JavaScript, and the requests sent to it: each request is a
 * promise, answered by the thread's reply to it; `close` lets those under way finish, `terminate`
 * rejects them. The password hashing (core/passwords.ts), SQLite's reader threads and its
 * checkpointer (core/database/dialects/) each run on one or more of these.
 *
 * The code is evaluated in the thread: no file to find beside a bundle, no TypeScript loader to
 * start per thread (`execArgv: []`, not the parent's `--import tsx`).
 */
import { Worker } from 'node:worker_threads';

/**
 * What the thread's code starts with: `parentPort`, `workerData`, and `serve(handle)`, which the
 * code calls once set up: it tells the main thread so (`onReady`), then answers each request with
 * what `handle` returns, or with the message and code of what it throws.
 */
const PRELUDE = `
const { parentPort, workerData } = require('node:worker_threads');
const serve = (handle) => {
  parentPort.postMessage({ ready: true });
  parentPort.on('message', ({ id, request }) => {
    try {
      parentPort.postMessage({ id, result: handle(request) });
    } catch (error) {
      parentPort.postMessage({ id, error: { message: String((error && error.message) || error), code: error && error.code } });
    }
  });
};
`;

export interface WorkerThreadOptions {
  /** The thread's code, plain CommonJS JavaScript, which calls `serve(handle)` (see PRELUDE). */
  source: string;
  workerData?: unknown;
  /** The message of the error requests under way get when the thread exits by itself. */
  exitError: string;
  /**
   * Whether a request under way keeps the process alive (default true). An idle thread never does:
   * a CLI command's end must not wait for it.
   */
  holdWhileBusy?: boolean;
  /** The thread's code called `serve`: it is set up. */
  onReady?(): void;
  /**
   * The thread failed or exited (the first of the two; once): `expected` when `close` or
   * `terminate` ended it.
   */
  onEnd?(expected: boolean): void;
}

interface Reply<Result> {
  ready?: boolean;
  id?: number;
  result?: Result;
  error?: { message: string; code?: unknown };
}

interface Pending<Result> {
  resolve(result: Result): void;
  reject(error: unknown): void;
}

export class WorkerThread<Request, Result> {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending<Result>>();
  private next = 0;
  /** Called when the last request under way is settled (what `close` waits for). */
  private drained: (() => void) | undefined;
  /**
   * `closing`: `close` waits for the requests under way, `stopping`: then for the thread's end
   * (both hold the process), `terminated`: ended without waiting. Past `open` it takes no more
   * requests, and its end is expected.
   */
  private state: 'open' | 'closing' | 'stopping' | 'terminated' = 'open';
  /** It failed or exited. */
  private ended = false;
  /** The thread's code called `serve`. */
  ready = false;

  constructor(private readonly options: WorkerThreadOptions) {
    this.worker = new Worker(PRELUDE + options.source, {
      eval: true,
      workerData: options.workerData,
      execArgv: [],
    });
    this.worker.unref();
    // Again once online: Node 20 forgets an `unref()` or `ref()` made before
    // (test/database/sqlite-readers-exit.test.ts).
    this.worker.once('online', () => this.reference());
    this.worker.on('message', (reply: Reply<Result>) => {
      if (reply.ready) {
        this.ready = true;
        options.onReady?.();
        return;
      }
      const request = this.settle(reply.id!);
      if (!request) return;
      if (reply.error === undefined) request.resolve(reply.result!);
      else {
        const { message, code } = reply.error;
        request.reject(code === undefined ? new Error(message) : Object.assign(new Error(message), { code }));
      }
    });
    this.worker.on('error', (error) => this.end(error));
    this.worker.on('exit', () => this.end(new Error(options.exitError)));
  }

  /** Whether it takes requests: not ending, failed nor exited. */
  get usable(): boolean {
    return this.state === 'open' && !this.ended;
  }

  /** Sends a request; the promise is the thread's answer (rejected when the thread ends first). */
  request(request: Request): Promise<Result> {
    if (!this.usable) return Promise.reject(new Error('The worker thread is closed'));
    const id = this.next++;
    return new Promise<Result>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      if (this.pending.size === 1) this.reference();
      try {
        this.worker.postMessage({ id, request });
      } catch (error) {
        // Not cloneable: answered at once.
        this.settle(id)!.reject(error);
      }
    });
  }

  /** What `close` answers, the same to every call. */
  private closed: Promise<void> | undefined;

  /** Refuses new requests, lets those under way finish, then ends the thread (held until it has). */
  close(): Promise<void> {
    return (this.closed ??= this.stop());
  }

  private async stop(): Promise<void> {
    if (this.state !== 'open') return;
    // Held until it has ended: an unreferenced thread's end does not keep the event loop waiting
    // for it, and a caller awaiting close() would be left pending (Node's test runner fails such a file).
    this.state = 'closing';
    this.reference();
    if (this.pending.size > 0) await new Promise<void>((resolve) => (this.drained = resolve));
    // Terminated meanwhile: not waited for (its statement may run on for long).
    if (this.ended || this.state !== 'closing') return;
    this.state = 'stopping';
    await this.worker.terminate();
  }

  /**
   * Ends the thread now, without waiting for it: the requests under way are rejected with `reason`.
   * The thread ends once the call it is in returns (a SQLite statement runs to its end).
   */
  terminate(reason: Error): void {
    if (this.state === 'stopping' || this.state === 'terminated') return;
    this.state = 'terminated';
    this.rejectAll(reason);
    void this.worker.terminate();
    // After it: Node 20's terminate() references the thread's port again, so that a process whose
    // read was stopped at the budget stayed alive until SQLite finished the statement (seconds; the
    // test shards' 10 s check failed test/database/statement-timeout.test.ts at a load of 8).
    this.reference();
  }

  private settle(id: number): Pending<Result> | undefined {
    const request = this.pending.get(id);
    if (!request) return undefined;
    this.pending.delete(id);
    if (this.pending.size === 0) {
      this.reference();
      this.drained?.();
      this.drained = undefined;
    }
    return request;
  }

  private rejectAll(error: unknown): void {
    for (const id of [...this.pending.keys()]) this.settle(id)!.reject(error);
  }

  private end(error: unknown): void {
    this.rejectAll(error);
    if (this.ended) return;
    this.ended = true;
    this.options.onEnd?.(this.state !== 'open');
  }

  /** Referenced while it works or is closing; else it must not keep a finished process alive. */
  private reference(): void {
    const held = this.state === 'closing' || this.state === 'stopping';
    if (held || (this.options.holdWhileBusy !== false && this.pending.size > 0)) this.worker.ref();
    else this.worker.unref();
  }
}
