import { sql } from 'kysely';
import type { Db, Dialect } from '../../database/dialect.js';

/** Inserts one row and returns its id, on every dialect (MySQL has no RETURNING). */
export async function insertReturningId(db: Db, dialect: Dialect, table: string, values: Record<string, unknown>): Promise<number> {
  // A row with no values (a component whose only attribute is media) needs each dialect's syntax.
  if (Object.keys(values).length === 0) {
    if (dialect.client === 'mysql') {
      const result = await sql`insert into ${sql.table(table)} () values ()`.execute(db);
      return Number(result.insertId);
    }
    const result = await sql<{ id: number }>`insert into ${sql.table(table)} default values returning id`.execute(db);
    return Number(result.rows[0]!.id);
  }
  if (dialect.client === 'mysql') {
    const result = await db.insertInto(table).values(values).executeTakeFirstOrThrow();
    return Number(result.insertId);
  }
  const row = await db.insertInto(table).values(values).returning('id').executeTakeFirstOrThrow();
  return Number(row.id);
}

/** Multi-row insert in chunks that stay below every dialect's bound-parameter limit. */
export async function insertMany(db: Db, table: string, rows: Record<string, unknown>[]): Promise<void> {
  if (rows.length === 0) return;
  const width = Object.keys(rows[0]!).length || 1;
  const chunk = Math.max(1, Math.floor(30000 / width));
  for (let i = 0; i < rows.length; i += chunk) await db.insertInto(table).values(rows.slice(i, i + chunk)).execute();
}
