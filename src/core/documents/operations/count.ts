import { sql } from 'kysely';
import { Aliases } from '../../query/sql/joins.js';
import { and } from '../../query/sql/scope.js';
import type { SqlContext } from '../../query/sql/where.js';
import type { FindOneQuery } from '../../query/types.js';
import type { ContentType } from '../../schema/model.js';
import type { DocumentContext } from '../context.js';
import { rootConditions, scopeOf } from './find-many.js';

/**
 * How many documents (versions of the query's status and locales) match the filters and `_q`: one
 * statement, the count a list's pagination reports.
 */
export async function count(ctx: DocumentContext, type: ContentType, query: FindOneQuery): Promise<number> {
  const { db, dialect } = ctx.database;
  const sqlCtx: SqlContext = {
    schema: ctx.schema,
    dialect,
    scope: scopeOf(type, query),
    aliases: new Aliases(),
    relationForm: 'semi-join',
  };
  const where = and(rootConditions(sqlCtx, type, 't0', query));
  const { rows } = await sql<{
    total: number | string;
  }>`select count(*) as total from ${sql.table(type.table)} as t0 where ${where}`.execute(db);
  return Number(rows[0]?.total ?? 0);
}
