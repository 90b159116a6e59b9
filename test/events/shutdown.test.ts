/**
 * A node that closes while its webhook worker is polling: the poll finishes before the database
 * closes, so nothing runs on a closed pool (it used to log "webhook deliveries: polling failed:
 * driver has already been destroyed"). PostgreSQL only: another connection holds a lock on the
 * deliveries table, so the poll is certainly in progress when `close()` starts, and adds a due
 * delivery the poll then claims.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { PG } from '../helpers/databases.js';
import { eventually } from '../helpers/receiver.js';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';

const skip = DIALECTS.includes('postgres') ? false : 'needs PostgreSQL (a lock held by another connection)';

describe('closing a node while its webhook worker polls [postgres]', { skip }, () => {
  let server: TestServer;
  let locker: pg.Client;
  const errors: string[] = [];
  const consoleError = console.error;
  let closed = false;

  before(async () => {
    server = await startServer('postgres', { config: { server: { webhooks: { pollInterval: 20 } } } });
    const schema = String((server.databaseConfig.connection as { connection: { schema: string } }).connection.schema);
    locker = new pg.Client({ ...PG, options: `-c search_path=${schema}` });
    await locker.connect();
    console.error = (...args: unknown[]) => errors.push(args.map(String).join(' '));
  });
  after(async () => {
    console.error = consoleError;
    // A failed test leaves its transaction open and the node running: end both, or the process waits.
    await locker?.end();
    if (!closed) await server?.close();
  });

  it('waits for the poll in progress, then closes without an error', async () => {
    await locker.query('begin');
    await locker.query('lock table vellum_webhook_deliveries in access exclusive mode');
    // A due delivery (of no event and no webhook: it ends cancelled), which the waiting poll will see
    // once the lock goes, and claim in a write transaction.
    await locker.query(
      `insert into vellum_webhook_deliveries (event_id, webhook_id, ordering, state, attempts, next_at, created_at)
       values (0, 0, 'shutdown', 'pending', 0, 0, 0)`,
    );
    // The worker's next poll reads the deliveries table and waits for the lock.
    await eventually(async () => {
      // Inside a transaction PostgreSQL answers pg_stat_activity from one snapshot: take a new one.
      await locker.query('select pg_stat_clear_snapshot()');
      const { rows } = await locker.query(
        `select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and query ilike '%vellum_webhook_deliveries%'`,
      );
      return rows[0].n > 0;
    }, 'a poll waiting for the lock');
    const closing = server.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    await locker.query('commit');
    await closing;
    closed = true;
    assert.deepEqual(
      errors.filter((line) => line.includes('webhook deliveries')),
      [],
    );
  });
});
