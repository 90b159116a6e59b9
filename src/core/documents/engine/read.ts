/**
 * The query engine's reads: rows of a content-type's table, not documents. Draft and published
 * versions are separate rows, nothing is defaulted (no status, no locale), private attributes are
 * answered, and every row carries `locale` (null where the type has no i18n), as Strapi's
 * `strapi.db.query` answers. Conditions and order are compiled by the query layer (core/query/sql);
 * relations, components and media are populated by the documents' batched read path, each row's
 * relations in its own status (a draft row shows draft targets; a row of a type without draft and
 * publish every version of its targets, the draft first).
 */
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../database/dialect.js';
import { Aliases } from '../../query/sql/joins.js';
import { compileOrder } from '../../query/sql/order.js';
import { and, or, type VersionScope } from '../../query/sql/scope.js';
import { compileFilter, type SqlContext } from '../../query/sql/where.js';
import type { FilterNode, PopulateTree, Status } from '../../query/types.js';
import type { ContentType } from '../../schema/model.js';
import type { DocumentContext } from '../context.js';
import { ReadBudget } from '../read/budget.js';
import { populate, type Loaded } from '../read/populate.js';
import { decodeDocument, LOCALE, PUBLISHED_AT, readRows, rowKeys, selectList, type Document } from '../rows.js';
import type { RowQuery } from './params.js';

const scopeOf = (status: Status): VersionScope => ({ status, locale: null });

/** Whether a filter goes through a relation (whose target rows depend on the row's status). */
function throughRelation(node: FilterNode): boolean {
  switch (node.kind) {
    case 'and':
    case 'or':
      return node.children.some(throughRelation);
    case 'not':
      return throughRelation(node.child);
    case 'relation':
      return true;
    case 'component':
      return throughRelation(node.filter);
    case 'compare':
    case 'creator':
      return false;
  }
}

/**
 * The condition of `filter` on the rows of `type` (alias `alias`). A relation's targets are read
 * in the row's own status, as Strapi links a draft row to draft rows: with draft and publish and a
 * condition through a relation, one branch per status.
 */
function rowCondition(
  ctx: DocumentContext,
  aliases: Aliases,
  type: ContentType,
  alias: string,
  filter: FilterNode,
  relationForm?: SqlContext['relationForm'],
): RawBuilder<boolean> {
  const base = { schema: ctx.schema, dialect: ctx.database.dialect, aliases, relationForm };
  if (!type.draftAndPublish || !throughRelation(filter))
    return compileFilter({ ...base, scope: scopeOf('published') }, type, alias, filter);
  const publishedAt = sql.ref(`${alias}.published_at`);
  return or([
    and([
      sql<boolean>`${publishedAt} is null`,
      compileFilter({ ...base, scope: scopeOf('draft') }, type, alias, filter),
    ]),
    and([
      sql<boolean>`${publishedAt} is not null`,
      compileFilter({ ...base, scope: scopeOf('published') }, type, alias, filter),
    ]),
  ]);
}

/** The ids of the rows matching a filter, in row order (what a write by `where` touches). */
export async function matchingIds(
  ctx: DocumentContext,
  db: Db,
  type: ContentType,
  filter: FilterNode | undefined,
  limit?: number,
): Promise<number[]> {
  const aliases = new Aliases();
  const where = filter ? rowCondition(ctx, aliases, type, 't0', filter) : sql<boolean>`1 = 1`;
  const bound = limit === undefined ? sql`` : sql` limit ${sql.lit(limit)}`;
  const { rows } = await sql<{
    id: number | string;
  }>`select t0.id from ${sql.table(type.table)} as t0 where ${where} order by t0.id${bound}`.execute(db);
  return rows.map((row) => Number(row.id));
}

/** How many rows match. */
export async function countRows(
  ctx: DocumentContext,
  db: Db,
  type: ContentType,
  filter: FilterNode | undefined,
): Promise<number> {
  const where = filter ? rowCondition(ctx, new Aliases(), type, 't0', filter, 'semi-join') : sql<boolean>`1 = 1`;
  const { rows } = await sql<{
    total: number | string;
  }>`select count(*) as total from ${sql.table(type.table)} as t0 where ${where}`.execute(db);
  return Number(rows[0]?.total ?? 0);
}

/**
 * A populated value keeps only what its `select` names, as Strapi's query engine answers (the
 * documents' populate adds `id` and `documentId`, as REST does): `id` stays when something is
 * populated below it, as at the top.
 */
function keepSelected(value: Document, tree: PopulateTree): void {
  for (const [name, node] of Object.entries(tree)) {
    const target = value[name];
    const items = (
      Array.isArray(target) ? target : target !== null && typeof target === 'object' ? [target] : []
    ) as Document[];
    const below = node.populate && Object.keys(node.populate).length > 0;
    for (const item of items) {
      if (node.fields && !node.count) {
        if (!node.fields.includes('documentId')) delete item.documentId;
        if (!node.fields.includes('id') && !below) delete item.id;
      }
      if (below) keepSelected(item, node.populate!);
    }
  }
}

/** The rows a read asks for, decoded and populated, with only the `select`ed fields (and `id` when something is populated). */
export async function readRowsOf(
  ctx: DocumentContext,
  db: Db,
  type: ContentType,
  query: RowQuery,
): Promise<Document[]> {
  const { dialect } = ctx.database;
  const aliases = new Aliases();
  const sqlCtx: SqlContext = { schema: ctx.schema, dialect, scope: scopeOf('published'), aliases };
  const where = query.filter ? rowCondition(ctx, aliases, type, 't0', query.filter) : sql<boolean>`1 = 1`;
  const order = compileOrder(sqlCtx, type, 't0', query.sort);
  // LIMIT and OFFSET are validated integers (see find-many.ts for why they are written into the SQL);
  // an offset alone takes a limit no table reaches (every dialect needs a LIMIT before OFFSET or accepts one).
  const limit =
    query.limit !== undefined
      ? sql` limit ${sql.lit(query.limit)}`
      : query.offset
        ? sql` limit ${sql.lit(Number.MAX_SAFE_INTEGER)}`
        : sql``;
  const offset = query.offset ? sql` offset ${sql.lit(query.offset)}` : sql``;
  const statement = sql`select ${sql.join(selectList(dialect, type, 't0', type.scalars))} from ${sql.table(type.table)} as t0 where ${where} order by ${sql.join(order)}${limit}${offset}`;
  const rows = await readRows(db, statement);
  const loaded: (Loaded & { status: Status })[] = rows.map((row) => {
    const value = decodeDocument(dialect, type, row, type.scalars);
    if (!type.localized) value.locale = row[LOCALE] ?? null;
    return {
      value,
      ...rowKeys(row),
      status: type.draftAndPublish && row[PUBLISHED_AT] === null ? 'draft' : 'published',
    };
  });
  if (Object.keys(query.populate).length > 0) {
    for (const status of ['draft', 'published'] as const) {
      const items = loaded.filter((item) => item.status === status);
      // Project code reads what it asks for, as Strapi's query engine: no read budget.
      await populate(
        // A row of a type without draft and publish links every version of its targets, as
        // Strapi's rows link the draft and the published row (checked on Strapi 5.54).
        {
          db,
          dialect,
          schema: ctx.schema,
          scope: scopeOf(status),
          budget: ReadBudget.unlimited(),
          everyLinkedRow: !type.draftAndPublish,
        },
        type,
        items,
        query.populate,
      );
    }
  }
  if (Object.keys(query.populate).length > 0) for (const { value } of loaded) keepSelected(value, query.populate);
  if (!query.select) return loaded.map((item) => item.value);
  const keys = [
    ...(Object.keys(query.populate).length > 0 && !query.select.includes('id') ? ['id'] : []),
    ...query.select,
    ...Object.keys(query.populate),
  ];
  return loaded.map(({ value }) =>
    Object.fromEntries(keys.filter((key) => key in value).map((key) => [key, value[key]])),
  );
}
