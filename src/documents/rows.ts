import { sql, type RawBuilder } from 'kysely';
import type { Dialect } from '../database/dialect.js';
import { columnTypeOf } from '../database/tables.js';
import { isHidden, type ContentType, type Model, type ScalarAttribute } from '../schema/model.js';

export type Row = Record<string, unknown>;
export type Document = Record<string, unknown>;

/** Scalar attributes a response shows: all but hidden ones, or the selected ones. */
export function visibleScalars(model: Model, fields?: string[]): ScalarAttribute[] {
  const all = model.scalars.filter((a) => !isHidden(a));
  if (!fields) return all;
  const wanted = new Set(fields);
  return all.filter((a) => wanted.has(a.name));
}

const SYSTEM_SELECT = ['id', 'document_id', 'locale', 'published_at', 'created_at', 'updated_at'];

/** The select list for a model's rows: system columns, then the scalar columns the response needs. */
export function selectList(
  dialect: Dialect,
  model: Model,
  alias: string,
  scalars: ScalarAttribute[],
  extra: string[] = [],
): RawBuilder<unknown>[] {
  const system = model.modelType === 'contentType' ? SYSTEM_SELECT : ['id'];
  const list: RawBuilder<unknown>[] = system.map((column) => sql`${sql.ref(`${alias}.${column}`)}`);
  for (const attribute of scalars) {
    const type = columnTypeOf(attribute.type);
    const special = dialect.selectColumn(alias, attribute.column, type);
    list.push(special ? sql`${special} as ${sql.id(attribute.column)}` : sql`${sql.ref(`${alias}.${attribute.column}`)}`);
  }
  for (const column of extra) list.push(sql`${sql.ref(column)}`);
  return list;
}

/**
 * A content-type row as the current REST format shows it (without populated attributes). With a
 * field selection, the system fields other than `id` and `documentId` come back only when selected.
 */
export function decodeDocument(dialect: Dialect, type: ContentType, row: Row, scalars: ScalarAttribute[], fields?: string[]): Document {
  const document: Document = { id: Number(row.id), documentId: row.document_id };
  for (const attribute of scalars) {
    document[attribute.name] = dialect.decode(columnTypeOf(attribute.type), row[attribute.column]);
  }
  const wanted = (name: string) => !fields || fields.includes(name);
  if (wanted('createdAt')) document.createdAt = dialect.decode('datetime', row.created_at);
  if (wanted('updatedAt')) document.updatedAt = dialect.decode('datetime', row.updated_at);
  if (wanted('publishedAt')) document.publishedAt = dialect.decode('datetime', row.published_at);
  if (type.localized && wanted('locale')) document.locale = row.locale;
  return document;
}

/** A component row: `id` plus its scalar fields. */
export function decodeComponent(dialect: Dialect, scalars: ScalarAttribute[], row: Row): Document {
  const value: Document = { id: Number(row.id) };
  for (const attribute of scalars) value[attribute.name] = dialect.decode(columnTypeOf(attribute.type), row[attribute.column]);
  return value;
}
