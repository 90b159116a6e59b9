import { definedColumns, type Db } from '../../database/dialect.js';
import { runShape, shapeKey } from '../../database/shapes.js';

/** Whether every row writes exactly `columns` (Kysely writes DEFAULT where a row lacks one). */
const sameColumns = (rows: Record<string, unknown>[], columns: string[]): boolean =>
  rows.every((row) => {
    let count = 0;
    for (const column in row) if (row[column] !== undefined) count += 1;
    return count === columns.length && columns.every((column) => row[column] !== undefined);
  });

/**
 * Multi-row insert in chunks that stay below every dialect's bound-parameter limit. Rows with the
 * same columns (every caller's) are compiled once per table, columns and number of rows.
 */
export async function insertMany(db: Db, table: string, rows: Record<string, unknown>[]): Promise<void> {
  if (rows.length === 0) return;
  const columns = definedColumns(rows[0]!);
  const chunk = Math.max(1, Math.floor(30000 / (columns.length || 1)));
  const shaped = columns.length > 0 && sameColumns(rows, columns);
  for (let i = 0; i < rows.length; i += chunk) {
    const part = rows.slice(i, i + chunk);
    if (!shaped) {
      await db.insertInto(table).values(part).execute();
      continue;
    }
    await runShape(
      db,
      shapeKey('insert rows', table, part.length, ...columns),
      part.flatMap((row) => columns.map((column) => row[column])),
      (slots) =>
        db
          .insertInto(table)
          .values(part.map((_, r) => Object.fromEntries(columns.map((c, k) => [c, slots[r * columns.length + k]])))),
    );
  }
}
