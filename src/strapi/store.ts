/**
 * `strapi.store`: Strapi's core store, in the database (core/database/store.ts). Called with defaults it
 * answers a scoped store (`strapi.store({ type: 'plugin', name: 'x' }).get({ key })`); its own
 * `get`, `set` and `delete` take every parameter.
 */
import type { CoreStore, StoreParams } from '../core/database/store.js';

export interface ScopedStore {
  get(params: Partial<StoreParams>): Promise<unknown>;
  set(params: Partial<StoreParams>): Promise<void>;
  delete(params: Partial<StoreParams>): Promise<void>;
}

export type StrapiStore = ((defaults: Partial<StoreParams>) => ScopedStore) & ScopedStore;

export function createStrapiStore(store: () => CoreStore): StrapiStore {
  const call = (method: keyof CoreStore, params: Partial<StoreParams>) => {
    if (typeof params?.key !== 'string' || params.key === '') throw new TypeError(`strapi.store ${method} needs a key`);
    return store()[method](params as StoreParams);
  };
  const scoped = (defaults: Partial<StoreParams>): ScopedStore => ({
    get: (params) => call('get', { ...defaults, ...params }),
    set: (params) => call('set', { ...defaults, ...params }) as Promise<void>,
    delete: (params) => call('delete', { ...defaults, ...params }) as Promise<void>,
  });
  return Object.assign(scoped, scoped({}));
}
