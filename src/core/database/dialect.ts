import { sql, type Kysely, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import { ServiceUnavailableError } from '../errors.js';
import type { DatabaseClient } from '../config/load.js';
import { compiledShape, runShape, shapeKey, type Buildable } from './shapes.js';
import type { ColumnType, UniqueSpec } from './tables.js';

export type { ColumnType } from './tables.js';

// The tables are generated from content-types at run time, so the query builder is untyped here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Db = Kysely<any>;

/** What went wrong in the database, as far as a writer cares (see write.ts). */
export type DatabaseFailure =
  /** A unique index refused a value: the index by name, or (SQLite) its table and columns. */
  | { kind: 'unique'; index?: string; table?: string; columns?: string[] }
  /** Deadlock or serialisation failure: the database aborted the transaction; running it again is safe. */
  | { kind: 'conflict' }
  /** Locked or overloaded past a timeout. */
  | { kind: 'busy' };

/**
 * What differs between SQLite, PostgreSQL and MySQL/MariaDB. Everything else in the database layer
 * is written once against Kysely.
 */
export interface Dialect {
  readonly client: DatabaseClient;
  /** SQL type for a column in CREATE/ALTER TABLE. */
  columnType(type: ColumnType): RawBuilder<unknown>;
  /** Appended to CREATE TABLE (MySQL: engine and a case-sensitive collation). */
  tableOptions(): RawBuilder<unknown> | undefined;
  /**
   * Whether a new table's indexes are declared in its CREATE TABLE rather than one CREATE INDEX
   * each (MySQL/MariaDB, where every DDL statement commits and costs milliseconds).
   */
  readonly indexesInCreateTable: boolean;
  /**
   * Whether `select ... for update` locks rows. SQLite has no row locks: a write transaction holds
   * the whole database (see `writeTransaction`), which serialises writers anyway.
   */
  readonly rowLocks: boolean;
  /**
   * Where a page of documents reads its ids (and total) in one statement and its rows by id in a
   * second, bounded one (SQLite: see findMany), the condition that picks rows by `ids` (the value
   * `pageIds` gives); undefined
   * where one statement joins the rows to the page's ids (a second round trip would cost more).
   */
  readonly pageRowsById?: (id: RawBuilder<unknown>, ids: unknown) => RawBuilder<boolean>;
  /** The one value `pageRowsById` binds for `ids` (compiled once: the value goes in a slot). */
  readonly pageIds?: (ids: readonly number[]) => unknown;
  /**
   * Locks the rows of `table` whose `column` holds one of `values` until the transaction ends
   * (`select ... for update`, ordered by `column` then id); does nothing where `rowLocks` is false.
   * The order and the choice of rows are the caller's (locks.ts).
   */
  lockRows(db: Db, table: string, column: 'id' | 'document_id', values: readonly (string | number)[]): Promise<void>;
  /**
   * A select of queue rows to claim in a write transaction, made to lock what it reads and skip
   * the rows other transactions hold (`for update skip locked`: PostgreSQL, MariaDB 10.6+), so that
   * nodes claiming at once take disjoint rows without waiting. SQLite's write transaction holds the
   * whole database: the select as it is.
   */
  claimRows<Q extends ClaimQuery>(query: Q): Q;
  /**
   * Inserts one row and returns its id: `returning id` where the database has it (SQLite,
   * PostgreSQL), the driver's insert id on MySQL. With no values (a component whose only attribute
   * is media) the row takes every column's default.
   */
  insertReturningId(db: Db, table: string, values: Record<string, unknown>): Promise<number>;
  /**
   * Creates what Vellum's tables live in, before schema synchronisation takes its lock: on
   * PostgreSQL the configured schema (`connection.schema`), which the dialect holds; elsewhere
   * nothing.
   */
  prepareNamespace(db: Db): Promise<void>;
  /** Tables of Vellum's namespace (database, or PostgreSQL schema) and their columns. */
  listColumns(db: Db): Promise<Map<string, Set<string>>>;
  /**
   * The names of the indexes of Vellum's namespace, as `<table>.<index>` (MySQL names an index
   * within its table): start-up creates only the missing ones, one catalog read instead of a
   * CREATE INDEX IF NOT EXISTS per index.
   */
  listIndexes(db: Db): Promise<Set<string>>;
  /** Drops an index if it exists (MySQL names an index within its table, the others within the schema). */
  dropIndex(db: Db, table: string, name: string): Promise<void>;
  /**
   * Runs `fn` in a transaction meant to write: SQLite takes the write lock up front (BEGIN
   * IMMEDIATE) so that two processes wait for each other instead of failing to upgrade; MariaDB
   * reads committed data (PostgreSQL's default), which spares the gap locks that made concurrent
   * inserts deadlock and lets a statement that waited for a row lock see what the holder wrote.
   */
  writeTransaction<T>(db: Db, fn: (trx: Db) => Promise<T>): Promise<T>;
  /** What a driver error means for a writer, or undefined when it is none of the known failures. */
  classifyError(error: unknown): DatabaseFailure | undefined;
  /** Creates the unique index of an attribute (scope: published rows, per locale; empty text is free). */
  createUniqueIndex(db: Db, spec: UniqueSpec): Promise<void>;
  dropUniqueIndex(db: Db, spec: UniqueSpec): Promise<void>;
  /** Columns a dialect adds to a table for a unique index (MariaDB's hidden generated column). */
  uniqueHelperColumns(spec: UniqueSpec): string[];
  /** Runs `fn` holding a lock that other Vellum nodes starting on the same database wait for. */
  withSchemaLock<T>(db: Db, fn: (db: Db) => Promise<T>): Promise<T>;
  /**
   * A transaction on the schema lock's connection (`withSchemaLock`'s `db`), for start-up writes
   * that must land whole: the lock's own on SQLite and PostgreSQL (it holds one, rolled back if
   * start-up fails), a transaction of its own on MySQL (whose lock is none, and whose DDL commits).
   */
  schemaLockTransaction<T>(db: Db, fn: (trx: Db) => Promise<T>): Promise<T>;
  /** Value to bind for a JS value of a column type. */
  encode(type: ColumnType, value: unknown): unknown;
  /** JS value (as the API returns it) for a value read from a column of that type. */
  decode(type: ColumnType, value: unknown): unknown;
  /** An identifier quoted for this dialect (`"name"`, MySQL `` `name` ``). */
  quoteId(name: string): string;
  /**
   * SQL text reading a column (`qualified` is quoted already) so that `decode` gets a lossless
   * value (SQLite bigints as text), or undefined when the plain column does.
   */
  selectColumn(qualified: string, type: ColumnType): string | undefined;
  /**
   * The left side of `column in (select ...)` in a count. SQLite would otherwise walk the set and
   * probe the table once per member (the set holds links of every version and locale); `+column`
   * makes it walk the version's index and test membership: 30% faster on broad filters at 10,000
   * articles, at most 0.3 ms slower on selective ones.
   */
  semiJoinOperand(column: RawBuilder<unknown>): RawBuilder<unknown>;
  /** A number (or any value) as text, for `_q`'s text search through numeric columns. */
  asText(expression: RawBuilder<unknown>): RawBuilder<unknown>;
  /** Lower-cases text the same way on every dialect, non-ASCII included. */
  lower(expression: RawBuilder<unknown>): RawBuilder<unknown>;
  /**
   * `expression` contains `text` (anchored at the start and/or end), case-sensitive or not, with the
   * same meaning on every dialect; `text` is matched literally (wildcards in it are escaped).
   */
  matches(expression: RawBuilder<unknown>, text: string, anchor: Anchor, caseInsensitive: boolean): RawBuilder<boolean>;
  /**
   * Creates the triggers that bump the counter `group` of `vellum_changes` (changes.ts) on every
   * insert, update and delete of `table`, in the writing statement's transaction.
   */
  /** `fresh`: the table was created by this start, so it has no trigger to drop first. */
  installChangeTriggers(db: Db, table: string, group: string, fresh?: boolean): Promise<void>;
  /**
   * Brings the query planner's statistics up to date once schema synchronisation has run: an index
   * created after the statistics were gathered has none (SQLite), and the planner then misjudges
   * the others too. PostgreSQL and MariaDB keep theirs themselves.
   */
  refreshPlannerStatistics(db: Db): Promise<void>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ClaimQuery = SelectQueryBuilder<any, any, any>;

/** `claimRows` where rows can be locked and skipped (PostgreSQL, MySQL). */
export const forUpdateSkipLocked = <Q extends ClaimQuery>(query: Q): Q => query.forUpdate().skipLocked() as Q;

/** `lockRows` where `select ... for update` locks rows (PostgreSQL, MySQL). */
export async function selectForUpdate(
  db: Db,
  table: string,
  column: 'id' | 'document_id',
  values: readonly (string | number)[],
): Promise<void> {
  let query = db.selectFrom(table).select('id').where(column, 'in', values).orderBy(column);
  if (column !== 'id') query = query.orderBy('id');
  await query.forUpdate().execute();
}

/** `insertReturningId` where inserts take `returning` (SQLite, PostgreSQL): compiled once per table and columns. */
export async function insertReturning(db: Db, table: string, values: Record<string, unknown>): Promise<number> {
  const columns = definedColumns(values);
  const { rows } = await runShape<{ id: unknown }>(
    db,
    shapeKey('insert returning id', table, ...columns),
    columns.map((column) => values[column]),
    (slots) => {
      const insert = db.insertInto(table);
      return (
        columns.length
          ? insert.values(Object.fromEntries(columns.map((c, i) => [c, slots[i]])))
          : insert.defaultValues()
      ).returning('id');
    },
  );
  if (rows.length === 0) throw new Error(`insert into ${table} returned no id`);
  return Number(rows[0]!.id);
}

/** The columns of a row an insert writes: Kysely leaves out those whose value is undefined. */
export const definedColumns = (values: Record<string, unknown>): string[] =>
  Object.keys(values).filter((column) => values[column] !== undefined);

/** `listColumns` through Kysely's introspection: the connection's database (SQLite file, MySQL database). */
export async function introspectColumns(db: Db): Promise<Map<string, Set<string>>> {
  const result = new Map<string, Set<string>>();
  for (const table of await db.introspection.getTables())
    result.set(table.name, new Set(table.columns.map((column) => column.name)));
  return result;
}

/** Marks a statement whose rows come back as arrays (the SQLite driver answers it in raw mode). */
export const ARRAY_ROWS = '/*rows*/ ';

/**
 * Marks a read whose cost is bounded whatever the request asks (rows found by ids or a unique key
 * through an index, at most what the read budget holds, no filter or sort of the request's): the
 * SQLite driver answers it on the main thread from a read-only connection of its own, without the
 * reader threads' hop (a round trip costs ~35 us of CPU plus the rows' copy; with `populate=*`,
 * 11 statements, reads without the hops took 20-30% less CPU on a loaded machine). It sees what was
 * committed when it starts, as a reader thread does, and never waits for a write in progress. The
 * API token asked on every request and the response cache's change counters are read so too.
 */
export const INLINE = '/*inline*/ ';

/**
 * Runs a read and returns its rows as arrays of column values in select order, on every dialect:
 * no object per row where the driver can avoid it (SQLite). `inline`: a read bounded by the read
 * budget (`INLINE`).
 */
export async function readRows(
  db: Db,
  query: RawBuilder<unknown>,
  options: { inline?: boolean } = {},
): Promise<unknown[][]> {
  const compiled = query.compile(db);
  const prefix = options.inline ? ARRAY_ROWS + INLINE : ARRAY_ROWS;
  return arrayRows(await db.executeQuery<unknown>({ ...compiled, sql: prefix + compiled.sql }));
}

/**
 * `readRows` of a statement compiled once per shape (shapes.ts): `key` names everything its text
 * depends on, `values` are bound where `build` put its slots. For the reads every request of a kind
 * runs (a page's rows by id, a document by documentId): Kysely's tree and its compilation are
 * ~7 us a statement, with their garbage.
 */
export async function readShapeRows(
  db: Db,
  key: string,
  values: readonly unknown[],
  build: (slots: readonly unknown[]) => Buildable,
  options: { inline?: boolean } = {},
): Promise<unknown[][]> {
  const prefix = options.inline ? ARRAY_ROWS + INLINE : ARRAY_ROWS;
  return arrayRows(await db.executeQuery<unknown>(compiledShape(db, key, values, build, prefix)));
}

function arrayRows({ rows }: { rows: unknown[] }): unknown[][] {
  if (rows.length === 0 || Array.isArray(rows[0])) return rows as unknown[][];
  // The PostgreSQL and MySQL drivers answer objects whose keys keep the select order.
  return rows.map((row) => Object.values(row as Record<string, unknown>));
}

/** The events that change a table's rows, and the suffix of their trigger's name. */
export const CHANGE_EVENTS = [
  ['insert', 'i'],
  ['update', 'u'],
  ['delete', 'd'],
] as const;

/**
 * The statement a change trigger runs: bumps the counter of `group`. `group` is a table name from
 * the schema, never from a request; it is written as an SQL string literal (quotes doubled).
 */
export const bumpChange = (group: string): string =>
  `update vellum_changes set version = version + 1 where name = '${group.replace(/'/g, "''")}'`;

export interface Anchor {
  start: boolean;
  end: boolean;
}

/** LIKE with `!` as the escape character: `\\` would need escaping itself in MySQL string literals. */
export function likeMatch(
  lower: (e: RawBuilder<unknown>) => RawBuilder<unknown>,
  expression: RawBuilder<unknown>,
  text: string,
  anchor: Anchor,
  caseInsensitive: boolean,
): RawBuilder<boolean> {
  const escaped = text.replace(/[!%_]/g, (c) => `!${c}`);
  const pattern = `${anchor.start ? '' : '%'}${escaped}${anchor.end ? '' : '%'}`;
  return caseInsensitive
    ? sql<boolean>`${lower(expression)} like ${lower(sql`${pattern}`)} escape '!'`
    : sql<boolean>`${expression} like ${pattern} escape '!'`;
}

export const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** `HH:mm:ss.SSS`, as Strapi returns time values. */
function normalizeTime(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  const match = /^(\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?/.exec(String(value));
  if (!match) return String(value);
  const [, h, m, s = '00', fraction = ''] = match;
  return `${pad(Number(h))}:${m}:${s}.${fraction.padEnd(3, '0').slice(0, 3)}`;
}

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function toIsoString(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  const text = String(value);
  // Stored by Vellum in this exact form already (SQLite): nothing to convert.
  if (text.length === 24 && ISO_UTC.test(text)) return text;
  // MySQL DATETIME (UTC, no zone): `2024-01-02 03:04:05.678`
  const date = /[zZ]|[+-]\d{2}(:?\d{2})?$/.test(text) ? new Date(text) : new Date(`${text.replace(' ', 'T')}Z`);
  return Number.isNaN(date.getTime()) ? text : date.toISOString();
}

const parseJson = (value: unknown): unknown => {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
};

/** Encoding shared by all dialects; each dialect overrides what it must. */
export function encodeCommon(type: ColumnType, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (type) {
    case 'json':
      return JSON.stringify(value);
    case 'datetime':
      return value instanceof Date ? value.toISOString() : value;
    default:
      return value;
  }
}

export function decodeCommon(type: ColumnType, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (type) {
    case 'json':
      return parseJson(value);
    case 'boolean':
      return value === true || value === 1 || value === '1' || value === 't';
    case 'integer':
    case 'id':
    case 'float':
    case 'decimal':
      return typeof value === 'number' ? value : Number(value);
    case 'bigint':
      return String(value);
    case 'time':
      return normalizeTime(value);
    case 'datetime':
      return toIsoString(value);
    case 'date':
      return value instanceof Date
        ? `${value.getFullYear()}-${pad(value.getMonth() + 1)}-${pad(value.getDate())}`
        : String(value).slice(0, 10);
    default:
      return value;
  }
}

/** Driver errors carry their code in different properties; this reads the common ones. */
export const errorFields = (
  error: unknown,
): { code?: string; errno?: number; message: string; constraint?: string; table?: string } =>
  error && typeof error === 'object'
    ? (error as { code?: string; errno?: number; message: string; constraint?: string; table?: string })
    : { message: String(error) };

/**
 * The row condition of a unique index, as Strapi checks uniqueness: published versions only (drafts
 * may share values), and neither null nor empty text (Strapi lets any number of documents leave a
 * unique text empty).
 */
export function uniqueCondition(spec: UniqueSpec, quote: (name: string) => string): string {
  const column = quote(spec.column);
  const empty = spec.type === 'string' || spec.type === 'text' ? ` and ${column} <> ''` : '';
  return `${quote('published_at')} is not null and ${column} is not null${empty}`;
}

/**
 * A statement the database stopped at `settings.statementTimeout`: a 503 naming the limit (the
 * request may succeed when the database is less loaded, or narrowed). Inside a write transaction
 * the transaction is rolled back with it: nothing was written.
 */
export function statementTimeoutError(limit: number): ServiceUnavailableError {
  return new ServiceUnavailableError(
    `A database statement ran longer than ${limit} ms and was stopped; nothing was written. Narrow the request (filters, populate, page size), or raise the limit`,
    { limit, setting: 'config/database settings.statementTimeout' },
  );
}
