/**
 * The admin API's access routes, for the admin panel's settings screens (always behind an
 * administrator's JWT: registered inside admin.ts's authenticated scope):
 *
 * - Strapi's users-permissions admin routes for roles, at their Strapi paths under `/admin`:
 *   `GET|POST /admin/users-permissions/roles`, `GET|PUT|DELETE /admin/users-permissions/roles/:id`,
 *   `GET /admin/users-permissions/permissions` (every action, none enabled), answered as the
 *   content API's `/api/users-permissions/...` answers (role-api.ts).
 * - The users of the content API: `GET /admin/users-permissions/users` (a page, searched),
 *   `GET|DELETE /admin/users-permissions/users/:id`; `POST` and `PUT` are in routes.ts. (Strapi's
 *   `/admin/users` are its administrators: admin-users.ts.)
 * - Administrators: `GET|POST /admin/administrators`, `DELETE /admin/administrators/:id` (never
 *   oneself, never the last), `GET /admin/administrators/me`, `PUT /admin/administrators/me/password`.
 *
 * Routes parse and call the services (features/users-permissions/); nothing below knows HTTP.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Auth } from '../users-permissions/index.js';
import { NotFoundError, ValidationError } from '../../core/errors.js';
import type { Audited } from '../../core/documents/service.js';
import { isPlainObject } from '../../core/objects.js';
import { actorOf, auditedBy } from './actor.js';

type Body = Record<string, unknown>;

function body(request: FastifyRequest): Body {
  if (!isPlainObject(request.body)) throw new ValidationError('The request body must be a JSON object');
  return request.body;
}

/** A numeric id in a path; anything else names nothing (404, as Strapi's users routes). */
function numericId(raw: string, what: string): number {
  const id = /^\d{1,15}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(id)) throw new NotFoundError(`${what} not found`);
  return id;
}

/** A user's id from the path: digits (Strapi's users-permissions addresses users by id). */
const userIdOf = (raw: string): number => numericId(raw, 'User');

/**
 * `PUT /admin/users/:id`: `{ blocked }` alone blocks or unblocks (ending the user's sessions when
 * blocked); any other body is a full update as `PUT /api/users/:id` takes it (an absent password
 * keeps it). Answers the user with its role.
 */
export async function updateUser(auth: Auth, rawId: string, input: Body, audited?: Audited): Promise<unknown> {
  const id = userIdOf(rawId);
  const keys = Object.keys(input);
  if (keys.length === 0) throw new ValidationError('Request body cannot be empty');
  if (keys.length === 1 && keys[0] === 'blocked') {
    if (typeof input.blocked !== 'boolean')
      throw ValidationError.fromFieldErrors([
        { path: ['blocked'], message: 'blocked must be a `boolean` type', name: 'ValidationError' },
      ]);
    await auth.users.setBlocked(id, input.blocked, audited);
  } else {
    await auth.userManagement.update(id, input, {}, audited);
    // A block set with other changes ends the user's sessions as a block alone does.
    if (input.blocked === true) await auth.users.setBlocked(id, true, audited);
  }
  return auth.userManagement.get(id);
}

export function registerAdminAccessRoutes(admin: FastifyInstance, auth: Auth, prefix: string): void {
  const roles = auth.roleApi;
  const by = (request: FastifyRequest) => auditedBy(request, auth.audit);
  const base = `${prefix}/users-permissions`;
  admin.get(`${base}/roles`, async () => ({ roles: await roles.find() }));
  admin.get<{ Params: { id: string } }>(`${base}/roles/:id`, async (request) => ({
    role: await roles.findOne(request.params.id),
  }));
  admin.post(`${base}/roles`, async (request) => roles.create(request.body, by(request)));
  admin.put<{ Params: { id: string } }>(`${base}/roles/:id`, async (request) =>
    roles.update(request.params.id, request.body, by(request)),
  );
  admin.delete<{ Params: { id: string } }>(`${base}/roles/:id`, async (request) =>
    roles.delete(request.params.id, by(request)),
  );
  // Every grantable action: what the permissions matrix lists (an administrator holds no grants).
  admin.get(`${base}/permissions`, async () => roles.permissions());

  admin.get<{ Querystring: Record<string, unknown> }>(`${prefix}/users-permissions/users`, async (request) => {
    const { page, pageSize, search, sort } = request.query;
    const found = await auth.userManagement.list({ page, pageSize, search, sort });
    return { data: found.results, meta: { pagination: found.pagination } };
  });
  admin.get<{ Params: { id: string } }>(`${prefix}/users-permissions/users/:id`, async (request) => ({
    data: await auth.userManagement.get(userIdOf(request.params.id)),
  }));
  admin.delete<{ Params: { id: string } }>(`${prefix}/users-permissions/users/:id`, async (request) => ({
    data: await auth.userManagement.destroy(userIdOf(request.params.id), by(request)),
  }));

  const self = async (request: FastifyRequest) => actorOf(request);
  const admins = `${prefix}/administrators`;
  admin.get(admins, async () => ({ data: await auth.admins.list() }));
  admin.post(admins, async (request, reply) => {
    const { email, password } = body(request);
    const created = await auth.admins.create(email, password, by(request));
    return reply.status(201).send({ data: await auth.admins.get(created.id) });
  });
  admin.get(`${admins}/me`, async (request) => ({ data: await auth.admins.get(await self(request)) }));
  admin.put(`${admins}/me/password`, async (request) => {
    const { currentPassword, password } = body(request);
    // The administrator's earlier tokens end; this session goes on with the new one.
    const { sessionId } = await auth.admins.authenticateSession(request.headers.authorization);
    const token = await auth.admins.changePassword(
      await self(request),
      currentPassword,
      password,
      by(request),
      sessionId,
    );
    return { data: { token } };
  });
  admin.delete<{ Params: { id: string } }>(`${admins}/:id`, async (request) => ({
    data: await auth.admins.remove(numericId(request.params.id, 'Administrator'), await self(request), by(request)),
  }));
}
