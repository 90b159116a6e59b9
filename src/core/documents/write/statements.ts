/**
 * The statements the write path runs most, by table and row ids, each compiled once per shape
 * (core/database/shapes.ts): table, columns and how many ids.
 */
import { definedColumns, type Db } from '../../database/dialect.js';
import { runShape, shapeKey } from '../../database/shapes.js';

/** Every column of the rows of `table` with these ids (in no order). */
export async function rowsById(db: Db, table: string, ids: readonly number[]): Promise<Record<string, unknown>[]> {
  if (ids.length === 0) return [];
  const { rows } = await runShape(db, shapeKey('rows by id', table, ids.length), ids, (slots) =>
    db.selectFrom(table).selectAll().where('id', 'in', slots),
  );
  return rows;
}

/** Sets columns of one row (the values' defined keys; nothing when there are none). */
export async function updateById(db: Db, table: string, values: Record<string, unknown>, id: number): Promise<void> {
  const columns = definedColumns(values);
  if (columns.length === 0) return;
  await runShape(
    db,
    shapeKey('update by id', table, ...columns),
    [...columns.map((column) => values[column]), id],
    (slots) =>
      db
        .updateTable(table)
        .set(Object.fromEntries(columns.map((column, i) => [column, slots[i]])))
        .where('id', '=', slots[columns.length]),
  );
}

/** Deletes the rows of `table` whose `column` holds one of `values`. */
export async function deleteWhereIn(
  db: Db,
  table: string,
  column: string,
  values: readonly (number | string)[],
): Promise<void> {
  if (values.length === 0) return;
  await runShape(db, shapeKey('delete where in', table, column, values.length), values, (slots) =>
    db.deleteFrom(table).where(column, 'in', slots),
  );
}
