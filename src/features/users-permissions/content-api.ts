/**
 * Users-permissions' content-API actions, by Strapi's handler names (`auth.callback`, `user.me`,
 * `role.find`, ...), apart from any transport: each takes what a request carries and answers a
 * status, a body, a cookie or a redirect. Vellum's own routes (routes.ts, roles-routes.ts) check
 * the route's permission and call them; so does the Strapi runtime's plugin (a project's
 * `src/extensions/users-permissions/strapi-server` wraps or calls them with a Koa ctx), after its
 * own permission step. They check no route permission themselves, as Strapi's controllers do not.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Caller as Reader } from '../../api/access.js';
import type { Document, DocumentService } from '../../core/documents/service.js';
import { NotFoundError, UnauthorizedError, ValidationError } from '../../core/errors.js';
import type { Caller } from './access.js';
import type { Auth } from './service.js';

type Query = Record<string, unknown>;

export interface ActionRequest {
  headers: IncomingHttpHeaders;
  body: unknown;
  query: Query;
  params: Record<string, string | undefined>;
  clientIp: string;
  /** What the route's permission check lets the action read (`{}`: everything). */
  reader: Reader;
  /** Who asks, when the route resolved it already (one statement saved). */
  who?: Caller;
}

export interface ActionAnswer {
  /** 200 unless said. */
  status?: number;
  body?: unknown;
  cookie?: string;
  /** A redirect (302) to this address. */
  location?: string;
}

export type ContentApiAction = (request: ActionRequest) => Promise<ActionAnswer>;

/** Strapi 5.54's content-API route of users-permissions, as its `routes/content-api/*.js` declare it. */
export interface ContentApiRoute {
  method: string;
  path: string;
  handler: string;
  config?: { prefix?: string; middlewares?: string[] };
}

const RATE_LIMITED = { middlewares: ['plugin::users-permissions.rateLimit'], prefix: '' };
const AT_ROOT = { prefix: '' };

/** In Strapi's order (auth, user, role, permissions); role and permissions routes have no prefix of their own. */
export const CONTENT_API_ROUTES: readonly ContentApiRoute[] = [
  { method: 'GET', path: '/connect/(.*)', handler: 'auth.connect', config: RATE_LIMITED },
  { method: 'POST', path: '/auth/local', handler: 'auth.callback', config: RATE_LIMITED },
  { method: 'POST', path: '/auth/local/register', handler: 'auth.register', config: RATE_LIMITED },
  { method: 'GET', path: '/auth/:provider/callback', handler: 'auth.callback', config: AT_ROOT },
  { method: 'POST', path: '/auth/forgot-password', handler: 'auth.forgotPassword', config: RATE_LIMITED },
  { method: 'POST', path: '/auth/reset-password', handler: 'auth.resetPassword', config: RATE_LIMITED },
  { method: 'GET', path: '/auth/email-confirmation', handler: 'auth.emailConfirmation', config: AT_ROOT },
  {
    method: 'POST',
    path: '/auth/send-email-confirmation',
    handler: 'auth.sendEmailConfirmation',
    config: RATE_LIMITED,
  },
  { method: 'POST', path: '/auth/change-password', handler: 'auth.changePassword', config: RATE_LIMITED },
  { method: 'POST', path: '/auth/refresh', handler: 'auth.refresh', config: AT_ROOT },
  { method: 'POST', path: '/auth/logout', handler: 'auth.logout', config: AT_ROOT },
  { method: 'GET', path: '/auth/sessions', handler: 'auth.getSessions', config: AT_ROOT },
  { method: 'DELETE', path: '/auth/sessions/:sessionId', handler: 'auth.revokeSession', config: AT_ROOT },
  { method: 'GET', path: '/users/count', handler: 'user.count', config: AT_ROOT },
  { method: 'GET', path: '/users', handler: 'user.find', config: AT_ROOT },
  { method: 'GET', path: '/users/me', handler: 'user.me', config: AT_ROOT },
  { method: 'GET', path: '/users/:id', handler: 'user.findOne', config: AT_ROOT },
  { method: 'POST', path: '/users', handler: 'user.create', config: AT_ROOT },
  { method: 'PUT', path: '/users/:id', handler: 'user.update', config: AT_ROOT },
  { method: 'DELETE', path: '/users/:id', handler: 'user.destroy', config: AT_ROOT },
  { method: 'GET', path: '/roles/:id', handler: 'role.findOne' },
  { method: 'GET', path: '/roles', handler: 'role.find' },
  { method: 'POST', path: '/roles', handler: 'role.createRole' },
  { method: 'PUT', path: '/roles/:role', handler: 'role.updateRole' },
  { method: 'DELETE', path: '/roles/:role', handler: 'role.deleteRole' },
  { method: 'GET', path: '/permissions', handler: 'permissions.getPermissions' },
];

/** `POST /auth/local` -> `POST /auth/local`: how Vellum's own routes name the Strapi route they serve. */
export const routeKey = (method: string, path: string): string => `${method.toUpperCase()} ${path}`;

function objectBody(body: unknown): Record<string, unknown> {
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw new ValidationError('The request body must be a JSON object');
  return body as Record<string, unknown>;
}

const bodyOrEmpty = (body: unknown): Record<string, unknown> =>
  body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};

/** A user id in a path: digits only (Strapi's users-permissions addresses users by id). */
const numericId = (raw: string | undefined): number => {
  const id = /^\d{1,15}$/.test(raw ?? '') ? Number(raw) : NaN;
  return Number.isSafeInteger(id) ? id : NaN;
};

/** Every action of Strapi's content-API routes, by handler name. */
export function contentApiActions(auth: Auth, service: DocumentService): Record<string, ContentApiAction> {
  const users = service.of(auth.users.type);
  const manage = auth.userManagement;
  const roles = auth.roleApi;
  const { sessions } = auth;
  const who = async (request: ActionRequest) => request.who ?? auth.access.resolve(request.headers);

  /** A sign-in's answer: in `refresh` mode a new session's tokens, and its cookie (sessions.ts). */
  const signedIn = async (
    request: ActionRequest,
    how: 'login' | 'register' | 'password',
    result: { jwt?: string; user: { id?: unknown } },
  ): Promise<ActionAnswer> => {
    const answer = await auth.signedIn(result, request.headers, bodyOrEmpty(request.body), how);
    return { body: answer.body, cookie: answer.cookie };
  };
  /** The user's sessions, in `refresh` mode only (else 404, as Strapi). */
  const sessionUser = async (request: ActionRequest) => {
    if (!sessions.enabled) throw new NotFoundError('Not Found');
    const caller = await who(request);
    // Public allowed the action (or an API token) is no user: Strapi's controller answers 401.
    if (caller.kind !== 'user') throw new UnauthorizedError('Missing authentication');
    return caller;
  };
  /** A written user as Strapi answers it: its role populated when the caller may read roles. */
  const shown = async (written: Document, request: ActionRequest) =>
    (await users.findVersion({ populate: ['role'], documentId: String(written.documentId) }, request.reader)) ??
    written;

  return {
    // `POST /auth/local`, or a login provider's `GET /auth/:provider/callback`.
    'auth.callback': async (request) => {
      // Strapi: `ctx.params.provider || 'local'` (GraphQL's login passes `local` by default).
      const provider = request.params.provider;
      if (provider !== undefined && provider !== '' && provider !== 'local')
        return signedIn(request, 'login', await auth.providerCallback(provider, request.query));
      return signedIn(request, 'login', await auth.users.login(objectBody(request.body), request.clientIp));
    },
    'auth.register': async (request) =>
      signedIn(request, 'register', await auth.register(objectBody(request.body), request.headers, request.clientIp)),
    'auth.forgotPassword': async (request) => ({
      body: await auth.account.forgotPassword(objectBody(request.body)),
    }),
    'auth.resetPassword': async (request) =>
      signedIn(request, 'password', await auth.account.resetPassword(objectBody(request.body))),
    'auth.changePassword': async (request) =>
      signedIn(
        request,
        'password',
        await auth.account.changePassword(await auth.passwordChanger(request.headers), objectBody(request.body)),
      ),
    // Strapi's `/connect/(.*)`: `github` (to the provider) or `github/callback` (back from it).
    'auth.connect': async (request) => {
      const path = request.params.provider ?? request.params['*'] ?? request.params['0'] ?? '';
      const back = path.endsWith('/callback');
      const provider = back ? path.slice(0, -'/callback'.length) : path;
      const { location, cookie } = back
        ? await auth.providerLogins.connectCallback(provider, request.query, request.headers.cookie)
        : await auth.providerLogins.connect(provider);
      return { location, cookie };
    },
    'auth.refresh': async (request) => {
      if (!sessions.enabled) throw new NotFoundError('Not Found');
      const body = bodyOrEmpty(request.body);
      const tokens = await sessions.refresh(sessions.requestToken(request.headers, body));
      const answer = sessions.answer(tokens, request.headers, auth.config.production);
      return { body: answer.body, cookie: answer.cookie };
    },
    'auth.logout': async (request) => {
      const caller = await sessionUser(request);
      const body = bodyOrEmpty(request.body);
      const refreshToken = sessions.requestToken(request.headers, body);
      await sessions.logout(caller.userId, body, {
        sessionId: caller.sessionId,
        refreshToken: typeof refreshToken === 'string' ? refreshToken : undefined,
      });
      const cookie = sessions.usesCookie(request.headers) ? sessions.cookie('', auth.config.production) : undefined;
      return { body: { ok: true }, cookie };
    },
    'auth.getSessions': async (request) => {
      const caller = await sessionUser(request);
      return { body: { data: await sessions.list(caller.userId, caller.sessionId) } };
    },
    'auth.revokeSession': async (request) => {
      const caller = await sessionUser(request);
      if (!(await sessions.revokeById(caller.userId, String(request.params.sessionId))))
        throw new NotFoundError('Session not found');
      return { body: { data: {} } };
    },
    'auth.sendEmailConfirmation': async (request) => ({
      body: await auth.account.sendEmailConfirmation(objectBody(request.body)),
    }),
    'auth.emailConfirmation': async (request) => {
      await auth.account.confirmEmail(request.query);
      return { location: await auth.account.confirmationRedirect() };
    },

    // Strapi's `me`: no user (Public allowed it, or an API token) is its `ctx.unauthorized()`.
    'user.me': async (request) => {
      const caller = await who(request);
      if (caller.kind !== 'user') throw new UnauthorizedError('Unauthorized');
      const user = await auth.users.findById(caller.userId);
      // The user's own record: read without the role's read grants (populate is not limited by them).
      const found = user && (await users.findVersion({ ...request.query, documentId: user.documentId as string }));
      if (!found) throw new UnauthorizedError('Invalid credentials');
      return { body: found };
    },
    'user.find': async (request) => ({ body: (await users.findMany(request.query, request.reader)).results }),
    'user.count': async (request) => ({ body: await users.count({ filters: request.query.filters }, request.reader) }),
    'user.findOne': async (request) => {
      const id = numericId(request.params.id);
      const found = Number.isSafeInteger(id) ? await auth.users.findById(id) : null;
      if (!found) throw new NotFoundError('User not found');
      return {
        body: await users.findVersion({ ...request.query, documentId: found.documentId as string }, request.reader),
      };
    },
    'user.create': async (request) => ({ status: 201, body: await shown(await manage.create(request.body), request) }),
    'user.update': async (request) => {
      const id = numericId(request.params.id);
      if (!Number.isSafeInteger(id)) throw new NotFoundError('User not found');
      const principal = request.reader.principal;
      const actor = principal?.kind === 'user' ? { userId: principal.id } : {};
      return { body: await shown(await manage.update(id, request.body, actor), request) };
    },
    // Strapi deletes by `where: { id }` and answers what it deleted: nothing (204) for no user.
    'user.destroy': async (request) => {
      const id = numericId(request.params.id);
      if (!Number.isSafeInteger(id)) return { status: 204 };
      try {
        return { body: await manage.destroy(id) };
      } catch (error) {
        if (error instanceof NotFoundError) return { status: 204 };
        throw error;
      }
    },

    'role.find': async () => ({ body: { roles: await roles.find() } }),
    'role.findOne': async (request) => ({ body: { role: await roles.findOne(String(request.params.id)) } }),
    'role.createRole': async (request) => ({ body: await roles.create(request.body) }),
    'role.updateRole': async (request) => ({ body: await roles.update(String(request.params.role), request.body) }),
    'role.deleteRole': async (request) => ({ body: await roles.delete(String(request.params.role)) }),
    'permissions.getPermissions': async () => ({ body: roles.permissions() }),
  };
}
