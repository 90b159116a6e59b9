import { Kysely, MysqlDialect, sql, type KyselyConfig } from 'kysely';
import { createRequire } from 'node:module';
import type mysqlModule from 'mysql2';
import type { ServerConnection } from '../../config/load.js';
import { decodeCommon, encodeCommon, likeMatch, pad, type ColumnType, type Db, type Dialect } from '../dialect.js';

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

export const mysqlDialect: Dialect = {
  client: 'mysql',
  columnType: (type) => sql.raw(TYPES[type]),
  // A binary collation makes `=` and ordering case-sensitive, as on SQLite and PostgreSQL.
  tableOptions: () => sql.raw('engine = InnoDB default charset = utf8mb4 collate = utf8mb4_bin'),
  withSchemaLock: (db, fn) =>
    db.connection().execute(async (connection) => {
      await sql`select get_lock(${SCHEMA_LOCK_NAME}, 120)`.execute(connection);
      try {
        return await fn(connection);
      } finally {
        await sql`select release_lock(${SCHEMA_LOCK_NAME})`.execute(connection);
      }
    }),
  encode(type, value) {
    if (value === null || value === undefined) return null;
    if (type === 'datetime') return mysqlDateTime(value);
    if (type === 'boolean') return value ? 1 : 0;
    return encodeCommon(type, value);
  },
  decode: decodeCommon,
  quoteId: (name) => `\`${name.replace(/`/g, '``')}\``,
  selectColumn: () => undefined,
  semiJoinOperand: (column) => column,
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
    charset: 'utf8mb4_bin',
    timezone: 'Z',
    dateStrings: true,
    supportBigNumbers: true,
    bigNumberStrings: true,
  });
  return new Kysely({ dialect: new MysqlDialect({ pool }), log });
}
