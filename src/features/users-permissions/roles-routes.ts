/**
 * Strapi's users-permissions routes that manage users and roles on the content API, each behind
 * its Strapi action: `POST /api/users` (`plugin::users-permissions.user.create`), `PUT
 * /api/users/:id` (`.update`), `DELETE /api/users/:id` (`.destroy`); `GET|POST
 * /api/users-permissions/roles`, `GET|PUT|DELETE /api/users-permissions/roles/:id`
 * (`plugin::users-permissions.role.find|findOne|createRole|updateRole|deleteRole`) and `GET
 * /api/users-permissions/permissions` (`plugin::users-permissions.permissions.getPermissions`).
 * Answered without the envelope, as Strapi does. Each checks its permission, then runs its action
 * (content-api.ts).
 */
import type { FastifyInstance } from 'fastify';
import { ROLE_UID, USER_UID } from './model.js';
import { PERMISSIONS_ACTION } from './permissions.js';
import { routeRegistrar, runAction, usersPathTaken, type UsersPermissionsRouteOptions } from './routes.js';

const PERMISSIONS_UID = PERMISSIONS_ACTION.slice(0, PERMISSIONS_ACTION.lastIndexOf('.'));

export function registerUsersRolesRoutes(app: FastifyInstance, options: UsersPermissionsRouteOptions): void {
  const { auth, service, prefix, actions } = options;
  /** Routes behind one permission each, answered by the action the handler names. */
  const guarded =
    (route: ReturnType<typeof routeRegistrar>, uid: string) =>
    (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, handler: string, action: string) =>
      route(method, path, async (request, reply) => {
        const caller = await auth.access.authorize(request.headers, { uid, action });
        return runAction(actions[handler]!, request, reply, { reader: caller });
      });

  if (!usersPathTaken(service.schema)) {
    const user = guarded(routeRegistrar(app, prefix, options.leaveOut), USER_UID);
    user('POST', '/users', 'user.create', 'create');
    user('PUT', '/users/:id', 'user.update', 'update');
    user('DELETE', '/users/:id', 'user.destroy', 'destroy');
  }

  // Strapi's role and permissions routes carry no prefix of their own: the plugin's name is theirs.
  const plugin = routeRegistrar(app, `${prefix}/users-permissions`, options.leaveOut);
  const role = guarded(plugin, ROLE_UID);
  role('GET', '/roles', 'role.find', 'find');
  role('GET', '/roles/:id', 'role.findOne', 'findOne');
  role('POST', '/roles', 'role.createRole', 'createRole');
  role('PUT', '/roles/:role', 'role.updateRole', 'updateRole');
  role('DELETE', '/roles/:role', 'role.deleteRole', 'deleteRole');
  guarded(plugin, PERMISSIONS_UID)('GET', '/permissions', 'permissions.getPermissions', 'getPermissions');
}
