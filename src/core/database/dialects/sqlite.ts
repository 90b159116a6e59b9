import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import {
  CompiledQuery,
  Kysely,
  SqliteDialect,
  sql,
  type DatabaseConnection,
  type Driver,
  type KyselyConfig,
  type QueryResult,
} from 'kysely';
import { CHECKPOINT_BACKSTOP, SqliteCheckpointer } from './sqlite-checkpointer.js';
import { SqliteReaders } from './sqlite-readers.js';
import type { SqliteConnection } from '../../config/load.js';
import { identifier } from '../../schema/naming.js';
import {
  ARRAY_ROWS,
  INLINE,
  decodeCommon,
  encodeCommon,
  errorFields,
  insertReturning,
  introspectColumns,
  likeMatch,
  bumpChange,
  CHANGE_EVENTS,
  uniqueCondition,
  type ColumnType,
  type DatabaseFailure,
  type Db,
  type Dialect,
} from '../dialect.js';

const TYPES: Record<ColumnType, string> = {
  id: 'integer primary key autoincrement',
  string: 'varchar(255)',
  text: 'text',
  json: 'text',
  integer: 'integer',
  bigint: 'bigint',
  float: 'double',
  decimal: 'decimal(10,2)',
  boolean: 'boolean',
  // Dates and times are ISO text: sortable and comparable as strings.
  date: 'text',
  time: 'text',
  datetime: 'text',
};

const quoteId = (name: string): string => `"${name.replace(/"/g, '""')}"`;

// BEGIN IMMEDIATE takes the file's write lock up front: a second process waits (busy_timeout)
// instead of failing when both try to upgrade a read transaction.
const immediate = <T>(db: Db, fn: (db: Db) => Promise<T>): Promise<T> =>
  db.connection().execute(async (connection) => {
    await sql`begin immediate`.execute(connection);
    try {
      const result = await fn(connection);
      await sql`commit`.execute(connection);
      return result;
    } catch (error) {
      await sql`rollback`.execute(connection);
      throw error;
    }
  });

/** `UNIQUE constraint failed: index 'name'` (expression indexes) or `...: table.a, table.b`. */
function uniqueFailure(message: string): DatabaseFailure {
  const named = /UNIQUE constraint failed: index '([^']+)'/.exec(message);
  if (named) return { kind: 'unique', index: named[1] };
  const listed = /UNIQUE constraint failed: (.+)$/.exec(message);
  const qualified = (listed?.[1] ?? '').split(',').map((part) => part.trim().split('.'));
  return { kind: 'unique', table: qualified[0]?.[0], columns: qualified.map((part) => part[1] ?? part[0]!) };
}

export const sqliteDialect: Dialect = {
  client: 'sqlite',
  rowLocks: false,
  // One bound parameter whatever the page's length: one statement text for every page size, and
  // no limit on the number of variables (the ids are integers from the page statement).
  pageRowsById: (id, ids) => sql<boolean>`${id} in (select value from json_each(${ids}))`,
  pageIds: (ids) => JSON.stringify(ids),
  // A write transaction holds the whole database already (BEGIN IMMEDIATE).
  lockRows: async () => {},
  claimRows: (query) => query,
  insertReturningId: insertReturning,
  prepareNamespace: async () => {},
  listColumns: introspectColumns,
  async listIndexes(db) {
    const { rows } = await sql<{
      tbl_name: string;
      name: string;
    }>`select tbl_name, name from sqlite_master where type = 'index'`.execute(db);
    return new Set(rows.map((row) => `${row.tbl_name}.${row.name}`));
  },
  dropIndex: async (db, _table, name) => {
    await db.schema.dropIndex(name).ifExists().execute();
  },
  columnType: (type) => sql.raw(TYPES[type]),
  tableOptions: () => undefined,
  indexesInCreateTable: false,
  schemaLockTransaction: (db, fn) => fn(db),
  withSchemaLock: immediate,
  writeTransaction: immediate,
  classifyError(error) {
    const { code = '', message } = errorFields(error);
    if (code === 'SQLITE_CONSTRAINT_UNIQUE') return uniqueFailure(message);
    // A snapshot that another process moved past: the transaction may simply run again.
    if (code === 'SQLITE_BUSY_SNAPSHOT') return { kind: 'conflict' };
    if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return { kind: 'busy' };
    return undefined;
  },
  async createUniqueIndex(db, spec) {
    const columns = [quoteId(spec.column), ...(spec.localized ? [quoteId('locale')] : [])].join(', ');
    await sql
      .raw(
        `create unique index if not exists ${quoteId(spec.name)} on ${quoteId(spec.table)} (${columns}) where ${uniqueCondition(spec, quoteId)}`,
      )
      .execute(db);
  },
  async dropUniqueIndex(db, spec) {
    await sql.raw(`drop index if exists ${quoteId(spec.name)}`).execute(db);
  },
  uniqueHelperColumns: () => [],
  encode(type, value) {
    if (type === 'boolean' && value !== null && value !== undefined) return value ? 1 : 0;
    return encodeCommon(type, value);
  },
  decode: decodeCommon,
  quoteId,
  selectColumn: (qualified, type) => (type === 'bigint' ? `cast(${qualified} as text)` : undefined),
  semiJoinOperand: (column) => sql`+${column}`,
  async refreshPlannerStatistics(db) {
    // SQLite's own advice after a schema change: PRAGMA optimize analyses the tables whose indexes
    // lack statistics. The connection ran it at open, before synchronisation created any index;
    // without this, the createdAt and updatedAt sort indexes added to a database with statistics
    // turned an author-name $containsi page from a walk in id order that stops after 25 matches
    // (0.04 ms) into a sort of every published row (1.1 ms).
    await sql.raw('pragma optimize = 0x10002').execute(db);
  },
  async installChangeTriggers(db, table, group, fresh) {
    for (const [event, suffix] of CHANGE_EVENTS) {
      const name = quoteId(identifier(`${table}_vchg_${suffix}`));
      // Dropped first: a table whose group changed (a relation's owner side moved) gets the new one.
      if (!fresh) await sql.raw(`drop trigger if exists ${name}`).execute(db);
      await sql
        .raw(`create trigger ${name} after ${event} on ${quoteId(table)} begin ${bumpChange(group)}; end`)
        .execute(db);
    }
  },
  asText: (expression) => sql`cast(${expression} as text)`,
  lower: (expression) => sql`vellum_lower(${expression})`,
  matches(expression, text, anchor, caseInsensitive) {
    if (caseInsensitive) {
      // SQLite's own LIKE folds ASCII letters: for an ASCII pattern it matches what folding every
      // script does (bar the Kelvin sign and the dotted capital I, which fold to ASCII letters),
      // without calling vellum_lower on every row (count of a title $containsi over 1,500
      // articles: 0.50 -> 0.20 ms). Another pattern is lower-cased here once, the column per row.
      if (isAscii(text)) return likeMatch(sqliteDialect.lower, expression, text, anchor, false);
      return likeMatch(sqliteDialect.lower, sqliteDialect.lower(expression), text.toLowerCase(), anchor, false);
    }
    // SQLite's LIKE ignores ASCII case; GLOB is case-sensitive. Its metacharacters go in brackets.
    const escaped = text.replace(/[*?[]/g, (c) => `[${c}]`);
    return sql<boolean>`${expression} glob ${`${anchor.start ? '' : '*'}${escaped}${anchor.end ? '' : '*'}`}`;
  },
};

/** Only ASCII characters (code points below 128). */
const isAscii = (text: string): boolean => {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
};

const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** An integer as a number when that is exact, else its digits (as `decode('bigint')` takes them). */
const exactInteger = (value: bigint): number | string =>
  value >= MIN_SAFE && value <= MAX_SAFE ? Number(value) : value.toString();

function exactRow(row: unknown): unknown {
  if (typeof row !== 'object' || row === null) return typeof row === 'bigint' ? exactInteger(row) : row;
  const values = row as Record<string, unknown>;
  for (const key in values) if (typeof values[key] === 'bigint') values[key] = exactInteger(values[key] as bigint);
  return row;
}

/**
 * better-sqlite3 reads an INTEGER beyond 2^53 as a rounded number: a draft copied onto its
 * published row (copyVersion reads the row back) would lose digits of its biginteger values. The
 * statements whose rows come back as objects (every read but the response path's array rows, which
 * cast bigint columns to text) read integers as BigInt, turned into numbers or, beyond 2^53, text.
 */
function readIntegersExactly(statement: Database.Statement): void {
  statement.safeIntegers(true);
  const get = statement.get.bind(statement);
  const all = statement.all.bind(statement);
  const iterate = statement.iterate.bind(statement);
  Object.assign(statement, {
    get: (...params: unknown[]) => exactRow(get(...params)),
    all: (...params: unknown[]) => all(...params).map(exactRow),
    *iterate(...params: unknown[]) {
      for (const row of iterate(...params)) yield exactRow(row);
    },
  });
}

/**
 * Kysely prepares every statement it runs; the same SQL text comes back on every request of a
 * kind, so prepared statements are kept (bounded, oldest dropped first).
 */
function withStatementCache(database: Database.Database, size = 500): Database.Database {
  const cache = new Map<string, Database.Statement>();
  const prepare = database.prepare.bind(database);
  return new Proxy(database, {
    get(target, property, receiver) {
      if (property !== 'prepare') {
        const value = Reflect.get(target, property, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      }
      return (source: string) => {
        let statement = cache.get(source);
        if (!statement) {
          statement = prepare(source);
          if (source.startsWith(ARRAY_ROWS)) statement.raw(true);
          else if (statement.reader) readIntegersExactly(statement);
          if (cache.size >= size) cache.delete(cache.keys().next().value!);
          cache.set(source, statement);
        }
        return statement;
      };
    },
  });
}

export function createSqliteKysely(connection: SqliteConnection, log: KyselyConfig['log']): Db {
  if (connection.filename !== ':memory:') mkdirSync(dirname(connection.filename), { recursive: true });
  const database = new Database(connection.filename);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('busy_timeout = 5000');
  // 32 MB of page cache (the default is 2 MB): list, count and filter pages stay in memory.
  database.pragma('cache_size = -32768');
  // A statement that may fail halfway inside a transaction (an insert into a table with a unique
  // index or a trigger: every content write) keeps the pages it changes in a statement journal,
  // which spills to a file in /var/tmp past 64 KB: an article row's insert touches ~20 pages, so
  // every write transaction created, wrote (~50 pwrites) and deleted one. In memory they cost no
  // system call (the bench's small create: SQLite's CPU 0.66 -> 0.43 ms). A statement's journal
  // holds at most the pages it changes, so only a statement over a whole large table (project
  // code's updateMany) needs that much memory, and only while it runs.
  database.pragma('temp_store = MEMORY');
  // Planner statistics, refreshed as data grows (SQLite's recommended use of PRAGMA optimize).
  database.pragma('optimize = 0x10002');
  const optimizer = setInterval(() => database.open && database.pragma('optimize'), 10 * 60_000);
  optimizer.unref();
  // SQLite's lower() folds ASCII only; this one folds every script, as PostgreSQL and MariaDB do.
  database.function('vellum_lower', { deterministic: true }, (value: unknown) =>
    typeof value === 'string' ? value.toLowerCase() : value,
  );
  const main = withStatementCache(database);
  // An in-memory database is this connection's alone: no other thread can read it.
  const readers =
    connection.filename === ':memory:'
      ? undefined
      : new SqliteReaders({
          filename: connection.filename,
          budget: connection.statementTimeout,
          size: READERS,
          arrayRows: ARRAY_ROWS,
        });
  const inline = readers && openInlineReader(connection.filename);
  // An in-memory database has no log to checkpoint.
  let checkpointer: SqliteCheckpointer | undefined;
  if (connection.filename !== ':memory:') {
    database.pragma(`wal_autocheckpoint = ${CHECKPOINT_BACKSTOP}`);
    checkpointer = new SqliteCheckpointer(
      connection.filename,
      () => database.open && database.pragma('wal_autocheckpoint = 1000'),
    );
  }
  return new Kysely({ dialect: new ReadersDialect(main, readers, inline, checkpointer, optimizer), log });
}

/**
 * The main thread's read-only connection for reads the read budget bounds (`INLINE`): in WAL mode
 * it sees what was committed when a statement starts and never waits for the writer, which may
 * hold the main connection in a transaction meanwhile.
 */
function openInlineReader(filename: string): Database.Database {
  const database = new Database(filename, { readonly: true, fileMustExist: true });
  database.pragma('busy_timeout = 5000');
  database.pragma('cache_size = -8192');
  database.function('vellum_lower', { deterministic: true }, (value: unknown) =>
    typeof value === 'string' ? value.toLowerCase() : value,
  );
  return withStatementCache(database);
}

/**
 * Reader threads: two, so that one slow read does not queue every other behind it. Each costs
 * about 10 MB idle (a Node isolate, a connection; up to 8 MB of page cache) and starts at the first read.
 */
const READERS = 2;

/** The prefix `readRows` gives a read the read budget bounds. */
const INLINE_ROWS = ARRAY_ROWS + INLINE;

/** Kysely's SQLite dialect with the driver below. */
class ReadersDialect extends SqliteDialect {
  constructor(
    private readonly main: Database.Database,
    private readonly readers: SqliteReaders | undefined,
    private readonly inline: Database.Database | undefined,
    private readonly checkpointer: SqliteCheckpointer | undefined,
    private readonly optimizer: NodeJS.Timeout,
  ) {
    super({ database: main });
  }

  override createDriver(): Driver {
    return new ReadersDriver(this.main, this.readers, this.inline, this.checkpointer, this.optimizer);
  }
}

/** One holder at a time of the main connection (Kysely's SqliteDriver has the same mutex). */
class Mutex {
  private held: Promise<void> | undefined;
  private release: (() => void) | undefined;

  async lock(): Promise<void> {
    while (this.held) await this.held;
    this.held = new Promise((resolve) => (this.release = resolve));
  }

  unlock(): void {
    const release = this.release;
    this.held = undefined;
    this.release = undefined;
    release?.();
  }
}

/**
 * A connection handed out per query or transaction. It takes the main connection (the writer,
 * one holder at a time) at its first statement that is not a plain read, or when a transaction
 * begins, and keeps it until released: a transaction's statements, `begin immediate ... commit`
 * sent on one connection, all run there. Plain reads before that go to the reader threads,
 * which see every committed write and hold the event loop for none of their time.
 */
class ReadersConnection implements DatabaseConnection {
  held = false;

  constructor(private readonly driver: ReadersDriver) {}

  async hold(): Promise<void> {
    if (this.held) return;
    await this.driver.mutex.lock();
    this.held = true;
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const { sql: text, parameters } = query;
    const { inline } = this.driver;
    if (!this.held && inline && (text.startsWith(INLINE_ROWS) || text.startsWith(INLINE))) {
      const bounded = inline.prepare(text);
      if (bounded.readonly) return { rows: bounded.all(parameters) as R[] };
    }
    const statement = this.driver.main.prepare(text);
    if (!this.held && this.driver.readers && statement.reader && statement.readonly) {
      return { rows: (await this.driver.readers.run(text, parameters)) as R[] };
    }
    await this.hold();
    if (statement.reader) return { rows: statement.all(parameters) as R[] };
    const { changes, lastInsertRowid } = statement.run(parameters);
    if (!this.driver.main.inTransaction) this.driver.checkpointer?.committed();
    return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
  }

  async *streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    await this.hold();
    for (const row of this.driver.main.prepare(query.sql).iterate(query.parameters)) yield { rows: [row as R] };
  }
}

class ReadersDriver implements Driver {
  readonly mutex = new Mutex();

  constructor(
    readonly main: Database.Database,
    readonly readers: SqliteReaders | undefined,
    readonly inline: Database.Database | undefined,
    readonly checkpointer: SqliteCheckpointer | undefined,
    private readonly optimizer: NodeJS.Timeout,
  ) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return new ReadersConnection(this);
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as ReadersConnection).hold();
    await connection.executeQuery(CompiledQuery.raw('begin'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`savepoint ${quoteId(name)}`));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`rollback to ${quoteId(name)}`));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`release ${quoteId(name)}`));
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const held = connection as ReadersConnection;
    if (!held.held) return;
    held.held = false;
    this.mutex.unlock();
  }

  async destroy(): Promise<void> {
    // Unref'd, it never held a process open; cleared, it no longer holds the closed connection
    // in one that goes on (a server that runs CLI commands, a test file).
    clearInterval(this.optimizer);
    await this.checkpointer?.close();
    await this.readers?.close();
    this.inline?.close();
    this.main.close();
  }
}
