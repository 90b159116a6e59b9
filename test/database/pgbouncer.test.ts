/**
 * PostgreSQL through PgBouncer in transaction mode (docs/deployment.md "Connection pools and
 * PgBouncer"): each transaction, and each statement outside one, may run on another server
 * connection, so nothing Vellum does may lean on session state (startup options, session SET,
 * session advisory locks). The test starts its own PgBouncer (a config in a temporary folder, a free
 * port, a server pool smaller than Vellum's) in front of the test server's database `test`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { PG, type TestDatabase } from '../helpers/databases.js';
import { graphqlData } from '../helpers/graphql.js';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';
import { unique } from '../helpers/unique.js';

const BINARY = process.env.VELLUM_TEST_PGBOUNCER ?? '/usr/sbin/pgbouncer';
/** Fewer server connections than Vellum's pool (8): clients share them, a transaction at a time. */
const SERVER_POOL = 3;
const BUDGET = 10_000;

const skip = !existsSync(BINARY)
  ? `no PgBouncer at ${BINARY} (apt-get install pgbouncer; .ci/run installs it)`
  : !DIALECTS.includes('postgres')
    ? 'PostgreSQL is not among VELLUM_TEST_DIALECTS'
    : false;

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

const accepts = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => resolve(socket.end() && true));
    socket.once('error', () => resolve(false));
  });

interface Bouncer {
  port: number;
  stop(): Promise<void>;
}

/**
 * PgBouncer with three databases on `test`: `vellum` whose server connections get the schema and
 * the statement budget from `connect_query` (as an operator sets them), `pathonly` without the
 * budget, `bare` with neither.
 */
async function startPgbouncer(schema: string): Promise<Bouncer> {
  const dir = mkdtempSync(join(tmpdir(), 'vellum-pgbouncer-'));
  const port = await freePort();
  const server = `host=${PG.host} port=${PG.port} dbname=${PG.database} user=${PG.user}${PG.password ? ` password=${PG.password}` : ''}`;
  writeFileSync(
    join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      `vellum = ${server} connect_query='set search_path = ${schema}; set statement_timeout = ${BUDGET}'`,
      `pathonly = ${server} connect_query='set search_path = ${schema}'`,
      `bare = ${server}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      // Any client name is accepted and connects as the database entry's user.
      'auth_type = any',
      'pool_mode = transaction',
      `default_pool_size = ${SERVER_POOL}`,
      // Each transaction on the next server connection, not the last used one: a statement that
      // leaned on the one before it (a session SET, a session lock) meets another session.
      'server_round_robin = 1',
      'max_client_conn = 200',
      '',
    ].join('\n'),
  );
  // PgBouncer refuses to run as root: CI containers run as root.
  const user = process.getuid?.() === 0 ? ['-u', 'nobody'] : [];
  const child: ChildProcess = spawn(BINARY, [...user, join(dir, 'pgbouncer.ini')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for (let i = 0; !(await accepts(port)); i++) {
    if (child.exitCode !== null || i > 200) {
      child.kill();
      throw new Error(`PgBouncer did not start: ${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return {
    port,
    async stop() {
      child.kill('SIGINT');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** `config/database` through PgBouncer's `database`; the schema is dropped (on the server itself) by the owner. */
const through = (bouncer: Bouncer, database: string, schema: string, pgbouncer = true): TestDatabase => ({
  config: {
    connection: {
      client: 'postgres',
      connection: { host: '127.0.0.1', port: bouncer.port, database, user: 'vellum', schema, pgbouncer },
      pool: { min: 0, max: 8 },
    },
    settings: { statementTimeout: BUDGET },
  },
  drop: async () => undefined,
});

async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client(PG);
  await client.connect();
  await client.query(`drop schema if exists "${schema}" cascade`);
  await client.end();
}

describe('PostgreSQL through PgBouncer (transaction mode)', { skip }, () => {
  const schema = `vt_${process.pid}_${randomBytes(4).toString('hex')}`;
  let bouncer: Bouncer;
  let server: TestServer;
  before(async () => {
    bouncer = await startPgbouncer(schema);
    server = await startServer('postgres', { database: through(bouncer, 'vellum', schema) });
  });
  after(async () => {
    await server?.close();
    await bouncer?.stop();
    await dropSchema(schema);
  });

  it('starts: the schema is synchronised into the configured schema, and nodes starting together wait for each other', async () => {
    const client = new pg.Client(PG);
    await client.connect();
    const { rows } = await client.query(
      `select count(*)::int as n from information_schema.tables where table_schema = $1 and table_name = 'articles'`,
      [schema],
    );
    await client.end();
    assert.equal(rows[0].n, 1);
    // Two more nodes at once: both take the schema lock (a transaction's advisory lock) through
    // PgBouncer, synchronise and bootstrap their roles.
    const nodes = await Promise.all([0, 1].map(() => startServer('postgres', { nodeOf: server })));
    try {
      for (const node of nodes) assert.equal((await node.api.get('/api/articles?pagination[pageSize]=1')).status, 200);
    } finally {
      for (const node of nodes) await node.close();
    }
  });

  it('creates, updates and publishes documents with relations, components and a dynamic zone', async () => {
    const name = unique('bouncer');
    const author = (await server.api.post('/api/authors', { data: { name } })).body.data.documentId;
    const tags = [];
    for (const suffix of ['a', 'b']) {
      const res = await server.api.post('/api/tags', { data: { name: `${name}-${suffix}` } });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      tags.push(res.body.data.documentId);
    }
    const created = await server.api.post('/api/articles', {
      data: {
        title: name,
        author,
        tags,
        seo: { metaTitle: 'seo' },
        links: [{ label: 'one', url: 'https://example.com/1' }],
        blocks: [
          { __component: 'shared.quote', title: 'q' },
          { __component: 'shared.rich-text', body: 'r' },
        ],
      },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const id = created.body.data.documentId;
    const updated = await server.api.put(`/api/articles/${id}`, {
      data: {
        title: `${name} 2`,
        tags: { disconnect: [tags[0]] },
        links: [{ label: 'two', url: 'https://example.com/2' }],
      },
    });
    assert.equal(updated.status, 200, JSON.stringify(updated.body));
    assert.equal((await server.api.post(`/api/articles/${id}/actions/publish`)).status, 200);
    const read = await server.api.get(`/api/articles/${id}?status=published&populate=*`);
    assert.equal(read.status, 200, JSON.stringify(read.body));
    const doc = read.body.data;
    assert.equal(doc.title, `${name} 2`);
    assert.equal(doc.author.documentId, author);
    assert.deepEqual(
      doc.tags.map((tag: { documentId: string }) => tag.documentId),
      [tags[1]],
    );
    assert.equal(doc.seo.metaTitle, 'seo');
    assert.deepEqual(
      doc.links.map((link: { label: string }) => link.label),
      ['two'],
    );
    assert.deepEqual(
      doc.blocks.map((block: { __component: string }) => block.__component),
      ['shared.quote', 'shared.rich-text'],
    );
  });

  it('serves concurrent writes over more connections than PgBouncer has for the server', async () => {
    const name = unique('crowd');
    const creates = await Promise.all(
      Array.from({ length: 24 }, (_, i) => server.api.post('/api/articles', { data: { title: `${name} ${i}` } })),
    );
    assert.deepEqual(
      creates.filter((res) => res.status !== 201).map((res) => JSON.stringify(res.body)),
      [],
    );
    // Writers of one document run one after the other (row locks in each transaction).
    const id = creates[0]!.body.data.documentId;
    const updates = await Promise.all(
      Array.from({ length: 12 }, (_, i) => server.api.put(`/api/articles/${id}`, { data: { views: i + 1 } })),
    );
    assert.deepEqual(
      updates.filter((res) => res.status !== 200).map((res) => JSON.stringify(res.body)),
      [],
    );
    const list = await server.api.get(
      `/api/articles?filters[title][$startsWith]=${encodeURIComponent(name)}&pagination[pageSize]=100`,
    );
    assert.equal(list.body.meta.pagination.total, 24);
    const data = await graphqlData<{ articles: { data: { attributes: { title: string } }[] } }>(
      server,
      `query ($prefix: String) { articles(filters: { title: { startsWith: $prefix } }, pagination: { limit: 100 }) { data { attributes { title } } } }`,
      { prefix: name },
    );
    assert.equal(data.articles.data.length, 24);
  });

  it('stops a node whose server connections lack the schema or the statement budget, naming the fix', async () => {
    await assert.rejects(
      startServer('postgres', { database: through(bouncer, 'bare', schema) }),
      /search_path '"\$user", public', not schema "vt_.*alter role "vellum" set search_path/,
    );
    await assert.rejects(
      startServer('postgres', { database: through(bouncer, 'pathonly', schema) }),
      /statement_timeout 0 ms, not settings.statementTimeout 10000: run `alter role "vellum" set statement_timeout = 10000`/,
    );
  });

  it('without connection.pgbouncer, PgBouncer refuses the startup options: the start names the switch', async () => {
    await assert.rejects(
      startServer('postgres', { database: through(bouncer, 'vellum', schema, false) }),
      /unsupported startup parameter: options; behind PgBouncer, set connection.pgbouncer \(DATABASE_PGBOUNCER=true\)/,
    );
  });
});
