/**
 * A project route, as Strapi composes it (`compose-endpoint`): the route's information, then
 * authentication and the role's permission, then its policies, its middlewares, and the
 * controller action, whose return value becomes the body when it set none. Errors are answered as
 * Strapi's error middleware answers them; a ForbiddenError or UnauthorizedError thrown after the
 * permission check loses its message ("Forbidden", "Unauthorized"), a PolicyError keeps it.
 */
import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { Caller, Permission } from '../api/access.js';
import type { CallerOptions } from '../core/documents/context.js';
import { ForbiddenError, InternalServerError, PolicyError, UnauthorizedError, VellumError } from '../core/errors.js';
import { errorBody } from '../api/errors.js';
import { FILE_UID } from '../core/schema/model.js';
import { sendJson } from '../api/json-body.js';
import { httpErrorBody, type Context } from './context.js';
import { HttpError } from './errors.js';
import { servicesOf, type Middleware, type Runtime } from './runtime.js';

const CALLER = Symbol('vellum.strapi.caller');

/** What the request may read: the permission check's answer; everything for code outside a route. */
export function callerOf(ctx: Context): CallerOptions {
  return (ctx as unknown as Record<symbol, CallerOptions | undefined>)[CALLER] ?? {};
}

/** Koa's compose: each middleware gets `next`, which runs the rest and resolves to what it returns. */
export function compose(middlewares: Middleware[]): (ctx: Context, last?: () => Promise<unknown>) => Promise<unknown> {
  return (ctx, last) => {
    let index = -1;
    const dispatch = (i: number): Promise<unknown> => {
      if (i <= index) return Promise.reject(new Error('next() called multiple times'));
      index = i;
      const fn = i === middlewares.length ? last : middlewares[i];
      if (!fn) return Promise.resolve();
      try {
        return Promise.resolve(fn(ctx, () => dispatch(i + 1)));
      } catch (error) {
        return Promise.reject(error);
      }
    };
    return dispatch(0);
  };
}

/**
 * What a route with `auth: false` reads: no relation (Strapi's sanitizer, finding no credentials,
 * removes every relation from the query and the answer), media and components as usual. Its writes
 * may link any document and its reads may ask for drafts, as in Strapi (no `canLink`, `canReadDrafts`).
 */
const NO_CREDENTIALS: Caller = { canRead: (type) => type.uid === FILE_UID };

/** What each request's `ctx.state.auth` may read, for `strapi.contentAPI.sanitize.query(query, schema, { auth })`. */
const AUTH_CALLERS = new WeakMap<object, Caller>();

export function callerOfAuth(auth: unknown): CallerOptions | undefined {
  return auth !== null && typeof auth === 'object' ? AUTH_CALLERS.get(auth) : undefined;
}

export interface Access {
  /** `false`: no authentication at all (`config.auth: false`). */
  auth: false | { scope: Permission[] };
}

/**
 * Authentication and permission: `ctx.state.auth`, `ctx.state.user` (a user's JWT), and what the
 * request may read. Refusals are Vellum's REST answers (401, 403 with their messages).
 */
export function authenticate(runtime: Runtime, access: Access): Middleware {
  return async (ctx, next) => {
    if (access.auth === false) {
      (ctx as unknown as Record<symbol, Caller>)[CALLER] = NO_CREDENTIALS;
      return next();
    }
    const { access: control } = servicesOf(runtime);
    let caller: Caller = {};
    for (const permission of access.auth.scope) caller = await control.authorize(ctx.request.headers, permission);
    (ctx as unknown as Record<symbol, Caller>)[CALLER] = caller;
    await describeCaller(runtime, ctx, caller);
    return next();
  };
}

/** Who asks, as Strapi's users-permissions strategy shows it: `ctx.state.user`, `ctx.state.auth`. */
export async function describeCaller(runtime: Runtime, ctx: Context, caller: Caller): Promise<void> {
  const { auth } = servicesOf(runtime);
  const who = caller.principal;
  if (who?.kind === 'user' && auth) {
    const user = await auth.users.findById(who.id!, { populate: ['role'] });
    ctx.state.user = user ?? undefined;
    ctx.state.auth = { strategy: { name: 'users-permissions' }, credentials: user, ability: null };
  } else if (who?.kind === 'api-token') {
    ctx.state.auth = { strategy: { name: 'content-api-token' }, credentials: { id: who.id }, ability: null };
  } else {
    ctx.state.auth = { strategy: { name: 'users-permissions' }, credentials: null, ability: null };
  }
  AUTH_CALLERS.set(ctx.state.auth as object, caller);
  ctx.state.isAuthenticated = true;
}

/** Strapi's authorize step also catches what runs after it: forbidden and unauthorized lose their message. */
export const hideAccessErrors: Middleware = async (_ctx, next) => {
  try {
    return await next();
  } catch (error) {
    if (error instanceof UnauthorizedError) throw new UnauthorizedError('Unauthorized', {});
    if (error instanceof ForbiddenError && !(error instanceof PolicyError)) throw new ForbiddenError('Forbidden', {});
    throw error;
  }
};

/** Strapi's `returnBodyMiddleware`: an action's return value is the body when it set none. */
export const returnBody: Middleware = async (ctx, next) => {
  const value = await next();
  if ((ctx.body === undefined || ctx.body === null) && value !== undefined && value !== null) ctx.body = value;
};

interface HttpLikeError {
  status?: unknown;
  statusCode?: unknown;
  name?: string;
  message?: string;
  details?: unknown;
}

/** An error as Strapi's error middleware answers it, into `ctx`. */
export function answerError(ctx: Context, error: unknown, log: (error: unknown) => void): void {
  if (error instanceof VellumError) {
    // Vellum's own errors, as REST answers them.
    if (error.status >= 500 && error.status !== 503) log(error);
    const shown =
      error.status >= 500 && error.status !== 503 && error.status !== 501 ? new InternalServerError() : error;
    ctx.status = shown.status;
    ctx.body = errorBody(shown);
    if (shown.status === 503) ctx.set('Retry-After', '1');
    return;
  }
  const e = (error ?? {}) as HttpLikeError;
  const status = typeof e.status === 'number' ? e.status : typeof e.statusCode === 'number' ? e.statusCode : undefined;
  // `ctx.throw(...)` and http-errors: their status, name and message; other errors' only when 4xx.
  if (status !== undefined && status >= 400 && status < 600 && (error instanceof HttpError || status < 500)) {
    ctx.status = status;
    ctx.body = httpErrorBody(status, e.name ?? 'Error', e.message ?? '', e.details);
    return;
  }
  log(error);
  // Strapi's internal error: no details key.
  ctx.status = 500;
  ctx.body = httpErrorBody(500, 'InternalServerError', 'Internal Server Error');
}

/** Writes `ctx`'s answer, as Koa's `respond` does. */
export function respond(ctx: Context, reply: FastifyReply): FastifyReply {
  const { response } = ctx;
  if (!response.explicitStatus) {
    // Strapi's errors middleware: nothing answered.
    return sendJson(
      reply,
      { data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} } },
      404,
    );
  }
  const status = response.status;
  const body = response.body;
  void reply.status(status);
  if (status === 204 || status === 205 || status === 304 || ctx.method === 'HEAD') {
    void reply.removeHeader('content-type');
    return reply.send();
  }
  if (body === undefined || body === null)
    return reply.type('text/plain; charset=utf-8').send(response.message || String(status));
  if (typeof body === 'string') {
    if (!reply.hasHeader('content-type'))
      void reply.type(/^\s*</.test(body) ? 'text/html; charset=utf-8' : 'text/plain; charset=utf-8');
    return reply.send(body);
  }
  if (Buffer.isBuffer(body) || body instanceof Readable) {
    if (!reply.hasHeader('content-type')) void reply.type('application/octet-stream');
    return reply.send(body);
  }
  return sendJson(reply, body, status);
}
