/**
 * Strapi's users-permissions routes: `POST /api/auth/local`, `POST /api/auth/local/register`, the
 * account flows (`forgot-password`, `reset-password`, `change-password`, `email-confirmation`,
 * `send-email-confirmation`), `GET /api/users/me`, `GET /api/users`, `GET /api/users/count`,
 * `GET /api/users/:id`. Answered without the envelope, as Strapi does.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Auth } from './service.js';
import { ME_ACTION, USER_UID } from './model.js';
import { authAction, type AuthActionName } from './permissions.js';
import type { DocumentService } from '../../core/documents/service.js';
import { ForbiddenError, NotFoundError, UnauthorizedError, ValidationError } from '../../core/errors.js';
import type { Schema } from '../../core/schema/model.js';

type Query = Record<string, unknown>;

function objectBody(request: FastifyRequest): Record<string, unknown> {
  const body = request.body;
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw new ValidationError('The request body must be a JSON object');
  return body as Record<string, unknown>;
}

/** True when one of the project's own content-types is served at `/users`. */
export const usersPathTaken = (schema: Schema): boolean => schema.byPluralName.has('users');

export function registerUsersPermissionsRoutes(
  app: FastifyInstance,
  options: { auth: Auth; service: DocumentService; prefix: string },
): void {
  const { auth, service, prefix } = options;
  const users = service.of(auth.users.type);

  /** A sign-in's answer: in `refresh` mode a new session's tokens, and its cookie (features/users-permissions/sessions.ts). */
  const signedIn = async <T extends { jwt?: string; user: { id?: unknown } }>(
    request: FastifyRequest,
    reply: FastifyReply,
    how: 'login' | 'register' | 'password',
    result: T,
  ) => {
    const answer = await auth.signedIn(result, request.headers, (request.body ?? {}) as Record<string, unknown>, how);
    if (answer.cookie) reply.header('set-cookie', answer.cookie);
    return answer.body;
  };

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

  app.post(`${prefix}/auth/local`, permitted('callback'), async (request, reply) =>
    signedIn(request, reply, 'login', await auth.users.login(objectBody(request), request.clientIp)),
  );

  app.post(`${prefix}/auth/local/register`, permitted('register'), async (request, reply) =>
    signedIn(request, reply, 'register', await auth.register(objectBody(request), request.headers, request.clientIp)),
  );

  // Account flows (features/users-permissions/account.ts): answered as Strapi's users-permissions answers them, and
  // rate limited as Strapi limits them (per route, email and client address).
  const limited = (request: FastifyRequest, route: string) =>
    auth.limitAccountFlow(route, request.body, request.clientIp);
  app.post(`${prefix}/auth/forgot-password`, permitted('forgotPassword'), async (request) => {
    await limited(request, 'auth/forgot-password');
    return auth.account.forgotPassword(objectBody(request));
  });
  app.post(`${prefix}/auth/reset-password`, permitted('resetPassword'), async (request, reply) => {
    await limited(request, 'auth/reset-password');
    return signedIn(request, reply, 'password', await auth.account.resetPassword(objectBody(request)));
  });
  app.post(`${prefix}/auth/change-password`, async (request, reply) => {
    await limited(request, 'auth/change-password');
    return signedIn(
      request,
      reply,
      'password',
      await auth.account.changePassword(await auth.passwordChanger(request.headers), objectBody(request)),
    );
  });

  // Login providers (features/users-permissions/oauth.ts): the redirect to the provider, its redirect back, and the
  // frontend's call with the token it was handed. Strapi rate-limits `/connect/(.*)` (per path and
  // client address: a GET has no email), not the frontend's callback.
  app.get<{ Params: { provider: string } }>(
    `${prefix}/connect/:provider`,
    permitted('connect'),
    async (request, reply) => {
      await limited(request, `connect/${request.params.provider}`);
      const { location, cookie } = await auth.providerLogins.connect(request.params.provider);
      return reply.header('set-cookie', cookie).redirect(location);
    },
  );
  app.get<{ Params: { provider: string } }>(
    `${prefix}/connect/:provider/callback`,
    permitted('connect'),
    async (request, reply) => {
      await limited(request, `connect/${request.params.provider}/callback`);
      const { location, cookie } = await auth.providerLogins.connectCallback(
        request.params.provider,
        request.query as Query,
        request.headers.cookie,
      );
      return reply.header('set-cookie', cookie).redirect(location);
    },
  );
  app.get<{ Params: { provider: string } }>(
    `${prefix}/auth/:provider/callback`,
    permitted('callback'),
    async (request, reply) =>
      signedIn(request, reply, 'login', await auth.providerCallback(request.params.provider, request.query as Query)),
  );

  // Refresh sessions (features/users-permissions/sessions.ts), in `jwtManagement: 'refresh'` mode only (else 404, as Strapi).
  const { sessions } = auth;
  app.post(`${prefix}/auth/refresh`, permitted('refresh'), async (request, reply) => {
    if (!sessions.enabled) throw new NotFoundError('Not Found');
    const body =
      request.body && typeof request.body === 'object' && !Array.isArray(request.body)
        ? (request.body as Record<string, unknown>)
        : {};
    const tokens = await sessions.refresh(sessions.requestToken(request.headers, body));
    const answer = sessions.answer(tokens, request.headers, auth.config.production);
    if (answer.cookie) reply.header('set-cookie', answer.cookie);
    return answer.body;
  });
  app.post(`${prefix}/auth/logout`, permitted('logout'), async (request, reply) => {
    if (!sessions.enabled) throw new NotFoundError('Not Found');
    const caller = await auth.access.resolve(request.headers);
    // Public allowed `auth.logout` (or an API token) is no user: Strapi's controller answers 401.
    if (caller.kind !== 'user') throw new UnauthorizedError('Missing authentication');
    const body =
      request.body && typeof request.body === 'object' && !Array.isArray(request.body)
        ? (request.body as Record<string, unknown>)
        : {};
    const refreshToken = sessions.requestToken(request.headers, body);
    await sessions.logout(caller.userId, body, {
      sessionId: caller.sessionId,
      refreshToken: typeof refreshToken === 'string' ? refreshToken : undefined,
    });
    if (sessions.usesCookie(request.headers)) reply.header('set-cookie', sessions.cookie('', auth.config.production));
    return { ok: true };
  });
  // The user's sessions (devices), as Strapi 5.54 lists and ends them.
  const sessionUser = async (request: FastifyRequest) => {
    if (!sessions.enabled) throw new NotFoundError('Not Found');
    const caller = await auth.access.resolve(request.headers);
    if (caller.kind !== 'user') throw new UnauthorizedError('Missing authentication');
    return caller;
  };
  app.get(`${prefix}/auth/sessions`, permitted('getSessions'), async (request) => {
    const caller = await sessionUser(request);
    return { data: await sessions.list(caller.userId, caller.sessionId) };
  });
  app.delete<{ Params: { sessionId: string } }>(
    `${prefix}/auth/sessions/:sessionId`,
    permitted('revokeSession'),
    async (request) => {
      const caller = await sessionUser(request);
      if (!(await sessions.revokeById(caller.userId, request.params.sessionId)))
        throw new NotFoundError('Session not found');
      return { data: {} };
    },
  );
  app.post(`${prefix}/auth/send-email-confirmation`, permitted('sendEmailConfirmation'), async (request) => {
    await limited(request, 'auth/send-email-confirmation');
    return auth.account.sendEmailConfirmation(objectBody(request));
  });
  app.get(`${prefix}/auth/email-confirmation`, permitted('emailConfirmation'), async (request, reply) => {
    await auth.account.confirmEmail(request.query as Query);
    return reply.redirect(await auth.account.confirmationRedirect());
  });

  // A project type named `users` (api::user.user) takes /users and everything under it, as in Strapi.
  if (usersPathTaken(service.schema)) return;

  app.get(`${prefix}/users/me`, async (request) => {
    const caller = await auth.access.resolve(request.headers);
    // As Strapi answers: without credentials Public may not ask (403); an API token is no user (401).
    if (caller.kind === 'public') throw new ForbiddenError();
    if (caller.kind !== 'user') throw new UnauthorizedError('This route needs a user JWT, not an API token');
    // Strapi's route checks `plugin::users-permissions.user.me` (Authenticated holds it by default).
    if (!caller.grants.allows(ME_ACTION)) throw new ForbiddenError();
    const user = await auth.users.findById(caller.userId);
    // The user's own record: read without the role's read grants (populate is not limited by them).
    const shown =
      user && (await users.findVersion({ ...(request.query as Query), documentId: user.documentId as string }));
    if (!shown) throw new UnauthorizedError('Invalid credentials');
    return shown;
  });

  app.get(`${prefix}/users`, async (request) => {
    const caller = await auth.access.authorize(request.headers, { uid: USER_UID, action: 'find' });
    return (await users.findMany(request.query as Query, caller)).results;
  });

  app.get(`${prefix}/users/count`, async (request) => {
    // Strapi's `count`; `find` too, as Vellum's earlier versions asked.
    const caller = await auth.access
      .authorize(request.headers, { uid: USER_UID, action: 'count' })
      .catch((error: unknown) =>
        error instanceof ForbiddenError
          ? auth.access.authorize(request.headers, { uid: USER_UID, action: 'find' })
          : Promise.reject(error),
      );
    return users.count({ filters: (request.query as Query).filters }, caller);
  });

  app.get<{ Params: { id: string } }>(`${prefix}/users/:id`, async (request) => {
    const caller = await auth.access.authorize(request.headers, { uid: USER_UID, action: 'findOne' });
    const id = /^\d{1,15}$/.test(request.params.id) ? Number(request.params.id) : NaN;
    const found = Number.isSafeInteger(id) ? await auth.users.findById(id) : null;
    if (!found) throw new NotFoundError('User not found');
    return users.findVersion({ ...(request.query as Query), documentId: found.documentId as string }, caller);
  });
}
