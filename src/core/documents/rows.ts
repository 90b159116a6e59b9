import { sql, type RawBuilder } from 'kysely';
import type { Dialect } from '../database/dialect.js';
import { columnTypeOf } from '../database/tables.js';
import { isHidden, type ContentType, type Model, type ScalarAttribute } from '../schema/model.js';
import { RawJson } from './raw-json.js';
import { timestampText } from '../schema/temporal.js';

/**
 * A row read for a response: its values in select-list order (`selectList`, then what the caller
 * appended). Positions instead of names: no object per row from the driver.
 */
export type Row = unknown[];
export type Document = Record<string, unknown>;

/** A document's keys that are its row's own, not attributes (what a write or a lifecycle handler sets apart). */
export const ROW_KEYS: ReadonlySet<string> = new Set([
  'id',
  'documentId',
  'locale',
  'publishedAt',
  'createdAt',
  'updatedAt',
  'createdBy',
  'updatedBy',
]);

export { readRows } from '../database/dialect.js';

/**
 * Per-model memo of values that depend only on the schema and a few names (field selections,
 * select lists): requests of one shape rebuild nothing. Keys are bounded by what the schema
 * allows, so the maps stay small.
 */
const memo = new WeakMap<Model, Map<string, unknown>>();
function remember<T>(model: Model, key: string, make: () => T): T {
  let entries = memo.get(model);
  if (!entries) memo.set(model, (entries = new Map()));
  if (entries.has(key)) return entries.get(key) as T;
  const value = make();
  if (entries.size < 1000) entries.set(key, value);
  return value;
}

/** Scalar attributes a response shows: all but hidden ones, or the selected ones. */
export function visibleScalars(model: Model, fields?: string[]): ScalarAttribute[] {
  return remember(model, `scalars\u0000${fields ? fields.join('\u0000') : '*'}`, () => {
    const all = model.scalars.filter((a) => !isHidden(a));
    if (!fields) return all;
    const wanted = new Set(fields);
    return all.filter((a) => wanted.has(a.name));
  });
}

const SYSTEM_SELECT = ['id', 'document_id', 'locale', 'published_at', 'created_at', 'updated_at'];
/** Positions of the system columns in a content-type row. */
export const ID = 0;
export const DOCUMENT_ID = 1;
export const LOCALE = 2;
export const PUBLISHED_AT = 3;
const CREATED_AT = 4;
const UPDATED_AT = 5;

/** How many columns selectList puts in a row: what a caller appends comes after them. */
export const selectWidth = (model: Model, scalars: ScalarAttribute[]): number =>
  (model.modelType === 'contentType' ? SYSTEM_SELECT.length : 1) + scalars.length;

/**
 * The select list for a model's rows: system columns, then the scalar columns the response needs.
 * Names come from the schema, never from a request; the list is built once per model, alias and
 * selection, as one SQL fragment.
 */
export function selectList(
  dialect: Dialect,
  model: Model,
  alias: string,
  scalars: ScalarAttribute[],
): RawBuilder<unknown>[] {
  const key = `select\u0000${dialect.client}\u0000${alias}\u0000${scalars.map((a) => a.column).join('\u0000')}`;
  return remember(model, key, () => {
    const q = dialect.quoteId;
    const column = (name: string) => `${q(alias)}.${q(name)}`;
    const system = model.modelType === 'contentType' ? SYSTEM_SELECT : ['id'];
    const list = system.map(column);
    for (const attribute of scalars) {
      const special = dialect.selectColumn(column(attribute.column), columnTypeOf(attribute.type));
      list.push(special ? `${special} as ${q(attribute.column)}` : column(attribute.column));
    }
    return [sql.raw(list.join(', '))];
  });
}

/** A JSON text starts like one; anything else stored in a json column is decoded as before. */
const JSON_START = /^[\s]*[{["\d\-tfn]/;

/**
 * The value of a column; with `rawJson`, json and blocks columns stay text (see RawJson). A
 * `timestamp` is answered as Strapi answers it: milliseconds since 1970, as a string.
 */
function decodeColumn(dialect: Dialect, attribute: ScalarAttribute, value: unknown, rawJson: boolean): unknown {
  const type = columnTypeOf(attribute.type);
  if (rawJson && type === 'json' && typeof value === 'string' && JSON_START.test(value)) return new RawJson(value);
  if (attribute.type === 'timestamp') return timestampText(dialect.decode(type, value));
  return dialect.decode(type, value);
}

/**
 * A content-type row as the current REST format shows it (without populated attributes). With a
 * field selection, the system fields other than `id` and `documentId` come back only when selected.
 */
export function decodeDocument(
  dialect: Dialect,
  type: ContentType,
  row: Row,
  scalars: ScalarAttribute[],
  fields?: string[],
  rawJson = false,
): Document {
  const document: Document = { id: Number(row[ID]), documentId: row[DOCUMENT_ID] };
  const first = SYSTEM_SELECT.length;
  for (let i = 0; i < scalars.length; i++)
    document[scalars[i]!.name] = decodeColumn(dialect, scalars[i]!, row[first + i], rawJson);
  if (!fields || fields.includes('createdAt')) document.createdAt = dialect.decode('datetime', row[CREATED_AT]);
  if (!fields || fields.includes('updatedAt')) document.updatedAt = dialect.decode('datetime', row[UPDATED_AT]);
  if (!fields || fields.includes('publishedAt')) document.publishedAt = dialect.decode('datetime', row[PUBLISHED_AT]);
  if (type.localized && (!fields || fields.includes('locale'))) document.locale = row[LOCALE];
  return document;
}

/** Row id, documentId and locale of a content-type row, for populating below it. */
export const rowKeys = (row: Row): { rowId: number; documentId: string; locale: string | null } => ({
  rowId: Number(row[ID]),
  documentId: row[DOCUMENT_ID] as string,
  locale: row[LOCALE] as string | null,
});

/** A component row: `id` plus its scalar fields. */
export function decodeComponent(dialect: Dialect, scalars: ScalarAttribute[], row: Row, rawJson = false): Document {
  const value: Document = { id: Number(row[ID]) };
  for (let i = 0; i < scalars.length; i++)
    value[scalars[i]!.name] = decodeColumn(dialect, scalars[i]!, row[1 + i], rawJson);
  return value;
}
