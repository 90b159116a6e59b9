/**
 * `vellum start` on every core: a primary process that serves nothing (cli/primary.ts) and N
 * worker processes (Node's `cluster`) that each run a whole node, with its own database
 * connection (SQLite: its own WAL connection and reader threads; PostgreSQL and MariaDB: its own
 * pool), on one shared port (the primary hands each new connection to the next worker, round-robin).
 *
 * Why processes, not worker threads: a node is already written to share nothing but its database
 * with other nodes (docs/deployment.md "Several nodes": sessions, rate limits, leases, the response
 * cache's change counters), so a process per core is that, on one machine, with no new code on the
 * request path. Threads would have to share the HTTP socket through one thread, and project code's
 * globals (`strapi`, its modules) would be per thread anyway.
 *
 * What must happen once does, because a node's start-up already expects others beside it: the
 * schema is synchronised under the database's schema lock, one-time moves and seeds are idempotent
 * and run in write transactions, scheduled jobs, webhook deliveries and cron ticks are leased
 * through the database. The first worker starts alone and does that work; the others start once
 * it listens, and find it done. On SQLite every write transaction begins IMMEDIATE (it takes the
 * file's write lock first, waiting up to the busy timeout for the other process's), so two
 * processes' writers queue instead of failing to upgrade a read lock.
 *
 * The Content-Type Builder writes files under `vellum develop` only, which stays one process.
 */
import cluster from 'node:cluster';
import type { Server, ServerResponse } from 'node:http';
import { availableParallelism } from 'node:os';
import type { VellumConfig } from '../core/config/load.js';
import { ProjectError } from '../core/errors.js';

/**
 * How many processes serve. Unset, one per core (`os.availableParallelism()`, the cores this
 * process may run on): `vellum start` is the production command (docs/performance.md "Every
 * core"). An in-memory SQLite database is one connection's own: one process, and asking for more
 * stops start-up.
 */
export function workerCount(config: VellumConfig): number {
  const { workers } = config.server;
  const { database } = config;
  if (database.client === 'sqlite' && database.filename === ':memory:') {
    if (typeof workers === 'number' && workers > 1)
      throw new ProjectError(
        "an in-memory SQLite database (:memory:) is one process's own: set VELLUM_WORKERS=1 (or workers: 1 in config/server), or use a database file",
      );
    return 1;
  }
  return workers === undefined || workers === 'auto' ? availableParallelism() : workers;
}

/** True in a process `vellum start`'s primary forked. */
export const isWorker = (): boolean => cluster.isWorker;

/** The first worker prints the configuration's warnings; the others would repeat them. */
export const isFirstWorker = (): boolean => process.env.VELLUM_WORKER_INDEX === '1';

/** In a worker: tells the primary it listens (cli/primary.ts reads this message). */
export function reportReady(lines: string[], workers: number): void {
  process.send?.({ vellum: 'ready', lines, workers });
}

/**
 * For tests only (`VELLUM_TEST_WORKER_HEADER=1`, never set otherwise): each answer names the
 * process that served it, so that a test sees both workers answer and nothing is exposed otherwise.
 */
export function nameServingProcess(server: Server): void {
  if (process.env.VELLUM_TEST_WORKER_HEADER !== '1') return;
  server.prependListener('request', (_request, response: ServerResponse) =>
    response.setHeader('x-vellum-worker', String(process.pid)),
  );
}
