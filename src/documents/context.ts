import type { Database } from '../database/connection.js';
import type { ContentType, Schema } from '../schema/model.js';
import type { Lifecycles } from './lifecycles.js';
import type { DocumentMiddlewares } from './middlewares.js';
import type { Outbox } from './outbox.js';
import type { ReadBudget } from './read/budget.js';

/** What every document operation needs; built once per server. */
export interface DocumentContext {
  database: Database;
  schema: Schema;
  i18n: { defaultLocale: string; locales: string[] };
  /** Lifecycle subscribers (project code registers them; empty by default). */
  lifecycles?: Lifecycles;
  /** Document Service middlewares (project code adds them; none by default). */
  middlewares?: DocumentMiddlewares;
  /** Where writes record their webhook events, in their transaction (events/ sets it; none by default). */
  outbox?: Outbox;
}

/** Per-call options that are not part of the query: who asks. */
export interface CallerOptions {
  /**
   * Whether the caller may read a content-type: relations to others are left out of populate, and
   * filters and sort through them are a 400. Without it everything is readable.
   */
  canRead?: (type: ContentType) => boolean;
  /** The caller only serialises what it reads: json and blocks values may come back as RawJson. */
  rawJson?: boolean;
  /**
   * The items this call may read, shared with the caller's other calls (a GraphQL operation's root
   * fields). Without it each read gets its own budget of `api.rest.costLimit`.
   */
  budget?: ReadBudget;
}
