import { sql } from 'kysely';
import { readShapeRows, type Db } from '../../database/dialect.js';
import { shapeKey } from '../../database/shapes.js';
import type { FindOneQuery } from '../../query/types.js';
import type { ContentType } from '../../schema/model.js';
import type { CallerOptions, DocumentContext } from '../context.js';
import type { ReadBudget } from '../read/budget.js';
import { populate } from '../read/populate.js';
import { decodeDocument, PUBLISHED_AT, readRows, rowKeys, selectList, visibleScalars, type Document } from '../rows.js';
import { rootConditions, scopeOf, versionKey } from './find-many.js';
import { and } from '../../query/sql/scope.js';
import { Aliases } from '../../query/sql/joins.js';
import { compileOrder } from '../../query/sql/order.js';
import type { SqlContext } from '../../query/sql/where.js';

/**
 * One document in the version the query asks for (status, locale), or null. Without a documentId
 * (single types) the type's only document. `budget` counts it and everything populated below it.
 */
export async function findOne(
  ctx: DocumentContext,
  type: ContentType,
  documentId: string | null,
  query: FindOneQuery,
  caller: CallerOptions,
  budget: ReadBudget,
): Promise<Document | null> {
  const { db, dialect } = ctx.database;
  const scope = scopeOf(type, query);
  const scalars = visibleScalars(type, query.fields);
  const statement = (id: unknown) => {
    const sqlCtx: SqlContext = { schema: ctx.schema, dialect, scope, aliases: new Aliases() };
    const conditions = rootConditions(sqlCtx, type, 't0', query);
    if (id !== null) conditions.push(sql<boolean>`t0.document_id = ${id}`);
    // A documentId names one row per status and locale: no sort unless a filter on the locale lets
    // several match. A single type takes its first row.
    const order = query.sort?.length
      ? sql` order by ${sql.join(compileOrder(sqlCtx, type, 't0', query.sort))}`
      : id === null || query.locales !== undefined
        ? sql` order by t0.id`
        : sql``;
    return sql`select ${sql.join(selectList(dialect, type, 't0', scalars))} from ${sql.table(type.table)} as t0 where ${and(conditions)}${order} limit 1`;
  };
  // By documentId alone, the document's few rows are found through its index: a bounded read. Then
  // (no creator either) its text depends on the version read and the fields alone: compiled once.
  const byIdOnly = documentId !== null && !query.filters && query.search === undefined && !query.sort?.length;
  const row =
    byIdOnly && query.createdBy === undefined
      ? (
          await readShapeRows(
            db,
            shapeKey(
              'document',
              type.table,
              query.locales !== undefined,
              versionKey(scope),
              ...scalars.map((a) => a.column),
            ),
            [documentId],
            ([id]) => statement(id),
            { inline: true },
          )
        )[0]
      : (await readRows(db, statement(documentId), { inline: byIdOnly }))[0];
  if (!row) return null;
  budget.spend(1);
  const value = decodeDocument(dialect, type, row, scalars, query.fields, caller.rawJson);
  const loaded = [{ value, ...rowKeys(row) }];
  await populate(
    { db, dialect, schema: ctx.schema, scope, canRead: caller.canRead, rawJson: caller.rawJson, budget },
    type,
    loaded,
    query.populate,
  );
  return value;
}

/**
 * One row by its id, as a document of the query's fields and populate (its status, whatever the
 * query says: a draft row populates drafts), on `db` (a write transaction reads what it wrote).
 * What lifecycle events show of a row a write touched; with `everyLinkedRow` (webhook entries), a
 * row of a type without draft and publish lists every linked version (ReadContext's).
 */
export async function findRow(
  ctx: DocumentContext,
  db: Db,
  type: ContentType,
  rowId: number,
  query: FindOneQuery,
  caller: CallerOptions,
  budget: ReadBudget,
  everyLinkedRow = false,
): Promise<Document | null> {
  const { dialect } = ctx.database;
  const scalars = visibleScalars(type, query.fields);
  const select = sql`select ${sql.join(selectList(dialect, type, 't0', scalars))} from ${sql.table(type.table)} as t0 where t0.id = ${rowId}`;
  const row = (await readRows(db, select, { inline: true }))[0];
  if (!row) return null;
  const value = decodeDocument(dialect, type, row, scalars, query.fields, caller.rawJson);
  const keys = rowKeys(row);
  const status = type.draftAndPublish && row[PUBLISHED_AT] === null ? 'draft' : 'published';
  const scope = { status, locale: keys.locale } as const;
  budget.spend(1);
  await populate(
    {
      db,
      dialect,
      schema: ctx.schema,
      scope,
      canRead: caller.canRead,
      rawJson: caller.rawJson,
      budget,
      everyLinkedRow: everyLinkedRow && !type.draftAndPublish,
    },
    type,
    [{ value, ...keys }],
    query.populate,
  );
  return value;
}
