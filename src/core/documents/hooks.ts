/**
 * What the document service calls around its reads and writes, for whoever embeds it to fill: the
 * Strapi runtime puts database lifecycles and Document Service middlewares here
 * (src/strapi/lifecycles.ts, src/strapi/document-middlewares.ts). The core knows these
 * interfaces, not who implements them; without them it calls nothing and pays one check per call.
 *
 * Lifecycle events fire per database row, not per document, as Strapi's do: a published create
 * writes a draft row and a published row, so it fires `beforeCreate`/`afterCreate` twice
 * (row-events.ts says which rows fire what; read-events.ts shapes the reads' events).
 */
import type { ContentType } from '../schema/model.js';

export const LIFECYCLE_ACTIONS = [
  'beforeCreate',
  'afterCreate',
  'beforeCreateMany',
  'afterCreateMany',
  'beforeUpdate',
  'afterUpdate',
  'beforeUpdateMany',
  'afterUpdateMany',
  'beforeDelete',
  'afterDelete',
  'beforeDeleteMany',
  'afterDeleteMany',
  'beforeFindOne',
  'afterFindOne',
  'beforeFindMany',
  'afterFindMany',
  'beforeCount',
  'afterCount',
] as const;
export type LifecycleAction = (typeof LIFECYCLE_ACTIONS)[number];

/** What the hooks keep from an event's `before` run to its `after` run (per subscriber, in Strapi's). */
export type LifecycleStates = Map<unknown, Record<string, unknown>>;

/** Called before and after each read or write of a content-type's rows. */
export interface LifecycleHooks {
  /** Whether an event of this model may be seen at all: false costs the caller nothing more. */
  covers(uid: string): boolean;
  /** Whether this action on this model is handled. */
  wants(uid: string, action: LifecycleAction): boolean;
  /**
   * Runs the handlers of `action`; they may change `params` and `result` in place, and a throw
   * aborts the read or write (never called inside a write transaction: see row-events.ts).
   */
  run(
    action: LifecycleAction,
    type: ContentType,
    properties: { params: Record<string, unknown>; result?: unknown },
    states?: LifecycleStates,
  ): Promise<LifecycleStates>;
}

/** Wrapped around each call of the facade (findMany, create, publish, ...), whoever makes it. */
export interface CallHooks {
  readonly active: boolean;
  /** Runs `call` inside the hooks, with the parameters they leave; answers what the outermost answers. */
  run<T>(
    type: ContentType,
    action: string,
    params: Record<string, unknown>,
    call: (params: Record<string, unknown>) => Promise<T>,
  ): Promise<unknown>;
}

/** No lifecycles: what the service runs with when nothing is filled in. */
export const NO_LIFECYCLES: LifecycleHooks = {
  covers: () => false,
  wants: () => false,
  run: async (_action, _type, _properties, states = new Map()) => states,
};
