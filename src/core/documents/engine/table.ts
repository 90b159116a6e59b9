/**
 * A system table as a query-engine model (`strapi.db.query('strapi::core-store')`,
 * `strapi.db.query('admin::user')`): Strapi's own models that Vellum keeps in a table of its own
 * rather than in a content-type. Rows answer the model's fields (plus `constants`: fields Strapi's
 * model has and the table does not keep); `where` and `orderBy` are parsed by the query parser
 * against a model of the row and compiled by the query layer, so nothing reaches SQL but bound
 * values. Writes are allowed on the fields marked writable, and refused with the model's reason
 * otherwise.
 */
import { sql, type RawBuilder } from 'kysely';
import type { Database } from '../../database/connection.js';
import { CORE_STORE_TABLE } from '../../database/store.js';
import { columnTypeOf } from '../../database/tables.js';
import type { Db } from '../../database/dialect.js';
import { isPlainObject } from '../../objects.js';
import { FilterParser } from '../../query/parse/filters.js';
import { Aliases } from '../../query/sql/joins.js';
import { compileFilter, type SqlContext } from '../../query/sql/where.js';
import type { Component, ScalarAttribute, ScalarType, Schema } from '../../schema/model.js';
import type { Document } from '../rows.js';
import type { ModelAdapter, QueryParams } from './index.js';
import { bad, boundOf, checkParams, orderSql, pageSql, selectOf } from './system-params.js';

export interface TableField {
  name: string;
  column: string;
  type: ScalarType;
  /** A write may set it (text and string fields only). */
  writable?: boolean;
}

export interface TableModel {
  uid: string;
  table: string;
  /** The row's fields besides `id` (column `id`). */
  fields: TableField[];
  /** Fields of Strapi's model that the table does not keep: every row answers them with these values. */
  constants?: Record<string, unknown>;
  /** What `populate` of each name answers (relations Vellum does not keep as rows). */
  populates?: Record<string, unknown>;
  /** Why writes are refused; absent, writes set the writable fields. */
  readOnly?: string;
}

const common = { required: false, private: false, localized: false, configurable: false, unique: false };

export function tableAdapter(database: Database, schema: Schema, spec: TableModel): ModelAdapter {
  const scalars: ScalarAttribute[] = spec.fields.map((field) => ({
    ...common,
    name: field.name,
    kind: 'scalar',
    type: field.type,
    column: field.column,
  }));
  const model: Component = {
    modelType: 'component',
    uid: spec.uid,
    category: 'system',
    displayName: spec.uid,
    collectionName: spec.table,
    table: spec.table,
    componentLinkTable: `${spec.table}_cmps`,
    attributes: Object.fromEntries(scalars.map((attribute) => [attribute.name, attribute])),
    scalars,
    file: `(built-in) ${spec.uid}`,
  };
  const constants = spec.constants ?? {};
  const names = ['id', ...spec.fields.map((field) => field.name), ...Object.keys(constants)];
  const db = (): Db => database.db;

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
    return node ? compileFilter(sqlCtx, model, 't', node) : sql<boolean>`1 = 1`;
  };

  const populateOf = (value: unknown): string[] => {
    if (value === undefined || value === null || value === false) return [];
    const available = Object.keys(spec.populates ?? {});
    if (value === true || value === '*') return available;
    const list =
      typeof value === 'string'
        ? [value]
        : Array.isArray(value)
          ? value
          : isPlainObject(value)
            ? Object.keys(value).filter((key) => value[key] !== false)
            : bad('Invalid populate', 'populate');
    for (const name of list)
      if (typeof name !== 'string' || !available.includes(name))
        bad(
          `Invalid key ${String(name)} in populate${available.length ? ` (${available.join(', ')})` : `: ${spec.uid} has no relations`}`,
          'populate',
        );
    return list as string[];
  };

  const read = async (params: QueryParams, one: boolean): Promise<Document[]> => {
    checkParams(params);
    const select = selectOf(params, names);
    const populate = populateOf(params.populate);
    const bounds = pageSql(one ? 1 : boundOf(params.limit, 'limit'), boundOf(params.offset, 'offset'));
    const columns = sql.join([sql`t.id`, ...spec.fields.map((field) => sql.ref(`t.${field.column}`))]);
    const { rows } = await sql<
      Record<string, unknown>
    >`select ${columns} from ${sql.table(spec.table)} as t where ${whereOf(params)} order by ${orderSql(schema, model, 't', params)}${bounds}`.execute(
      db(),
    );
    return rows.map((row) => {
      const full: Document = { id: Number(row.id) };
      for (const field of spec.fields)
        full[field.name] = database.dialect.decode(columnTypeOf(field.type), row[field.column]);
      Object.assign(full, structuredClone(constants));
      const out: Document = select ? Object.fromEntries(select.map((key) => [key, full[key]])) : full;
      for (const name of populate) out[name] = structuredClone(spec.populates![name]);
      return out;
    });
  };

  const idsOf = async (trx: Db, params: QueryParams, limit?: number): Promise<number[]> => {
    const bounded = limit === undefined ? sql`` : sql` limit ${sql.lit(limit)}`;
    const { rows } = await sql<{
      id: number | string;
    }>`select t.id from ${sql.table(spec.table)} as t where ${whereOf(params)} order by t.id${bounded}`.execute(trx);
    return rows.map((row) => Number(row.id));
  };

  /** The columns a write sets; Strapi's query engine ignores keys the model lacks, and so does this. */
  const columnsOf = (data: unknown): Record<string, string | null> => {
    if (spec.readOnly) bad(spec.readOnly, 'data');
    if (!isPlainObject(data)) bad('A write expects a data object', 'data');
    const columns: Record<string, string | null> = {};
    for (const field of spec.fields) {
      const value = data[field.name];
      if (value === undefined) continue;
      if (!field.writable) bad(`${field.name} of ${spec.uid} cannot be written`, field.name);
      if (value !== null && typeof value !== 'string') bad(`${field.name} must be a string or null`, field.name);
      columns[field.column] = value;
    }
    return columns;
  };

  const refuse = () => (spec.readOnly ? bad(spec.readOnly, 'data') : undefined);
  const needsWhere = (params: QueryParams, method: string) => {
    if (!isPlainObject(params.where) || Object.keys(params.where).length === 0)
      bad(`${method} requires a where parameter`, 'where');
  };
  const reread = (id: number, params: QueryParams) =>
    adapter.findOne({
      where: { id },
      ...(params.select ? { select: params.select } : {}),
      ...(params.populate ? { populate: params.populate } : {}),
    });

  const adapter = {
    findOne: async (params: QueryParams = {}) => (await read(params, true))[0] ?? null,
    findMany: (params: QueryParams = {}) => read(params, false),
    async count(params: QueryParams = {}) {
      const { rows } = await sql<{
        total: number | string;
      }>`select count(*) as total from ${sql.table(spec.table)} as t where ${whereOf(params)}`.execute(db());
      return Number(rows[0]?.total ?? 0);
    },
    async create(params: QueryParams) {
      checkParams(params);
      const columns = columnsOf(params.data);
      const id = await database.write((trx) => database.dialect.insertReturningId(trx, spec.table, columns));
      return (await reread(id, params))!;
    },
    async createMany(params: QueryParams) {
      refuse();
      if (!Array.isArray(params.data) || params.data.length === 0)
        bad('createMany expects a non-empty data array', 'data');
      const rows = params.data.map(columnsOf);
      const ids = await database.write(async (trx) => {
        const created: number[] = [];
        for (const columns of rows) created.push(await database.dialect.insertReturningId(trx, spec.table, columns));
        return created;
      });
      return { count: ids.length, ids };
    },
    async update(params: QueryParams) {
      checkParams(params);
      refuse();
      needsWhere(params, 'update');
      const columns = columnsOf(params.data);
      const id = await database.write(async (trx) => {
        const [found] = await idsOf(trx, params, 1);
        if (found !== undefined && Object.keys(columns).length > 0)
          await trx.updateTable(spec.table).set(columns).where('id', '=', found).execute();
        return found;
      });
      return id === undefined ? null : reread(id, params);
    },
    async updateMany(params: QueryParams) {
      refuse();
      const columns = columnsOf(params.data);
      const count = await database.write(async (trx) => {
        const ids = await idsOf(trx, params);
        if (ids.length > 0 && Object.keys(columns).length > 0)
          await trx.updateTable(spec.table).set(columns).where('id', 'in', ids).execute();
        return ids.length;
      });
      return { count };
    },
    async delete(params: QueryParams) {
      checkParams(params);
      refuse();
      needsWhere(params, 'delete');
      const row = await adapter.findOne({
        where: params.where,
        ...(params.select ? { select: Array.isArray(params.select) ? ['id', ...params.select] : params.select } : {}),
      });
      if (!row) return null;
      await database.write((trx) => trx.deleteFrom(spec.table).where('id', '=', Number(row.id)).execute());
      return row;
    },
    async deleteMany(params: QueryParams = {}) {
      refuse();
      const count = await database.write(async (trx) => {
        const ids = await idsOf(trx, params);
        if (ids.length > 0) await trx.deleteFrom(spec.table).where('id', 'in', ids).execute();
        return ids.length;
      });
      return { count };
    },
  };
  return adapter;
}

export const CORE_STORE_UID = 'strapi::core-store';

/** Strapi's core store (`strapi.store` keeps its values there: core/database/store.ts), every field writable as in Strapi. */
export const coreStoreModel: TableModel = {
  uid: CORE_STORE_UID,
  table: CORE_STORE_TABLE,
  fields: ['key', 'value', 'type', 'environment', 'tag'].map((name) => ({
    name,
    column: name,
    type: name === 'value' ? 'text' : 'string',
    writable: true,
  })),
};
