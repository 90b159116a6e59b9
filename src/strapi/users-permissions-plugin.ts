/**
 * Users-permissions as a Strapi 5.54 plugin object, for the project's extension
 * (`src/extensions/users-permissions/strapi-server.js`: `module.exports = (plugin) => plugin`):
 * its controllers, its content-API routes as Strapi declares them, its policies and middlewares.
 *
 * Vellum serves users-permissions with its own routes (features/users-permissions). Each of
 * Strapi's controller actions here answers as that route does: it sends the context's request
 * (headers, body as the extension left it, params, query, client address) to the route, mounted a
 * second time under a prefix only this process can call, and copies the answer into the context;
 * an error answer is thrown, as Strapi's action throws it. So an extension that wraps an action
 * (`const callback = plugin.controllers.auth.callback; plugin.controllers.auth.callback = async
 * (ctx) => { await callback(ctx); ... }`) gets Vellum's own behaviour, rate limits included.
 *
 * After the extension ran, a route whose action or configuration it changed, and every route it
 * added, is served by the Strapi pipeline (routes.ts) instead of Vellum's route; the others stay
 * Vellum's (nothing of the extension runs in them).
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { stringify } from 'qs';
import type { Context } from './context.js';
import type { PlannedRoute } from './routes.js';

type Action = (ctx: Context, next?: () => Promise<unknown>) => unknown;
type Json = Record<string, unknown>;

export const PLUGIN = 'users-permissions';
const UID = `plugin::${PLUGIN}`;
/** Where a plugin's content-API routes are served without `config.prefix` (Strapi's plugin prefix). */
const PLUGIN_PREFIX = `/${PLUGIN}`;

interface RouteSpec {
  method: string;
  path: string;
  handler: string;
  /** Vellum's route for it, when its path differs from Strapi's. */
  vellumPath?: string;
  rateLimited?: boolean;
  /** Served under the plugin's prefix (`/api/users-permissions/...`). */
  prefixed?: boolean;
}

/** Strapi 5.54's content-API routes of users-permissions (server/routes/content-api), in its order. */
const ROUTES: RouteSpec[] = [
  {
    method: 'GET',
    path: '/connect/(.*)',
    handler: 'auth.connect',
    vellumPath: '/connect/:provider',
    rateLimited: true,
  },
  { method: 'POST', path: '/auth/local', handler: 'auth.callback', rateLimited: true },
  { method: 'POST', path: '/auth/local/register', handler: 'auth.register', rateLimited: true },
  { method: 'GET', path: '/auth/:provider/callback', handler: 'auth.callback' },
  { method: 'POST', path: '/auth/forgot-password', handler: 'auth.forgotPassword', rateLimited: true },
  { method: 'POST', path: '/auth/reset-password', handler: 'auth.resetPassword', rateLimited: true },
  { method: 'GET', path: '/auth/email-confirmation', handler: 'auth.emailConfirmation' },
  { method: 'POST', path: '/auth/send-email-confirmation', handler: 'auth.sendEmailConfirmation', rateLimited: true },
  { method: 'POST', path: '/auth/change-password', handler: 'auth.changePassword', rateLimited: true },
  { method: 'POST', path: '/auth/refresh', handler: 'auth.refresh' },
  { method: 'POST', path: '/auth/logout', handler: 'auth.logout' },
  { method: 'GET', path: '/auth/sessions', handler: 'auth.getSessions' },
  { method: 'DELETE', path: '/auth/sessions/:sessionId', handler: 'auth.revokeSession' },
  { method: 'GET', path: '/users/count', handler: 'user.count' },
  { method: 'GET', path: '/users', handler: 'user.find' },
  { method: 'GET', path: '/users/me', handler: 'user.me' },
  { method: 'GET', path: '/users/:id', handler: 'user.findOne' },
  { method: 'POST', path: '/users', handler: 'user.create' },
  { method: 'PUT', path: '/users/:id', handler: 'user.update' },
  { method: 'DELETE', path: '/users/:id', handler: 'user.destroy' },
  { method: 'GET', path: '/roles/:id', handler: 'role.findOne', prefixed: true },
  { method: 'GET', path: '/roles', handler: 'role.find', prefixed: true },
  { method: 'POST', path: '/roles', handler: 'role.createRole', prefixed: true },
  { method: 'PUT', path: '/roles/:role', handler: 'role.updateRole', prefixed: true },
  { method: 'DELETE', path: '/roles/:role', handler: 'role.deleteRole', prefixed: true },
  { method: 'GET', path: '/permissions', handler: 'permissions.getPermissions', prefixed: true },
];

const RATE_LIMIT = `${UID}.rateLimit`;

const routeOf = (spec: RouteSpec): Json => ({
  method: spec.method,
  path: spec.path,
  handler: spec.handler,
  config: spec.prefixed ? {} : { ...(spec.rateLimited ? { middlewares: [RATE_LIMIT] } : {}), prefix: '' },
});

/** Where Vellum serves a route, REST prefix aside (`/auth/local`, `/users-permissions/roles`). */
const servedPath = (spec: RouteSpec) => `${spec.prefixed ? PLUGIN_PREFIX : ''}${spec.vellumPath ?? spec.path}`;

const isRecord = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** The process's door to Vellum's own users-permissions routes, for the original actions. */
export class NativeRoutes {
  /** Prefix of the second mount; its requests need `header: secret`. */
  readonly prefix = `/__vellum-native-${randomBytes(6).toString('hex')}`;
  readonly header = 'x-vellum-native';
  readonly secret = randomBytes(24).toString('base64url');
  private app?: FastifyInstance;

  constructor(private readonly restPrefix: string) {}

  /** The node's server, once it has one (the actions run only in requests, after that). */
  attach(app: FastifyInstance): void {
    this.app = app;
  }

  /** Answers the context as Vellum's route at `path` (params filled) answers its request. */
  async answer(ctx: Context, method: string, path: string): Promise<void> {
    if (!this.app) throw new Error('users-permissions routes are not mounted');
    const url = path.replace(/:(\w+)/g, (_m, name: string) => encodeURIComponent(ctx.params[name] ?? ''));
    const query =
      ctx.query && Object.keys(ctx.query).length ? `?${stringify(ctx.query, { encodeValuesOnly: true })}` : '';
    const headers: Record<string, string | string[] | undefined> = {
      ...ctx.request.headers,
      [this.header]: this.secret,
    };
    delete headers['content-length'];
    delete headers['transfer-encoding'];
    const body = ctx.request.body;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const answer = await this.app.inject({
      method: method as 'GET',
      url: `${this.prefix}${this.restPrefix}${url}${query}`,
      headers: headers as Record<string, string>,
      remoteAddress: ctx.request.ip,
      ...(body === undefined || method === 'GET' ? {} : { payload: JSON.stringify(body) }),
    });
    const cookie = answer.headers['set-cookie'];
    if (cookie !== undefined) ctx.set('Set-Cookie', cookie as string | string[]);
    const location = answer.headers.location;
    const parsed = answer.body === '' ? undefined : safeJson(answer.body);
    if (answer.statusCode >= 400) {
      const error = (isRecord(parsed) && isRecord(parsed.error) ? parsed.error : {}) as Json;
      throw Object.assign(new Error(String(error.message ?? answer.statusMessage)), {
        name: String(error.name ?? 'ApplicationError'),
        status: answer.statusCode,
        details: error.details ?? {},
      });
    }
    if (typeof location === 'string') ctx.set('Location', location);
    ctx.status = answer.statusCode;
    if (parsed !== undefined) ctx.body = parsed;
    else if (answer.body !== '') ctx.body = answer.body;
  }
}

const safeJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

export interface UsersPermissionsPlugin extends Json {
  controllers: Record<string, Record<string, Action>>;
  routes: Record<string, { type: string; routes: Json[] }>;
  services: Json;
  policies: Json;
  middlewares: Json;
  contentTypes: Json;
}

/** Marks an action that is Vellum's own route (by handler name): a route still calling it is left to Vellum. */
const NATIVE = Symbol('vellum.users-permissions.native');

/** Strapi's actions of one controller, each answering as Vellum's route. */
function nativeActions(native: NativeRoutes, controller: string): Record<string, Action> {
  const actions: Record<string, Action> = {};
  for (const spec of ROUTES) {
    const [name, action] = spec.handler.split('.') as [string, string];
    if (name !== controller) continue;
    // `auth.callback` is two routes (local and provider): the action answers for the one asked.
    const previous = actions[action];
    const own: Action = (ctx) => native.answer(ctx, spec.method, servedPath(spec));
    actions[action] = Object.assign(
      previous ? (ctx: Context) => (ctx.params.provider !== undefined ? own(ctx) : previous(ctx)) : own,
      { [NATIVE]: spec.handler },
    );
  }
  return actions;
}

/**
 * The plugin object an extension receives, with Strapi's routes and Vellum's answers as its actions.
 * As in Strapi 5.54, `controllers.auth` is a factory (`({ strapi }) => ({ callback, ... })`) and the
 * others are objects: an extension setting `plugin.controllers.auth.callback` changes nothing there,
 * one wrapping the factory does.
 */
export function usersPermissionsPlugin(
  native: NativeRoutes,
  services: Json,
  contentTypes: Json,
): UsersPermissionsPlugin {
  const controllers: Record<string, unknown> = {
    auth: () => nativeActions(native, 'auth'),
    user: nativeActions(native, 'user'),
    role: nativeActions(native, 'role'),
    permissions: nativeActions(native, 'permissions'),
    settings: {},
    contentmanageruser: {},
  };
  return {
    controllers: controllers as UsersPermissionsPlugin['controllers'],
    routes: {
      'content-api': { type: 'content-api', routes: ROUTES.map(routeOf) },
      admin: { type: 'admin', routes: [] },
    },
    services,
    policies: {},
    // Vellum's routes count their own limits (features/users-permissions/throttle.ts).
    middlewares: { rateLimit: () => (_ctx: Context, next: () => Promise<unknown>) => next() },
    contentTypes,
    config: {},
  };
}

/** What the extension changed: the routes the Strapi pipeline serves, and Vellum's routes it replaces. */
export interface ExtendedRoutes {
  planned: PlannedRoute[];
  /** `METHOD /api/path` of Vellum's routes now served by the pipeline. */
  replaced: Set<string>;
  /** Every action of the plugin's controllers (grantable: Strapi lists them in the permissions tree). */
  actions: string[];
  /** The extended controllers, by uid (`plugin::users-permissions.user`). */
  controllers: Map<string, Record<string, Action>>;
}

/**
 * Compares the plugin after the extension with the one given: a Strapi route whose action function
 * or configuration changed, or a new route, is planned for the pipeline.
 */
export function extendedRoutes(
  before: { routes: Json[] },
  after: UsersPermissionsPlugin,
  strapi: unknown,
  restPrefix: string,
  file: string,
): ExtendedRoutes {
  const planned: PlannedRoute[] = [];
  const replaced = new Set<string>();
  const controllers = new Map<string, Record<string, Action>>();
  const actions: string[] = [];
  for (const [name, made] of Object.entries(after.controllers ?? {})) {
    // A factory is made once, as Strapi makes a plugin's controllers.
    const controller: unknown =
      typeof made === 'function' ? (made as (context: { strapi: unknown }) => unknown)({ strapi }) : made;
    if (!isRecord(controller)) continue;
    controllers.set(`${UID}.${name}`, controller as Record<string, Action>);
    for (const [action, fn] of Object.entries(controller))
      if (typeof fn === 'function') actions.push(`${UID}.${name}.${action}`);
  }
  const routes = after.routes?.['content-api']?.routes;
  const original = new Map(ROUTES.map((spec, index) => [before.routes[index], spec]));
  for (const route of Array.isArray(routes) ? routes : []) {
    if (!isRecord(route) || typeof route.handler !== 'string') continue;
    const spec = original.get(route);
    const config = isRecord(route.config) ? route.config : {};
    if (spec) {
      const [controller, action] = spec.handler.split('.') as [string, string];
      const unchanged =
        route.handler === spec.handler &&
        route.method === spec.method &&
        route.path === spec.path &&
        JSON.stringify(config) === JSON.stringify(routeOf(spec).config) &&
        (controllers.get(`${UID}.${controller}`)?.[action] as { [NATIVE]?: string } | undefined)?.[NATIVE] ===
          spec.handler;
      if (unchanged) continue;
      replaced.add(`${spec.method} ${restPrefix}${servedPath(spec)}`);
    }
    const prefix = 'prefix' in config ? String(config.prefix ?? '') : PLUGIN_PREFIX;
    planned.push({
      method: String(route.method).toUpperCase(),
      path: `${restPrefix}${prefix}${String(route.path).trim()}`,
      handler: `${UID}.${route.handler.trim()}`,
      config,
      apiName: PLUGIN,
      file,
    });
  }
  return { planned, replaced, actions, controllers };
}
