/**
 * Change counters: what the response cache asks the database before answering from memory.
 *
 * `vellum_changes` holds one counter per change group (a content-type's or a component's table,
 * `TableSpec.changeGroup`). Triggers on every table of a group (the model's rows, its component
 * links, the relation links it owns; media links for the file type) bump the group's counter in
 * the writing statement's transaction, whoever writes: this node, another node, project code, the
 * CLI, plain SQL. A counter is a row updated in place, so it becomes visible with the commit that
 * moved it, never before (MariaDB's log sequence number, by contrast, moves before a commit is
 * visible); two reads of the same counters saw the same committed rows of those groups.
 *
 * The counters are read in one statement (`readChangeVersions`); an answer remembers the counters
 * of the groups it read, and stays valid while they have not moved.
 */
import { CompiledQuery } from 'kysely';
import { INLINE, type Db, type Dialect } from './dialect.js';
import { CHANGES_TABLE, META_TABLE, type TableSpec } from './tables.js';

/** The triggers installed so far (table -> group), in `vellum_meta`: start-up creates only new ones. */
const TRIGGERS_KEY = 'change_triggers';

/** Counter values by group, as one statement read them. */
export type ChangeVersions = ReadonlyMap<string, number>;

/**
 * Creates the counters and triggers the plan's groups need and the database lacks; runs under the
 * schema lock, after the tables exist. `created`: tables this start created (a table dropped by
 * `vellum db prune` and created again has lost its triggers, whatever the record says).
 */
export async function synchronizeChangeTriggers(
  db: Db,
  dialect: Dialect,
  plan: TableSpec[],
  created: ReadonlySet<string>,
): Promise<void> {
  const watched = plan.filter((table) => table.changeGroup !== undefined);
  const groups = new Set(watched.map((table) => table.changeGroup!));
  const have = new Set((await db.selectFrom(CHANGES_TABLE).select('name').execute()).map((row) => row.name as string));
  const missing = [...groups].filter((group) => !have.has(group));
  if (missing.length)
    await db
      .insertInto(CHANGES_TABLE)
      .values(missing.map((name) => ({ name, version: 0 })))
      .execute();
  const row = await db.selectFrom(META_TABLE).select('value').where('name', '=', TRIGGERS_KEY).executeTakeFirst();
  const installed = (row?.value ? JSON.parse(row.value as string) : {}) as Record<string, string>;
  const todo = watched.filter((table) => installed[table.name] !== table.changeGroup || created.has(table.name));
  if (todo.length === 0) return;
  for (const table of todo) {
    await dialect.installChangeTriggers(db, table.name, table.changeGroup!, created.has(table.name));
    installed[table.name] = table.changeGroup!;
  }
  const value = JSON.stringify(installed);
  if (row) await db.updateTable(META_TABLE).set({ value }).where('name', '=', TRIGGERS_KEY).execute();
  else await db.insertInto(META_TABLE).values({ name: TRIGGERS_KEY, value }).execute();
}

/** Plain names, valid unquoted on every dialect: compiled once. */
const READ_VERSIONS = CompiledQuery.raw(`${INLINE}select name, version from ${CHANGES_TABLE}`);

/** Every counter, in one statement (the table holds one short row per content-type and component). */
export async function readChangeVersions(db: Db): Promise<ChangeVersions> {
  const { rows } = await db.executeQuery<{ name: string; version: number | string }>(READ_VERSIONS);
  const versions = new Map<string, number>();
  for (const row of rows) versions.set(row.name, Number(row.version));
  return versions;
}
