import type { KyselyConfig } from 'kysely';
import type { DatabaseConfig } from '../config/load.js';
import type { Db, Dialect } from './dialect.js';
import { createMysqlKysely, mysqlDialect } from './dialects/mysql.js';
import { createPostgresKysely, postgresDialect } from './dialects/postgres.js';
import { createSqliteKysely, sqliteDialect } from './dialects/sqlite.js';

export interface QueryObserver {
  (sql: string): void;
}

/** One open database: the query builder, its dialect, and a hook that sees every statement. */
export interface Database {
  db: Db;
  dialect: Dialect;
  /** Statements executed so far (tests use it to prove that reads are not N+1). */
  readonly statementCount: number;
  observe(observer: QueryObserver): () => void;
  close(): Promise<void>;
}

export function openDatabase(config: DatabaseConfig): Database {
  const observers = new Set<QueryObserver>();
  let statementCount = 0;
  // VELLUM_LOG_SQL=1 prints every statement with its duration (development aid).
  const logSql = process.env.VELLUM_LOG_SQL === '1';
  const log: KyselyConfig['log'] = (event) => {
    statementCount += 1;
    if (logSql) console.error(`[sql ${event.queryDurationMillis.toFixed(2)} ms] ${event.query.sql}`);
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
      dialect = postgresDialect;
      break;
    case 'mysql':
      db = createMysqlKysely(config, log);
      dialect = mysqlDialect;
      break;
  }
  return {
    db,
    dialect,
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
