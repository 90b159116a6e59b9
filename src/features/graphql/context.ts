import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ReadBudget } from '../../core/documents/service.js';
import type { OperationReads } from './cache.js';
import type { RootSlots } from './root-concurrency.js';

/** What every resolver receives as its context (mercurius adds `reply` and `app`). */
export interface GraphqlContext {
  request: FastifyRequest;
  reply: FastifyReply;
  /**
   * Strapi's `ctx.state`, shared with policies: with project GraphQL extensions, who asks (`auth`,
   * `user`, `isAuthenticated`) and `route`, filled before the operation runs, as Strapi fills it.
   */
  state: Record<string, unknown>;
  /** Strapi's `context.koaContext`, the request's Koa context, when project code extends the schema. */
  koaContext?: unknown;
  /** The items the whole operation may read (`costLimit`): every root field, alias and fragment spends from it. */
  budget: ReadBudget;
  /** What the operation's reads note for the response cache (cache.ts); absent when it is off. */
  reads?: OperationReads;
  /** The operation's root fields running now (root-concurrency.ts), made by the first of them. */
  rootSlots?: RootSlots;
}
