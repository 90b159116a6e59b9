/**
 * Every password Vellum stores or checks (users', administrators', a `password` attribute of any
 * type): bcrypt, as Strapi writes it (bcryptjs, so that Strapi reads Vellum's hashes and Vellum
 * reads Strapi's), at the cost `config/server` `passwords.rounds` gives. A hash is checked at its
 * own cost, so hashes made at another cost keep working.
 *
 * bcryptjs is plain JavaScript: one hash at cost 10 is ~85 ms of CPU, and its asynchronous API only
 * slices that work on the main thread: during 20 logins at once a cached list request waited a
 * median 0.6-1.0 s (bench/login-burst.ts). It runs here on one worker thread instead (1.4-3.2 ms;
 * two threads left the main thread less of this 2-core machine: worse), started at the first hash
 * (~9 MB, and tens of ms once; a node that never hashes never pays for it).
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** Strapi's cost, the default, and the least a production node accepts. */
export const STRAPI_ROUNDS = 10;
/** The costs `passwords.rounds` accepts: bcrypt's least, and one past which a hash takes seconds. */
export const MIN_ROUNDS = 4;
export const MAX_ROUNDS = 15;

export interface PasswordsConfig {
  /** bcrypt's cost: each one more doubles the work of a hash (10: ~85 ms with bcryptjs). */
  rounds: number;
}

export interface Passwords {
  /** A bcrypt hash of the password at the configured cost. */
  hash(password: string): Promise<string>;
  /**
   * Whether the password matches the hash (at the hash's own cost). Without a hash (no such
   * account) the same work is done against a throwaway hash and the answer is false, so that timing
   * does not tell which accounts exist.
   */
  verify(password: string, hash: string | null | undefined): Promise<boolean>;
  /** Stops the thread (what is under way is answered first). */
  close(): Promise<void>;
}

/**
 * The thread's code, plain JavaScript evaluated in it (as core/database/dialects/sqlite-readers.ts):
 * no file to find beside a bundle, no TypeScript loader to start. The synchronous API: the thread
 * has nothing else to do.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const bcrypt = require(workerData.bcryptjs);
parentPort.on('message', ({ id, password, hash, rounds }) => {
  try {
    const result = hash === undefined ? bcrypt.hashSync(password, rounds) : bcrypt.compareSync(password, hash);
    parentPort.postMessage({ id, result });
  } catch (error) {
    parentPort.postMessage({ id, error: String((error && error.message) || error) });
  }
});
`;

type Request = { password: string; rounds: number; hash?: undefined } | { password: string; hash: string };

interface Pending {
  resolve(result: string | boolean): void;
  reject(error: Error): void;
}

/** bcrypt on one worker thread, started when first needed (and again after it died). */
class BcryptThread {
  private worker?: Worker;
  private readonly pending = new Map<number, Pending>();
  /** Requests sent and not yet answered, settled either way (what `close` waits for). */
  private readonly inFlight = new Set<Promise<unknown>>();
  private next = 0;
  private closed = false;
  private readonly bcryptjs = createRequire(import.meta.url).resolve('bcryptjs');

  run(request: Request): Promise<string | boolean> {
    if (this.closed) return Promise.reject(new Error('Password hashing is closed'));
    const worker = (this.worker ??= this.spawn());
    const id = this.next++;
    const answer = new Promise<string | boolean>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      // Work under way keeps the process alive; an idle thread does not (a CLI command's end).
      if (this.pending.size === 1) worker.ref();
      worker.postMessage({ id, ...request });
    });
    const settled: Promise<unknown> = answer.then(
      () => this.inFlight.delete(settled),
      () => this.inFlight.delete(settled),
    );
    this.inFlight.add(settled);
    return answer;
  }

  /** Refuses new work, lets what is under way finish, then stops the thread. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.inFlight);
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  private spawn(): Worker {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { bcryptjs: this.bcryptjs },
      // Not the parent's `--import tsx` and the like: the code is plain JavaScript.
      execArgv: [],
    });
    worker.unref();
    worker.on('message', (message: { id: number; result?: string | boolean; error?: string }) => {
      const job = this.pending.get(message.id);
      if (!job) return;
      this.pending.delete(message.id);
      if (this.pending.size === 0) worker.unref();
      if (message.error !== undefined) job.reject(new Error(message.error));
      else job.resolve(message.result!);
    });
    const fail = (error: Error) => {
      if (this.worker === worker) this.worker = undefined;
      const jobs = [...this.pending.values()];
      this.pending.clear();
      for (const job of jobs) job.reject(error);
    };
    worker.on('error', fail);
    worker.on('exit', () => fail(new Error('The password hashing thread exited')));
    return worker;
  }
}

/** The node's password hashing, from `config/server` `passwords`. */
export function createPasswords(config: PasswordsConfig): Passwords {
  const thread = new BcryptThread();
  // The throwaway hash unknown accounts are checked against, at the configured cost (made once).
  let dummy: Promise<string> | undefined;
  const hash = async (password: string) => (await thread.run({ password, rounds: config.rounds })) as string;
  return {
    hash,
    async verify(password, stored) {
      if (typeof stored === 'string' && stored !== '') return (await thread.run({ password, hash: stored })) as boolean;
      dummy ??= hash('vellum: no such account').catch((error: unknown) => {
        dummy = undefined;
        throw error;
      });
      await thread.run({ password, hash: await dummy });
      return false;
    },
    close: () => thread.close(),
  };
}
