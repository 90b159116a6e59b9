/**
 * The administrator behind each admin request, as the scope's `onRequest` hook authenticated them:
 * the routes name them to the services (creator fields, the audit log) without authenticating again.
 */
import type { FastifyRequest } from 'fastify';
import type { Audited, AuditTrail } from '../../core/documents/service.js';
import { UnauthorizedError } from '../../core/errors.js';

const actors = new WeakMap<FastifyRequest, number>();

export function rememberActor(request: FastifyRequest, id: number): void {
  actors.set(request, id);
}

/** The administrator of a request the admin scope authenticated (a 401 for one it did not). */
export function actorOf(request: FastifyRequest): number {
  const id = actors.get(request);
  if (id === undefined)
    throw new UnauthorizedError(undefined, { reason: 'No administrator token: log in at /admin/login' });
  return id;
}

/** The request's administrator as a change's author, when changes are recorded (`trail`); undefined otherwise. */
export function auditedBy(request: FastifyRequest, trail: AuditTrail | undefined): Audited | undefined {
  return trail ? { trail, actor: actorOf(request) } : undefined;
}
