/**
 * Strapi's core store (`strapi.store`): small values by key, kept in the database so that every
 * node shares them. The table is Strapi's own, `strapi_core_store_settings`, with its columns and
 * its encoding: a value is stored as JSON text beside its `typeof`, under the key
 * `<type>[_<name>]_<key>`, scoped by `environment` and `tag`.
 */
import { indexName } from '../schema/naming.js';
import type { Db } from './dialect.js';
import type { RowId } from './system-tables.js';
import type { TableSpec } from './tables.js';

export const CORE_STORE_TABLE = 'strapi_core_store_settings';

export const coreStoreTable: TableSpec = {
  name: CORE_STORE_TABLE,
  columns: [
    { name: 'id', type: 'id' },
    { name: 'key', type: 'string' },
    { name: 'value', type: 'text' },
    { name: 'type', type: 'string' },
    { name: 'environment', type: 'string' },
    { name: 'tag', type: 'string' },
  ],
  indexes: [{ name: indexName(CORE_STORE_TABLE, ['key']), columns: ['key'] }],
};

export interface CoreStoreRow {
  id: RowId;
  key: string | null;
  value: string | null;
  type: string | null;
  environment: string | null;
  tag: string | null;
}

declare module './system-tables.js' {
  interface SystemTables {
    strapi_core_store_settings: CoreStoreRow;
  }
}

/** What `get`, `set` and `delete` take (a scoped store merges its defaults in first). */
export interface StoreParams {
  key: string;
  value?: unknown;
  /** The key's prefix: `plugin`, `core`, ... (`get` defaults it to `core`, as Strapi). */
  type?: string;
  name?: string;
  environment?: string | null;
  tag?: string | null;
}

export interface CoreStore {
  get(params: StoreParams): Promise<unknown>;
  /** Stores a value; `also` runs in the same write transaction (the audit entry of the change). */
  set(params: StoreParams, also?: (trx: Db) => Promise<void>): Promise<void>;
  delete(params: StoreParams): Promise<void>;
}

const where = (params: StoreParams, type: string | undefined) => ({
  key: `${type}${params.name ? `_${params.name}` : ''}_${params.key}`,
  environment: params.environment || null,
  tag: params.tag || null,
});

/** The row of a key, null scopes compared as nulls. */
function find(db: Db, scope: ReturnType<typeof where>) {
  let query = db.selectFrom(CORE_STORE_TABLE).selectAll().where('key', '=', scope.key);
  query =
    scope.environment === null
      ? query.where('environment', 'is', null)
      : query.where('environment', '=', scope.environment);
  query = scope.tag === null ? query.where('tag', 'is', null) : query.where('tag', '=', scope.tag);
  return query.orderBy('id').executeTakeFirst() as Promise<CoreStoreRow | undefined>;
}

function decode(row: CoreStoreRow): unknown {
  if (row.type === 'object' || row.type === 'array' || row.type === 'boolean' || row.type === 'string') {
    try {
      return JSON.parse(row.value ?? 'null');
    } catch {
      return new Date(row.value ?? '');
    }
  }
  if (row.type === 'number') return Number(row.value);
  return null;
}

/**
 * The store on a connection: `db` for reads, `write` for a write transaction (both given by the
 * caller, so that project code inside a transaction stays on it).
 */
export function coreStore(db: () => Db, write: <T>(fn: (trx: Db) => Promise<T>) => Promise<T>): CoreStore {
  return {
    async get(params) {
      const row = await find(db(), where(params, params.type ?? 'core'));
      return row ? decode(row) : null;
    },
    async set(params, also) {
      const scope = where(params, params.type);
      const value = JSON.stringify(params.value) ?? String(params.value);
      const type = typeof params.value;
      await write(async (trx) => {
        const row = await find(trx, scope);
        if (row)
          await trx.updateTable(CORE_STORE_TABLE).set({ value, type }).where('id', '=', Number(row.id)).execute();
        else
          await trx
            .insertInto(CORE_STORE_TABLE)
            .values({ ...scope, value, type })
            .execute();
        await also?.(trx);
      });
    },
    async delete(params) {
      const scope = where(params, params.type);
      await write(async (trx) => {
        const row = await find(trx, scope);
        if (row) await trx.deleteFrom(CORE_STORE_TABLE).where('id', '=', Number(row.id)).execute();
      });
    },
  };
}
