/**
 * Strapi's users-permissions routes that manage users and roles on the content API, each behind
 * its Strapi action: `POST /api/users` (`plugin::users-permissions.user.create`), `PUT
 * /api/users/:id` (`.update`), `DELETE /api/users/:id` (`.destroy`); `GET|POST
 * /api/users-permissions/roles`, `GET|PUT|DELETE /api/users-permissions/roles/:id`
 * (`plugin::users-permissions.role.find|findOne|createRole|updateRole|deleteRole`) and `GET
 * /api/users-permissions/permissions` (`plugin::users-permissions.permissions.getPermissions`).
 * Answered without the envelope, as Strapi does.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Auth } from './service.js';
import { ROLE_UID, USER_UID } from './model.js';
import { PERMISSIONS_ACTION } from './permissions.js';
import type { Caller } from '../../api/access.js';
import type { CallerOptions, Document, DocumentService } from '../../core/documents/service.js';
import { NotFoundError } from '../../core/errors.js';
import { usersPathTaken } from './routes.js';

type Query = Record<string, unknown>;

/** A user id in a path: digits only (Strapi's users-permissions addresses users by id). */
function userId(raw: string): number {
  const id = /^\d{1,15}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(id)) throw new NotFoundError('User not found');
  return id;
}

const PERMISSIONS_UID = PERMISSIONS_ACTION.slice(0, PERMISSIONS_ACTION.lastIndexOf('.'));

export function registerUsersRolesRoutes(
  app: FastifyInstance,
  options: { auth: Auth; service: DocumentService; prefix: string },
): void {
  const { auth, service, prefix } = options;
  const users = service.of(auth.users.type);
  const manage = auth.userManagement;
  const roles = auth.roleApi;

  /** A written user as Strapi answers it: its role populated when the caller may read roles. */
  const shown = async (written: Document, caller: CallerOptions, query: Query) =>
    (await users.findVersion({ populate: ['role'], ...query, documentId: String(written.documentId) }, caller)) ??
    written;
  const actorOf = (caller: Caller) => (caller.principal?.kind === 'user' ? { userId: caller.principal.id } : {});

  if (!usersPathTaken(service.schema)) {
    app.post(`${prefix}/users`, async (request: FastifyRequest, reply) => {
      const caller = await auth.access.authorize(request.headers, { uid: USER_UID, action: 'create' });
      const created = await manage.create(request.body);
      return reply.status(201).send(await shown(created, caller, {}));
    });

    app.put<{ Params: { id: string } }>(`${prefix}/users/:id`, async (request) => {
      const caller = await auth.access.authorize(request.headers, { uid: USER_UID, action: 'update' });
      const updated = await manage.update(userId(request.params.id), request.body, actorOf(caller));
      return shown(updated, caller, {});
    });

    app.delete<{ Params: { id: string } }>(`${prefix}/users/:id`, async (request, reply) => {
      await auth.access.authorize(request.headers, { uid: USER_UID, action: 'destroy' });
      // Strapi deletes by `where: { id }` and answers what it deleted: nothing (204) for no user.
      const id = /^\d{1,15}$/.test(request.params.id) ? Number(request.params.id) : NaN;
      if (!Number.isSafeInteger(id)) return reply.status(204).send();
      try {
        return await manage.destroy(id);
      } catch (error) {
        if (error instanceof NotFoundError) return reply.status(204).send();
        throw error;
      }
    });
  }

  const base = `${prefix}/users-permissions`;
  app.get(`${base}/roles`, async (request) => {
    await auth.access.authorize(request.headers, { uid: ROLE_UID, action: 'find' });
    return { roles: await roles.find() };
  });
  app.get<{ Params: { id: string } }>(`${base}/roles/:id`, async (request) => {
    await auth.access.authorize(request.headers, { uid: ROLE_UID, action: 'findOne' });
    return { role: await roles.findOne(request.params.id) };
  });
  app.post(`${base}/roles`, async (request) => {
    await auth.access.authorize(request.headers, { uid: ROLE_UID, action: 'createRole' });
    return roles.create(request.body);
  });
  app.put<{ Params: { role: string } }>(`${base}/roles/:role`, async (request) => {
    await auth.access.authorize(request.headers, { uid: ROLE_UID, action: 'updateRole' });
    return roles.update(request.params.role, request.body);
  });
  app.delete<{ Params: { role: string } }>(`${base}/roles/:role`, async (request) => {
    await auth.access.authorize(request.headers, { uid: ROLE_UID, action: 'deleteRole' });
    return roles.delete(request.params.role);
  });
  app.get(`${base}/permissions`, async (request) => {
    await auth.access.authorize(request.headers, { uid: PERMISSIONS_UID, action: 'getPermissions' });
    return roles.permissions();
  });
}
