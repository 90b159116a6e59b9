/**
 * The SQL of each dialect's capabilities (insert returning id, row locks, namespace, column
 * listing, index drops), pinned per dialect. No database: Kysely runs on a driver that records the
 * compiled statements and answers what a database would (an id, catalog rows). What the statements
 * do on real databases is covered by test/ (every suite runs on all three).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  DummyDriver,
  Kysely,
  MysqlAdapter,
  MysqlIntrospector,
  MysqlQueryCompiler,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type CompiledQuery,
  type DatabaseConnection,
  type QueryResult,
} from 'kysely';
import type { Db, Dialect } from '../dialect.js';
import { mysqlDialect } from './mysql.js';
import { postgresDialect } from './postgres.js';
import { sqliteDialect } from './sqlite.js';

type Answer = (query: CompiledQuery) => QueryResult<unknown>;

/** Kysely's DummyDriver, except that it keeps what it was sent and answers `answer`. */
class RecordingDriver extends DummyDriver {
  constructor(
    private readonly sent: { sql: string; parameters: readonly unknown[] }[],
    private readonly answer: Answer,
  ) {
    super();
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    return {
      executeQuery: async <R>(query: CompiledQuery) => {
        this.sent.push({ sql: query.sql, parameters: query.parameters });
        return this.answer(query) as QueryResult<R>;
      },
      // eslint-disable-next-line require-yield
      streamQuery: async function* () {
        throw new Error('not used');
      },
    };
  }
}

const KYSELY = {
  sqlite: { adapter: SqliteAdapter, compiler: SqliteQueryCompiler, introspector: SqliteIntrospector },
  postgres: { adapter: PostgresAdapter, compiler: PostgresQueryCompiler, introspector: PostgresIntrospector },
  mysql: { adapter: MysqlAdapter, compiler: MysqlQueryCompiler, introspector: MysqlIntrospector },
};

/** A query builder of `dialect`'s SQL flavour over the recording driver, and what it was sent. */
function recording(dialect: Dialect, answer: Answer = () => ({ rows: [] })) {
  const sent: { sql: string; parameters: readonly unknown[] }[] = [];
  const parts = KYSELY[dialect.client];
  const db: Db = new Kysely({
    dialect: {
      createAdapter: () => new parts.adapter(),
      createDriver: () => new RecordingDriver(sent, answer),
      createIntrospector: (kysely) => new parts.introspector(kysely),
      createQueryCompiler: () => new parts.compiler(),
    },
  });
  return { db, sent };
}

const postgres = postgresDialect(undefined);
const dialects = [sqliteDialect, postgres, mysqlDialect];

/** What a database answers to an insert: the new row (RETURNING) and the driver's insert id. */
const inserted: Answer = () => ({ rows: [{ id: 7 }], insertId: 7n });

describe('Dialect.insertReturningId', () => {
  const expected = {
    sqlite: [
      'insert into "files" ("name", "size") values (?, ?) returning "id"',
      'insert into "files" default values returning "id"',
    ],
    postgres: [
      'insert into "files" ("name", "size") values ($1, $2) returning "id"',
      'insert into "files" default values returning "id"',
    ],
    mysql: ['insert into `files` (`name`, `size`) values (?, ?)', 'insert into `files` () values ()'],
  };
  for (const dialect of dialects) {
    it(`${dialect.client}: one statement, the id as a number`, async () => {
      const { db, sent } = recording(dialect, inserted);
      assert.equal(await dialect.insertReturningId(db, 'files', { name: 'a.png', size: 1.5 }), 7);
      assert.equal(await dialect.insertReturningId(db, 'files', {}), 7);
      assert.deepEqual(
        sent.map((s) => s.sql),
        expected[dialect.client],
      );
      assert.deepEqual(sent[0]!.parameters, ['a.png', 1.5]);
      assert.deepEqual(sent[1]!.parameters, []);
    });
  }
});

describe('Dialect.lockRows', () => {
  it('postgres and mysql: select ... for update, in column then id order', async () => {
    for (const [dialect, documents, ids] of [
      [
        postgres,
        'select "id" from "articles" where "document_id" in ($1, $2) order by "document_id", "id" for update',
        'select "id" from "articles" where "id" in ($1, $2) order by "id" for update',
      ],
      [
        mysqlDialect,
        'select `id` from `articles` where `document_id` in (?, ?) order by `document_id`, `id` for update',
        'select `id` from `articles` where `id` in (?, ?) order by `id` for update',
      ],
    ] as const) {
      const { db, sent } = recording(dialect);
      await dialect.lockRows(db, 'articles', 'document_id', ['a', 'b']);
      await dialect.lockRows(db, 'articles', 'id', [1, 2]);
      assert.deepEqual(sent, [
        { sql: documents, parameters: ['a', 'b'] },
        { sql: ids, parameters: [1, 2] },
      ]);
      assert.equal(dialect.rowLocks, true);
    }
  });

  it('sqlite: no statement (a write transaction holds the whole database)', async () => {
    const { db, sent } = recording(sqliteDialect);
    await sqliteDialect.lockRows(db, 'articles', 'document_id', ['a']);
    assert.deepEqual(sent, []);
    assert.equal(sqliteDialect.rowLocks, false);
  });
});

describe('Dialect.claimRows', () => {
  it('postgres and mysql: for update skip locked; sqlite: the select as it is', async () => {
    for (const [dialect, expected] of [
      [postgres, 'select "id" from "queue" where "state" = $1 order by "id" limit $2 for update skip locked'],
      [mysqlDialect, 'select `id` from `queue` where `state` = ? order by `id` limit ? for update skip locked'],
      [sqliteDialect, 'select "id" from "queue" where "state" = ? order by "id" limit ?'],
    ] as const) {
      const { db, sent } = recording(dialect);
      await dialect
        .claimRows(db.selectFrom('queue').select('id').where('state', '=', 'pending').orderBy('id').limit(5))
        .execute();
      assert.deepEqual(sent, [{ sql: expected, parameters: ['pending', 5] }]);
    }
  });
});

describe('Dialect.prepareNamespace', () => {
  it('postgres: creates the configured schema, and nothing without one', async () => {
    const tenant = recording(postgresDialect('tenant "a"'));
    await postgresDialect('tenant "a"').prepareNamespace(tenant.db);
    assert.deepEqual(tenant.sent, [{ sql: 'create schema if not exists "tenant ""a"""', parameters: [] }]);
    const plain = recording(postgres);
    await postgres.prepareNamespace(plain.db);
    assert.deepEqual(plain.sent, []);
  });

  it("sqlite and mysql: nothing (the file, the connection's database)", async () => {
    for (const dialect of [sqliteDialect, mysqlDialect]) {
      const { db, sent } = recording(dialect);
      await dialect.prepareNamespace(db);
      assert.deepEqual(sent, []);
    }
  });
});

describe('Dialect.listColumns', () => {
  const catalog: Answer = () => ({
    rows: [
      { table_name: 'articles', column_name: 'id' },
      { table_name: 'articles', column_name: 'title' },
      { table_name: 'vellum_meta', column_name: 'name' },
    ],
  });
  const sql = 'select table_name, column_name from information_schema.columns where table_schema = $1';

  it("postgres: the catalog of the dialect's schema only, public by default", async () => {
    const tenant = recording(postgresDialect('tenant'), catalog);
    const columns = await postgresDialect('tenant').listColumns(tenant.db);
    assert.deepEqual(tenant.sent, [{ sql, parameters: ['tenant'] }]);
    assert.deepEqual(
      columns,
      new Map([
        ['articles', new Set(['id', 'title'])],
        ['vellum_meta', new Set(['name'])],
      ]),
    );
    const plain = recording(postgres, () => ({ rows: [] }));
    assert.deepEqual(await postgres.listColumns(plain.db), new Map());
    assert.deepEqual(plain.sent, [{ sql, parameters: ['public'] }]);
  });

  it("sqlite and mysql: Kysely's introspection of the connection's database", async () => {
    for (const [dialect, source] of [
      [sqliteDialect, /sqlite_master/],
      [mysqlDialect, /information_schema/],
    ] as const) {
      const { db, sent } = recording(dialect);
      assert.deepEqual(await dialect.listColumns(db), new Map());
      assert.match(sent[0]!.sql, source);
    }
  });
});

describe('Dialect.listIndexes', () => {
  it("reads each dialect's catalog once, as table.index (postgres: its schema only)", async () => {
    const rows: Answer = () => ({
      rows: [
        {
          tablename: 'articles',
          indexname: 'articles_slug_index',
          table_name: 'articles',
          index_name: 'articles_slug_index',
          tbl_name: 'articles',
          name: 'articles_slug_index',
        },
      ],
    });
    for (const [dialect, source, parameters] of [
      [postgresDialect('tenant'), /pg_indexes where schemaname = \$1/, ['tenant']],
      [mysqlDialect, /information_schema\.statistics where table_schema = database\(\)/, []],
      [sqliteDialect, /sqlite_master where type = 'index'/, []],
    ] as const) {
      const { db, sent } = recording(dialect, rows);
      assert.deepEqual(await dialect.listIndexes(db), new Set(['articles.articles_slug_index']));
      assert.equal(sent.length, 1);
      assert.match(sent[0]!.sql, source);
      assert.deepEqual(sent[0]!.parameters, parameters);
    }
  });
});

describe('Dialect.dropIndex', () => {
  const expected = {
    sqlite: 'drop index if exists "tags_color_idx"',
    postgres: 'drop index if exists "tags_color_idx"',
    mysql: 'drop index if exists `tags_color_idx` on `tags`',
  };
  for (const dialect of dialects) {
    it(`${dialect.client}: ${expected[dialect.client]}`, async () => {
      const { db, sent } = recording(dialect);
      await dialect.dropIndex(db, 'tags', 'tags_color_idx');
      assert.deepEqual(sent, [{ sql: expected[dialect.client], parameters: [] }]);
    });
  }
});
