/**
 * SQL without a database, as Kysely's own tests compile it: a Kysely instance per dialect with
 * Kysely's DummyDriver (it connects to nothing and answers every statement with no rows) and the
 * dialect's query compiler. Each statement the code under test runs is recorded, compiled, so a
 * unit test pins the SQL text and the bound values per dialect.
 */
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
  type DialectAdapter,
  type DatabaseIntrospector,
  type QueryCompiler,
} from 'kysely';
import type { Database } from '../../src/core/database/connection.js';
import type { Db, Dialect } from '../../src/core/database/dialect.js';
import { mysqlDialect } from '../../src/core/database/dialects/mysql.js';
import { postgresDialect } from '../../src/core/database/dialects/postgres.js';
import { sqliteDialect } from '../../src/core/database/dialects/sqlite.js';

export type DialectName = 'sqlite' | 'postgres' | 'mysql';
export const ALL_DIALECTS: DialectName[] = ['sqlite', 'postgres', 'mysql'];

export interface Statement {
  sql: string;
  parameters: readonly unknown[];
}

interface KyselyParts {
  adapter: () => DialectAdapter;
  compiler: () => QueryCompiler;
  introspector: (db: Db) => DatabaseIntrospector;
}

const KYSELY_PARTS: Record<DialectName, KyselyParts> = {
  sqlite: {
    adapter: () => new SqliteAdapter(),
    compiler: () => new SqliteQueryCompiler(),
    introspector: (db) => new SqliteIntrospector(db),
  },
  postgres: {
    adapter: () => new PostgresAdapter(),
    compiler: () => new PostgresQueryCompiler(),
    introspector: (db) => new PostgresIntrospector(db),
  },
  mysql: {
    adapter: () => new MysqlAdapter(),
    compiler: () => new MysqlQueryCompiler(),
    introspector: (db) => new MysqlIntrospector(db),
  },
};

const DIALECTS: Record<DialectName, Dialect> = {
  sqlite: sqliteDialect,
  postgres: postgresDialect(undefined),
  mysql: mysqlDialect,
};

/** A database that compiles and records what it is asked, and answers no rows. */
export interface CompilingDatabase {
  db: Db;
  dialect: Dialect;
  /** Statements run so far, in order. */
  statements: Statement[];
  /** Statements Kysely compiled so far (those compiled once per shape count once). */
  compiles: number;
  /** What document operations read from their context (`db` and `dialect`). */
  database: Database;
}

export function compilingDatabase(name: DialectName): CompilingDatabase {
  const parts = KYSELY_PARTS[name];
  const statements: Statement[] = [];
  const counted = { compiles: 0 };
  const db: Db = new Kysely({
    dialect: {
      createAdapter: parts.adapter,
      createDriver: () => new DummyDriver(),
      createIntrospector: parts.introspector,
      createQueryCompiler: () => {
        const compiler = parts.compiler();
        const compile = compiler.compileQuery.bind(compiler);
        compiler.compileQuery = (node, queryId) => {
          counted.compiles++;
          return compile(node, queryId);
        };
        return compiler;
      },
    },
    log: (event) => {
      statements.push({ sql: event.query.sql, parameters: event.query.parameters });
    },
  });
  const dialect = DIALECTS[name];
  // Reads use only `db` and `dialect`; a write would need the rest, which this database lacks.
  const database = { db, dialect } as Database;
  return {
    db,
    dialect,
    statements,
    database,
    get compiles() {
      return counted.compiles;
    },
  };
}

/**
 * A statement written in SQLite's spelling, as each dialect spells it when nothing else differs:
 * MySQL quotes identifiers with backticks, PostgreSQL numbers its parameters ($1, $2, ...).
 * Tests write the dialects out one by one where they differ in more (functions, LIKE vs GLOB).
 */
export function spelled(sqlite: string): Record<DialectName, string> {
  let n = 0;
  return {
    sqlite,
    postgres: sqlite.replace(/\?/g, () => `$${++n}`),
    mysql: sqlite.replace(/"/g, '`'),
  };
}
