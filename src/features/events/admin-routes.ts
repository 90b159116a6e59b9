/**
 * The admin API of webhooks (Strapi's routes and answers: `{ data: ... }`, the webhook
 * `{ id, name, url, headers, events, isEnabled }`, the trigger's `{ statusCode, message? }`), their
 * delivery log, and scheduled actions. Registered inside the admin scope: an administrator only.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Audited } from '../../core/documents/service.js';
import type { WebhooksConfig } from '../../core/config/load.js';
import { callWebhook, type Deliveries } from './delivery.js';
import type { ScheduledActions } from './schedules.js';
import type { WebhookStore } from './webhooks.js';
import { NotFoundError, ValidationError } from '../../core/errors.js';

export interface AdminEvents {
  webhooks: WebhookStore;
  deliveries: Deliveries;
  schedules: ScheduledActions;
  webhooksConfig: WebhooksConfig;
  /** Who makes a request's change and where it is recorded (the admin scope's administrator); none: not recorded. */
  audited?: (request: FastifyRequest) => Audited | undefined;
}

type IdParams = { id: string };
type Query = Record<string, unknown>;

function numericId(id: string, what: string): number {
  const number = Number(id);
  if (!/^\d+$/.test(id) || !Number.isSafeInteger(number)) throw new NotFoundError(`No ${what} ${id}`);
  return number;
}

export function registerAdminEventRoutes(admin: FastifyInstance, prefix: string, events: AdminEvents): void {
  const { webhooks, deliveries, schedules, webhooksConfig } = events;
  const audited = (request: FastifyRequest) => events.audited?.(request);

  admin.get(`${prefix}/webhooks`, async () => ({ data: await webhooks.list() }));
  admin.post(`${prefix}/webhooks`, async (request, reply) =>
    reply.status(201).send({ data: await webhooks.create(request.body, audited(request)) }),
  );
  admin.post(`${prefix}/webhooks/batch-delete`, async (request) => {
    const ids = (request.body as { ids?: unknown } | null)?.ids;
    if (!Array.isArray(ids) || ids.length === 0) throw new ValidationError('ids must be an array of id');
    for (const id of ids)
      await webhooks
        .delete(String(id), audited(request))
        .catch((error: unknown) => (error instanceof NotFoundError ? undefined : Promise.reject(error)));
    return { data: ids };
  });
  admin.get<{ Params: IdParams }>(`${prefix}/webhooks/:id`, async (request) => ({
    data: await webhooks.get(request.params.id),
  }));
  admin.put<{ Params: IdParams }>(`${prefix}/webhooks/:id`, async (request) => ({
    data: await webhooks.update(request.params.id, request.body, audited(request)),
  }));
  admin.delete<{ Params: IdParams }>(`${prefix}/webhooks/:id`, async (request) => ({
    data: await webhooks.delete(request.params.id, audited(request)),
  }));
  // As Strapi: one call now, `trigger-test` with no payload; its answer is the call's status.
  admin.post<{ Params: IdParams }>(`${prefix}/webhooks/:id/trigger`, async (request) => {
    const target = await webhooks.target(request.params.id);
    const body = JSON.stringify({ event: 'trigger-test', createdAt: new Date().toISOString() });
    const { statusCode, message } = await callWebhook(target, 'trigger-test', body, {
      defaultHeaders: webhooksConfig.defaultHeaders,
      timeout: webhooksConfig.timeout,
      allowPrivate: webhooksConfig.allowPrivateAddresses,
    });
    return { data: message === undefined ? { statusCode } : { statusCode, message } };
  });
  admin.get<{ Params: IdParams }>(`${prefix}/webhooks/:id/deliveries`, async (request) => {
    const webhook = await webhooks.get(request.params.id);
    const { results, pagination } = await deliveries.list(Number(webhook.id), request.query as Query);
    return { data: results, meta: { pagination } };
  });

  admin.get(`${prefix}/scheduled-actions`, async (request) => {
    const { state, uid, documentId } = request.query as Query;
    return { data: await schedules.list({ state, uid, documentId }) };
  });
  admin.get<{ Params: IdParams }>(`${prefix}/scheduled-actions/:id`, async (request) => ({
    data: await schedules.get(numericId(request.params.id, 'scheduled action')),
  }));
  admin.delete<{ Params: IdParams }>(`${prefix}/scheduled-actions/:id`, async (request) => ({
    data: await schedules.cancel(numericId(request.params.id, 'scheduled action'), audited(request)),
  }));
}
