/**
 * The query engine, as Strapi's `strapi.db.query(uid)`: reads and writes of a model's rows with
 * the query engine's parameters (`where`, `select`, `populate`, `orderBy`, `limit`, `offset`,
 * `data`), firing the lifecycle events of each call as Strapi's entity manager does (`create`
 * re-reads its row with `findOne`, `delete` reads the row it deletes). Models that are not
 * content-types (the users-permissions permissions, a system table) are served by an adapter
 * that a higher layer registers with the same interface.
 * Each write is one write transaction of its own (`Database.write`).
 */
import type { Db } from '../../database/dialect.js';
import { NotFoundError, ValidationError } from '../../errors.js';
import { isPlainObject } from '../../objects.js';
import type { ContentType } from '../../schema/model.js';
import type { DocumentContext } from '../context.js';
import type { LifecycleAction, LifecycleHooks } from '../hooks.js';
import type { Document } from '../rows.js';
import { parseRowQuery } from './params.js';
import { countRows, matchingIds, readRowsOf } from './read.js';
import { dataObject, deleteRows, insertRow, prepareRow, updateRow, updateRows, type PreparedRow } from './write.js';

export type QueryParams = Record<string, unknown>;

/** `strapi.db.query(uid)`. */
export interface RowRepository {
  findOne(params?: QueryParams): Promise<Document | null>;
  findMany(params?: QueryParams): Promise<Document[]>;
  findWithCount(params?: QueryParams): Promise<[Document[], number]>;
  findPage(
    params?: QueryParams,
  ): Promise<{ results: Document[]; pagination: { page: number; pageSize: number; pageCount: number; total: number } }>;
  count(params?: QueryParams): Promise<number>;
  create(params: QueryParams): Promise<Document>;
  createMany(params: QueryParams): Promise<{ count: number; ids: number[] }>;
  update(params: QueryParams): Promise<Document | null>;
  updateMany(params: QueryParams): Promise<{ count: number }>;
  delete(params: QueryParams): Promise<Document | null>;
  deleteMany(params?: QueryParams): Promise<{ count: number }>;
}

/** A model served by a higher layer (a system table): the repository methods it answers. */
export type ModelAdapter = Pick<RowRepository, 'findOne' | 'findMany' | 'count' | 'create' | 'update' | 'delete'> &
  Partial<Pick<RowRepository, 'createMany' | 'updateMany' | 'deleteMany'>>;

const params = (value: unknown, method: string): QueryParams => {
  if (value === undefined || value === null) return {};
  if (!isPlainObject(value)) throw new ValidationError(`${method} expects an object of parameters`);
  return value;
};

/** `findWithCount` and `findPage` over an adapter's or a repository's `findMany` and `count`. */
function withPages(base: Omit<RowRepository, 'findWithCount' | 'findPage'>): RowRepository {
  return Object.assign(base, {
    async findWithCount(given?: QueryParams): Promise<[Document[], number]> {
      const p = params(given, 'findWithCount');
      const { limit: _limit, offset: _offset, orderBy: _orderBy, populate: _populate, select: _select, ...counted } = p;
      return Promise.all([base.findMany(p), base.count(counted)]);
    },
    async findPage(given?: QueryParams) {
      const { page: rawPage = 1, pageSize: rawSize = 10, ...rest } = params(given, 'findPage');
      const page = Number(rawPage);
      const pageSize = Number(rawSize);
      if (!Number.isSafeInteger(page) || page < 1)
        throw new ValidationError('page must be a positive integer', { key: 'page' });
      if (!Number.isSafeInteger(pageSize) || pageSize < 1)
        throw new ValidationError('pageSize must be a positive integer', { key: 'pageSize' });
      const {
        limit: _limit,
        offset: _offset,
        orderBy: _orderBy,
        populate: _populate,
        select: _select,
        ...counted
      } = rest;
      const [results, total] = await Promise.all([
        base.findMany({ ...rest, limit: pageSize, offset: (page - 1) * pageSize }),
        base.count(counted),
      ]);
      return { results, pagination: { page, pageSize, pageCount: Math.ceil(total / pageSize), total } };
    },
  });
}

export class QueryEngine {
  private readonly adapters = new Map<string, RowRepository>();
  private readonly repositories = new Map<ContentType, RowRepository>();

  constructor(private readonly ctx: DocumentContext & { lifecycles: LifecycleHooks }) {}

  /** Serves `uid` with an adapter (a model that is not a content-type). */
  register(uid: string, adapter: ModelAdapter): void {
    const missing = (name: string) => async () => {
      throw new ValidationError(`${name} is not available on ${uid}`);
    };
    this.adapters.set(
      uid,
      withPages({
        createMany: missing('createMany'),
        updateMany: missing('updateMany'),
        deleteMany: missing('deleteMany'),
        ...adapter,
      }),
    );
  }

  /** The rows of a content-type (or of a registered model); an unknown uid is a NotFoundError. */
  query(uid: string): RowRepository {
    const adapter = this.adapters.get(uid);
    if (adapter) return adapter;
    const type = this.ctx.schema.contentTypes.get(uid);
    if (!type)
      throw new NotFoundError(`No model ${JSON.stringify(uid)} (strapi.db.query takes a content-type uid)`, { uid });
    let repository = this.repositories.get(type);
    if (!repository) this.repositories.set(type, (repository = contentTypeRows(this.ctx, type)));
    return repository;
  }
}

/** The rows of one content-type. */
function contentTypeRows(ctx: DocumentContext & { lifecycles: LifecycleHooks }, type: ContentType): RowRepository {
  const { lifecycles } = ctx;
  const db = (): Db => ctx.database.db;
  const write = <T>(fn: (trx: Db) => Promise<T>): Promise<T> => ctx.database.write(fn);
  /** `before` handlers, the call, `after` handlers on its result (skipped when no subscriber covers the type). */
  const evented = async <T>(action: string, p: QueryParams, call: () => Promise<T>): Promise<T> => {
    if (!lifecycles.covers(type.uid)) return call();
    const states = await lifecycles.run(`before${action}` as LifecycleAction, type, { params: p });
    const result = await call();
    await lifecycles.run(`after${action}` as LifecycleAction, type, { params: p, result }, states);
    return result;
  };

  const repository = {
    findOne(given?: QueryParams) {
      const p = params(given, 'findOne');
      return evented(
        'FindOne',
        p,
        async () => (await readRowsOf(ctx, db(), type, { ...parseRowQuery(ctx.schema, type, p), limit: 1 }))[0] ?? null,
      );
    },
    findMany(given?: QueryParams) {
      const p = params(given, 'findMany');
      return evented('FindMany', p, () => readRowsOf(ctx, db(), type, parseRowQuery(ctx.schema, type, p)));
    },
    count(given?: QueryParams) {
      const p = params(given, 'count');
      return evented('Count', p, () =>
        countRows(ctx, db(), type, parseRowQuery(ctx.schema, type, { where: p.where ?? p.filters }).filter),
      );
    },
    create(given: QueryParams) {
      const p = params(given, 'create');
      return evented('Create', p, async () => {
        const row = await prepareRow(ctx, db(), type, dataObject(p.data, 'create'), 'create');
        const id = await write((trx) => insertRow(ctx, trx, type, row));
        return (await repository.findOne({
          where: { id },
          ...(p.select ? { select: p.select } : {}),
          ...(p.populate ? { populate: p.populate } : {}),
        }))!;
      });
    },
    createMany(given: QueryParams) {
      const p = params(given, 'createMany');
      return evented('CreateMany', p, async () => {
        if (!Array.isArray(p.data))
          throw new ValidationError('createMany expects data to be an array', { key: 'data' });
        if (p.data.length === 0) throw new ValidationError('createMany has nothing to insert', { key: 'data' });
        const rows: PreparedRow[] = [];
        for (const item of p.data)
          rows.push(await prepareRow(ctx, db(), type, dataObject(item, 'createMany'), 'create', true));
        const ids = await write(async (trx) => {
          const inserted: number[] = [];
          for (const row of rows) inserted.push(await insertRow(ctx, trx, type, row));
          return inserted;
        });
        return { count: ids.length, ids };
      });
    },
    update(given: QueryParams) {
      const p = params(given, 'update');
      return evented('Update', p, async () => {
        const data = dataObject(p.data, 'update');
        if (!isPlainObject(p.where) || Object.keys(p.where).length === 0)
          throw new ValidationError('update requires a where parameter', { key: 'where' });
        const [id] = await matchingIds(ctx, db(), type, parseRowQuery(ctx.schema, type, { where: p.where }).filter, 1);
        if (id === undefined) return null;
        const row = await prepareRow(ctx, db(), type, data, 'update');
        await write((trx) => updateRow(ctx, trx, type, id, row));
        return repository.findOne({
          where: { id },
          ...(p.select ? { select: p.select } : {}),
          ...(p.populate ? { populate: p.populate } : {}),
        });
      });
    },
    updateMany(given: QueryParams) {
      const p = params(given, 'updateMany');
      return evented('UpdateMany', p, async () => {
        const row = await prepareRow(ctx, db(), type, dataObject(p.data, 'updateMany'), 'update', true);
        if (Object.keys(row.values).length === 0 && Object.keys(row.system).length === 0)
          throw new ValidationError('updateMany requires data', { key: 'data' });
        const filter = parseRowQuery(ctx.schema, type, { where: p.where ?? p.filters }).filter;
        const count = await write(async (trx) =>
          updateRows(ctx, trx, type, await matchingIds(ctx, trx, type, filter), row),
        );
        return { count };
      });
    },
    delete(given: QueryParams) {
      const p = params(given, 'delete');
      return evented('Delete', p, async () => {
        if (!isPlainObject(p.where) || Object.keys(p.where).length === 0)
          throw new ValidationError('delete requires a where parameter', { key: 'where' });
        const select = Array.isArray(p.select)
          ? ['id', ...p.select]
          : typeof p.select === 'string'
            ? ['id', p.select]
            : undefined;
        const entity = await repository.findOne({
          where: p.where,
          ...(select ? { select } : {}),
          ...(p.populate ? { populate: p.populate } : {}),
        });
        if (!entity) return null;
        await write((trx) => deleteRows(ctx, trx, type, [Number(entity.id)]));
        return entity;
      });
    },
    deleteMany(given?: QueryParams) {
      const p = params(given, 'deleteMany');
      return evented('DeleteMany', p, async () => {
        const filter = parseRowQuery(ctx.schema, type, { where: p.where ?? p.filters }).filter;
        const count = await write(async (trx) => {
          const { count, gone } = await deleteRows(ctx, trx, type, await matchingIds(ctx, trx, type, filter));
          // Strapi 5.54's content-releases subscribes to `afterDeleteMany` of draft-and-publish
          // collection types (not single types, not `delete`): the entries gone leave their releases.
          if (gone.length > 0 && type.draftAndPublish && type.kind === 'collectionType')
            await ctx.deletions?.deleted(trx, type, gone);
          return count;
        });
        return { count };
      });
    },
  };
  return withPages(repository);
}
