/**
 * One row's relation, read from its link table with statements bounded by the request's shape:
 * whether a target row is linked from the row (`linkCondition`, an EXISTS on the link table's
 * index, for a list of the targets *not* linked yet) and a page of the linked targets in the
 * relation's order, the last linked first (`linkedPage`, LIMIT and OFFSET on the link rows). The
 * content manager's relation routes (Strapi 5.54's `/content-manager/relations/...`) read them.
 *
 * A link joins an owner row to a target document (model.ts, LinkTable): from the owning side the
 * target rows are the versions of the linked documents; from the inverse side they are the owner
 * rows whose links name the source document (in its locale when it is localized).
 */
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../database/dialect.js';
import { and, statusCondition } from '../../query/sql/scope.js';
import type { RelationOf, Status } from '../../query/types.js';
import type { ContentType } from '../../schema/model.js';
import { readRows } from '../rows.js';

const ref = (alias: string, column: string) => sql.ref(`${alias}.${column}`);

/** The link rows of the relation (alias `l`) that reach the target row at `alias`. */
function linksTo(relation: RelationOf, target: ContentType, alias: string): RawBuilder<boolean> {
  const { attribute } = relation;
  if (attribute.owner) {
    const parts = [
      sql<boolean>`l.entity_id = ${relation.rowId}`,
      sql<boolean>`l.target_document_id = ${ref(alias, 'document_id')}`,
    ];
    if (target.localized) parts.push(sql<boolean>`l.target_locale = ${ref(alias, 'locale')}`);
    return and(parts);
  }
  const parts = [
    sql<boolean>`l.entity_id = ${ref(alias, 'id')}`,
    sql<boolean>`l.target_document_id = ${relation.documentId ?? ''}`,
  ];
  if ((relation.model as ContentType).localized) parts.push(sql<boolean>`l.target_locale = ${relation.locale ?? ''}`);
  return and(parts);
}

/** Whether the target row at `alias` is linked from the relation's row: one EXISTS on the link table. */
export function linkCondition(relation: RelationOf, target: ContentType, alias: string): RawBuilder<boolean> {
  return sql<boolean>`exists (select 1 from ${sql.table(relation.attribute.link.table)} as l where ${linksTo(relation, target, alias)})`;
}

/**
 * The ids of a page of the target rows linked from the row, in the versions of `status` (a type without draft and
 * publish: its rows), the last linked first, and how many there are: two statements, each bounded
 * by the page (the count reads the link rows' index).
 */
export async function linkedPage(
  db: Db,
  relation: RelationOf,
  target: ContentType,
  status: Status,
  page: { offset: number; limit: number },
): Promise<{ ids: number[]; total: number }> {
  const { attribute } = relation;
  const link = sql.table(attribute.link.table);
  const from = attribute.owner
    ? sql`${link} as l join ${sql.table(target.table)} as t on ${and([
        sql<boolean>`t.document_id = l.target_document_id`,
        ...(target.localized ? [sql<boolean>`t.locale = l.target_locale`] : []),
      ])}`
    : sql`${link} as l join ${sql.table(target.table)} as t on t.id = l.entity_id`;
  const where = and([
    attribute.owner
      ? sql<boolean>`l.entity_id = ${relation.rowId}`
      : and([
          sql<boolean>`l.target_document_id = ${relation.documentId ?? ''}`,
          ...((relation.model as ContentType).localized
            ? [sql<boolean>`l.target_locale = ${relation.locale ?? ''}`]
            : []),
        ]),
    statusCondition(target, 't', status),
  ]);
  const order = attribute.owner ? sql`l.target_ord` : sql`l.entity_ord`;
  // LIMIT and OFFSET are validated integers, written into the SQL (find-many.ts says why).
  const rows = await readRows(
    db,
    sql`select t.id from ${from} where ${where} order by ${order} desc, l.id desc limit ${sql.lit(page.limit)} offset ${sql.lit(page.offset)}`,
  );
  const [counted] = await readRows(db, sql`select count(*) from ${from} where ${where}`);
  return { ids: rows.map((row) => Number(row[0])), total: Number(counted?.[0] ?? 0) };
}
