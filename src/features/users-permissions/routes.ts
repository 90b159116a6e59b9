/**
 * Strapi's users-permissions routes: `POST /api/auth/local`, `POST /api/auth/local/register`, the
 * account flows (`forgot-password`, `reset-password`, `change-password`, `email-confirmation`,
 * `send-email-confirmation`), `GET /api/users/me`, `GET /api/users`, `GET /api/users/count`,
 * `GET /api/users/:id`. Answered without the envelope, as Strapi does. Each checks its route's
 * permission, then runs its action (content-api.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Caller as Reader } from '../../api/access.js';
import type { Caller } from './access.js';
import type { Auth } from './service.js';
import { ME_ACTION, USER_UID } from './model.js';
import { authAction, type AuthActionName } from './permissions.js';
import { routeKey, type ActionAnswer, type ContentApiAction } from './content-api.js';
import type { DocumentService } from '../../core/documents/service.js';
import { ForbiddenError, UnauthorizedError } from '../../core/errors.js';
import type { Schema } from '../../core/schema/model.js';

/** True when one of the project's own content-types is served at `/users`. */
export const usersPathTaken = (schema: Schema): boolean => schema.byPluralName.has('users');

export interface UsersPermissionsRouteOptions {
  auth: Auth;
  service: DocumentService;
  prefix: string;
  /** The content-API actions (content-api.ts), by Strapi's handler name. */
  actions: Record<string, ContentApiAction>;
  /**
   * Strapi's routes (`GET /users/me`) these handlers leave to others: a project's plugin
   * extension serves them itself, or removed them.
   */
  leaveOut?: ReadonlySet<string>;
}

/** Runs an action for a Fastify request and writes its answer. */
export async function runAction(
  action: ContentApiAction,
  request: FastifyRequest,
  reply: FastifyReply,
  given: { reader?: Reader; who?: Caller; params?: Record<string, string> } = {},
): Promise<unknown> {
  const answer: ActionAnswer = await action({
    headers: request.headers,
    body: request.body,
    query: (request.query ?? {}) as Record<string, unknown>,
    params: given.params ?? ((request.params ?? {}) as Record<string, string>),
    clientIp: request.clientIp,
    reader: given.reader ?? {},
    who: given.who,
  });
  if (answer.cookie) void reply.header('set-cookie', answer.cookie);
  if (answer.location !== undefined) return reply.redirect(answer.location);
  if (answer.status !== undefined) void reply.status(answer.status);
  if (answer.status === 204) return reply.send();
  return answer.body;
}

type Handler = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/** Registers one of Strapi's routes unless the project serves it (or removed it). */
export function routeRegistrar(app: FastifyInstance, prefix: string, leaveOut: ReadonlySet<string> | undefined) {
  return (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    handler: Handler,
    options: { preHandler?: (request: FastifyRequest) => Promise<void>; url?: string } = {},
  ) => {
    if (leaveOut?.has(routeKey(method, path))) return;
    app.route({ method, url: `${prefix}${options.url ?? path}`, preHandler: options.preHandler, handler });
  };
}

export function registerUsersPermissionsRoutes(app: FastifyInstance, options: UsersPermissionsRouteOptions): void {
  const { auth, service, prefix, actions } = options;
  const route = routeRegistrar(app, prefix, options.leaveOut);
  const run =
    (name: string): Handler =>
    (request, reply) =>
      runAction(actions[name]!, request, reply);

  // Each auth route is an action of Strapi's `auth` controller, checked against the caller's grants
  // before anything else (Public holds the sign-in ones, Authenticated does not: a signed-in user's
  // `POST /auth/local` is a 403 there). Credentials that do not resolve (a stale or garbage bearer
  // token) are a 401 first, before any counting.
  const permitted = (name: AuthActionName) => ({
    preHandler: async (request: FastifyRequest) => {
      const caller = await auth.access.resolve(request.headers);
      if (!caller.grants.allows(authAction(name))) throw new ForbiddenError();
    },
  });
  // Account flows (features/users-permissions/account.ts): rate limited as Strapi limits them (per
  // route, email and client address) before their action; sign-in and registration count inside theirs.
  const limitedRun =
    (name: string, flow: (request: FastifyRequest) => string): Handler =>
    async (request, reply) => {
      await auth.limitAccountFlow(flow(request), request.body, request.clientIp);
      return runAction(actions[name]!, request, reply);
    };

  route('POST', '/auth/local', run('auth.callback'), permitted('callback'));
  route('POST', '/auth/local/register', run('auth.register'), permitted('register'));
  route(
    'POST',
    '/auth/forgot-password',
    limitedRun('auth.forgotPassword', () => 'auth/forgot-password'),
    permitted('forgotPassword'),
  );
  route(
    'POST',
    '/auth/reset-password',
    limitedRun('auth.resetPassword', () => 'auth/reset-password'),
    permitted('resetPassword'),
  );
  // Its action checks `auth.changePassword` itself, after the count (as the GraphQL mutation does).
  route(
    'POST',
    '/auth/change-password',
    limitedRun('auth.changePassword', () => 'auth/change-password'),
  );

  // Login providers (features/users-permissions/oauth.ts): the redirect to the provider, its
  // redirect back (both Strapi's `/connect/(.*)`), and the frontend's call with the token it was
  // handed. Strapi rate-limits `/connect/(.*)` (per path and client address: a GET has no email).
  const providerOf = (request: FastifyRequest) => (request.params as { provider: string }).provider;
  route(
    'GET',
    '/connect/(.*)',
    limitedRun('auth.connect', (request) => `connect/${providerOf(request)}`),
    { ...permitted('connect'), url: '/connect/:provider' },
  );
  route(
    'GET',
    '/connect/(.*)',
    async (request, reply) => {
      const provider = providerOf(request);
      await auth.limitAccountFlow(`connect/${provider}/callback`, request.body, request.clientIp);
      return runAction(actions['auth.connect']!, request, reply, { params: { provider: `${provider}/callback` } });
    },
    { ...permitted('connect'), url: '/connect/:provider/callback' },
  );
  route('GET', '/auth/:provider/callback', run('auth.callback'), permitted('callback'));

  // Refresh sessions (features/users-permissions/sessions.ts), in `jwtManagement: 'refresh'` mode only (else 404, as Strapi).
  route('POST', '/auth/refresh', run('auth.refresh'), permitted('refresh'));
  route('POST', '/auth/logout', run('auth.logout'), permitted('logout'));
  route('GET', '/auth/sessions', run('auth.getSessions'), permitted('getSessions'));
  route('DELETE', '/auth/sessions/:sessionId', run('auth.revokeSession'), permitted('revokeSession'));
  route(
    'POST',
    '/auth/send-email-confirmation',
    limitedRun('auth.sendEmailConfirmation', () => 'auth/send-email-confirmation'),
    permitted('sendEmailConfirmation'),
  );
  route('GET', '/auth/email-confirmation', run('auth.emailConfirmation'), permitted('emailConfirmation'));

  // A project type named `users` (api::user.user) takes /users and everything under it, as in Strapi.
  if (usersPathTaken(service.schema)) return;

  route('GET', '/users/me', async (request, reply) => {
    const caller = await auth.access.resolve(request.headers);
    // As Strapi answers: without credentials Public may not ask (403); an API token is no user (401).
    if (caller.kind === 'public') throw new ForbiddenError();
    if (caller.kind !== 'user') throw new UnauthorizedError('This route needs a user JWT, not an API token');
    // Strapi's route checks `plugin::users-permissions.user.me` (Authenticated holds it by default).
    if (!caller.grants.allows(ME_ACTION)) throw new ForbiddenError();
    return runAction(actions['user.me']!, request, reply, { who: caller });
  });

  route('GET', '/users', async (request, reply) => {
    const caller = await auth.access.authorize(request.headers, { uid: USER_UID, action: 'find' });
    return runAction(actions['user.find']!, request, reply, { reader: caller });
  });

  route('GET', '/users/count', async (request, reply) => {
    // Strapi's `count`; `find` too, as Vellum's earlier versions asked.
    const caller = await auth.access
      .authorize(request.headers, { uid: USER_UID, action: 'count' })
      .catch((error: unknown) =>
        error instanceof ForbiddenError
          ? auth.access.authorize(request.headers, { uid: USER_UID, action: 'find' })
          : Promise.reject(error),
      );
    return runAction(actions['user.count']!, request, reply, { reader: caller });
  });

  route('GET', '/users/:id', async (request, reply) => {
    const caller = await auth.access.authorize(request.headers, { uid: USER_UID, action: 'findOne' });
    return runAction(actions['user.findOne']!, request, reply, { reader: caller });
  });
}
