/**
 * No statement holds the server: every statement runs under `config/database`
 * `settings.statementTimeout`, and one the database stops is a 503 naming the limit, for reads as
 * for writes (rolled back: nothing written); schema work runs without it. The slow statements
 * here are a sleep and a wait for a lock another client holds: the database stops them at the
 * budget whatever the machine's speed.
 */
import { sql } from 'kysely';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { ServiceUnavailableError } from '../../src/core/errors.js';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';

const BUDGET = 300;

/** A statement that runs about `seconds` (on SQLite, several seconds whatever `seconds`). */
const slow = (dialect: string, seconds: number) =>
  dialect === 'postgres'
    ? sql`select pg_sleep(${seconds})`
    : dialect === 'mysql'
      ? sql`select sleep(${seconds})`
      : // SQLite has no sleep: counting to 3 * 10^7 takes 2-7 s, far past the budget on any machine.
        sql`with recursive c(x) as (select 1 union all select x + 1 from c where x < 30000000) select count(*) from c`;

const isTimeout = (error: unknown): boolean => {
  assert.ok(error instanceof ServiceUnavailableError, String(error));
  assert.equal(error.details.limit, BUDGET);
  assert.match(error.message, /ran longer than 300 ms/);
  return true;
};

/** A client of the test database outside Vellum, holding `articles` locked until `release`. */
async function lockArticles(server: TestServer): Promise<() => Promise<void>> {
  const params = (server.databaseConfig.connection as { connection: Record<string, unknown> }).connection;
  if (server.dialect === 'postgres') {
    const { schema, ...rest } = params;
    const client = new pg.Client(rest as pg.ClientConfig);
    await client.connect();
    await client.query(`set search_path = "${String(schema)}"`);
    await client.query('begin');
    await client.query('lock table articles in access exclusive mode');
    return async () => {
      await client.query('rollback');
      await client.end();
    };
  }
  const client = await mysql.createConnection(params as mysql.ConnectionOptions);
  await client.query('lock tables articles write');
  return async () => {
    await client.query('unlock tables');
    await client.end();
  };
}

for (const dialect of DIALECTS) {
  describe(`statement timeout [${dialect}]`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect, { config: { database: { settings: { statementTimeout: BUDGET } } } });
    });
    after(async () => server?.close());

    it('stops a slow read at the budget with a 503 naming the limit; the next statement runs', async () => {
      const { db } = server.vellum.database;
      await assert.rejects(slow(dialect, 5).execute(db), isTimeout);
      const { rows } = await sql<{ one: number }>`select 1 as one`.execute(db);
      assert.equal(Number(rows[0]!.one), 1);
    });

    // SQLite's writes and schema work run on the main connection, which has no budget (docs/security.md
    // "Limits against denial of service"), and a WAL reader never waits for a lock: these are the server dialects' alone.
    if (dialect !== 'sqlite')
      it('rolls a write back when one of its statements is stopped', async () => {
        const { database } = server.vellum;
        const title = `stopped ${Date.now()}`;
        await assert.rejects(
          database.write(async (trx) => {
            await sql`insert into articles (document_id, title) values ('stopped-doc', ${title})`.execute(trx);
            await slow(dialect, 5).execute(trx);
          }),
          isTimeout,
        );
        const { rows } = await sql<{ n: number }>`select count(*) as n from articles where title = ${title}`.execute(
          database.db,
        );
        assert.equal(Number(rows[0]!.n), 0);
      });

    if (dialect !== 'sqlite')
      it('runs schema work without the budget, and restores it after', async () => {
        const { database } = server.vellum;
        await database.dialect.withSchemaLock(database.db, async (db) => {
          await slow(dialect, 0.6).execute(db);
        });
        await assert.rejects(slow(dialect, 5).execute(database.db), isTimeout);
      });

    it('keeps answering while a slow read runs: /_health answers before the read is stopped', async () => {
      let settled = false;
      const read = slow(dialect, 5)
        .execute(server.vellum.database.db)
        .finally(() => (settled = true));
      const health = await fetch(`${server.url}/_health`);
      assert.equal(health.status, 204);
      assert.equal(settled, false, 'the read was answered before /_health');
      await assert.rejects(read, isTimeout);
    });

    if (dialect !== 'sqlite')
      it('answers a REST read stuck behind a lock with the 503, and the same read once the lock is gone', async () => {
        const release = await lockArticles(server);
        try {
          const res = await server.api.get('/api/articles');
          assert.equal(res.status, 503, JSON.stringify(res.body));
          assert.equal(res.body.error.name, 'ServiceUnavailableError');
          assert.deepEqual(res.body.error.details, {
            limit: BUDGET,
            setting: 'config/database settings.statementTimeout',
          });
          assert.equal(res.headers.get('retry-after'), '1');
        } finally {
          await release();
        }
        assert.equal((await server.api.get('/api/articles')).status, 200);
      });
  });
}

describe('settings.statementTimeout', () => {
  it('refuses a value that is not milliseconds, naming the key', async () => {
    await assert.rejects(
      startServer('sqlite', { config: { database: { settings: { statementTimeout: '10s' } } } }),
      /"settings\.statementTimeout" must be a number of milliseconds \(0: no limit\), not "10s"/,
    );
  });
});
