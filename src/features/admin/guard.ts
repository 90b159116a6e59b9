/**
 * What the administrator behind a request may do (their roles' permissions, read per request so
 * that a change applies on every node at once), and the check of every admin route: each route
 * of the admin API names the action Strapi 5.54's route requires (`admin::hasPermissions`), and
 * an administrator without it is answered Strapi's 403 `PolicyError` "Policy Failed". Routes any
 * administrator may use (their own profile, the schema the panel builds its forms from) name none.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PolicyError } from '../../core/errors.js';
import type { AdminAbility } from '../admin-roles/index.js';
import type { Auth } from '../users-permissions/index.js';

export interface AdminCaller {
  id: number;
  ability: AdminAbility;
}

const callers = new WeakMap<FastifyRequest, Promise<AdminCaller>>();

/** The administrator of a request and what they may do: resolved once per request. */
export function adminCaller(auth: Auth, request: FastifyRequest): Promise<AdminCaller> {
  let caller = callers.get(request);
  if (!caller) {
    caller = (async () => {
      const id = await auth.admins.authenticate(request.headers.authorization);
      return { id, ability: await auth.adminRoles.abilityOf(id) };
    })();
    callers.set(request, caller);
  }
  return caller;
}

/** 403 unless the administrator holds one of the actions (on the subject, when given). */
export async function requireAction(
  auth: Auth,
  request: FastifyRequest,
  actions: string | string[],
  subject?: string,
): Promise<AdminCaller> {
  const caller = await adminCaller(auth, request);
  const wanted = Array.isArray(actions) ? actions : [actions];
  if (!wanted.some((action) => caller.ability.can(action, subject))) throw new PolicyError();
  return caller;
}

const UP = 'plugin::users-permissions';
const CM_USER = ['plugin::content-manager.explorer', 'plugin::users-permissions.user'] as const;

/**
 * `METHOD path` -> the actions (any of them) Strapi 5.54 requires on the admin routes Vellum
 * serves under `/admin` (Vellum-only routes take the action of the Strapi screen they serve).
 */
const ROUTE_ACTIONS: Record<string, string[]> = {
  'GET /admin/api-tokens': ['admin::api-tokens.read'],
  'GET /admin/api-tokens/:ref': ['admin::api-tokens.read'],
  'POST /admin/api-tokens': ['admin::api-tokens.create'],
  'DELETE /admin/api-tokens/:ref': ['admin::api-tokens.delete'],
  'GET /admin/users-permissions/roles': [`${UP}.roles.read`],
  'GET /admin/users-permissions/roles/:id': [`${UP}.roles.read`],
  'POST /admin/users-permissions/roles': [`${UP}.roles.create`],
  'PUT /admin/users-permissions/roles/:id': [`${UP}.roles.update`],
  'DELETE /admin/users-permissions/roles/:id': [`${UP}.roles.delete`],
  'GET /admin/users-permissions/permissions': [`${UP}.roles.read`],
  'GET /admin/users-permissions/advanced': [`${UP}.advanced-settings.read`],
  'PUT /admin/users-permissions/advanced': [`${UP}.advanced-settings.update`],
  'GET /admin/users-permissions/email-templates': [`${UP}.email-templates.read`],
  'PUT /admin/users-permissions/email-templates': [`${UP}.email-templates.update`],
  'GET /admin/users-permissions/providers': [`${UP}.providers.read`],
  'PUT /admin/users-permissions/providers': [`${UP}.providers.update`],
  'GET /admin/settings': [`${UP}.advanced-settings.read`],
  'PUT /admin/settings': [`${UP}.advanced-settings.update`],
  'GET /admin/content-api/roles': [`${UP}.roles.read`],
  'GET /admin/content-api/roles/:ref': [`${UP}.roles.read`],
  'POST /admin/content-api/roles': [`${UP}.roles.create`],
  'POST /admin/content-api/roles/:ref/permissions': [`${UP}.roles.update`],
  'DELETE /admin/content-api/roles/:ref/permissions/:action': [`${UP}.roles.update`],
  // The content API's users, as the content manager edits them.
  'GET /admin/users-permissions/users': [`${CM_USER[0]}.read`],
  'GET /admin/users-permissions/users/:id': [`${CM_USER[0]}.read`],
  'POST /admin/users-permissions/users': [`${CM_USER[0]}.create`],
  'PUT /admin/users-permissions/users/:ref': [`${CM_USER[0]}.update`],
  'DELETE /admin/users-permissions/users/:id': [`${CM_USER[0]}.delete`],
  // Administrators.
  'GET /admin/users': ['admin::users.read'],
  'GET /admin/users/:id': ['admin::users.read'],
  'POST /admin/users': ['admin::users.create'],
  'PUT /admin/users/:id': ['admin::users.update'],
  'DELETE /admin/users/:id': ['admin::users.delete'],
  'POST /admin/users/batch-delete': ['admin::users.delete'],
  'GET /admin/administrators': ['admin::users.read'],
  'POST /admin/administrators': ['admin::users.create'],
  'DELETE /admin/administrators/:id': ['admin::users.delete'],
  'GET /admin/roles': ['admin::roles.read'],
  'GET /admin/roles/:id': ['admin::roles.read'],
  'POST /admin/roles': ['admin::roles.create'],
  'PUT /admin/roles/:id': ['admin::roles.update'],
  'DELETE /admin/roles/:id': ['admin::roles.delete'],
  'POST /admin/roles/batch-delete': ['admin::roles.delete'],
  'GET /admin/roles/:id/permissions': ['admin::roles.read'],
  'PUT /admin/roles/:id/permissions': ['admin::roles.update'],
  'GET /admin/webhooks': ['admin::webhooks.read'],
  'GET /admin/webhooks/:id': ['admin::webhooks.read'],
  'POST /admin/webhooks': ['admin::webhooks.create'],
  'PUT /admin/webhooks/:id': ['admin::webhooks.update'],
  'DELETE /admin/webhooks/:id': ['admin::webhooks.delete'],
  'POST /admin/webhooks/batch-delete': ['admin::webhooks.delete'],
  'POST /admin/webhooks/:id/trigger': ['admin::webhooks.update'],
  'GET /admin/webhooks/:id/deliveries': ['admin::webhooks.read'],
  'GET /admin/scheduled-actions': ['plugin::content-manager.explorer.publish'],
  'GET /admin/scheduled-actions/:id': ['plugin::content-manager.explorer.publish'],
  'DELETE /admin/scheduled-actions/:id': ['plugin::content-manager.explorer.publish'],
  // The media library (an upload with ?id= replaces a file: Strapi's assets.update).
  'GET /admin/upload/files': ['plugin::upload.read'],
  'GET /admin/upload/files/:id': ['plugin::upload.read'],
  'POST /admin/upload': ['plugin::upload.assets.create', 'plugin::upload.assets.update'],
  'DELETE /admin/upload/files/:id': ['plugin::upload.assets.update'],
  // The Content-Type Builder: Strapi requires its read action on every route.
  ...Object.fromEntries(
    [
      'GET /content-type-builder/reserved-names',
      'GET /content-type-builder/schema',
      'GET /content-type-builder/update-schema-status',
      'POST /content-type-builder/update-schema',
      'GET /content-type-builder/content-types',
      'GET /content-type-builder/content-types/:uid',
      'POST /content-type-builder/content-types',
      'PUT /content-type-builder/content-types/:uid',
      'DELETE /content-type-builder/content-types/:uid',
      'GET /content-type-builder/components',
      'GET /content-type-builder/components/:uid',
      'POST /content-type-builder/components',
      'PUT /content-type-builder/components/:uid',
      'DELETE /content-type-builder/components/:uid',
      'PUT /content-type-builder/component-categories/:name',
      'DELETE /content-type-builder/component-categories/:name',
    ].map((route) => [route, ['plugin::content-type-builder.read']]),
  ),
  'POST /admin/locales': ['plugin::i18n.locale.create'],
  'PUT /admin/locales/:code': ['plugin::i18n.locale.update'],
  'DELETE /admin/locales/:code': ['plugin::i18n.locale.delete'],
  // The audit log: Strapi's Enterprise action (registry.ts lists it after the free edition's).
  'GET /admin/audit-logs': ['admin::audit-logs.read'],
  'GET /admin/audit-logs/users': ['admin::audit-logs.read'],
  'GET /admin/audit-logs/settings': ['admin::audit-logs.read'],
  'GET /admin/audit-logs/:id': ['admin::audit-logs.read'],
  // Not listed, on purpose: the home page's `GET /content-manager/homepage/recent-documents` and
  // `.../count-documents` are any administrator's (Strapi's isAuthenticatedAdmin); what each may
  // read is decided inside, type by type (homepage.ts). So are `/admin/homepage/key-statistics`
  // and `/admin/homepage/layout` (key-statistics.ts), as in Strapi.
};

/**
 * Checks the actions of ROUTE_ACTIONS before the handler of every admin route (after the route's
 * own authentication: a request without an administrator's JWT is a 401 first). Registered on
 * the root instance, before the routes, so that it applies to all of them.
 */
export function registerAdminGuard(app: FastifyInstance, auth: Auth): void {
  app.addHook('preHandler', async (request) => {
    const url = request.routeOptions.url;
    if (!url) return;
    const actions = ROUTE_ACTIONS[`${request.method} ${url}`];
    if (actions) await requireAction(auth, request, actions);
  });
}
