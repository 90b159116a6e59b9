import type { Database } from '../database/connection.js';
import type { ContentType, Schema } from '../schema/model.js';
import type { Passwords } from '../passwords.js';
import type { AuditTrail } from './audit-port.js';
import type { DeletionListener } from './deletion-port.js';
import type { HistoryLog } from './history-port.js';
import type { CallHooks, LifecycleHooks } from './hooks.js';
import type { Locales } from './locales.js';
import type { Outbox } from './outbox-port.js';
import type { ReadBudget } from './read/budget.js';
import type { UnlinkedFrom } from '../query/types.js';

/** What every document operation needs; built once per server. */
export interface DocumentContext {
  database: Database;
  schema: Schema;
  i18n: { defaultLocale: string; locales: string[] };
  /** Lifecycle subscribers (project code registers them; empty by default). */
  lifecycles?: LifecycleHooks;
  /** Document Service middlewares (project code adds them; none by default). */
  middlewares?: CallHooks;
  /** Where writes record their webhook events, in their transaction (features/events/ sets it; none by default). */
  outbox?: Outbox;
  /** Where administrators' writes record their audit entries, in their transaction (features/audit/ sets it; none by default). */
  audit?: AuditTrail;
  /** Where every write of the project's types records its history version, in its transaction (features/history/ sets it; none by default). */
  history?: HistoryLog;
  /** What goes with a deleted document, in its transaction (features/releases/ sets it: the entry's release actions; none by default). */
  deletions?: DeletionListener;
  /** The stored locales: read again when a call names a code this node does not know yet. */
  locales?: Locales;
  /** Hashes the `password` attributes written (the node's, from `config/server` `passwords`). */
  passwords: Passwords;
}

/** Per-call options that are not part of the query: who asks. */
export interface CallerOptions {
  /**
   * Whether the caller may read a content-type: relations to others are left out of populate, and
   * filters and sort through them are a 400. Without it everything is readable.
   */
  canRead?: (type: ContentType) => boolean;
  /**
   * Whether the caller may read the drafts of a draft-and-publish type: a read of its drafts
   * (`status: 'draft'`, a `publicationFilter`) is a 403 otherwise, and in a read of drafts the
   * relations to such types are left out as those `canRead` refuses. Without it, every type it may read.
   */
  canReadDrafts?: (type: ContentType) => boolean;
  /**
   * Whether a write may name documents of a type in its relations (`set`, `connect`, ids): a type it
   * may not is answered as if it had no documents (an unknown id's 400), so that a writer learns
   * nothing of a type it cannot read. Without it, every type.
   */
  canLink?: (type: ContentType) => boolean;
  /**
   * false: the write records no webhook event, as Strapi's plugins that write with `strapi.db.query`
   * (users-permissions deleting a user). Without it, the type's events.
   */
  webhookEvents?: boolean;
  /**
   * The administrator writing (their `admin_users` id): a created version records them as
   * `createdBy` and `updatedBy`, an updated one as `updatedBy` (Strapi's content manager sets the
   * creator fields; content API writes leave them as they are).
   */
  actor?: number;
  /**
   * Reads see only the documents these administrators created (an administrator role's "is
   * creator" and "has same role as creator" conditions): lists, counts and single reads alike.
   * Without it, every document.
   */
  createdBy?: number[];
  /** Reads see only the documents a row's relation does not link yet (FindOneQuery.unlinkedFrom). */
  unlinkedFrom?: UnlinkedFrom;
  /** The caller only serialises what it reads: json and blocks values may come back as RawJson. */
  rawJson?: boolean;
  /**
   * The items this call may read, shared with the caller's other calls (a GraphQL operation's root
   * fields). Without it each read gets its own budget of `api.rest.costLimit`.
   */
  budget?: ReadBudget;
  /**
   * Where a read notes the change groups its answer depends on (dependencies.ts): the response
   * cache keeps the answer while their counters stay put.
   */
  dependsOn?: Set<string>;
}
