/**
 * Concurrent writers on one database, from several nodes: creates with relations never fail for
 * a deadlock (MariaDB), links written from both sides of a relation at once all survive, and the
 * database hook retries what the database aborts and answers 503 when it stays locked.
 */
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { ServiceUnavailableError } from '../../src/core/errors.js';
import type { RelationAttribute } from '../../src/core/schema/model.js';
import type { Response } from '../helpers/http.js';
import { DIALECTS, fixture, startServer, type TestServer } from '../helpers/server.js';

const tag = () => randomBytes(4).toString('hex');

for (const dialect of DIALECTS) {
  describe(`concurrent writers [${dialect}]`, () => {
    let server: TestServer;
    let nodes: TestServer[];
    before(async () => {
      server = await startServer(dialect, { project: fixture('relation-matrix') });
      // Three nodes on one database where the database has row locks; SQLite serves one node
      // (its writers queue on the database file instead).
      nodes = [server];
      if (dialect !== 'sqlite') {
        for (let i = 0; i < 2; i++)
          nodes.push(await startServer(dialect, { project: fixture('relation-matrix'), nodeOf: server }));
      }
    });
    after(async () => {
      for (const node of nodes?.slice(1) ?? []) await node.close();
      await server?.close();
    });
    const on = (i: number) => nodes[i % nodes.length]!.api;
    const create = async (plural: string, data: Record<string, unknown>) => {
      const res = await server.api.post(`/api/${plural}`, { data });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body.data.documentId as string;
    };
    const failures = (responses: Response[], expected: number) =>
      responses
        .filter((r) => r.status !== expected)
        .map((r) => `${r.status} ${JSON.stringify(r.body?.error ?? r.body)}`);

    /** Link rows of the owner's many-to-many whose owner row is gone, or that repeat a pair. */
    async function linkTableProblems(): Promise<{ dangling: number; duplicates: number }> {
      const attribute = server.vellum.schema.contentTypes.get('api::owner.owner')!.attributes
        .manyToManyBi as RelationAttribute;
      const db = server.vellum.database.db;
      const dangling = await db
        .selectFrom(`${attribute.link.table} as l`)
        .leftJoin('owners as o', 'o.id', 'l.entity_id')
        .select('l.id')
        .where('o.id', 'is', null)
        .execute();
      const duplicates = await db
        .selectFrom(attribute.link.table)
        .select(['entity_id', 'target_document_id'])
        .groupBy(['entity_id', 'target_document_id'])
        .having(sql`count(*)`, '>', 1)
        .execute();
      return { dangling: dangling.length, duplicates: duplicates.length };
    }

    it('concurrent creates of documents with relations all succeed', async () => {
      const run = tag();
      const targets: string[] = [];
      for (let i = 0; i < 4; i++) targets.push(await create('targets', { name: `${run}-t${i}` }));
      const labels = [await create('labels', { name: `${run}-l0` }), await create('labels', { name: `${run}-l1` })];
      const owners = [await create('owners', { name: `${run}-pre0` }), await create('owners', { name: `${run}-pre1` })];
      const ownerCreates = Array.from({ length: 60 }, (_, i) =>
        on(i).post('/api/owners', {
          data: {
            name: `${run}-o${i}`,
            manyToManyBi: targets.slice(0, 3),
            manyToOneBi: targets[i % 4],
            manyWay: [targets[3], targets[0]],
            labels,
            block: { caption: 'b', manyToOne: targets[1], manyToMany: [targets[2]] },
          },
        }),
      );
      // The inverse side at the same time: new targets linking the same existing owners.
      const targetCreates = Array.from({ length: 20 }, (_, i) =>
        on(i + 1).post('/api/targets', { data: { name: `${run}-n${i}`, manyToManyInv: owners } }),
      );
      const responses = await Promise.all([...ownerCreates, ...targetCreates]);
      assert.deepEqual(failures(responses, 201), []);
      const created = await server.api.get(
        `/api/owners?filters[name][$startsWith]=${run}-o&populate[manyToManyBi][fields][0]=name&pagination[pageSize]=100`,
      );
      assert.equal(created.body.data.length, 60);
      for (const owner of created.body.data) assert.equal(owner.manyToManyBi.length, 3, owner.name);
      for (const owner of owners) {
        const linked = await server.api.get(
          `/api/owners/${owner}?populate[manyToManyBi][fields][0]=name&pagination[pageSize]=100`,
        );
        assert.equal(linked.body.data.manyToManyBi.length, 20);
      }
    });

    it('connects from both sides of a many-to-many at once end complete, without duplicates or dangling rows', async () => {
      const run = tag();
      const owners: string[] = [];
      const targets: string[] = [];
      for (let i = 0; i < 5; i++) owners.push(await create('owners', { name: `${run}-o${i}` }));
      for (let i = 0; i < 6; i++) targets.push(await create('targets', { name: `${run}-t${i}` }));
      // Every pair once, alternately from the owner side and from the inverse side; each write also
      // publishes its document again (a new published row, links copied).
      const writes: Promise<Response>[] = [];
      let k = 0;
      for (const owner of owners) {
        for (const target of targets) {
          const api = on(k);
          writes.push(
            k++ % 2 === 0
              ? api.put(`/api/owners/${owner}`, { data: { manyToManyBi: { connect: [target] } } })
              : api.put(`/api/targets/${target}`, { data: { manyToManyInv: { connect: [owner] } } }),
          );
        }
      }
      assert.deepEqual(failures(await Promise.all(writes), 200), []);
      for (const status of ['draft', 'published']) {
        for (const owner of owners) {
          const res = await server.api.get(
            `/api/owners/${owner}?status=${status}&populate[manyToManyBi][fields][0]=name`,
          );
          const linked = res.body.data.manyToManyBi.map((t: { documentId: string }) => t.documentId);
          assert.deepEqual([...linked].sort(), [...targets].sort(), `${status} owner ${owner}`);
        }
        for (const target of targets) {
          const res = await server.api.get(
            `/api/targets/${target}?status=${status}&populate[manyToManyInv][fields][0]=name`,
          );
          const linked = res.body.data.manyToManyInv.map((o: { documentId: string }) => o.documentId);
          assert.deepEqual([...linked].sort(), [...owners].sort(), `${status} target ${target}`);
        }
      }
      assert.deepEqual(await linkTableProblems(), { dangling: 0, duplicates: 0 });
    });

    it('connects, disconnects and sets from both sides with publishing in between keep the link table clean', async () => {
      const run = tag();
      const owners: string[] = [];
      const targets: string[] = [];
      for (let i = 0; i < 4; i++) owners.push(await create('owners', { name: `${run}-o${i}`, manyToManyBi: [] }));
      for (let i = 0; i < 4; i++) targets.push(await create('targets', { name: `${run}-t${i}` }));
      const writes: Promise<Response>[] = [];
      for (let round = 0; round < 3; round++) {
        owners.forEach((owner, i) => {
          writes.push(on(i).put(`/api/owners/${owner}`, { data: { manyToManyBi: { connect: targets } } }));
          writes.push(on(i + 1).post(`/api/owners/${owner}/actions/publish`));
        });
        targets.forEach((target, i) => {
          writes.push(on(i + 2).put(`/api/targets/${target}`, { data: { manyToManyInv: { set: owners } } }));
          writes.push(
            on(i).put(`/api/targets/${target}?status=draft`, {
              data: { manyToManyInv: { disconnect: [owners[round]!] } },
            }),
          );
        });
      }
      const responses = await Promise.all(writes);
      assert.deepEqual(
        responses.filter((r) => r.status >= 500).map((r) => JSON.stringify(r.body)),
        [],
      );
      assert.deepEqual(await linkTableProblems(), { dangling: 0, duplicates: 0 });
    });

    it(
      'a deadlock aborts one writer, which runs again: both finish',
      { skip: dialect === 'sqlite' && 'SQLite writers queue on the file: no deadlock' },
      async () => {
        const database = server.vellum.database;
        const ids: number[] = [];
        for (const name of [`${tag()}-a`, `${tag()}-b`]) {
          const documentId = await create('targets', { name });
          ids.push(
            Number(
              (
                await database.db
                  .selectFrom('targets')
                  .select('id')
                  .where('document_id', '=', documentId)
                  .executeTakeFirstOrThrow()
              ).id,
            ),
          );
        }
        // Each writer locks one row, waits until the other holds the other row (first try only),
        // then asks for it: a lock cycle the database breaks by aborting one of them.
        let holding = 0;
        let release!: () => void;
        const bothHold = new Promise<void>((resolve) => (release = resolve));
        const tries = [0, 0];
        const writer = (index: number, first: number, second: number) =>
          database.write(async (trx) => {
            tries[index]! += 1;
            await trx.selectFrom('targets').select('id').where('id', '=', first).forUpdate().execute();
            if (tries[index] === 1) {
              if (++holding === 2) release();
              await bothHold;
            }
            await trx
              .updateTable('targets')
              .set({ name: `written by ${index}` })
              .where('id', '=', second)
              .execute();
            return index;
          });
        const before = database.writeRetries.conflict;
        assert.deepEqual(await Promise.all([writer(0, ids[0]!, ids[1]!), writer(1, ids[1]!, ids[0]!)]), [0, 1]);
        // The database aborts at least one of them (under load PostgreSQL's detector may abort a
        // retry again): every extra run is a counted conflict retry, and both end written.
        const extraRuns = tries[0]! + tries[1]! - 2;
        assert.ok(extraRuns >= 1, 'one of them ran again');
        assert.equal(database.writeRetries.conflict - before, extraRuns);
      },
    );

    it('concurrent administration writes of one name: one role, one grant, one administrator, no 500', async () => {
      const auth = server.vellum.auth;
      const name = `Role ${tag()}`;
      const roles = await Promise.allSettled(
        nodes.flatMap((node) => [node.vellum.auth.roles.create(name), node.vellum.auth.roles.create(name)]),
      );
      assert.equal(roles.filter((r) => r.status === 'fulfilled').length, 1);
      for (const r of roles.filter((r) => r.status === 'rejected'))
        assert.equal((r as PromiseRejectedResult).reason.name, 'ValidationError');
      const role = (
        roles.find((r) => r.status === 'fulfilled') as PromiseFulfilledResult<{ documentId: string; type: string }>
      ).value;
      await Promise.all(
        nodes.flatMap((node) => [
          node.vellum.auth.roles.grant(role.documentId, ['api::owner.owner.find']),
          node.vellum.auth.roles.grant(role.documentId, ['api::owner.owner.find']),
        ]),
      );
      assert.deepEqual((await auth.roles.get(role.type)).permissions, ['api::owner.owner.find']);
      const email = `admin-${tag()}@example.com`;
      const admins = await Promise.allSettled(
        nodes.flatMap((node) => [
          node.vellum.auth.admins.create(email, 'secret-password'),
          node.vellum.auth.admins.create(email, 'secret-password'),
        ]),
      );
      assert.equal(admins.filter((r) => r.status === 'fulfilled').length, 1);
      for (const r of admins.filter((r) => r.status === 'rejected'))
        assert.equal((r as PromiseRejectedResult).reason.name, 'ValidationError');
    });

    it('a database that stays locked answers 503 and writes nothing', async () => {
      const name = `locked-${tag()}`;
      if (dialect === 'sqlite') {
        // Another process's write transaction holds the file; this node waits its busy timeout.
        const filename = (server.databaseConfig.connection as { connection: { filename: string } }).connection.filename;
        const other = new Database(filename);
        // The token's first use records it (a write outside the document write, see ApiTokens.verify):
        // done before the lock, so that the write that waits is the document's.
        assert.equal((await server.api.get(`/api/targets?filters[name][$eq]=${name}`)).status, 200);
        await sql`pragma busy_timeout = 100`.execute(server.vellum.database.db);
        try {
          other.exec('begin immediate');
          const res = await server.api.post('/api/targets', { data: { name } });
          assert.equal(res.status, 503, JSON.stringify(res.body));
          assert.equal(res.body.error.name, 'ServiceUnavailableError');
          assert.equal(res.headers.get('retry-after'), '1');
          other.exec('rollback');
        } finally {
          other.close();
          await sql`pragma busy_timeout = 5000`.execute(server.vellum.database.db);
        }
        assert.equal((await server.api.get(`/api/targets?filters[name][$eq]=${name}`)).body.data.length, 0);
        return;
      }
      // Another client holds a row lock; the writer gives up after a short lock timeout.
      const documentId = await create('targets', { name });
      const connection = (server.databaseConfig.connection as { connection: Record<string, unknown> }).connection;
      const database = server.vellum.database;
      const attempt = () =>
        database.write(async (trx) => {
          if (dialect === 'postgres') await sql`set local lock_timeout = '100ms'`.execute(trx);
          else await sql`set session innodb_lock_wait_timeout = 1`.execute(trx);
          try {
            await trx
              .updateTable('targets')
              .set({ name: `${name}-changed` })
              .where('document_id', '=', documentId)
              .execute();
          } finally {
            if (dialect === 'mysql') await sql`set session innodb_lock_wait_timeout = default`.execute(trx);
          }
        });
      if (dialect === 'postgres') {
        const client = new pg.Client({
          ...connection,
          options: `-c search_path=${connection.schema as string}`,
        } as pg.ClientConfig);
        await client.connect();
        try {
          await client.query('begin');
          await client.query('select id from targets where document_id = $1 for update', [documentId]);
          await assert.rejects(attempt(), ServiceUnavailableError);
          await client.query('rollback');
        } finally {
          await client.end();
        }
      } else {
        const client = await mysql.createConnection(connection as mysql.ConnectionOptions);
        try {
          await client.query('begin');
          await client.query('select id from targets where document_id = ? for update', [documentId]);
          await assert.rejects(attempt(), ServiceUnavailableError);
          await client.query('rollback');
        } finally {
          await client.end();
        }
      }
      assert.equal((await server.api.get(`/api/targets/${documentId}`)).body.data.name, name);
    });
  });
}
