import { Kysely, PostgresDialect, sql, type KyselyConfig } from 'kysely';
import { createRequire } from 'node:module';
import type pgModule from 'pg';
import type { ServerConnection } from '../../config/load.js';
import { ValidationError } from '../../errors.js';
import { identifier } from '../../schema/naming.js';
import {
  decodeCommon,
  encodeCommon,
  errorFields,
  statementTimeoutError,
  insertReturning,
  likeMatch,
  selectForUpdate,
  forUpdateSkipLocked,
  uniqueCondition,
  type ColumnType,
  type Db,
  type Dialect,
} from '../dialect.js';

const TYPES: Record<ColumnType, string> = {
  id: 'serial primary key',
  string: 'varchar(255)',
  text: 'text',
  json: 'text',
  integer: 'integer',
  bigint: 'bigint',
  float: 'double precision',
  decimal: 'numeric(10,2)',
  boolean: 'boolean',
  date: 'date',
  time: 'time(3)',
  datetime: 'timestamp(3) with time zone',
};

/** Same key on every node: pg_advisory_xact_lock serialises their schema synchronisation. */
const SCHEMA_LOCK_KEY = 748_213_001;

// Dates stay strings ('2024-01-31'); pg would turn them into local-midnight Date objects.
const typesOf = (pg: typeof pgModule) =>
  ({
    getTypeParser(oid: number, format?: 'text' | 'binary') {
      if (oid === pg.types.builtins.DATE) return (value: string) => value;
      return pg.types.getTypeParser(oid, format);
    },
  }) as pgModule.CustomTypesConfig;

const NUL = '\u0000';

/**
 * PostgreSQL text cannot hold U+0000: a statement binding one fails as a server error. Bodies are
 * refused earlier with a path (core/documents/input.ts); this refuses every other value that reaches a
 * statement (a filter, a path parameter, a login identifier) as bad input.
 */
function vellumClient(pg: typeof pgModule, statementTimeout: number): typeof pgModule.Client {
  return class extends pg.Client {
    override query(...args: unknown[]): never {
      const [config, values] = args as [unknown, unknown];
      const params = Array.isArray(values) ? values : (config as { values?: unknown[] } | null)?.values;
      if (params?.some((value) => typeof value === 'string' && value.includes(NUL))) {
        throw new ValidationError('Text values cannot contain the NUL character (U+0000)');
      }
      const result: unknown = (super.query as (...a: unknown[]) => unknown)(...args);
      // Kysely runs statements as promises: one stopped by statement_timeout becomes the typed 503
      // here, so reads (outside write transactions, which classify their own errors) answer it too.
      if (result instanceof Promise)
        return result.catch((error: unknown) => {
          throw isStatementTimeout(error) ? statementTimeoutError(statementTimeout) : error;
        }) as never;
      return result as never;
    }
  };
}

/** query_canceled, by statement_timeout (a cancel request from elsewhere has another message). */
const isStatementTimeout = (error: unknown): boolean => {
  const { code, message } = errorFields(error);
  return code === '57014' && message.includes('statement timeout');
};

const quoteId = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** SQLSTATEs: deadlock_detected and serialization_failure abort a transaction that may run again. */
const CONFLICT = new Set(['40P01', '40001']);
/** lock_not_available, too_many_connections, cannot_connect_now, query_canceled (statement_timeout). */
const BUSY = new Set(['55P03', '53300', '57P03', '57014']);

/**
 * The PostgreSQL dialect for tables in `schema` (`connection.schema`, the connections' search path;
 * `public` when none is configured).
 */
export const postgresDialect = (schema: string | undefined): Dialect => ({
  client: 'postgres',
  rowLocks: true,
  lockRows: selectForUpdate,
  claimRows: forUpdateSkipLocked,
  insertReturningId: insertReturning,
  async prepareNamespace(db) {
    if (schema) await sql`create schema if not exists ${sql.id(schema)}`.execute(db);
  },
  // The catalog read for Vellum's schema only: a database-wide introspection resolves every schema
  // by name and fails when another client drops its schema at the same moment (parallel test runs,
  // other applications).
  async listIndexes(db) {
    const { rows } = await sql<{
      tablename: string;
      indexname: string;
    }>`select tablename, indexname from pg_indexes where schemaname = ${schema ?? 'public'}`.execute(db);
    return new Set(rows.map((row) => `${row.tablename}.${row.indexname}`));
  },
  async listColumns(db) {
    const { rows } = await sql<{
      table_name: string;
      column_name: string;
    }>`select table_name, column_name from information_schema.columns where table_schema = ${schema ?? 'public'}`.execute(
      db,
    );
    const result = new Map<string, Set<string>>();
    for (const row of rows) {
      let columns = result.get(row.table_name);
      if (!columns) result.set(row.table_name, (columns = new Set()));
      columns.add(row.column_name);
    }
    return result;
  },
  dropIndex: async (db, _table, name) => {
    await db.schema.dropIndex(name).ifExists().execute();
  },
  columnType: (type) => sql.raw(TYPES[type]),
  tableOptions: () => undefined,
  indexesInCreateTable: false,
  writeTransaction: (db, fn) => db.transaction().execute(fn),
  classifyError(error) {
    const { code = '', constraint, table } = errorFields(error);
    if (code === '23505') return { kind: 'unique', index: constraint, table };
    if (CONFLICT.has(code)) return { kind: 'conflict' };
    if (BUSY.has(code)) return { kind: 'busy' };
    return undefined;
  },
  async createUniqueIndex(db, spec) {
    // A B-tree entry holds at most ~2.7 kB: long text is compared through its digest.
    const value = spec.type === 'text' ? `md5(${quoteId(spec.column)})` : quoteId(spec.column);
    const columns = [value, ...(spec.localized ? [quoteId('locale')] : [])].join(', ');
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
  // One transaction, holding a transaction-level advisory lock: no session state (a session lock, a
  // session SET) that a transaction-mode pooler (PgBouncer) would leave on a server connection
  // another client gets next, and that it would not keep across statements. The lock and the
  // statement budget end with the commit, or with the connection if the node dies.
  schemaLockTransaction: (db, fn) => fn(db),
  withSchemaLock: (db, fn) =>
    db.connection().execute(async (connection) => {
      await sql`begin`.execute(connection);
      try {
        // Schema work has no statement budget: an index built over a large table, or the wait for
        // another node's synchronisation, may take longer than a request's statement may.
        await sql`set local statement_timeout = 0`.execute(connection);
        await sql`select pg_advisory_xact_lock(${SCHEMA_LOCK_KEY})`.execute(connection);
        const result = await fn(connection);
        await sql`commit`.execute(connection);
        return result;
      } catch (error) {
        await sql`rollback`.execute(connection).catch(() => undefined);
        throw error;
      }
    }),
  encode: encodeCommon,
  decode: decodeCommon,
  quoteId,
  selectColumn: () => undefined,
  semiJoinOperand: (column) => column,
  // One trigger per statement (not per row): a write of 100 links bumps its counter once.
  refreshPlannerStatistics: async () => undefined,
  async installChangeTriggers(db, table, group, fresh) {
    await sql
      .raw(
        `create or replace function vellum_bump_change() returns trigger language plpgsql as $$ begin update vellum_changes set version = version + 1 where name = tg_argv[0]; return null; end $$`,
      )
      .execute(db);
    const name = quoteId(identifier(`${table}_vchg`));
    const literal = `'${group.replace(/'/g, "''")}'`;
    if (!fresh) await sql.raw(`drop trigger if exists ${name} on ${quoteId(table)}`).execute(db);
    await sql
      .raw(
        `create trigger ${name} after insert or update or delete on ${quoteId(table)} for each statement execute function vellum_bump_change(${literal})`,
      )
      .execute(db);
  },
  asText: (expression) => sql`cast(${expression} as text)`,
  lower: (expression) => sql`lower(${expression})`,
  matches(expression, text, anchor, caseInsensitive) {
    return likeMatch(this.lower, expression, text, anchor, caseInsensitive);
  },
});

export function createPostgresKysely(connection: ServerConnection, log: KyselyConfig['log']): Db {
  // Loaded only when a project uses PostgreSQL: the driver costs memory on every other node.
  const pg = createRequire(import.meta.url)('pg') as typeof pgModule;
  const pool = new pg.Pool({
    connectionString: connection.connectionString,
    host: connection.host,
    port: connection.port,
    database: connection.database,
    user: connection.user,
    password: connection.password,
    ssl: connection.ssl as pgModule.PoolConfig['ssl'],
    min: connection.pool.min,
    max: connection.pool.max,
    types: typesOf(pg),
    Client: vellumClient(pg, connection.statementTimeout),
    ...(connection.pool.idleTimeoutMillis === undefined
      ? {}
      : { idleTimeoutMillis: connection.pool.idleTimeoutMillis }),
    // PgBouncer refuses startup options ("unsupported startup parameter: options"): behind it the
    // server's own settings apply, checked at connection (checkPooledSettings).
    ...(connection.pgbouncer
      ? {}
      : {
          options: [
            connection.schema ? `-c search_path=${connection.schema}` : '',
            `-c statement_timeout=${connection.statementTimeout}`,
          ]
            .filter(Boolean)
            .join(' '),
        }),
  });
  return new Kysely({ dialect: new PostgresDialect({ pool }), log });
}

/** The first schema of a `search_path` setting (`"$user", public`, `vt_1`, `"My schema"`). */
const firstSchema = (path: string): string => {
  const first = (path.split(',')[0] ?? '').trim();
  return first.startsWith('"') ? first.slice(1, -1).replace(/""/g, '"') : first;
};

/**
 * Through PgBouncer in transaction mode a connection's session settings belong to the pooler's
 * server connections, not to Vellum: the search path and the statement budget must be set there
 * (on the role, or PgBouncer's `connect_query`). Checked once at connection, so that a node does not
 * run with its tables in another schema or without its statement budget. The message names the fix.
 */
export async function checkPooledSettings(db: Db, connection: ServerConnection): Promise<string | undefined> {
  const { rows } = await sql<{ path: string; timeout: string }>`
    select current_setting('search_path') as path,
           (select setting from pg_settings where name = 'statement_timeout') as timeout`.execute(db);
  const { path, timeout } = rows[0]!;
  const role = quoteId(connection.user);
  if (connection.schema && connection.schema !== 'public' && firstSchema(path) !== connection.schema)
    return `connections through PgBouncer have search_path '${path}', not schema "${connection.schema}": run \`alter role ${role} set search_path = ${quoteId(connection.schema)}\` on the server, or set it in PgBouncer's connect_query`;
  if (Number(timeout) !== connection.statementTimeout)
    return `connections through PgBouncer have statement_timeout ${timeout} ms, not settings.statementTimeout ${connection.statementTimeout}: run \`alter role ${role} set statement_timeout = ${connection.statementTimeout}\` on the server (or set it in PgBouncer's connect_query), or set settings.statementTimeout to ${timeout}`;
  return undefined;
}
