import type { Db } from '../../database/dialect.js';

/** Multi-row insert in chunks that stay below every dialect's bound-parameter limit. */
export async function insertMany(db: Db, table: string, rows: Record<string, unknown>[]): Promise<void> {
  if (rows.length === 0) return;
  const width = Object.keys(rows[0]!).length || 1;
  const chunk = Math.max(1, Math.floor(30000 / width));
  for (let i = 0; i < rows.length; i += chunk)
    await db
      .insertInto(table)
      .values(rows.slice(i, i + chunk))
      .execute();
}
