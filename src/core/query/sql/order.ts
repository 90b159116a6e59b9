import { sql, type RawBuilder } from 'kysely';
import { CREATOR_MODEL } from '../../schema/creators.js';
import type { Model } from '../../schema/model.js';
import type { SortItem } from '../types.js';
import { relatedRows } from './joins.js';
import type { SqlContext } from './where.js';

/**
 * ORDER BY terms for a sort list, ending with the row id so that equal values never make pages
 * overlap. A field reached through relations or components is read by a scalar subquery (the
 * first related value, in the relation's own order).
 */
export function compileOrder(ctx: SqlContext, model: Model, alias: string, sort: SortItem[]): RawBuilder<unknown>[] {
  const terms = sort.map((item) => {
    const direction = item.direction === 'desc' ? sql`desc` : sql`asc`;
    const value = sortValue(ctx, model, alias, item);
    return sql`${value} ${direction}`;
  });
  terms.push(sql`${sql.ref(`${alias}.id`)} asc`);
  return terms;
}

function sortValue(ctx: SqlContext, model: Model, alias: string, item: SortItem): RawBuilder<unknown> {
  if (item.through.length === 0 && item.creator) {
    const admin = ctx.aliases.take('u');
    return sql`(select ${sql.ref(`${admin}.${item.field.column}`)} from ${sql.table(CREATOR_MODEL.table)} as ${sql.id(admin)} where ${sql.ref(`${admin}.id`)} = ${sql.ref(`${alias}.${item.creator}`)})`;
  }
  if (item.through.length === 0) return sql`${sql.ref(`${alias}.${item.field.column}`)}`;
  const [step, ...rest] = item.through;
  const next: SortItem = { ...item, through: rest };
  if (step!.kind === 'relation') {
    const related = relatedRows(ctx.schema, model, alias, step!, ctx.scope, ctx.aliases);
    const inner = sortValue(ctx, related.targetType, related.target, next);
    const order = step!.owner ? sql.ref(`${related.link}.target_ord`) : sql.ref(`${related.link}.entity_ord`);
    return sql`(select ${inner} from ${related.from} where ${related.where} order by ${order} limit 1)`;
  }
  const component = ctx.schema.components.get(step!.component)!;
  const link = ctx.aliases.take('c');
  const row = ctx.aliases.take('k');
  const inner = sortValue(ctx, component, row, next);
  return sql`(select ${inner} from ${sql.table(model.componentLinkTable)} as ${sql.id(link)} join ${sql.table(component.table)} as ${sql.id(row)} on ${sql.ref(`${row}.id`)} = ${sql.ref(`${link}.cmp_id`)} where ${sql.ref(`${link}.entity_id`)} = ${sql.ref(`${alias}.id`)} and ${sql.ref(`${link}.field`)} = ${step!.name} order by ${sql.ref(`${link}.ord`)} limit 1)`;
}
