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
import { WorkerThread } from './worker-thread.js';

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
  /**
   * After a login whose password matched `stored`: when `stored` was made at another cost than the
   * configured one (`passwords.rounds` changed since), hashes the password again at the configured
   * cost and hands the new hash to `save`, in the background. The login does not wait for it and
   * never fails for it: a failure is logged, without the password.
   */
  rehashLater(password: string, stored: string, save: (hash: string) => Promise<unknown>): void;
  /** Stops the thread (what is under way is answered first, background rehashes stored first). */
  close(): Promise<void>;
}

/** The cost written in a bcrypt hash (`$2a$10$...`: 10), or undefined for another format. */
export const costOf = (hash: string): number | undefined => {
  const match = /^\$2[abxy]?\$(\d\d)\$/.exec(hash);
  return match ? Number(match[1]) : undefined;
};

/** The thread's code (core/worker-thread.ts). The synchronous API: the thread has nothing else to do. */
const WORKER_SOURCE = `
const bcrypt = require(workerData.bcryptjs);
serve(({ password, hash, rounds }) => (hash === undefined ? bcrypt.hashSync(password, rounds) : bcrypt.compareSync(password, hash)));
`;

type Request = { password: string; rounds: number; hash?: undefined } | { password: string; hash: string };

/** bcrypt on one worker thread, started when first needed (and again after it died). */
class BcryptThread {
  private thread?: WorkerThread<Request, string | boolean>;
  private closed = false;
  private readonly bcryptjs = createRequire(import.meta.url).resolve('bcryptjs');

  run(request: Request): Promise<string | boolean> {
    if (this.closed) return Promise.reject(new Error('Password hashing is closed'));
    return (this.thread ??= this.spawn()).request(request);
  }

  /** Refuses new work, lets what is under way finish, then stops the thread. */
  async close(): Promise<void> {
    this.closed = true;
    const thread = this.thread;
    this.thread = undefined;
    await thread?.close();
  }

  private spawn(): WorkerThread<Request, string | boolean> {
    const thread: WorkerThread<Request, string | boolean> = new WorkerThread({
      source: WORKER_SOURCE,
      workerData: { bcryptjs: this.bcryptjs },
      exitError: 'The password hashing thread exited',
      onEnd: () => {
        if (this.thread === thread) this.thread = undefined;
      },
    });
    return thread;
  }
}

/**
 * The node's password hashing, from `config/server` `passwords`; `log` tells a failed background
 * rehash.
 */
export function createPasswords(
  config: PasswordsConfig,
  log: (message: string) => void = (message) => console.error(`[vellum] ${message}`),
): Passwords {
  const thread = new BcryptThread();
  /** Background rehashes under way (what `close` waits for before the thread and the database close). */
  const rehashes = new Set<Promise<void>>();
  let closing = false;
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
    rehashLater(password, stored, save) {
      const cost = costOf(stored);
      if (closing || cost === undefined || cost === config.rounds) return;
      const rehash: Promise<void> = hash(password)
        .then(save)
        .then(
          () => undefined,
          (error: unknown) =>
            // The message alone: neither the password nor the hashes.
            log(
              `A password hashed at cost ${cost} was not hashed again at ${config.rounds}: ${error instanceof Error ? error.message : 'unknown error'}`,
            ),
        )
        .finally(() => rehashes.delete(rehash));
      rehashes.add(rehash);
    },
    async close() {
      closing = true;
      await Promise.all(rehashes);
      await thread.close();
    },
  };
}
