/**
 * What publishing a draft requires, as Strapi 5 checks it: the draft, read back whole (scalars,
 * components and zones at every depth), passes every rule a draft may skip (required, minLength,
 * regex, min, item counts), and its unique values are held by no other published document.
 */
import { sql } from 'kysely';
import type { Db } from '../../database/dialect.js';
import { columnTypeOf } from '../../database/tables.js';
import { ValidationError, type FieldError } from '../../errors.js';
import type { PopulateTree } from '../../query/types.js';
import type { ContentType, Model, Schema } from '../../schema/model.js';
import type { DocumentContext } from '../context.js';
import { inSchemaOrder, validateInput } from '../input.js';
import { ReadBudget } from '../read/budget.js';
import { populate } from '../read/populate.js';
import { decodeDocument, readRows, selectList, selectWidth } from '../rows.js';
import { uniqueConflicts } from '../write/scalars.js';

const MAX_DEPTH = 20;

/** Components and zones below a model, at every depth (components cannot contain themselves). */
function nestedTree(schema: Schema, model: Model, depth = 0): PopulateTree {
  const tree: PopulateTree = {};
  if (depth > MAX_DEPTH) return tree;
  for (const attribute of Object.values(model.attributes)) {
    if (attribute.kind === 'component') {
      tree[attribute.name] = { populate: nestedTree(schema, schema.components.get(attribute.component)!, depth + 1) };
    } else if (attribute.kind === 'dynamiczone') {
      const on = Object.fromEntries(
        attribute.components.map((uid) => [
          uid,
          { populate: nestedTree(schema, schema.components.get(uid)!, depth + 1) },
        ]),
      );
      tree[attribute.name] = { on };
    }
  }
  return tree;
}

/** Whether a body's value names a stored component anywhere (an item with an `id` updates it in part). */
const namesIds = (value: unknown): boolean =>
  Array.isArray(value)
    ? value.some(namesIds)
    : value !== null && typeof value === 'object' && ('id' in value || Object.values(value).some(namesIds));

/**
 * The draft row as a body's `data`: attribute values only, components and zones with their items.
 * `given`: the body the write just stored in the draft; a component or zone it gave whole (no
 * item with an id) is what was stored, and is taken from it rather than read back (a whole
 * article's PUT that publishes: 6 -> 1 statements).
 */
async function storedDraft(
  ctx: DocumentContext,
  db: Db,
  type: ContentType,
  draftId: number,
  locale: string | null,
  given?: Record<string, unknown>,
): Promise<{ data: Record<string, unknown>; columns: Record<string, unknown> }> {
  const { dialect } = ctx.database;
  const [row] = await readRows(
    db,
    sql`select ${sql.join(selectList(dialect, type, 't0', type.scalars))} from ${sql.table(type.table)} as t0 where t0.id = ${draftId}`,
  );
  const document = decodeDocument(dialect, type, row!, type.scalars);
  const data: Record<string, unknown> = {};
  for (const attribute of type.scalars) data[attribute.name] = document[attribute.name];
  const tree = nestedTree(ctx.schema, type);
  if (given)
    for (const name of Object.keys(tree))
      if (given[name] !== undefined && !namesIds(given[name])) {
        data[name] = given[name];
        delete tree[name];
      }
  // The scalar columns as read (selectList puts them after the system columns).
  const first = selectWidth(type, []);
  const columns = Object.fromEntries(type.scalars.map((attribute, i) => [attribute.column, row![first + i]]));
  if (Object.keys(tree).length === 0) return { data, columns };
  const scope = { status: 'draft' as const, locale };
  await populate(
    { db, dialect, schema: ctx.schema, scope, budget: ReadBudget.unlimited() },
    type,
    [{ value: data, rowId: draftId, locale }],
    tree,
  );
  return { data, columns };
}

/**
 * Throws a ValidationError listing what keeps the draft row from being published. `validate`
 * false skips the rules (a create whose body was checked with them already); uniqueness among
 * published documents is always checked.
 */
export async function checkPublishable(
  ctx: DocumentContext,
  db: Db,
  type: ContentType,
  draftId: number,
  documentId: string,
  locale: string | null,
  validate: boolean,
  /** Columns whose value the write generated (uids): left to the unique index, see enforceUniqueness. */
  generated?: ReadonlySet<string>,
  /** The draft row's column values when the caller holds them (it just inserted the row). */
  stored?: Record<string, unknown>,
  /** The body the write just stored in the draft row (see storedDraft). */
  given?: Record<string, unknown>,
): Promise<void> {
  const errors: FieldError[] = [];
  const { dialect } = ctx.database;
  const unique = type.scalars.filter((attribute) => attribute.unique);
  if (validate) {
    const draft = await storedDraft(ctx, db, type, draftId, locale, given);
    errors.push(...validateInput(ctx.schema, type, draft.data, 'create', { draft: false, stored: true }).errors);
    // The row read holds the unique columns as stored unless the dialect selects them otherwise.
    if (!stored && unique.every((a) => dialect.selectColumn('c', columnTypeOf(a.type)) === undefined))
      stored = draft.columns;
  }
  if (unique.length) {
    const values =
      stored ??
      ((await db
        .selectFrom(type.table)
        .select(unique.map((a) => a.column))
        .where('id', '=', draftId)
        .executeTakeFirstOrThrow()) as Record<string, unknown>);
    const taken = await uniqueConflicts(db, type, values, documentId, locale, generated);
    for (const attribute of taken) {
      if (errors.some((e) => e.path.length === 1 && e.path[0] === attribute.name)) continue;
      errors.push({
        path: [attribute.name],
        message: 'This attribute must be unique',
        name: 'ValidationError',
        value: dialect.decode(columnTypeOf(attribute.type), values[attribute.column]),
      });
    }
  }
  if (errors.length) throw ValidationError.fromFieldErrors(inSchemaOrder(type, errors));
}
