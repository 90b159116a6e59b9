import { CompiledQuery, sql } from 'kysely';
import { ProjectError } from '../errors.js';
import type { Schema } from '../schema/model.js';
import type { Database } from './connection.js';
import type { ColumnSpec, TableSpec, UniqueSpec } from './tables.js';
import { META_TABLE, planTables, uniqueSignature } from './tables.js';
import { synchronizeChangeTriggers } from './changes.js';
import { indexName } from '../schema/naming.js';
import type { ColumnType, Db, Dialect } from './dialect.js';
import type { SystemDb } from './system-tables.js';
import { readMeta, writeMeta } from './meta.js';

/** Column types per table as last applied, stored in the database so every node sees the same. */
type Snapshot = Record<string, Record<string, ColumnType>>;

const SNAPSHOT_KEY = 'schema_snapshot';
/** The unique indexes created so far (name -> spec): what to drop when an attribute stops being unique. */
const UNIQUES_KEY = 'unique_indexes';
type UniquesSnapshot = Record<string, UniqueSpec>;

export interface SyncReport {
  createdTables: string[];
  addedColumns: string[];
  /** Columns and tables that the schema no longer names; kept until `vellum db prune`. */
  orphaned: string[];
  /** Problems that did not stop start-up but need the operator (duplicates under a unique attribute). */
  warnings: string[];
  /** What `beforeUniques` moved (entries given a locale or deleted when a type's i18n changed), one line each. */
  moved: string[];
}

/** Work of the layers above, run inside the synchronisation. */
export interface SyncSteps {
  /**
   * Under the schema lock, once every table, column and index exists and before the unique indexes
   * follow the schema (a type no longer localized has one unique scope fewer: its rows are moved
   * first, so its index is built over what is left): the rows a schema change moves
   * (core/documents/localization-moves.ts). Answers what it moved and what it refused to, as lines.
   */
  beforeUniques?: (db: Db) => Promise<{ moved: string[]; warnings: string[] }>;
}

/** Type changes that keep every stored value readable. */
const SAFE_WIDENINGS = new Set([
  'string>text',
  'integer>bigint',
  'integer>float',
  'string>json',
  'text>json',
  'json>text',
]);

async function readSnapshot<T = Snapshot>(db: SystemDb, hasMeta: boolean, key = SNAPSHOT_KEY): Promise<T> {
  return (hasMeta ? await readMeta<T>(db, key) : undefined) ?? ({} as T);
}

const writeSnapshot = (db: SystemDb, snapshot: object, key = SNAPSHOT_KEY): Promise<void> =>
  writeMeta(db, key, snapshot);

/** Values that more than one published version holds in one scope: they keep a unique index from being created. */
async function duplicatesUnder(db: Db, spec: UniqueSpec): Promise<string[]> {
  let query = db
    .selectFrom(spec.table)
    .select([sql.ref(spec.column).as('value'), sql<number>`count(*)`.as('n')])
    .where('published_at', 'is not', null)
    .where(spec.column, 'is not', null);
  if (spec.type === 'string' || spec.type === 'text') query = query.where(spec.column, '<>', '');
  if (spec.localized) query = query.select('locale').groupBy([spec.column, 'locale']);
  else query = query.groupBy(spec.column);
  const rows = await query
    .having(sql`count(*)`, '>', 1)
    .limit(5)
    .execute();
  return (rows as { value: unknown; n: number; locale?: unknown }[]).map((row) => {
    const text = String(row.value);
    const shown = JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}...` : text);
    return `${shown}${spec.localized ? ` (${String(row.locale)})` : ''} x${Number(row.n)}`;
  });
}

/**
 * Unique attributes become unique indexes, on new and existing databases alike. An index whose
 * values are already duplicated is not created: start-up goes on (the write-time checks still
 * refuse new duplicates), and the report says which values to resolve; the next start creates it.
 */
async function synchronizeUniques(
  database: Database,
  db: Db,
  plan: TableSpec[],
  hasMeta: boolean,
  report: SyncReport,
): Promise<void> {
  const { dialect } = database;
  const recorded = await readSnapshot<UniquesSnapshot>(db, hasMeta, UNIQUES_KEY);
  const planned = new Map(plan.flatMap((table) => table.uniques ?? []).map((spec) => [spec.name, spec]));
  const next: UniquesSnapshot = {};
  for (const [name, spec] of Object.entries(recorded)) {
    const wanted = planned.get(name);
    if (wanted && uniqueSignature(wanted) === uniqueSignature(spec)) next[name] = spec;
    else await dialect.dropUniqueIndex(db, spec);
  }
  for (const spec of planned.values()) {
    if (!next[spec.name]) {
      const duplicates = await duplicatesUnder(db, spec);
      if (duplicates.length) {
        report.warnings.push(
          `${spec.table}.${spec.column} (unique attribute "${spec.attribute}") is not unique in the database yet: ` +
            `published documents share ${duplicates.join(', ')}. Give them distinct values; ` +
            'the unique index is created at the next start.',
        );
        continue;
      }
      await dialect.createUniqueIndex(db, spec);
      next[spec.name] = spec;
    }
    database.uniqueIndexes.register(spec.name, {
      table: spec.table,
      columns: [spec.column, ...(spec.localized ? ['locale'] : [])],
      path: [spec.attribute],
    });
  }
  for (const table of plan) {
    for (const index of table.indexes) {
      if (index.unique)
        database.uniqueIndexes.register(index.name, {
          table: table.name,
          columns: index.columns,
          path: [index.columns.at(-1)!],
        });
    }
  }
  await writeSnapshot(db, next, UNIQUES_KEY);
}

function columnDefinition(column: ColumnSpec) {
  return (builder: { notNull(): unknown }) => (column.notNull && column.type !== 'id' ? builder.notNull() : builder);
}

async function createTable(db: Db, dialect: Dialect, table: TableSpec): Promise<void> {
  let builder = db.schema.createTable(table.name).ifNotExists();
  for (const column of table.columns) {
    builder = builder.addColumn(column.name, dialect.columnType(column.type), columnDefinition(column) as never);
  }
  const options = dialect.tableOptions();
  if (!dialect.indexesInCreateTable || table.indexes.length === 0) {
    if (options) builder = builder.modifyEnd(options);
    await builder.execute();
    return;
  }
  // The indexes inside the one statement (Kysely's builder declares no plain index): on MariaDB a
  // DDL statement commits and costs 10-20 ms, and a fresh blog database took 1,150 of them, 447
  // CREATE INDEX (measured from its general log; start-up 14-21 s on this 2-core machine under load).
  const compiled = builder.compile();
  const quote = (name: string) => dialect.quoteId(name);
  const indexes = table.indexes.map(
    (index) => `${index.unique ? 'unique ' : ''}index ${quote(index.name)} (${index.columns.map(quote).join(', ')})`,
  );
  const text = `${compiled.sql.replace(/\)$/, `, ${indexes.join(', ')})`)}${options ? ` ${options.compile(db).sql}` : ''}`;
  await db.executeQuery(CompiledQuery.raw(text, [...compiled.parameters]));
}

function checkTypeChanges(plan: TableSpec[], snapshot: Snapshot): void {
  const problems: string[] = [];
  for (const table of plan) {
    const before = snapshot[table.name];
    if (!before) continue;
    for (const column of table.columns) {
      const previous = before[column.name];
      if (previous && previous !== column.type && !SAFE_WIDENINGS.has(`${previous}>${column.type}`)) {
        problems.push(
          `${table.name}.${column.name} is stored as ${previous} and the schema now asks for ${column.type}`,
        );
      }
    }
  }
  if (problems.length) {
    throw new ProjectError(
      `the schema changes column types in a way that cannot be applied safely:\n  - ${problems.join('\n  - ')}\n` +
        'Rename the attribute (the old column is kept) or migrate the data by hand, then start again.',
    );
  }
}

/**
 * Whether the database can follow a schema, without changing anything: the check
 * `synchronizeSchema` makes first (a column's type changed in a way that would lose data). The
 * Content-Type Builder asks before it writes a schema that the next start would refuse.
 */
export async function checkSchemaChange(
  database: Database,
  schema: Schema,
  systemTables: TableSpec[] = [],
): Promise<void> {
  const existing = await database.dialect.listColumns(database.db);
  const snapshot = await readSnapshot(database.db, existing.has(META_TABLE));
  checkTypeChanges(planTables(schema, systemTables), snapshot);
}

/**
 * Brings the database up to the schema: creates missing tables, columns and indexes, under a lock
 * so that nodes starting together do not race. Drops no table or column; drops only the indexes a
 * table's plan lists as superseded (TableSpec.superseded).
 */
export async function synchronizeSchema(
  database: Database,
  schema: Schema,
  systemTables: TableSpec[] = [],
  steps: SyncSteps = {},
): Promise<SyncReport> {
  const { dialect } = database;
  const plan = planTables(schema, systemTables);
  const report: SyncReport = { createdTables: [], addedColumns: [], orphaned: [], warnings: [], moved: [] };
  await dialect.prepareNamespace(database.db);
  await dialect.withSchemaLock(database.db, async (db) => {
    const existing = await dialect.listColumns(db);
    const indexes = await dialect.listIndexes(db);
    const snapshot = await readSnapshot(db, existing.has(META_TABLE));
    checkTypeChanges(plan, snapshot);
    for (const table of plan) {
      const columns = existing.get(table.name);
      if (!columns) {
        await createTable(db, dialect, table);
        report.createdTables.push(table.name);
      } else {
        for (const column of table.columns) {
          if (columns.has(column.name)) continue;
          const type = column.type === 'id' ? 'integer' : column.type;
          await db.schema.alterTable(table.name).addColumn(column.name, dialect.columnType(type)).execute();
          report.addedColumns.push(`${table.name}.${column.name}`);
        }
        const wanted = new Set([
          ...table.columns.map((c) => c.name),
          ...(table.uniques ?? []).flatMap((spec) => dialect.uniqueHelperColumns(spec)),
        ]);
        for (const name of columns) if (!wanted.has(name)) report.orphaned.push(`${table.name}.${name}`);
      }
      // A table created just now on MySQL has them already (createTable); existing ones are skipped.
      const created = dialect.indexesInCreateTable && report.createdTables.includes(table.name);
      for (const index of created ? [] : table.indexes) {
        if (indexes.has(`${table.name}.${index.name}`)) continue;
        const create = db.schema.createIndex(index.name).ifNotExists().on(table.name).columns(index.columns);
        await (index.unique ? create.unique() : create).execute();
      }
      for (const name of table.superseded ?? [])
        if (indexes.has(`${table.name}.${name}`)) await dialect.dropIndex(db, table.name, name);
    }
    const planned = new Set(plan.map((t) => t.name));
    for (const name of Object.keys(snapshot)) if (!planned.has(name) && existing.has(name)) report.orphaned.push(name);
    const next: Snapshot = { ...snapshot };
    for (const table of plan) {
      next[table.name] = { ...next[table.name], ...Object.fromEntries(table.columns.map((c) => [c.name, c.type])) };
    }
    await writeSnapshot(db, next);
    if (steps.beforeUniques) {
      const { moved, warnings } = await steps.beforeUniques(db);
      report.moved.push(...moved);
      report.warnings.push(...warnings);
    }
    await synchronizeUniques(database, db, plan, existing.has(META_TABLE), report);
    await synchronizeChangeTriggers(db, dialect, plan, new Set(report.createdTables));
  });
  await dialect.refreshPlannerStatistics(database.db);
  return report;
}

/** `vellum db prune`: drops the tables and columns that Vellum created and the schema no longer names. */
export async function pruneSchema(
  database: Database,
  schema: Schema,
  systemTables: TableSpec[] = [],
): Promise<string[]> {
  const { dialect } = database;
  const plan = new Map(planTables(schema, systemTables).map((t) => [t.name, new Set(t.columns.map((c) => c.name))]));
  const dropped: string[] = [];
  await dialect.withSchemaLock(database.db, async (db) => {
    const existing = await dialect.listColumns(db);
    const snapshot = await readSnapshot(db, existing.has(META_TABLE));
    for (const [table, columns] of Object.entries(snapshot)) {
      const wanted = plan.get(table);
      if (!existing.has(table)) continue;
      if (!wanted) {
        await db.schema.dropTable(table).execute();
        dropped.push(table);
        delete snapshot[table];
        continue;
      }
      for (const column of Object.keys(columns)) {
        if (wanted.has(column) || !existing.get(table)!.has(column)) continue;
        // The column's own index goes first (SQLite refuses to drop an indexed column).
        await dialect.dropIndex(db, table, indexName(table, [column]));
        await db.schema.alterTable(table).dropColumn(column).execute();
        dropped.push(`${table}.${column}`);
        delete columns[column];
      }
    }
    await writeSnapshot(db, snapshot);
  });
  return dropped;
}
