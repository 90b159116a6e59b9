import { sql } from 'kysely';
import type { Db, Dialect } from '../../database/dialect.js';
import { runShape, shapeKey } from '../../database/shapes.js';
import { columnTypeOf } from '../../database/tables.js';
import { UNIQUE_MESSAGE } from '../../database/write.js';
import { ValidationError } from '../../errors.js';
import type { ContentType, Model, ScalarAttribute } from '../../schema/model.js';
import type { Passwords } from '../../passwords.js';
import type { ModelInput } from '../input.js';

const slugify = (text: string): string =>
  text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9._~]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 200);

/**
 * Hashes of the passwords a body sends at the top level (plain text -> hash), computed before a
 * write transaction starts: bcrypt takes tens of milliseconds, too long to hold a document's locks.
 */
export async function hashPasswords(
  passwords: Passwords,
  model: Model,
  data: Record<string, unknown>,
): Promise<Map<string, string>> {
  const hashes = new Map<string, string>();
  for (const attribute of model.scalars) {
    const value = data[attribute.name];
    if (attribute.type === 'password' && typeof value === 'string' && !hashes.has(value))
      hashes.set(value, await passwords.hash(value));
  }
  return hashes;
}

/** Column values for a model's scalars: validated input, defaults on create, hashed passwords. */
export async function encodeScalars(
  dialect: Dialect,
  model: Model,
  input: ModelInput,
  mode: 'create' | 'update',
  passwords: Passwords,
  /** Passwords hashed already (plain text -> hash), kept as they are. */
  hashed?: ReadonlyMap<string, string>,
): Promise<Record<string, unknown>> {
  const values: Record<string, unknown> = {};
  for (const [attribute, value] of input.scalars) {
    const plain =
      attribute.type === 'password' && typeof value === 'string'
        ? (hashed?.get(value) ?? (await passwords.hash(value)))
        : value;
    values[attribute.column] = dialect.encode(columnTypeOf(attribute.type), plain);
  }
  if (mode === 'create') {
    for (const attribute of model.scalars) {
      if (input.scalars.has(attribute) || attribute.default === undefined) continue;
      values[attribute.column] = dialect.encode(columnTypeOf(attribute.type), attribute.default);
    }
  }
  return values;
}

/**
 * Whether a published row of another document, in the same locale, holds the value. Drafts are
 * work in progress and hold no value exclusively (as in Strapi 5): uniqueness is checked when a
 * document is published. Types without draft and publish have only published rows.
 */
async function valueTaken(
  db: Db,
  type: ContentType,
  attribute: ScalarAttribute,
  value: unknown,
  documentId: string,
  locale: string | null,
): Promise<boolean> {
  const shared = type.localized && !attribute.localized;
  // Compiled once per shape (core/database/shapes.ts).
  const { rows } = await runShape(
    db,
    shapeKey('value taken', type.table, attribute.column, type.localized, shared),
    type.localized ? [value, documentId, locale] : [value, documentId],
    ([taken, document, inLocale]) => {
      let query = db
        .selectFrom(type.table)
        .select('id')
        .where(attribute.column, '=', taken)
        .where('document_id', '!=', document)
        .where('published_at', 'is not', null)
        .limit(1);
      if (shared) {
        // A shared value is copied to the document's other locales: it must be free in each of them.
        query = query.where((eb) =>
          eb.or([
            eb('locale', '=', inLocale),
            eb('locale', 'in', eb.selectFrom(type.table).select('locale').where('document_id', '=', document)),
          ]),
        );
      } else if (type.localized) query = query.where('locale', '=', inLocale);
      return query;
    },
  );
  return rows.length > 0;
}

/** The `unique` attributes whose value in `values` (columns) another published document holds. */
export async function uniqueConflicts(
  db: Db,
  type: ContentType,
  values: Record<string, unknown>,
  documentId: string,
  locale: string | null,
  /** Columns whose value the write generated (uids): see enforceUniqueness. */
  generated: ReadonlySet<string> = new Set(),
): Promise<ScalarAttribute[]> {
  const taken: ScalarAttribute[] = [];
  for (const attribute of type.scalars) {
    if (!attribute.unique || generated.has(attribute.column)) continue;
    const value = values[attribute.column];
    if (value === undefined || value === null || value === '') continue;
    if (await valueTaken(db, type, attribute, value, documentId, locale)) taken.push(attribute);
  }
  return taken;
}

/**
 * Fills uids left out on create from their target field, made unique with a numeric suffix, and,
 * for types without draft and publish (whose writes publish at once), rejects values of `unique`
 * attributes that another document of the same locale holds. Types with draft and publish check
 * uniqueness when publishing (operations/publishable.ts). Returns the columns it generated.
 */
export async function enforceUniqueness(
  db: Db,
  dialect: Dialect,
  type: ContentType,
  values: Record<string, unknown>,
  documentId: string,
  locale: string | null,
  mode: 'create' | 'update',
): Promise<Set<string>> {
  const generated = new Set<string>();
  for (const attribute of type.scalars) {
    if (attribute.type === 'uid' && mode === 'create' && values[attribute.column] == null && attribute.targetField) {
      const source = type.attributes[attribute.targetField] as ScalarAttribute;
      const text = values[source.column];
      if (typeof text === 'string' && text) {
        values[attribute.column] = await availableUid(db, type, attribute, slugify(text), documentId, locale);
        generated.add(attribute.column);
      }
    }
  }
  if (type.draftAndPublish) return generated;
  // A uid generated here is not the client's value: when a concurrent writer took it, the unique
  // index refuses this write, which runs again (core/database/write.ts) and picks the next free one.
  const taken = await uniqueConflicts(db, type, values, documentId, locale, generated);
  if (taken.length) {
    throw ValidationError.fromFieldErrors(
      taken.map((attribute) => ({
        path: [attribute.name],
        message: UNIQUE_MESSAGE,
        name: 'ValidationError',
        value: dialect.decode(columnTypeOf(attribute.type), values[attribute.column]),
      })),
    );
  }
  return generated;
}

async function availableUid(
  db: Db,
  type: ContentType,
  attribute: ScalarAttribute,
  base: string,
  documentId: string,
  locale: string | null,
): Promise<string> {
  const root = base || 'document';
  const takenOf = async (values: string[]): Promise<Set<string>> => {
    const { rows } = await runShape<{ value: string }>(
      db,
      shapeKey('uids taken', type.table, attribute.column, type.localized, values.length),
      type.localized ? [documentId, locale, ...values] : [documentId, ...values],
      (slots) => {
        const candidates = slots.slice(type.localized ? 2 : 1);
        let query = db
          .selectFrom(type.table)
          .select(sql<string>`${sql.ref(attribute.column)}`.as('value'))
          .where(attribute.column, 'in', candidates)
          .where('document_id', '!=', slots[0]);
        if (type.localized) query = query.where('locale', '=', slots[1]);
        return query;
      },
    );
    return new Set(rows.map((row) => row.value));
  };
  // The common case, answered by the column's index: the plain slug is free.
  if (!(await takenOf([root])).has(root)) return root;
  // Then `root-1`, `root-2`, ... in growing batches of exact values, each a seek in the
  // `(locale, column, ...)` index. A `like 'root-%'` instead walked every row of the locale (its
  // pattern uses no index: case-insensitive on SQLite, a collation's order elsewhere): ~0.5 ms per
  // taken slug at 2,000 articles, growing with the data. Values are compared as `=` compares them,
  // as the plain slug is. At most 1,000 a statement (every dialect's parameter limit is above).
  for (let from = 1, size = 8; ; from += size, size = Math.min(size * 4, 1000)) {
    const candidates = Array.from({ length: size }, (_, i) => `${root}-${from + i}`);
    const taken = await takenOf(candidates);
    const free = candidates.find((candidate) => !taken.has(candidate));
    if (free !== undefined) return free;
  }
}
