import { sql, type RawBuilder } from 'kysely';
import { Aliases } from '../../query/sql/joins.js';
import { compileOrder } from '../../query/sql/order.js';
import { and, FALSE, or, versionCondition, type VersionScope } from '../../query/sql/scope.js';
import { linkCondition } from '../read/relation-links.js';
import { compileFilter, type SqlContext } from '../../query/sql/where.js';
import { searchCondition } from '../../query/sql/search.js';
import type { FindOneQuery, FindQuery } from '../../query/types.js';
import type { ContentType, ScalarAttribute } from '../../schema/model.js';
import type { CallerOptions, DocumentContext } from '../context.js';
import type { ReadBudget } from '../read/budget.js';
import { populate, type Loaded } from '../read/populate.js';
import { decodeDocument, ID, readRows, rowKeys, selectList, visibleScalars, type Document, type Row } from '../rows.js';
import { readShapeRows, type Db, type Dialect } from '../../database/dialect.js';
import { shapeKey } from '../../database/shapes.js';

/** The column of the page's rows that carries the total. */
const TOTAL = '__total';

interface PaginationMeta {
  page?: number;
  pageSize?: number;
  pageCount?: number;
  start?: number;
  limit?: number;
  total?: number;
}

export interface FindManyResult {
  results: Document[];
  pagination: PaginationMeta;
}

/**
 * The versions a read sees. Status and the publication cohort apply to every type that has draft
 * and publish: the root type and the relations populated or filtered below it (a tag read as draft
 * shows draft articles). The locales apply to the root type; relations follow their links.
 */
export const scopeOf = (
  _type: ContentType,
  query: Pick<FindOneQuery, 'status' | 'locale' | 'locales' | 'publication'>,
): VersionScope => ({
  status: query.status,
  locale: query.locales === '*' ? null : (query.locales ?? query.locale),
  publication: query.publication,
});

/** The conditions of a read on its root rows: version, filters, `_q` and the creator. */
export function rootConditions(
  sqlCtx: SqlContext,
  type: ContentType,
  alias: string,
  query: FindOneQuery,
): RawBuilder<boolean>[] {
  const parts = [versionCondition(type, alias, sqlCtx.scope)];
  if (query.filters) parts.push(compileFilter(sqlCtx, type, alias, query.filters));
  if (query.search !== undefined) parts.push(searchCondition(sqlCtx.dialect, type, alias, query.search));
  if (query.createdBy !== undefined)
    parts.push(
      query.createdBy.length
        ? sql<boolean>`${sql.ref(`${alias}.created_by_id`)} in (${sql.join(query.createdBy)})`
        : FALSE,
    );
  if (query.unlinkedFrom) {
    const { relation, except } = query.unlinkedFrom;
    const unlinked = sql<boolean>`not ${linkCondition(relation, type, alias)}`;
    parts.push(
      except?.length ? or([unlinked, sql<boolean>`${sql.ref(`${alias}.id`)} in (${sql.join(except)})`]) : unlinked,
    );
  }
  return parts;
}

/**
 * A page of documents: one statement for the rows, one for the total (unless the page is the last
 * one), one per populated attribute and level. `budget` counts the documents of the page and
 * everything populated below them.
 */
export async function findMany(
  ctx: DocumentContext,
  type: ContentType,
  query: FindQuery,
  caller: CallerOptions,
  budget: ReadBudget,
): Promise<FindManyResult> {
  const { db, dialect } = ctx.database;
  const scope = scopeOf(type, query);
  const sqlCtx: SqlContext = { schema: ctx.schema, dialect, scope, aliases: new Aliases() };
  const alias = 't0';
  const whereFor = (relationForm: SqlContext['relationForm']) =>
    and(rootConditions({ ...sqlCtx, relationForm }, type, alias, query));
  const from = sql`${sql.table(type.table)} as ${sql.id(alias)}`;

  const { pagination } = query;
  const limit = pagination.kind === 'page' ? pagination.pageSize : pagination.limit;
  const offset = pagination.kind === 'page' ? (pagination.page - 1) * pagination.pageSize : pagination.start;
  const scalars = visibleScalars(type, query.fields);
  // LIMIT and OFFSET are validated integers, written into the SQL: with them bound as parameters
  // SQLite sorts every matching row in full before taking the page (no top-N sort), which on wide
  // rows evicted its page cache and made filter+sort at 10,000 articles 7x slower.
  //
  // The page is chosen on ids alone, then its rows are read by id (a deferred join): sorting the
  // wide rows themselves made the database carry every matching row's text through the sort
  // (page 37 of 1,360 articles sorted by title: 7.9 -> 1.0 ms on SQLite). The outer ORDER BY
  // sorts the page's rows only.
  //
  // Built when first asked for (a page compiled once is not built again: below), once.
  let parts: { page: RawBuilder<unknown>; order: RawBuilder<unknown>[]; count: RawBuilder<unknown> } | undefined;
  const built = () => {
    if (parts) return parts;
    // Sorted by id (the default), the page walks the version's index and stops after a page of
    // matches: a correlated EXISTS per row is cheapest. Sorted by anything else every match must be
    // found first, and the semi-join runs each relation filter once (OR of a category and an author
    // filter, sorted by title: 2.3 -> 1.2 ms on SQLite).
    const where = whereFor(query.sort.length === 0 ? 'exists' : 'semi-join');
    const order = compileOrder(sqlCtx, type, alias, query.sort);
    const page = sql`select ${sql.ref(`${alias}.id`)} from ${from} where ${where} order by ${sql.join(order)} limit ${sql.lit(limit)} offset ${sql.lit(offset)}`;
    const count = sql`select count(*) from ${from} where ${whereFor('semi-join')}`;
    return (parts = { page, order, count });
  };
  // The total rides on the page's rows as an uncorrelated scalar subquery, computed once: one
  // statement instead of two (on SQLite one reader-thread round trip instead of two; elsewhere one
  // network round trip).
  const total$ = () => sql`(${built().count}) as ${sql.id(TOTAL)}`;
  // Without filters, `_q` or a creator, the page's text depends on its scope, sort and bounds
  // alone, all in the key: compiled once (sixth pass; the default list built and compiled the
  // version condition twice per page).
  const plain = plainPageKey(type, query, scope, limit, offset);
  let rows: Row[];
  let totalCell: unknown;
  if (dialect.pageRowsById) {
    // SQLite: the page statement, which carries the request's filters and runs in a reader thread
    // under the read budget, answers the page's ids (and the total); the rows are read by id on the
    // main thread's own connection, a read bounded by the page's length, and put in the ids' order.
    // Joined in one statement, SQLite sorted the page's wide rows again in a temporary b-tree, and
    // the rows crossed threads (copied out, then rebuilt on the main thread): a page of 100
    // articles cost 1.2 ms in the reader plus 0.6 ms on the main thread to receive it, against
    // 0.1 ms for the ids and 0.3-0.4 ms for the rows by id (better-sqlite3 in a loop).
    const ids = () =>
      pagination.withCount
        ? sql`select ${sql.ref('p.id')}, ${total$()} from (${built().page}) as ${sql.id('p')}`
        : built().page;
    const idRows = plain ? await readShapeRows(db, shapeKey('page ids', plain), [], ids) : await readRows(db, ids());
    totalCell = idRows[0]?.[1];
    rows =
      idRows.length === 0
        ? []
        : await rowsInOrder(
            db,
            dialect,
            type,
            alias,
            scalars,
            idRows.map((row) => Number(row[0])),
          );
  } else {
    const joined = () => {
      const columns = selectList(dialect, type, alias, scalars);
      const { page, order } = built();
      const select = pagination.withCount ? [...columns, total$()] : columns;
      return sql`select ${sql.join(select)} from (${page}) as ${sql.id('p')} join ${sql.table(type.table)} as ${sql.id(alias)} on ${sql.ref(`${alias}.id`)} = ${sql.ref('p.id')} order by ${sql.join(order)}`;
    };
    rows = plain
      ? await readShapeRows(db, shapeKey('page rows', plain, ...scalars.map((a) => a.column)), [], joined)
      : await readRows(db, joined());
    totalCell = rows[0]?.at(-1);
  }
  budget.spend(rows.length);
  // A page past the end has no row to carry the total: counted apart.
  const total = !pagination.withCount
    ? undefined
    : rows.length > 0
      ? Number(totalCell)
      : offset === 0
        ? 0
        : Number(
            (await sql<{ total: number | string }>`select (${built().count}) as total`.execute(db)).rows[0]?.total ?? 0,
          );

  const loaded: Loaded[] = rows.map((row) => ({
    value: decodeDocument(dialect, type, row, scalars, query.fields, caller.rawJson),
    ...rowKeys(row),
  }));
  await populate(
    { db, dialect, schema: ctx.schema, scope, canRead: caller.canRead, rawJson: caller.rawJson, budget },
    type,
    loaded,
    query.populate,
  );

  const meta: PaginationMeta =
    pagination.kind === 'page'
      ? { page: pagination.page, pageSize: pagination.pageSize }
      : { start: pagination.start, limit: pagination.limit };
  if (total !== undefined) {
    if (pagination.kind === 'page') meta.pageCount = Math.ceil(total / pagination.pageSize);
    meta.total = total;
  }
  return { results: loaded.map((item) => item.value), pagination: meta };
}

/**
 * The page's key for a statement compiled once (`readShapeRows`), or undefined when its text depends
 * on the request's values: filters, `_q`, a creator, a sort through relations or components.
 * Everything else the text holds is here: the version (status, cohort, locales: a handful of
 * values), the sort's columns, the bounds (written into the text) and whether it counts.
 */
function plainPageKey(
  type: ContentType,
  query: FindQuery,
  scope: VersionScope,
  limit: number,
  offset: number,
): string | undefined {
  if (query.filters || query.search !== undefined || query.createdBy !== undefined) return undefined;
  const sort: string[] = [];
  for (const item of query.sort) {
    if (item.through.length > 0 || item.creator !== undefined) return undefined;
    sort.push(item.field.column, item.direction);
  }
  return shapeKey(type.table, versionKey(scope), query.pagination.withCount, limit, offset, sort.length, ...sort);
}

/** What a version condition's text and bound values depend on (`versionCondition`), as a shape key. */
export function versionKey(scope: VersionScope): string {
  const { locale } = scope;
  const locales = locale === null ? ['*'] : typeof locale === 'string' ? ['=', locale] : ['in', ...locale];
  return shapeKey(scope.status, scope.publication, ...locales);
}

/** The rows of `ids` (a page's, in its order), read by id: a read bounded by the page's length. */
async function rowsInOrder(
  db: Db,
  dialect: Dialect,
  type: ContentType,
  alias: string,
  scalars: ScalarAttribute[],
  ids: number[],
): Promise<Row[]> {
  const found = await readShapeRows(
    db,
    shapeKey('rows by id', type.table, alias, ...scalars.map((a) => a.column)),
    [dialect.pageIds!(ids)],
    ([bound]) =>
      sql`select ${sql.join(selectList(dialect, type, alias, scalars))} from ${sql.table(type.table)} as ${sql.id(alias)} where ${dialect.pageRowsById!(sql.ref(`${alias}.id`), bound)}`,
    { inline: true },
  );
  const byId = new Map<number, Row>();
  for (const row of found) byId.set(Number(row[ID]), row);
  const rows: Row[] = [];
  // A row deleted between the two statements is left out.
  for (const id of ids) {
    const row = byId.get(id);
    if (row) rows.push(row);
  }
  return rows;
}
