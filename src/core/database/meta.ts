/**
 * `vellum_meta`'s JSON values by name: what the database remembers of the schema it was last
 * synchronised with (column types, unique indexes, which types were localized), so that every node
 * and the next start read the same.
 */
import type { SystemDb } from './system-tables.js';
import { META_TABLE } from './tables.js';

/** The value stored under `name`, or undefined when none is (a database older than the name). */
export async function readMeta<T>(db: SystemDb, name: string): Promise<T | undefined> {
  const row = await db.selectFrom(META_TABLE).select('value').where('name', '=', name).executeTakeFirst();
  return row?.value ? (JSON.parse(row.value) as T) : undefined;
}

export async function writeMeta(db: SystemDb, name: string, value: object): Promise<void> {
  const text = JSON.stringify(value);
  const updated = await db.updateTable(META_TABLE).set({ value: text }).where('name', '=', name).executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) await db.insertInto(META_TABLE).values({ name, value: text }).execute();
}
