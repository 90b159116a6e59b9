import type { KyselyConfig } from 'kysely';
import type { DatabaseConfig } from '../config/load.js';
import type { DatabaseFailure, Db, Dialect } from './dialect.js';
import { isBackground, type SystemDb } from './system-tables.js';
import { createMysqlKysely, mysqlDialect } from './dialects/mysql.js';
import { createPostgresKysely, postgresDialect } from './dialects/postgres.js';
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

export function openDatabase(config: DatabaseConfig): Database {
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
