/**
 * `plugin::users-permissions.permission` for the query engine (`strapi.db.query(...)`), as Strapi
 * serves it: rows `{ id, action }` with a `role` relation. Vellum keeps grants in the system table
 * `up_permissions` (role documentId + action), not in a content-type: this adapter maps the model
 * onto it, so that a bootstrap granting Public an action with
 * `create({ data: { action, role: publicRole.id } })`, listing a role's grants with
 * `findMany({ where: { role: id } })`, or revoking with `delete`, works as in Strapi.
 *
 * Conditions are parsed by the query parser against a model of the row (`id`, `action`, `role`)
 * and compiled by the query layer; a condition on the role is compiled on the role type's table.
 * Rows answer `id` and `action` (Strapi's also carry documentId and timestamps, which
 * `up_permissions` does not keep).
 */
import { sql, type RawBuilder } from 'kysely';
import type { Database } from '../../core/database/connection.js';
import type { Db } from '../../core/database/dialect.js';
import { bad, boundOf, checkParams, orderSql, pageSql, selectOf } from '../../core/documents/engine/system-params.js';
import type { ModelAdapter, QueryParams, QueryEngine } from '../../core/documents/service.js';
import { isPlainObject } from '../../core/objects.js';
import { FilterParser } from '../../core/query/parse/filters.js';
import { Aliases } from '../../core/query/sql/joins.js';
import { and, or } from '../../core/query/sql/scope.js';
import { compileFilter, type SqlContext } from '../../core/query/sql/where.js';
import type { FilterNode, SortItem } from '../../core/query/types.js';
import type { Component, ContentType, RelationAttribute, ScalarAttribute, Schema } from '../../core/schema/model.js';
import { PERMISSIONS_TABLE, ROLE_UID } from './model.js';

export const PERMISSION_UID = 'plugin::users-permissions.permission';

type Row = Record<string, unknown>;

const common = { required: false, private: false, localized: false, configurable: false };

/** The row as the query parser sees it: `action`, and `role` leading to the role type. */
function permissionModel(roleType: ContentType): Component {
  const action: ScalarAttribute = {
    ...common,
    name: 'action',
    kind: 'scalar',
    type: 'string',
    column: 'action',
    unique: false,
  };
  const role: RelationAttribute = {
    ...common,
    name: 'role',
    kind: 'relation',
    relation: 'manyToOne',
    target: roleType.uid,
    toMany: false,
    owner: true,
    // Never read: conditions on the role are compiled here, on `role_document_id`.
    link: {
      table: PERMISSIONS_TABLE,
      ownerUid: PERMISSION_UID,
      ownerAttribute: 'role',
      targetUid: roleType.uid,
      ownerToMany: false,
      targetToMany: false,
    },
  };
  return {
    modelType: 'component',
    uid: PERMISSION_UID,
    category: 'users-permissions',
    displayName: 'Permission',
    collectionName: PERMISSIONS_TABLE,
    table: PERMISSIONS_TABLE,
    componentLinkTable: `${PERMISSIONS_TABLE}_cmps`,
    attributes: { action, role },
    scalars: [action],
    file: '(built-in) plugin::users-permissions.permission',
  };
}

const FIELDS = ['id', 'action'];

/** The role a write names: its id (a number or digits), `{ id }`, `{ documentId }`, a documentId, or `connect`/`set` of one of those. */
function roleRef(value: unknown): { id: number } | { documentId: string } {
  if (isPlainObject(value)) {
    const list = value.connect ?? value.set;
    if (list !== undefined)
      return roleRef(Array.isArray(list) ? (list.length === 1 ? list[0] : bad('role takes one role', 'role')) : list);
    if (value.id !== undefined) return roleRef(value.id);
    if (typeof value.documentId === 'string') return { documentId: value.documentId };
  }
  if (typeof value === 'number' && Number.isSafeInteger(value)) return { id: value };
  if (typeof value === 'string' && /^\d+$/.test(value)) return { id: Number(value) };
  if (typeof value === 'string' && value !== '') return { documentId: value };
  return bad('role must name a role: its id, { id }, or its documentId', 'role');
}

/** Permissions are ordered by their own columns: the role is another table, not joined. */
function throughRelation(item: SortItem): void {
  if (item.through.length > 0) bad('Permissions can be ordered by id or action only', 'orderBy');
}

export function permissionAdapter(database: Database, schema: Schema, engine: QueryEngine): ModelAdapter {
  const roleType = schema.contentTypes.get(ROLE_UID)!;
  const model = permissionModel(roleType);
  const db = (): Db => database.db;
  const write = <T>(fn: (trx: Db) => Promise<T>): Promise<T> => database.write(fn);

  /** The condition of a parsed `where` on `up_permissions` as `p`. */
  const condition = (node: FilterNode, sqlCtx: SqlContext): RawBuilder<boolean> => {
    switch (node.kind) {
      case 'and':
        return and(node.children.map((child) => condition(child, sqlCtx)));
      case 'or':
        return or(node.children.map((child) => condition(child, sqlCtx)));
      case 'not':
        return sql<boolean>`not coalesce(${condition(node.child, sqlCtx)}, false)`;
      case 'compare':
        return compileFilter(sqlCtx, model, 'p', node);
      case 'relation':
        return sql<boolean>`exists (select 1 from ${sql.table(roleType.table)} as r where r.document_id = p.role_document_id and ${compileFilter(sqlCtx, roleType, 'r', node.filter)})`;
      case 'component':
      case 'creator':
        return bad('Invalid condition', 'where');
    }
  };

  const whereOf = (params: QueryParams): RawBuilder<boolean> => {
    const value = params.where ?? params.filters;
    if (value === undefined || value === null) return sql<boolean>`1 = 1`;
    const node = new FilterParser(schema, { hidden: true }).parse(model, value, ['where']);
    const sqlCtx: SqlContext = {
      schema,
      dialect: database.dialect,
      scope: { status: 'published', locale: null },
      aliases: new Aliases(),
    };
    return node ? condition(node, sqlCtx) : sql<boolean>`1 = 1`;
  };

  /** `populate` of the role: `role`, `['role']`, `{ role: true | { select, populate, ... } }`, `*`, `true`. */
  const rolePopulate = (value: unknown): QueryParams | undefined => {
    if (value === undefined || value === null || value === false) return undefined;
    if (value === true || value === '*' || value === 'role') return {};
    if (Array.isArray(value))
      return value.length === 0
        ? undefined
        : value.every((item) => item === 'role' || item === '*')
          ? {}
          : bad('Only role can be populated on permissions', 'populate');
    if (isPlainObject(value)) {
      for (const key of Object.keys(value))
        if (key !== 'role' && key !== '*') bad('Only role can be populated on permissions', 'populate');
      const inner = value.role ?? value['*'];
      if (inner === undefined || inner === false) return undefined;
      return isPlainObject(inner) ? inner : {};
    }
    return bad('Only role can be populated on permissions', 'populate');
  };

  const read = async (params: QueryParams, one: boolean): Promise<Row[]> => {
    checkParams(params);
    const select = selectOf(params, FIELDS);
    const populate = rolePopulate(params.populate);
    const bounds = pageSql(one ? 1 : boundOf(params.limit, 'limit'), boundOf(params.offset, 'offset'));
    const { rows } = await sql<{
      id: number | string;
      action: string;
      role_document_id: string;
    }>`select p.id, p.action, p.role_document_id from ${sql.table(PERMISSIONS_TABLE)} as p where ${whereOf(params)} order by ${orderSql(schema, model, 'p', params, throughRelation)}${bounds}`.execute(
      db(),
    );
    const roles = new Map<string, Row>();
    if (populate && rows.length > 0) {
      const { select: roleSelect, ...rest } = populate;
      const selected = Array.isArray(roleSelect)
        ? [...new Set(['documentId', ...(roleSelect as string[])])]
        : undefined;
      const found = await engine.query(ROLE_UID).findMany({
        ...rest,
        ...(selected ? { select: selected } : {}),
        where: {
          $and: [
            { documentId: { $in: [...new Set(rows.map((row) => row.role_document_id))] } },
            ...(rest.where ? [rest.where] : []),
          ],
        },
      });
      for (const role of found) {
        const documentId = String(role.documentId);
        if (selected && !(roleSelect as string[]).includes('documentId')) delete role.documentId;
        roles.set(documentId, role);
      }
    }
    return rows.map((row) => {
      const full: Row = { id: Number(row.id), action: row.action };
      const out: Row = select
        ? Object.fromEntries(
            (populate && !select.includes('id') ? ['id', ...select] : select).map((key) => [key, full[key]]),
          )
        : full;
      if (populate) out.role = roles.get(row.role_document_id) ?? null;
      return out;
    });
  };

  const idsOf = async (trx: Db, params: QueryParams, limit?: number): Promise<number[]> => {
    const bound = limit === undefined ? sql`` : sql` limit ${sql.lit(limit)}`;
    const { rows } = await sql<{
      id: number | string;
    }>`select p.id from ${sql.table(PERMISSIONS_TABLE)} as p where ${whereOf(params)} order by p.id${bound}`.execute(
      trx,
    );
    return rows.map((row) => Number(row.id));
  };

  const roleDocumentId = async (trx: Db, value: unknown): Promise<string> => {
    const ref = roleRef(value);
    const query = trx.selectFrom(roleType.table).select('document_id');
    const row = await (
      'id' in ref ? query.where('id', '=', ref.id) : query.where('document_id', '=', ref.documentId)
    ).executeTakeFirst();
    if (!row) bad(`No role ${JSON.stringify(value)}`, 'role');
    return String(row.document_id);
  };

  /** The columns a write sets: `action` (a non-empty text) and `role`; other keys are dropped. */
  const columnsOf = async (
    trx: Db,
    data: unknown,
    creating: boolean,
  ): Promise<{ action?: string; role_document_id?: string }> => {
    if (!isPlainObject(data)) bad('A permission write expects a data object', 'data');
    const columns: { action?: string; role_document_id?: string } = {};
    // Other keys are ignored, as Strapi's query engine writes a model's attributes only: a bootstrap
    // written for Strapi 4's permission rows (`{ action, role, enabled: true }`) runs on Strapi 5.
    if (data.action !== undefined) {
      if (typeof data.action !== 'string' || data.action === '')
        bad('action must be an action name, e.g. api::article.article.find', 'action');
      columns.action = data.action;
    }
    if (data.role !== undefined && data.role !== null) columns.role_document_id = await roleDocumentId(trx, data.role);
    if (creating && (!columns.action || !columns.role_document_id))
      bad('A permission needs an action and a role', columns.action ? 'role' : 'action');
    return columns;
  };

  const adapter = {
    findOne: async (params: QueryParams = {}) => (await read(params, true))[0] ?? null,
    findMany: (params: QueryParams = {}) => read(params, false),
    async count(params: QueryParams = {}) {
      const { rows } = await sql<{
        total: number | string;
      }>`select count(*) as total from ${sql.table(PERMISSIONS_TABLE)} as p where ${whereOf(params)}`.execute(db());
      return Number(rows[0]?.total ?? 0);
    },
    /** A grant the role already has is not added twice (Strapi would): the existing row answers. */
    async create(params: QueryParams) {
      checkParams(params);
      const id = await write(async (trx) => {
        const columns = (await columnsOf(trx, params.data, true)) as Required<Awaited<ReturnType<typeof columnsOf>>>;
        const existing = await trx
          .selectFrom(PERMISSIONS_TABLE)
          .select('id')
          .where('role_document_id', '=', columns.role_document_id)
          .where('action', '=', columns.action)
          .executeTakeFirst();
        return existing ? Number(existing.id) : database.dialect.insertReturningId(trx, PERMISSIONS_TABLE, columns);
      });
      return (await adapter.findOne({
        where: { id },
        ...(params.select ? { select: params.select } : {}),
        ...(params.populate ? { populate: params.populate } : {}),
      }))!;
    },
    async createMany(params: QueryParams) {
      if (!Array.isArray(params.data) || params.data.length === 0)
        bad('createMany expects a non-empty data array', 'data');
      const ids = await write(async (trx) => {
        const created: number[] = [];
        for (const item of params.data as unknown[]) {
          const columns = (await columnsOf(trx, item, true)) as Required<Awaited<ReturnType<typeof columnsOf>>>;
          const existing = await trx
            .selectFrom(PERMISSIONS_TABLE)
            .select('id')
            .where('role_document_id', '=', columns.role_document_id)
            .where('action', '=', columns.action)
            .executeTakeFirst();
          created.push(
            existing ? Number(existing.id) : await database.dialect.insertReturningId(trx, PERMISSIONS_TABLE, columns),
          );
        }
        return created;
      });
      return { count: ids.length, ids };
    },
    async update(params: QueryParams) {
      checkParams(params);
      if (!isPlainObject(params.where) || Object.keys(params.where).length === 0)
        bad('update requires a where parameter', 'where');
      const id = await write(async (trx) => {
        const [found] = await idsOf(trx, params, 1);
        if (found === undefined) return undefined;
        const columns = await columnsOf(trx, params.data, false);
        if (Object.keys(columns).length)
          await trx.updateTable(PERMISSIONS_TABLE).set(columns).where('id', '=', found).execute();
        return found;
      });
      return id === undefined
        ? null
        : adapter.findOne({ where: { id }, ...(params.populate ? { populate: params.populate } : {}) });
    },
    async updateMany(params: QueryParams) {
      const count = await write(async (trx) => {
        const ids = await idsOf(trx, params);
        const columns = await columnsOf(trx, params.data, false);
        if (ids.length && Object.keys(columns).length)
          await trx.updateTable(PERMISSIONS_TABLE).set(columns).where('id', 'in', ids).execute();
        return ids.length;
      });
      return { count };
    },
    async delete(params: QueryParams) {
      checkParams(params);
      if (!isPlainObject(params.where) || Object.keys(params.where).length === 0)
        bad('delete requires a where parameter', 'where');
      const row = await adapter.findOne({
        where: params.where,
        ...(params.populate ? { populate: params.populate } : {}),
      });
      if (!row) return null;
      await write((trx) => trx.deleteFrom(PERMISSIONS_TABLE).where('id', '=', Number(row.id)).execute());
      return row;
    },
    async deleteMany(params: QueryParams = {}) {
      const count = await write(async (trx) => {
        const ids = await idsOf(trx, params);
        if (ids.length) await trx.deleteFrom(PERMISSIONS_TABLE).where('id', 'in', ids).execute();
        return ids.length;
      });
      return { count };
    },
  };
  return adapter;
}
