/**
 * `strapi.db` of project code: the query engine (`strapi.db.query(uid)`, rows not documents) and
 * the lifecycles (`strapi.db.lifecycles.subscribe(...)`), over the node's document service. The
 * lifecycles registry exists before the database opens, so `register` may subscribe; queries
 * work from `bootstrap` on.
 */
import type { QueryEngine, RowRepository } from '../core/documents/service.js';
import type { Lifecycles, Subscriber } from './lifecycles.js';
import type { Schema } from '../core/schema/model.js';
import { withKnownData } from './known-data.js';

export interface TransactionTools {
  trx: undefined;
  commit(): Promise<void>;
  rollback(): Promise<void>;
  onCommit(callback: () => unknown): void;
  onRollback(callback: () => unknown): void;
}

export interface StrapiDb {
  query(uid: string): RowRepository;
  lifecycles: {
    subscribe(subscriber: Subscriber): () => void;
    clear(): void;
    disable(): void;
    enable(): void;
  };
  /**
   * Runs the callback. Vellum does not join project code to a transaction (see
   * core/documents/row-events.ts): each query it makes is its own, and a warning says so once.
   */
  transaction<T>(callback?: (tools: TransactionTools) => Promise<T> | T): Promise<T | undefined>;
}

/**
 * A content-type's rows whose writes keep the keys of `data` the model knows (Strapi's query engine
 * ignores the others; see known-data.ts). Other models (roles, permissions) judge their own data.
 */
function ignoringUnknownKeys(schema: Schema, uid: string, rows: RowRepository): RowRepository {
  const type = schema.contentTypes.get(uid);
  if (!type) return rows;
  return {
    ...rows,
    create: (params) => rows.create(withKnownData(schema, type, params)),
    createMany: (params) => rows.createMany(withKnownData(schema, type, params)),
    update: (params) => rows.update(withKnownData(schema, type, params)),
    updateMany: (params) => rows.updateMany(withKnownData(schema, type, params)),
  };
}

export function createStrapiDb(
  schema: Schema,
  lifecycles: Lifecycles,
  engine: () => QueryEngine | undefined,
  warn: (message: string) => void,
): StrapiDb {
  let warned = false;
  return {
    query(uid) {
      const found = engine();
      if (!found)
        throw new Error(
          'strapi.db.query is available from bootstrap on, once the database is open (not during register)',
        );
      return ignoringUnknownKeys(schema, uid, found.query(uid));
    },
    lifecycles: {
      subscribe: (subscriber) => lifecycles.subscribe(subscriber),
      clear: () => lifecycles.clear(),
      disable: () => lifecycles.disable(),
      enable: () => lifecycles.enable(),
    },
    async transaction(callback) {
      if (!warned) {
        warned = true;
        warn('strapi.db.transaction: Vellum runs the callback without a transaction (each query in it is its own)');
      }
      if (!callback) return undefined;
      const committed: (() => unknown)[] = [];
      const rolledBack: (() => unknown)[] = [];
      const tools: TransactionTools = {
        trx: undefined,
        commit: async () => undefined,
        rollback: async () => undefined,
        onCommit: (fn) => void committed.push(fn),
        onRollback: (fn) => void rolledBack.push(fn),
      };
      try {
        const result = await callback(tools);
        for (const fn of committed) await fn();
        return result;
      } catch (error) {
        for (const fn of rolledBack) await fn();
        throw error;
      }
    },
  };
}
