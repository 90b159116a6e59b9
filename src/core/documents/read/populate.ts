import { sql, type RawBuilder } from 'kysely';
import type { Db, Dialect } from '../../database/dialect.js';
import { MEDIA_LINK_TABLE } from '../../database/tables.js';
import {
  FILE_UID,
  type Component,
  type ComponentAttribute,
  type ContentType,
  type DynamicZoneAttribute,
  type MediaAttribute,
  type Model,
  type RelationAttribute,
  type Schema,
} from '../../schema/model.js';
import { Aliases } from '../../query/sql/joins.js';
import { compileOrder } from '../../query/sql/order.js';
import { and, statusCondition, type VersionScope } from '../../query/sql/scope.js';
import { compileFilter, type SqlContext } from '../../query/sql/where.js';
import type { PopulateNode, PopulateTree } from '../../query/types.js';
import {
  decodeComponent,
  decodeDocument,
  DOCUMENT_ID,
  ID,
  LOCALE,
  readRows,
  rowKeys,
  selectList,
  selectWidth,
  visibleScalars,
  type Document,
  type Row,
} from '../rows.js';
import { FILES_TABLE } from '../write/media.js';
import type { ReadBudget } from './budget.js';
import { CREATOR_FIELDS, CREATOR_MODEL, isCreatorField } from '../../schema/creators.js';

/** A document or component value already read, with the row it came from. */
export interface Loaded {
  value: Document;
  rowId: number;
  documentId?: string;
  locale?: string | null;
}

export interface ReadContext {
  db: Db;
  dialect: Dialect;
  schema: Schema;
  scope: VersionScope;
  canRead?: (type: ContentType) => boolean;
  /** json and blocks values as RawJson (CallerOptions.rawJson). */
  rawJson?: boolean;
  /** Counts the items read: every statement reads at most what the budget still holds. */
  budget: ReadBudget;
  /**
   * Relations answer every row of each linked document, drafts and published versions (by row
   * id), not those of the scope's status: what Strapi's query engine answers for a row of a type
   * without draft and publish (its links join every version), as webhook entries show it.
   */
  everyLinkedRow?: boolean;
}

const OWNER = '__owner';
const OWNER_LOCALE = '__owner_locale';
const RANK = '__rank';

function groupBy<K>(rows: Row[], key: (row: Row) => K): Map<K, Row[]> {
  const groups = new Map<K, Row[]>();
  for (const row of rows) {
    const k = key(row);
    const list = groups.get(k);
    if (list) list.push(row);
    else groups.set(k, [row]);
  }
  return groups;
}

const sqlContext = (ctx: ReadContext): SqlContext => ({
  schema: ctx.schema,
  dialect: ctx.dialect,
  scope: ctx.scope,
  aliases: new Aliases(),
});

/** Distinct values for an `in (...)` list: several owners may share a row (100 articles, one category). */
const distinct = <T>(values: T[]): T[] => [...new Set(values)];

/**
 * A populate statement without the request's filters or sort reads the rows linked to the owners
 * through indexes and at most what the budget holds: cheap enough for the main thread (`INLINE`).
 * Filters may reach through other relations, and a sort through joins: those go to a reader.
 */
const bounded = (node: PopulateNode | undefined): boolean => !node?.filters && !node?.sort?.length;

/**
 * Reads a populate statement's rows, at most one more than the budget holds (the LIMIT is a
 * validated integer written into the SQL, as pages are); more than it holds ends the read.
 */
async function readBounded(ctx: ReadContext, query: RawBuilder<unknown>, node?: PopulateNode): Promise<Row[]> {
  const limit = ctx.budget.statementLimit;
  const rows = await readRows(ctx.db, limit === undefined ? query : sql`${query} limit ${sql.lit(limit)}`, {
    inline: limit !== undefined && bounded(node),
  });
  ctx.budget.read(rows.length);
  return rows;
}

/**
 * The rows of `select ... from ... where ...`, sorted by owner (`owners`: the names of its owner
 * columns in the select list, `partition`: the same as expressions) then `order`. With `limit`,
 * only each owner's first `limit` rows are read (a window, on every dialect), not all of them.
 */
function ownedRows(
  select: RawBuilder<unknown>[],
  from: RawBuilder<unknown>,
  where: RawBuilder<boolean>,
  owners: { names: string[]; partition: RawBuilder<unknown>[] },
  order: RawBuilder<unknown>[],
  limit: number | undefined,
): RawBuilder<unknown> {
  if (limit === undefined)
    return sql`select ${sql.join(select)} from ${from} where ${where} order by ${sql.join([...owners.partition, ...order])}`;
  const ranked = sql`select ${sql.join(select)}, row_number() over (partition by ${sql.join(owners.partition)} order by ${sql.join(order)}) as ${sql.id(RANK)} from ${from} where ${where}`;
  const outerOrder = [...owners.names, RANK].map((name) => sql.ref(`w.${name}`));
  return sql`select * from (${ranked}) as w where ${sql.ref(`w.${RANK}`)} <= ${sql.lit(limit)} order by ${sql.join(outerOrder)}`;
}

/** The items `items` receive from `groups`, counted before any of them is decoded. */
function spendGroups<K>(ctx: ReadContext, items: Loaded[], groups: Map<K, Row[]>, key: (item: Loaded) => K): void {
  let count = 0;
  for (const item of items) count += groups.get(key(item))?.length ?? 0;
  ctx.budget.spend(count);
}

/**
 * Populates `tree` on already-read values of `model`: one statement per attribute and level
 * (dynamic zones: one more per component type), whatever the number of values.
 */
export async function populate(ctx: ReadContext, model: Model, items: Loaded[], tree: PopulateTree): Promise<void> {
  if (items.length === 0) return;
  for (const [name, node] of Object.entries(tree)) {
    if (name === 'localizations' && model.modelType === 'contentType') {
      await populateLocalizations(ctx, model, items, node);
      continue;
    }
    if (isCreatorField(model, name)) {
      await populateCreator(ctx, model as ContentType, items, CREATOR_FIELDS[name], name, node);
      continue;
    }
    const attribute = model.attributes[name];
    if (!attribute) continue;
    switch (attribute.kind) {
      case 'relation':
        await populateRelation(ctx, model, items, attribute, node);
        break;
      case 'component':
        await populateComponent(ctx, model, items, attribute, node);
        break;
      case 'dynamiczone':
        await populateZone(ctx, model, items, attribute, node);
        break;
      case 'media':
        await populateMedia(ctx, model, items, attribute, node);
        break;
      default:
        break;
    }
  }
}

async function populateRelation(
  ctx: ReadContext,
  model: Model,
  items: Loaded[],
  attribute: RelationAttribute,
  node: PopulateNode,
): Promise<void> {
  const target = ctx.schema.contentTypes.get(attribute.target)!;
  if (ctx.canRead && !ctx.canRead(target)) return;
  const { db, dialect } = ctx;
  const sqlCtx = sqlContext(ctx);
  const scalars = visibleScalars(target, node.fields);
  const conditions: RawBuilder<boolean>[] = [];
  let from: RawBuilder<unknown>;
  // Which owner a row belongs to, from its owner columns (at `at`: the owner, then its locale).
  let ownerKey: (row: Row, at: number) => string;
  let itemKey: (item: Loaded) => string;
  let linkOrder: RawBuilder<unknown>;
  const tableRef = sql.table(attribute.link.table);
  const targetStatus = ctx.everyLinkedRow
    ? sql<boolean>`1 = 1`
    : statusCondition(target, 't', ctx.scope.status, ctx.scope.publication);
  if (attribute.owner) {
    const joinOn = [sql<boolean>`t.document_id = l.target_document_id`, targetStatus];
    if (target.localized) joinOn.push(sql<boolean>`t.locale = l.target_locale`);
    from = sql`${tableRef} as l join ${sql.table(target.table)} as t on ${and(joinOn)}`;
    conditions.push(sql<boolean>`l.entity_id in (${sql.join(distinct(items.map((i) => i.rowId)))})`);
    ownerKey = (row, at) => String(row[at]);
    itemKey = (item) => String(item.rowId);
    linkOrder = sql`l.target_ord`;
  } else {
    // Link rows name the owner's row: its locale is the one that was linked (as in Strapi, whose
    // links join rows), not the locale the request reads.
    const joinOn = [sql<boolean>`t.id = l.entity_id`, targetStatus];
    from = sql`${tableRef} as l join ${sql.table(target.table)} as t on ${and(joinOn)}`;
    const documentIds = [...new Set(items.map((i) => i.documentId!))];
    conditions.push(sql<boolean>`l.target_document_id in (${sql.join(documentIds)})`);
    const selfLocalized = (model as ContentType).localized;
    ownerKey = (row, at) => `${row[at]}\u0000${selfLocalized ? row[at + 1] : ''}`;
    itemKey = (item) => `${item.documentId}\u0000${selfLocalized ? item.locale : ''}`;
    linkOrder = sql`l.entity_ord`;
  }
  if (node.filters) conditions.push(compileFilter(sqlCtx, target, 't', node.filters));
  const owner = attribute.owner ? sql`l.entity_id` : sql`l.target_document_id`;
  const extra = attribute.owner ? [] : [sql`l.target_locale as ${sql.id(OWNER_LOCALE)}`];
  const owners = attribute.owner
    ? { names: [OWNER], partition: [owner] }
    : { names: [OWNER, OWNER_LOCALE], partition: [owner, sql`l.target_locale`] };
  const order = node.sort?.length ? compileOrder(sqlCtx, target, 't', node.sort) : [linkOrder, sql`l.id`, sql`t.id`];

  if (node.count) {
    const rows = await readRows(
      db,
      sql`select ${owner} as ${sql.id(OWNER)}, ${attribute.owner ? sql`` : sql`l.target_locale as __owner_locale, `}count(*) as count from ${from} where ${and(conditions)} group by ${owner}${attribute.owner ? sql`` : sql`, l.target_locale`}`,
    );
    const counts = new Map(rows.map((row) => [ownerKey(row, 0), Number(row[row.length - 1])]));
    for (const item of items) item.value[attribute.name] = { count: counts.get(itemKey(item)) ?? 0 };
    return;
  }
  const select = [...selectList(dialect, target, 't', scalars), sql`${owner} as ${sql.id(OWNER)}`, ...extra];
  const rows = await readBounded(
    ctx,
    ownedRows(select, from, and(conditions), owners, order, attribute.toMany ? node.limit : undefined),
    node,
  );
  const width = selectWidth(target, scalars);
  const groups = groupBy(rows, (row) => ownerKey(row, width));
  spendGroups(ctx, items, groups, itemKey);
  const loaded: Loaded[] = [];
  for (const item of items) {
    const rows = groups.get(itemKey(item)) ?? [];
    const values = rows.map((row) => {
      const value = decodeDocument(dialect, target, row, scalars, node.fields, ctx.rawJson);
      loaded.push({ value, ...rowKeys(row) });
      return value;
    });
    item.value[attribute.name] = attribute.toMany ? values : (values[0] ?? null);
  }
  if (node.populate) await populate(ctx, target, loaded, node.populate);
}

/**
 * The component rows of `field` below the owner rows `ids`, in their order, or in `node.sort`;
 * `node.filters` keeps only the matching ones (Strapi filters and sorts components like relations).
 */
async function componentRows(
  ctx: ReadContext,
  owner: Model,
  component: Component,
  field: string,
  ids: number[],
  scalars: ReturnType<typeof visibleScalars>,
  node: PopulateNode,
): Promise<Row[]> {
  const sqlCtx = sqlContext(ctx);
  const select = [...selectList(ctx.dialect, component, 'k', scalars), sql`c.entity_id as ${sql.id(OWNER)}`];
  const conditions = [
    sql<boolean>`c.entity_id in (${sql.join(ids)})`,
    sql<boolean>`c.field = ${field}`,
    sql<boolean>`c.component_type = ${component.uid}`,
  ];
  if (node.filters) conditions.push(compileFilter(sqlCtx, component, 'k', node.filters));
  const order = node.sort?.length ? compileOrder(sqlCtx, component, 'k', node.sort) : [sql`c.ord`, sql`c.id`];
  const from = sql`${sql.table(owner.componentLinkTable)} as c join ${sql.table(component.table)} as k on k.id = c.cmp_id`;
  return readBounded(
    ctx,
    ownedRows(
      select,
      from,
      and(conditions),
      { names: [OWNER], partition: [sql`c.entity_id`] },
      order,
      node.count ? undefined : node.limit,
    ),
    node,
  );
}

async function populateComponent(
  ctx: ReadContext,
  model: Model,
  items: Loaded[],
  attribute: ComponentAttribute,
  node: PopulateNode,
): Promise<void> {
  const component = ctx.schema.components.get(attribute.component)!;
  const scalars = visibleScalars(component, node.fields);
  const rows = await componentRows(
    ctx,
    model,
    component,
    attribute.name,
    distinct(items.map((i) => i.rowId)),
    scalars,
    node,
  );
  const width = selectWidth(component, scalars);
  const groups = groupBy(rows, (row) => Number(row[width]));
  if (node.count) {
    for (const item of items) item.value[attribute.name] = { count: groups.get(item.rowId)?.length ?? 0 };
    return;
  }
  spendGroups(ctx, items, groups, (item) => item.rowId);
  const loaded: Loaded[] = [];
  for (const item of items) {
    const values = (groups.get(item.rowId) ?? []).map((row) => {
      const value = decodeComponent(ctx.dialect, scalars, row, ctx.rawJson);
      loaded.push({ value, rowId: Number(row[ID]) });
      return value;
    });
    item.value[attribute.name] = attribute.repeatable ? values : (values[0] ?? null);
  }
  if (node.populate) await populate(ctx, component, loaded, node.populate);
}

/**
 * A dynamic zone: every component, or with `on` only the components it names (as Strapi), each
 * with its own fields, filters and populate.
 */
async function populateZone(
  ctx: ReadContext,
  model: Model,
  items: Loaded[],
  attribute: DynamicZoneAttribute,
  node: PopulateNode,
): Promise<void> {
  // Link rows: [entity_id, cmp_id, component_type].
  const links = await readBounded(
    ctx,
    sql`select c.entity_id, c.cmp_id, c.component_type from ${sql.table(model.componentLinkTable)} as c where c.entity_id in (${sql.join(distinct(items.map((i) => i.rowId)))}) and c.field = ${attribute.name} order by c.entity_id, c.ord, c.id`,
    {},
  );
  const groups = groupBy(links, (row) => Number(row[0]));
  spendGroups(ctx, items, groups, (item) => item.rowId);
  const values = new Map<string, Document>();
  for (const uid of new Set(links.map((link) => link[2] as string))) {
    const component = ctx.schema.components.get(uid);
    if (!component) continue;
    if (node.on && !node.on[uid]) continue;
    const sub = node.on ? node.on[uid]! : node;
    const scalars = visibleScalars(component, node.on ? sub.fields : undefined);
    const ids = links.filter((link) => link[2] === uid).map((link) => Number(link[1]));
    const conditions = [sql<boolean>`k.id in (${sql.join(ids)})`];
    if (node.on && sub.filters) conditions.push(compileFilter(sqlContext(ctx), component, 'k', sub.filters));
    const rows = await readRows(
      ctx.db,
      sql`select ${sql.join(selectList(ctx.dialect, component, 'k', scalars))} from ${sql.table(component.table)} as k where ${and(conditions)}`,
      // Rows by id, as many as the links just counted against the budget.
      { inline: !(node.on && sub.filters) },
    );
    const loaded: Loaded[] = [];
    for (const row of rows) {
      const value = { __component: uid, ...decodeComponent(ctx.dialect, scalars, row, ctx.rawJson) };
      values.set(`${uid}:${row[ID]}`, value);
      loaded.push({ value, rowId: Number(row[ID]) });
    }
    const nested = sub.populate && filterTree(component, sub.populate);
    if (nested && Object.keys(nested).length) await populate(ctx, component, loaded, nested);
  }
  for (const item of items) {
    item.value[attribute.name] = (groups.get(item.rowId) ?? [])
      .map((link) => values.get(`${link[2]}:${link[1]}`))
      .filter((value): value is Document => value !== undefined);
  }
}

/** The shared strategy names attributes of several components: each takes the ones it has. */
function filterTree(model: Model, tree: PopulateTree): PopulateTree {
  return Object.fromEntries(Object.entries(tree).filter(([name]) => name in model.attributes));
}

async function populateMedia(
  ctx: ReadContext,
  model: Model,
  items: Loaded[],
  attribute: MediaAttribute,
  node: PopulateNode,
): Promise<void> {
  const files = ctx.schema.contentTypes.get(FILE_UID);
  // As relations: media the caller may not read (the upload plugin's `find`) is left out.
  if (!files || (ctx.canRead && !ctx.canRead(files))) return;
  const scalars = visibleScalars(files, node.fields);
  const select = [...selectList(ctx.dialect, files, 'f', scalars), sql`m.related_id as ${sql.id(OWNER)}`];
  const from = sql`${sql.table(MEDIA_LINK_TABLE)} as m join ${sql.table(FILES_TABLE)} as f on f.id = m.file_id`;
  const where = sql<boolean>`m.related_type = ${model.uid} and m.field = ${attribute.name} and m.related_id in (${sql.join(distinct(items.map((i) => i.rowId)))})`;
  const owners = { names: [OWNER], partition: [sql`m.related_id`] };
  const rows = await readBounded(
    ctx,
    ownedRows(select, from, where, owners, [sql`m.ord`, sql`m.id`], attribute.multiple ? node.limit : undefined),
    {},
  );
  const width = selectWidth(files, scalars);
  const groups = groupBy(rows, (row) => Number(row[width]));
  spendGroups(ctx, items, groups, (item) => item.rowId);
  for (const item of items) {
    const values = (groups.get(item.rowId) ?? []).map((row) =>
      decodeDocument(ctx.dialect, files, row, scalars, node.fields, ctx.rawJson),
    );
    item.value[attribute.name] = attribute.multiple ? values : (values[0] ?? null);
  }
}

/**
 * A creator field (creators.ts): the administrator each row names, with their public fields (one
 * statement; null where the row names none or the administrator is gone).
 */
async function populateCreator(
  ctx: ReadContext,
  type: ContentType,
  items: Loaded[],
  column: string,
  name: string,
  node: PopulateNode,
): Promise<void> {
  const scalars = visibleScalars(CREATOR_MODEL, node.fields);
  const select = [...selectList(ctx.dialect, CREATOR_MODEL, 'u', scalars), sql`t.id as ${sql.id(OWNER)}`];
  const rows = await readBounded(
    ctx,
    sql`select ${sql.join(select)} from ${sql.table(type.table)} as t join ${sql.table(CREATOR_MODEL.table)} as u on u.id = ${sql.ref(`t.${column}`)} where t.id in (${sql.join(distinct(items.map((i) => i.rowId)))})`,
    {},
  );
  const width = selectWidth(CREATOR_MODEL, scalars);
  const byOwner = new Map(rows.map((row) => [Number(row[width]), row]));
  ctx.budget.spend(items.filter((item) => byOwner.has(item.rowId)).length);
  for (const item of items) {
    const row = byOwner.get(item.rowId);
    item.value[name] = row ? decodeDocument(ctx.dialect, CREATOR_MODEL, row, scalars, node.fields, ctx.rawJson) : null;
  }
}

/** The same documents in their other locales, in the version the request reads. */
async function populateLocalizations(
  ctx: ReadContext,
  type: ContentType,
  items: Loaded[],
  node: PopulateNode,
): Promise<void> {
  if (!type.localized) return;
  const scalars = visibleScalars(type, node.fields);
  const documentIds = [...new Set(items.map((i) => i.documentId!))];
  const conditions = [
    sql<boolean>`t.document_id in (${sql.join(documentIds)})`,
    statusCondition(type, 't', ctx.scope.status, ctx.scope.publication),
  ];
  // Items all of one locale (every read but `locale=*`): the rows in that locale are the items'
  // own, which the filter below drops; not reading them spares the page's rows read again, bodies
  // and all (`populate=*` on a page of 25 articles with no other locale: 25 -> 0 rows).
  const locale = items[0]?.locale;
  if (typeof locale === 'string' && items.every((item) => item.locale === locale))
    conditions.push(sql<boolean>`(t.locale <> ${locale} or t.locale is null)`);
  const rows = await readBounded(
    ctx,
    sql`select ${sql.join(selectList(ctx.dialect, type, 't', scalars))} from ${sql.table(type.table)} as t where ${and(conditions)} order by t.locale`,
    {},
  );
  const groups = groupBy(rows, (row) => row[DOCUMENT_ID] as string);
  const others = items.map((item) => (groups.get(item.documentId!) ?? []).filter((row) => row[LOCALE] !== item.locale));
  ctx.budget.spend(others.reduce((sum, list) => sum + list.length, 0));
  const loaded: Loaded[] = [];
  items.forEach((item, index) => {
    item.value.localizations = others[index]!.map((row) => {
      const value = decodeDocument(ctx.dialect, type, row, scalars, node.fields, ctx.rawJson);
      loaded.push({ value, ...rowKeys(row) });
      return value;
    });
  });
  if (node.populate) await populate(ctx, type, loaded, node.populate);
}
