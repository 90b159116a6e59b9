/**
 * Users-permissions' own controller actions as Strapi's controllers are called, `(ctx) => ...`:
 * each reads the ctx (`ctx.request.body`, `ctx.params`, `ctx.query`, the route's permission
 * answer) and runs Vellum's action of the same name (features/users-permissions/content-api.ts),
 * then sets `ctx.status` and `ctx.body` (or throws the error the pipeline answers). A plugin
 * extension wraps them (`await original(ctx); ctx.body.extra = ...`) or calls them from its own.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Caller } from '../api/access.js';
import { CONTENT_API_ROUTES, type ActionAnswer } from '../features/users-permissions/index.js';
import type { Context } from './context.js';
import { callerOf } from './pipeline.js';
import { servicesOf, type Middleware, type Runtime } from './runtime.js';

/** Writes an action's answer into the ctx, as Strapi's controllers do (`ctx.send`, `ctx.redirect`). */
function answer(ctx: Context, given: ActionAnswer): void {
  if (given.cookie) ctx.set('set-cookie', given.cookie);
  if (given.location !== undefined) {
    ctx.redirect(given.location);
    return;
  }
  ctx.status = given.status ?? 200;
  if (given.body !== undefined) ctx.body = given.body;
}

/** One original action (`user.me`), callable with any Koa-like ctx. */
function originalAction(runtime: Runtime, name: string): Middleware {
  return async (ctx) => {
    const action = servicesOf(runtime).usersPermissions?.[name];
    if (!action) throw new Error(`users-permissions' ${name} is not available before the node starts`);
    const request = ctx.request as Partial<Context['request']> | undefined;
    answer(
      ctx,
      await action({
        headers: (request?.headers ?? {}) as IncomingHttpHeaders,
        body: request?.body,
        query: ctx.query ?? {},
        params: ctx.params ?? {},
        clientIp: request?.ip ?? '',
        reader: callerOf(ctx) as Caller,
      }),
    );
  };
}

const MADE = new WeakMap<Runtime, Record<string, Record<string, Middleware>>>();

/**
 * Strapi 5.54's content-API actions of users-permissions by controller: `{ user: { me, find, ... },
 * auth: {...} }`, made once per node (a route whose action is still one of these is Vellum's own).
 */
export function originalActions(runtime: Runtime): Record<string, Record<string, Middleware>> {
  const made = MADE.get(runtime);
  if (made) return made;
  const controllers: Record<string, Record<string, Middleware>> = {};
  MADE.set(runtime, controllers);
  for (const { handler } of CONTENT_API_ROUTES) {
    const [controller, action] = handler.split('.') as [string, string];
    (controllers[controller] ??= {})[action] ??= originalAction(runtime, handler);
  }
  return controllers;
}

/** Login and registration count their attempts in their own action (features/users-permissions/users.ts). */
const SELF_LIMITED = new Set(['auth/local', 'auth/local/register']);

/**
 * `plugin::users-permissions.rateLimit`, the middleware Strapi's auth routes name: the account
 * flows' limit (per path, email and client address) on a route the pipeline serves.
 */
export function rateLimitMiddleware(runtime: Runtime): Middleware {
  const prefix = runtime.config.api.rest.prefix;
  return async (ctx, next) => {
    const path = ctx.path.startsWith(prefix) ? ctx.path.slice(prefix.length) : ctx.path;
    const route = path.replace(/^\/+|\/+$/g, '');
    const { auth } = servicesOf(runtime);
    if (auth && !SELF_LIMITED.has(route)) await auth.limitAccountFlow(route, ctx.request.body, ctx.request.ip);
    return next();
  };
}
