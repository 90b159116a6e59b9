import { sql, type KyselyConfig } from 'kysely';
import { ProjectError } from '../errors.js';
import type { DatabaseConfig } from '../config/load.js';
import type { DatabaseFailure, Db, Dialect } from './dialect.js';
import { isBackground, type SystemDb } from './system-tables.js';
import { createMysqlKysely, mysqlDialect } from './dialects/mysql.js';
import { checkPooledSettings, createPostgresKysely, postgresDialect } from './dialects/postgres.js';
import { createSqliteKysely, sqliteDialect } from './dialects/sqlite.js';
import { runWrite, UniqueIndexes } from './write.js';

interface QueryObserver {
  (sql: string): void;
}

/** One open database: the query builder, its dialect, and a hook that sees every statement. */
export interface Database {
  /** The query builder, untyped: content-type tables are generated from the schema at run time. */
  db: Db;
  /** The same connection, typed for the fixed-shape system tables (system-tables.ts). */
  system: SystemDb;
  dialect: Dialect;
  /** Statements executed so far, but the node's background work (tests use it to prove that reads are not N+1). */
  readonly statementCount: number;
  observe(observer: QueryObserver): () => void;
  /**
   * Runs `fn` as one write transaction: retried when the database aborts it for a conflict, its
   * failures translated (unique violation: ValidationError; locked or busy: 503). See write.ts.
   */
  write<T>(fn: (trx: Db) => Promise<T>): Promise<T>;
  /** Write transactions run again so far, by cause (conflict: deadlock or serialisation; unique). */
  readonly writeRetries: { conflict: number; unique: number };
  /** The unique indexes schema synchronisation created, to name their attributes in errors. */
  readonly uniqueIndexes: UniqueIndexes;
  close(): Promise<void>;
}

function openDatabase(config: DatabaseConfig): Database {
  const observers = new Set<QueryObserver>();
  let statementCount = 0;
  // VELLUM_LOG_SQL=1 prints every statement with its duration (development aid).
  const logSql = process.env.VELLUM_LOG_SQL === '1';
  const log: KyselyConfig['log'] = (event) => {
    if (logSql) console.error(`[sql ${event.queryDurationMillis.toFixed(2)} ms] ${event.query.sql}`);
    if (isBackground(event.query.sql)) return;
    statementCount += 1;
    if (event.level === 'error') return;
    for (const observer of observers) observer(event.query.sql);
  };
  let db: Db;
  let dialect: Dialect;
  switch (config.client) {
    case 'sqlite':
      db = createSqliteKysely(config, log);
      dialect = sqliteDialect;
      break;
    case 'postgres':
      db = createPostgresKysely(config, log);
      dialect = postgresDialect(config.schema);
      break;
    case 'mysql':
      db = createMysqlKysely(config, log);
      dialect = mysqlDialect;
      break;
  }
  const uniqueIndexes = new UniqueIndexes();
  const writeRetries = { conflict: 0, unique: 0 };
  const countRetry = (failure: DatabaseFailure) => {
    if (failure.kind !== 'busy') writeRetries[failure.kind] += 1;
  };
  return {
    db,
    system: db,
    dialect,
    uniqueIndexes,
    writeRetries,
    write: (fn) => runWrite(db, dialect, uniqueIndexes, fn, countRetry),
    get statementCount() {
      return statementCount;
    },
    observe(observer) {
      observers.add(observer);
      return () => observers.delete(observer);
    },
    close: () => db.destroy(),
  };
}

/** Driver errors that mean the settings cannot reach the database, by code: the fix to name (the driver's message says what is wrong). */
const CONNECTION_FAILURES: Record<string, string> = {
  ECONNREFUSED: 'check the host and port (DATABASE_HOST, DATABASE_PORT) and that the server runs',
  ENOTFOUND: 'check the host (DATABASE_HOST)',
  EAI_AGAIN: 'check the host (DATABASE_HOST)',
  ETIMEDOUT: 'check the host and port (DATABASE_HOST, DATABASE_PORT)',
  EHOSTUNREACH: 'check the host (DATABASE_HOST)',
  ENOENT: 'check the host (DATABASE_HOST)',
  // PostgreSQL: wrong password, unknown role (or no pg_hba.conf entry), missing database.
  '28P01': 'check the user and password (DATABASE_USERNAME, DATABASE_PASSWORD)',
  '28000': "check the user (DATABASE_USERNAME) and the server's access rules",
  '3D000': 'create it, or check its name (DATABASE_NAME)',
  // MySQL/MariaDB: access denied (user or password), to that database, missing database.
  ER_ACCESS_DENIED_ERROR: 'check the user and password (DATABASE_USERNAME, DATABASE_PASSWORD)',
  ER_DBACCESS_DENIED_ERROR: 'grant the user this database, or check its name (DATABASE_NAME)',
  ER_BAD_DB_ERROR: 'create it, or check its name (DATABASE_NAME)',
  // SQLite: the file cannot be opened or created.
  SQLITE_CANTOPEN: "check the path (DATABASE_FILENAME) and its folder's permissions",
  EACCES: "check the path (DATABASE_FILENAME) and its folder's permissions",
  EISDIR: 'name a file, not a folder (DATABASE_FILENAME)',
  ENOTDIR: 'check the path (DATABASE_FILENAME)',
  // mkdir of the file's folder, where a part of the path is a file.
  EEXIST: 'check the path (DATABASE_FILENAME): a part of it is a file',
};

function connectionFailure(config: DatabaseConfig, error: unknown): ProjectError | undefined {
  const code = String((error as { code?: unknown } | null)?.code ?? '');
  // PgBouncer refuses the startup options Vellum sends PostgreSQL (search_path, statement_timeout).
  const pooler = code === '08P01' && /unsupported startup parameter/.test((error as Error).message);
  const fix = pooler
    ? 'behind PgBouncer, set connection.pgbouncer (DATABASE_PGBOUNCER=true)'
    : CONNECTION_FAILURES[code];
  if (!fix) return undefined;
  const target =
    config.client === 'sqlite'
      ? `SQLite file ${config.filename}`
      : config.connectionString
        ? `${config.client} at ${config.connectionString.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@')}`
        : `${config.client} at ${config.host}:${config.port} (database "${config.database}", user "${config.user}")`;
  const reason = ((error as Error).message || code).split('\n')[0];
  return new ProjectError(`cannot connect to ${target}: ${reason}; ${fix}`, config.source);
}

/**
 * Opens the database and runs one statement, so that settings which cannot reach it stop
 * start-up (or a command) with one line naming the file and the fix, not a driver's stack.
 */
export async function connectDatabase(config: DatabaseConfig): Promise<Database> {
  let database: Database;
  try {
    database = openDatabase(config);
  } catch (error) {
    throw connectionFailure(config, error) ?? error;
  }
  let misconfigured: string | undefined;
  try {
    await sql`select 1`.execute(database.db);
    if (config.client === 'postgres' && config.pgbouncer)
      misconfigured = await checkPooledSettings(database.db, config);
  } catch (error) {
    await database.close().catch(() => undefined);
    throw connectionFailure(config, error) ?? error;
  }
  if (!misconfigured) return database;
  await database.close().catch(() => undefined);
  throw new ProjectError(misconfigured, config.source);
}
