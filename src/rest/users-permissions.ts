/**
 * Strapi's users-permissions routes: `POST /api/auth/local`, `POST /api/auth/local/register`,
 * `GET /api/users/me`, `GET /api/users`, `GET /api/users/count`, `GET /api/users/:id`. Users are
 * answered without the envelope, as Strapi does.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Auth } from '../auth/index.js';
import { USER_UID } from '../auth/model.js';
import { readAction } from '../auth/permissions.js';
import type { RestConfig } from '../config/load.js';
import type { DocumentContext } from '../documents/context.js';
import type { DocumentService } from '../documents/service.js';
import { ForbiddenError, NotFoundError, UnauthorizedError, ValidationError } from '../errors.js';
import { parseFindOneQuery, parseFindQuery } from '../query/parse/index.js';

type Query = Record<string, unknown>;

function objectBody(request: FastifyRequest): Record<string, unknown> {
  const body = request.body;
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new ValidationError('The request body must be a JSON object');
  return body as Record<string, unknown>;
}

/** True when one of the project's own content-types is served at `/users`. */
export const usersPathTaken = (schema: DocumentContext['schema']): boolean => schema.byPluralName.has('users');

export function registerUsersPermissionsRoutes(
  app: FastifyInstance,
  options: { auth: Auth; service: DocumentService; context: DocumentContext; rest: RestConfig; prefix: string },
): void {
  const { auth, service, context, rest, prefix } = options;
  const type = auth.users.type;
  const parseOptions = (canRead?: DocumentContext['canRead']) => ({ rest, i18n: context.i18n, canRead });

  app.post(`${prefix}/auth/local`, async (request) => auth.users.login(objectBody(request), request.ip));

  app.post(`${prefix}/auth/local/register`, async (request) => auth.register(objectBody(request), request.headers));

  // A project type named `users` (api::user.user) takes /users and everything under it, as in Strapi.
  if (usersPathTaken(context.schema)) return;

  app.get(`${prefix}/users/me`, async (request) => {
    const caller = await auth.access.resolve(request.headers);
    // As Strapi answers: without credentials Public may not ask (403); an API token is no user (401).
    if (caller.kind === 'public') throw new ForbiddenError();
    if (caller.kind !== 'user') throw new UnauthorizedError('This route needs a user JWT, not an API token');
    const query = parseFindOneQuery(context.schema, type, request.query as Query, parseOptions((t) => caller.grants.allows(readAction(t))));
    const user = await auth.users.findById(caller.userId);
    const shown = user && (await service.findOne(type, user.documentId as string, query));
    if (!shown) throw new UnauthorizedError('Invalid credentials');
    return shown;
  });

  app.get(`${prefix}/users`, async (request) => {
    const caller = await auth.access.authorize(request.headers, { uid: USER_UID, action: 'find' });
    const query = parseFindQuery(context.schema, type, request.query as Query, parseOptions(caller.canRead));
    return (await service.findMany(type, query, caller)).results;
  });

  app.get(`${prefix}/users/count`, async (request) => {
    const caller = await auth.access.authorize(request.headers, { uid: USER_UID, action: 'find' });
    const query = parseFindQuery(context.schema, type, { filters: (request.query as Query).filters }, parseOptions(caller.canRead));
    return (await service.findMany(type, { ...query, pagination: { kind: 'offset', start: 0, limit: 1, withCount: true } }, caller)).pagination.total;
  });

  app.get<{ Params: { id: string } }>(`${prefix}/users/:id`, async (request) => {
    const caller = await auth.access.authorize(request.headers, { uid: USER_UID, action: 'findOne' });
    const id = /^\d{1,15}$/.test(request.params.id) ? Number(request.params.id) : NaN;
    const found = Number.isSafeInteger(id) ? await auth.users.findById(id) : null;
    if (!found) throw new NotFoundError('User not found');
    const query = parseFindOneQuery(context.schema, type, request.query as Query, parseOptions(caller.canRead));
    return service.findOne(type, found.documentId as string, query, caller);
  });
}
