/**
 * Settings shared by every node, kept in `vellum_meta`: the generated secrets. (The switches an
 * administrator changes at run time are Strapi's advanced settings, in the core store: advanced.ts.)
 */
import { randomBytes } from 'node:crypto';
import { META_TABLE } from '../../core/database/tables.js';
import type { SystemDb } from '../../core/database/system-tables.js';

const PREFIX = 'auth.';

async function readSetting(db: SystemDb, name: string): Promise<string | undefined> {
  const row = await db
    .selectFrom(META_TABLE)
    .select('value')
    .where('name', '=', PREFIX + name)
    .executeTakeFirst();
  return row?.value ?? undefined;
}

async function writeSetting(db: SystemDb, name: string, value: string): Promise<void> {
  const updated = await db
    .updateTable(META_TABLE)
    .set({ value })
    .where('name', '=', PREFIX + name)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0)
    await db
      .insertInto(META_TABLE)
      .values({ name: PREFIX + name, value })
      .execute();
}

/** A setting's value, or `initial` stored as its value the first time (call under the schema lock). */
export async function ensureSetting(db: SystemDb, name: string, initial: () => string): Promise<string> {
  const existing = await readSetting(db, name);
  if (existing !== undefined) return existing;
  const value = initial();
  await writeSetting(db, name, value);
  return value;
}

export const randomSecret = (): string => randomBytes(32).toString('base64url');
