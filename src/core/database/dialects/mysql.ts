import { Kysely, MysqlDialect, sql, type KyselyConfig } from 'kysely';
import { createRequire } from 'node:module';
import type mysqlModule from 'mysql2';
import type { ServerConnection } from '../../config/load.js';
import { identifier } from '../../schema/naming.js';
import { runShape, shapeKey } from '../shapes.js';
import type { UniqueSpec } from '../tables.js';
import {
  bumpChange,
  CHANGE_EVENTS,
  decodeCommon,
  definedColumns,
  encodeCommon,
  errorFields,
  statementTimeoutError,
  introspectColumns,
  likeMatch,
  pad,
  selectForUpdate,
  forUpdateSkipLocked,
  type ColumnType,
  type Db,
  type Dialect,
} from '../dialect.js';

const TYPES: Record<ColumnType, string> = {
  id: 'integer unsigned not null auto_increment primary key',
  string: 'varchar(255)',
  text: 'longtext',
  json: 'longtext',
  integer: 'integer',
  bigint: 'bigint',
  float: 'double',
  decimal: 'decimal(10,2)',
  boolean: 'boolean',
  date: 'date',
  time: 'time(3)',
  datetime: 'datetime(3)',
};

const SCHEMA_LOCK_NAME = 'vellum_schema_sync';

/** DATETIME has no zone: Vellum stores UTC as `YYYY-MM-DD HH:MM:SS.mmm`. */
function mysqlDateTime(value: unknown): unknown {
  const date = value instanceof Date ? value : new Date(String(value));
  if (Number.isNaN(date.getTime())) return value;
  return (
    `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ` +
    `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}.${pad(date.getUTCMilliseconds(), 3)}`
  );
}

const quoteId = (name: string): string => `\`${name.replace(/`/g, '``')}\``;

/** ER_LOCK_DEADLOCK; ER_AUTOINC_READ_FAILED (a deadlock met while waiting for the auto-increment lock); ER_CHECKREAD. */
const CONFLICT = new Set([1213, 1467, 1020]);
/** ER_LOCK_WAIT_TIMEOUT, ER_CON_COUNT_ERROR, ER_TOO_MANY_USER_CONNECTIONS. */
const BUSY = new Set([1205, 1040, 1203]);

/**
 * MariaDB has neither partial nor expression indexes: a unique attribute gets a hidden (INVISIBLE,
 * so `select *` leaves it out) virtual column that is null outside the index's scope (drafts, empty
 * text) and otherwise holds the locale, or for long text the locale and the text's digest (InnoDB
 * indexes no full LONGTEXT).
 */
const helperColumn = (spec: UniqueSpec): string => identifier(`${spec.column}__uq`);

function helperExpression(spec: UniqueSpec): string {
  const column = quoteId(spec.column);
  const inScope = `${quoteId('published_at')} is not null and ${column} is not null${spec.type === 'string' || spec.type === 'text' ? ` and ${column} <> ''` : ''}`;
  const locale = `coalesce(${quoteId('locale')}, '')`;
  return spec.type === 'text'
    ? `if(${inScope}, concat(${locale}, ':', md5(${column})), null)`
    : `if(${inScope}, ${locale}, null)`;
}

export const mysqlDialect: Dialect = {
  client: 'mysql',
  rowLocks: true,
  lockRows: selectForUpdate,
  claimRows: forUpdateSkipLocked,
  // No RETURNING: the driver reports the row's auto-increment id. `default values` is not MySQL's.
  async insertReturningId(db, table, values) {
    const columns = definedColumns(values);
    const result = await runShape(
      db,
      shapeKey('insert', table, ...columns),
      columns.map((column) => values[column]),
      (slots) =>
        columns.length
          ? db.insertInto(table).values(Object.fromEntries(columns.map((c, i) => [c, slots[i]])))
          : sql`insert into ${sql.table(table)} () values ()`,
    );
    return Number(result.insertId);
  },
  // The connection's database is the namespace; it exists (the connection names it).
  prepareNamespace: async () => {},
  listColumns: introspectColumns,
  async listIndexes(db) {
    const { rows } = await sql<{
      table_name: string;
      index_name: string;
    }>`select distinct table_name, index_name from information_schema.statistics where table_schema = database()`.execute(
      db,
    );
    return new Set(rows.map((row) => `${row.table_name}.${row.index_name}`));
  },
  dropIndex: async (db, table, name) => {
    await db.schema.dropIndex(name).ifExists().on(table).execute();
  },
  // Every connection reads committed data (set when the pool opens it, see createMysqlKysely).
  writeTransaction: (db, fn) => db.transaction().execute(fn),
  classifyError(error) {
    const { errno, message } = errorFields(error);
    if (errno === 1062) {
      // MariaDB: "Duplicate entry 'x' for key 'name'"; MySQL 8: "... for key 'table.name'".
      const key = /for key '([^']+)'/.exec(message)?.[1];
      return { kind: 'unique', index: key?.split('.').pop() };
    }
    if (errno !== undefined && CONFLICT.has(errno)) return { kind: 'conflict' };
    if (errno !== undefined && BUSY.has(errno)) return { kind: 'busy' };
    return undefined;
  },
  async createUniqueIndex(db, spec) {
    const helper = quoteId(helperColumn(spec));
    const width = spec.type === 'text' ? 300 : 255;
    await sql
      .raw(
        `alter table ${quoteId(spec.table)} add column if not exists ${helper} varchar(${width}) as (${helperExpression(spec)}) virtual invisible`,
      )
      .execute(db);
    const columns = spec.type === 'text' ? helper : `${quoteId(spec.column)}, ${helper}`;
    await sql
      .raw(`create unique index if not exists ${quoteId(spec.name)} on ${quoteId(spec.table)} (${columns})`)
      .execute(db);
  },
  async dropUniqueIndex(db, spec) {
    try {
      await sql.raw(`drop index if exists ${quoteId(spec.name)} on ${quoteId(spec.table)}`).execute(db);
      await sql
        .raw(`alter table ${quoteId(spec.table)} drop column if exists ${quoteId(helperColumn(spec))}`)
        .execute(db);
    } catch (error) {
      // The table itself is gone (dropped by hand): so is its index.
      if (errorFields(error).errno !== 1146) throw error;
    }
  },
  uniqueHelperColumns: (spec) => [helperColumn(spec)],
  columnType: (type) => sql.raw(TYPES[type]),
  // A binary collation makes `=` and ordering case-sensitive, as on SQLite and PostgreSQL.
  tableOptions: () => sql.raw('engine = InnoDB default charset = utf8mb4 collate = utf8mb4_bin'),
  indexesInCreateTable: true,
  schemaLockTransaction: (db, fn) => db.transaction().execute(fn),
  withSchemaLock: (db, fn) =>
    db.connection().execute(async (connection) => {
      // Schema work has no statement budget: an index built over a large table, or the wait for
      // another node's synchronisation, may take longer than a request's statement may.
      await sql`set @vellum_statement_time = @@session.max_statement_time, session max_statement_time = 0`.execute(
        connection,
      );
      try {
        await sql`select get_lock(${SCHEMA_LOCK_NAME}, 120)`.execute(connection);
        try {
          return await fn(connection);
        } finally {
          await sql`select release_lock(${SCHEMA_LOCK_NAME})`.execute(connection);
        }
      } finally {
        await sql`set session max_statement_time = @vellum_statement_time`.execute(connection);
      }
    }),
  encode(type, value) {
    if (value === null || value === undefined) return null;
    if (type === 'datetime') return mysqlDateTime(value);
    if (type === 'boolean') return value ? 1 : 0;
    return encodeCommon(type, value);
  },
  decode: decodeCommon,
  quoteId,
  selectColumn: () => undefined,
  semiJoinOperand: (column) => column,
  // Row triggers (MariaDB has no statement triggers). Creating them needs the TRIGGER privilege,
  // and with binary logging on, SUPER or log_bin_trust_function_creators.
  refreshPlannerStatistics: async () => undefined,
  async installChangeTriggers(db, table, group, fresh) {
    for (const [event, suffix] of CHANGE_EVENTS) {
      const name = quoteId(identifier(`${table}_vchg_${suffix}`));
      if (!fresh) await sql.raw(`drop trigger if exists ${name}`).execute(db);
      await sql
        .raw(`create trigger ${name} after ${event} on ${quoteId(table)} for each row ${bumpChange(group)}`)
        .execute(db);
    }
  },
  asText: (expression) => sql`cast(${expression} as char)`,
  lower: (expression) => sql`lower(${expression})`,
  matches(expression, text, anchor, caseInsensitive) {
    return likeMatch(this.lower, expression, text, anchor, caseInsensitive);
  },
};

export function createMysqlKysely(connection: ServerConnection, log: KyselyConfig['log']): Db {
  // Loaded only when a project uses MySQL/MariaDB: the driver costs memory on every other node.
  const { createPool } = createRequire(import.meta.url)('mysql2') as typeof mysqlModule;
  const pool = createPool({
    uri: connection.connectionString,
    host: connection.host,
    port: connection.port,
    database: connection.database,
    user: connection.user,
    password: connection.password,
    ssl: connection.ssl as never,
    connectionLimit: connection.pool.max,
    ...(connection.pool.idleTimeoutMillis === undefined ? {} : { idleTimeout: connection.pool.idleTimeoutMillis }),
    charset: 'utf8mb4_bin',
    timezone: 'Z',
    dateStrings: true,
    supportBigNumbers: true,
    bigNumberStrings: true,
  });
  // READ COMMITTED, as PostgreSQL: InnoDB's REPEATABLE READ takes gap locks on every locking read
  // and delete, which made concurrent inserts of links deadlock, and its snapshot would hide what a
  // writer committed while this one waited for its lock. Set once per connection, not per write.
  // optimizer_search_depth 0: the server bounds its join-order search itself. The default (62)
  // searches every order: a filter nested eight relations deep (sixteen tables in semi-joins)
  // stayed in MariaDB 10.11's "Statistics" state for minutes before executing.
  // max_statement_time (MariaDB, seconds): the server stops a statement past the budget (errno
  // 1969); the driver's callback gets the typed 503 instead, for reads as for writes.
  const budget = connection.statementTimeout;
  pool.on('connection', (raw) => {
    raw.query('set session transaction isolation level read committed');
    raw.query('set session optimizer_search_depth = 0');
    raw.query(`set session max_statement_time = ${budget / 1000}`);
    const query = raw.query.bind(raw) as (...args: unknown[]) => unknown;
    (raw as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      const done = args.at(-1);
      if (typeof done === 'function') {
        args[args.length - 1] = (error: unknown, ...rest: unknown[]) =>
          (done as (...a: unknown[]) => void)(
            error && errorFields(error).errno === 1969 ? statementTimeoutError(budget) : error,
            ...rest,
          );
      }
      return query(...args);
    };
  });
  return new Kysely({ dialect: new MysqlDialect({ pool }), log });
}
