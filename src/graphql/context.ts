import type { FastifyReply, FastifyRequest } from 'fastify';

/** What every resolver receives as its context (mercurius adds `reply` and `app`). */
export interface GraphqlContext {
  request: FastifyRequest;
  reply: FastifyReply;
  /** Per-request scratch space, shared with policies (`state` in Strapi). */
  state: Record<string, unknown>;
}
