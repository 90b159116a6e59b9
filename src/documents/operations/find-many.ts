import { sql } from 'kysely';
import { Aliases } from '../../query/sql/joins.js';
import { compileOrder } from '../../query/sql/order.js';
import { and, versionCondition, type VersionScope } from '../../query/sql/scope.js';
import { compileFilter, type SqlContext } from '../../query/sql/where.js';
import type { FindQuery } from '../../query/types.js';
import type { ContentType } from '../../schema/model.js';
import type { CallerOptions, DocumentContext } from '../context.js';
import { populate, type Loaded } from '../read/populate.js';
import { decodeDocument, selectList, visibleScalars, type Document, type Row } from '../rows.js';

export interface PaginationMeta {
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
 * The versions a read sees. Status and locale apply to every type that has the feature: the root
 * type and the relations populated or filtered below it (a tag read as draft shows draft articles).
 */
export const scopeOf = (_type: ContentType, query: { status: FindQuery['status']; locale: string }): VersionScope => ({
  status: query.status,
  locale: query.locale,
});

/** A page of documents: one statement for the rows, one for the total, one per populated attribute and level. */
export async function findMany(ctx: DocumentContext, type: ContentType, query: FindQuery, caller: CallerOptions = {}): Promise<FindManyResult> {
  const { db, dialect } = ctx.database;
  const scope = scopeOf(type, query);
  const sqlCtx: SqlContext = { schema: ctx.schema, dialect, scope, aliases: new Aliases() };
  const alias = 't0';
  const conditions = [versionCondition(type, alias, scope)];
  if (query.filters) conditions.push(compileFilter(sqlCtx, type, alias, query.filters));
  const where = and(conditions);
  const from = sql`${sql.table(type.table)} as ${sql.id(alias)}`;

  const { pagination } = query;
  const limit = pagination.kind === 'page' ? pagination.pageSize : pagination.limit;
  const offset = pagination.kind === 'page' ? (pagination.page - 1) * pagination.pageSize : pagination.start;
  const scalars = visibleScalars(type, query.fields);
  const order = compileOrder(sqlCtx, type, alias, query.sort);
  const rowsQuery = sql<Row>`select ${sql.join(selectList(dialect, type, alias, scalars))} from ${from} where ${where} order by ${sql.join(order)} limit ${limit} offset ${offset}`;
  const [rows, total] = await Promise.all([
    rowsQuery.execute(db).then((r) => r.rows),
    pagination.withCount
      ? sql<{ total: number | string }>`select count(*) as total from ${from} where ${where}`.execute(db).then((r) => Number(r.rows[0]?.total ?? 0))
      : Promise.resolve(undefined),
  ]);

  const loaded: Loaded[] = rows.map((row) => ({
    value: decodeDocument(dialect, type, row, scalars, query.fields),
    rowId: Number(row.id),
    documentId: row.document_id as string,
    locale: row.locale as string | null,
  }));
  await populate({ db, dialect, schema: ctx.schema, scope, canRead: caller.canRead ?? ctx.canRead }, type, loaded, query.populate);

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
