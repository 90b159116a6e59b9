/**
 * The query engine's writes: one row at a time (or a set of rows by id), without the document
 * rules of the facade (no draft/published pairing, no required attributes, no uid generation), as
 * Strapi's `strapi.db.query(uid).create/update/delete` write a row. Values are still checked and
 * converted by the body validator (a wrong type is a 400 naming the attribute), relations,
 * components and media are written by the documents' writers, and the row's system values
 * (`documentId`, `locale`, `publishedAt`, `createdAt`, `updatedAt`) may be given.
 */
import type { Db } from '../../database/dialect.js';
import { lockDocuments } from '../../database/locks.js';
import { ValidationError } from '../../errors.js';
import { isPlainObject } from '../../objects.js';
import type { ContentType } from '../../schema/model.js';
import type { DocumentContext } from '../context.js';
import { createDocumentId } from '../document-id.js';
import { ROW_KEYS } from '../rows.js';
import { validateInput, type ModelInput } from '../input.js';
import type { DeletedEntry } from '../deletion-port.js';
import { deleteVersionRows, writersFor } from '../operations/versions-store.js';
import { entriesWithoutRows } from '../write/entries-left.js';
import { checkMediaReferences } from '../write/media.js';
import { encodeScalars } from '../write/scalars.js';

/** A bcrypt hash: stored as given (code that hashed a password, as the users-permissions service does, stores it once). */
const BCRYPT = /^\$2[aby]\$\d{2}\$[./A-Za-z0-9]{53}$/;

type Data = Record<string, unknown>;

export interface PreparedRow {
  input: ModelInput;
  values: Data;
  system: Data;
}

/** `data` of a query-engine write: an object, or a 400. */
export function dataObject(data: unknown, what: string): Data {
  if (!isPlainObject(data)) throw new ValidationError(`${what} expects a data object`, { key: 'data' });
  return data;
}

/** A datetime a write sets (`publishedAt`, ...): a Date, ISO text or milliseconds; null stays null. */
function datetime(ctx: DocumentContext, value: unknown, key: string): unknown {
  if (value === null) return null;
  const date =
    value instanceof Date
      ? value
      : typeof value === 'string' || typeof value === 'number'
        ? new Date(value)
        : undefined;
  if (!date || Number.isNaN(date.getTime())) throw new ValidationError(`${key} must be a date`, { key });
  return ctx.database.dialect.encode('datetime', date);
}

/**
 * Validates and encodes the attributes of `data` (outside a transaction: bcrypt is slow) and
 * separates the system values. `scalarsOnly` (updateMany, createMany): relations, components and
 * media are refused, as Strapi writes none there.
 */
export async function prepareRow(
  ctx: DocumentContext,
  db: Db,
  type: ContentType,
  data: Data,
  mode: 'create' | 'update',
  scalarsOnly = false,
): Promise<PreparedRow> {
  const body: Data = {};
  const system: Data = {};
  for (const [key, value] of Object.entries(data)) (ROW_KEYS.has(key) ? system : body)[key] = value;
  if (scalarsOnly) {
    for (const key of Object.keys(body)) {
      const attribute = type.attributes[key];
      if (attribute && attribute.kind !== 'scalar')
        throw new ValidationError(`${key} is a ${attribute.kind}: a write of many rows sets scalar attributes only`, {
          key,
        });
    }
  }
  const { input, errors, media } = validateInput(ctx.schema, type, body, mode, { draft: true });
  errors.push(...(await checkMediaReferences(db, media)));
  if (errors.length) throw ValidationError.fromFieldErrors(errors);
  const stored = new Map<string, string>();
  for (const attribute of type.scalars) {
    const value = body[attribute.name];
    if (attribute.type === 'password' && typeof value === 'string' && BCRYPT.test(value)) stored.set(value, value);
  }
  const values = await encodeScalars(ctx.database.dialect, type, input, mode, ctx.passwords, stored);
  return { input, values, system };
}

function systemColumns(ctx: DocumentContext, type: ContentType, system: Data): Data {
  const columns: Data = {};
  if ('documentId' in system) {
    if (typeof system.documentId !== 'string' || system.documentId === '')
      throw new ValidationError('documentId must be a non-empty text', { key: 'documentId' });
    columns.document_id = system.documentId;
  }
  if ('locale' in system && type.localized) {
    if (typeof system.locale !== 'string' || !ctx.i18n.locales.includes(system.locale))
      throw new ValidationError(`Unknown locale ${JSON.stringify(system.locale)}`, { key: 'locale' });
    columns.locale = system.locale;
  }
  if ('publishedAt' in system) columns.published_at = datetime(ctx, system.publishedAt, 'publishedAt');
  if ('createdAt' in system) columns.created_at = datetime(ctx, system.createdAt, 'createdAt');
  if ('updatedAt' in system) columns.updated_at = datetime(ctx, system.updatedAt, 'updatedAt');
  return columns;
}

/**
 * Inserts one row: published (`publishedAt` now) unless `publishedAt` is given, as Strapi's query
 * engine defaults it, also on types with draft and publish; a localized type gets the default
 * locale unless `locale` is given (Strapi leaves it null, which no document read finds).
 */
export async function insertRow(ctx: DocumentContext, db: Db, type: ContentType, row: PreparedRow): Promise<number> {
  const { dialect } = ctx.database;
  const now = dialect.encode('datetime', new Date());
  const columns = {
    document_id: createDocumentId(),
    locale: type.localized ? ctx.i18n.defaultLocale : null,
    created_at: now,
    updated_at: now,
    published_at: now,
    ...systemColumns(ctx, type, row.system),
  };
  const id = await dialect.insertReturningId(db, type.table, { ...row.values, ...columns });
  const writers = writersFor(ctx, db);
  await writers.components.writeNested(
    type,
    { id, documentId: String(columns.document_id), locale: columns.locale as string | null },
    row.input,
    'create',
  );
  return id;
}

/** Updates one row (its `updatedAt` too, unless given). */
export async function updateRow(
  ctx: DocumentContext,
  db: Db,
  type: ContentType,
  id: number,
  row: PreparedRow,
): Promise<void> {
  const { dialect } = ctx.database;
  const current = await db
    .selectFrom(type.table)
    .select(['document_id', 'locale'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!current) return;
  await lockDocuments(db, dialect, type.table, [String(current.document_id)]);
  const values: Data = {
    ...row.values,
    updated_at: dialect.encode('datetime', new Date()),
    ...systemColumns(ctx, type, row.system),
  };
  await db.updateTable(type.table).set(values).where('id', '=', id).execute();
  const writers = writersFor(ctx, db);
  await writers.components.writeNested(
    type,
    {
      id,
      documentId: String(values.document_id ?? current.document_id),
      locale: (values.locale ?? current.locale) as string | null,
    },
    row.input,
    'update',
    'refuse',
  );
}

/** Sets scalar values on rows by id; answers how many. */
export async function updateRows(
  ctx: DocumentContext,
  db: Db,
  type: ContentType,
  ids: number[],
  row: PreparedRow,
): Promise<number> {
  if (ids.length === 0) return 0;
  const values = {
    ...row.values,
    updated_at: ctx.database.dialect.encode('datetime', new Date()),
    ...systemColumns(ctx, type, row.system),
  };
  await db.updateTable(type.table).set(values).where('id', 'in', ids).execute();
  return ids.length;
}

/**
 * Deletes rows with their components and the links they own; an entry left without a row (a
 * document, in that locale) is also removed from the relations that point to it. Answers how many
 * rows went, and those entries.
 */
export async function deleteRows(
  ctx: DocumentContext,
  db: Db,
  type: ContentType,
  ids: number[],
): Promise<{ count: number; gone: DeletedEntry[] }> {
  if (ids.length === 0) return { count: 0, gone: [] };
  const rows = await db.selectFrom(type.table).select(['id', 'document_id', 'locale']).where('id', 'in', ids).execute();
  if (rows.length === 0) return { count: 0, gone: [] };
  const documentIds = [...new Set(rows.map((row) => String(row.document_id)))];
  await lockDocuments(db, ctx.database.dialect, type.table, documentIds);
  const writers = writersFor(ctx, db);
  await deleteVersionRows(
    writers,
    type,
    rows.map((row) => Number(row.id)),
  );
  const gone = await entriesWithoutRows(db, type, rows);
  for (const entry of gone) await writers.relations.deleteTargeting(type, entry.documentId, entry.locale);
  return { count: rows.length, gone };
}
