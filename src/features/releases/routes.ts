/**
 * The releases' admin API at Strapi 5.54's paths (its content-releases plugin's admin routes,
 * mounted at `/content-releases`), each requiring the action Strapi's route names
 * (`plugin::content-releases.read|create|update|delete|publish|create-action|delete-action`,
 * `settings.read|update` for `/content-releases/settings`): an
 * administrator without it is answered Strapi's 403 "Policy Failed".
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Audited, AuditTrail } from '../../core/documents/service.js';
import { isPlainObject } from '../../core/objects.js';
import type { ReleasePublisher } from './publisher.js';
import type { ReleaseActions } from './actions.js';
import type { Releases } from './releases.js';
import type { ReleaseSettingsStore } from './settings.js';
import { pathId } from './validation.js';

export const RELEASE_ACTIONS = {
  read: 'plugin::content-releases.read',
  create: 'plugin::content-releases.create',
  update: 'plugin::content-releases.update',
  delete: 'plugin::content-releases.delete',
  publish: 'plugin::content-releases.publish',
  createAction: 'plugin::content-releases.create-action',
  deleteAction: 'plugin::content-releases.delete-action',
  settingsRead: 'plugin::content-releases.settings.read',
  settingsUpdate: 'plugin::content-releases.settings.update',
} as const;

export interface ReleaseRoutesOptions {
  releases: Releases;
  actions: ReleaseActions;
  publisher: ReleasePublisher;
  settings: ReleaseSettingsStore;
  /** The administrator behind the request when they hold `action` (their id); a 401 or 403 otherwise. */
  authorize(request: FastifyRequest, action: string): Promise<number>;
  /** Where administrators' changes are recorded (the audit log), in their transactions. */
  trail?: AuditTrail;
}

type IdParams = { Params: { id: string } };
type ActionParams = { Params: { releaseId: string; actionId?: string } };

const queryOf = (request: FastifyRequest): Record<string, unknown> =>
  isPlainObject(request.query) ? request.query : {};

export function registerReleaseRoutes(app: FastifyInstance, options: ReleaseRoutesOptions): void {
  const { releases, actions, publisher, settings } = options;
  /** The administrator holding `action`, as their changes are audited. */
  const authorize = async (request: FastifyRequest, action: string): Promise<Audited | undefined> => {
    const actor = await options.authorize(request, action);
    return options.trail ? { trail: options.trail, actor } : undefined;
  };
  const base = '/content-releases';
  const created = (reply: FastifyReply, body: unknown) => reply.status(201).send(body);

  // Strapi's routes/settings.ts: a default time zone for new releases.
  app.get(`${base}/settings`, async (request) => {
    await authorize(request, RELEASE_ACTIONS.settingsRead);
    return { data: await settings.find() };
  });
  app.put(`${base}/settings`, async (request) => {
    const audited = await authorize(request, RELEASE_ACTIONS.settingsUpdate);
    return { data: await settings.update(request.body ?? {}, audited) };
  });
  app.get(`${base}/mapEntriesToReleases`, async (request) => {
    await authorize(request, RELEASE_ACTIONS.read);
    return { data: await releases.mapEntries(queryOf(request)) };
  });
  app.get(`${base}/getByDocumentAttached`, async (request) => {
    await authorize(request, RELEASE_ACTIONS.read);
    return { data: await releases.byDocumentAttached(queryOf(request)) };
  });
  app.post(base, async (request, reply) => {
    const audited = await authorize(request, RELEASE_ACTIONS.create);
    return created(reply, { data: await releases.create(request.body, audited) });
  });
  app.get(base, async (request) => {
    await authorize(request, RELEASE_ACTIONS.read);
    return releases.page(queryOf(request));
  });
  app.get<IdParams>(`${base}/:id`, async (request) => {
    await authorize(request, RELEASE_ACTIONS.read);
    return { data: await releases.get(pathId(request.params.id)) };
  });
  app.put<IdParams>(`${base}/:id`, async (request) => {
    const audited = await authorize(request, RELEASE_ACTIONS.update);
    return { data: await releases.update(pathId(request.params.id), request.body, audited) };
  });
  app.delete<IdParams>(`${base}/:id`, async (request) => {
    const audited = await authorize(request, RELEASE_ACTIONS.delete);
    return { data: await releases.delete(pathId(request.params.id), audited) };
  });
  app.post<IdParams>(`${base}/:id/publish`, async (request) => {
    const audited = await authorize(request, RELEASE_ACTIONS.publish);
    return publisher.publish(pathId(request.params.id), audited);
  });

  app.post<ActionParams>(`${base}/:releaseId/actions`, async (request, reply) => {
    const audited = await authorize(request, RELEASE_ACTIONS.createAction);
    return created(reply, { data: await actions.addAction(pathId(request.params.releaseId), request.body, audited) });
  });
  app.post<ActionParams>(`${base}/:releaseId/actions/bulk`, async (request, reply) => {
    const audited = await authorize(request, RELEASE_ACTIONS.createAction);
    return created(reply, await actions.addActions(pathId(request.params.releaseId), request.body, audited));
  });
  app.get<ActionParams>(`${base}/:releaseId/actions`, async (request) => {
    await authorize(request, RELEASE_ACTIONS.read);
    return actions.listActions(pathId(request.params.releaseId), queryOf(request));
  });
  app.put<ActionParams>(`${base}/:releaseId/actions/:actionId`, async (request) => {
    const audited = await authorize(request, RELEASE_ACTIONS.update);
    const { releaseId, actionId } = request.params;
    return { data: await actions.updateAction(pathId(releaseId), pathId(actionId ?? ''), request.body, audited) };
  });
  app.delete<ActionParams>(`${base}/:releaseId/actions/:actionId`, async (request) => {
    const audited = await authorize(request, RELEASE_ACTIONS.deleteAction);
    const { releaseId, actionId } = request.params;
    return { data: await actions.deleteAction(pathId(releaseId), pathId(actionId ?? ''), audited) };
  });
}
