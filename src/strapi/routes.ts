/**
 * The project's routes (`src/api/*\/routes/*`), as Strapi serves them: core routers
 * (`createCoreRouter(uid, { prefix, only, except, config })`) and custom routers
 * (`{ routes: [{ method, path, handler, config }] }`, or a function returning one), under the
 * REST prefix and the router's `prefix`. Each route needs the permission its handler names
 * (`api::article.article.bySlug`), unless `config.auth` is false or names its own `scope`.
 *
 * A core route that nothing of the project changes (no policy, middleware, `auth` setting, prefix,
 * nor an override of its action, the controller helpers it calls or its service method) is served
 * by REST's own handler, response cache included: a project pays for the code it has, route by
 * route. The others run the Strapi pipeline (pipeline.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Permission } from '../api/access.js';
import type { LoadedApi } from '../core/project/api-code.js';
import { PolicyError } from '../core/errors.js';
import type { ContentType } from '../core/schema/model.js';
import { Context } from './context.js';
import {
  CORE_ROUTE,
  forRequest,
  serviceMethodsOf,
  type CoreAction,
  type CoreRouteMark,
  type RouteDefinition,
} from './core-api.js';
import { CORE_FUNCTIONS, CORE_ROUTER, coreRouterRoutes, type CoreRouterOptions } from './factories.js';
import { answerError, authenticate, compose, hideAccessErrors, respond, returnBody, type Access } from './pipeline.js';
import type { Handler, Instance, Middleware, Runtime } from './runtime.js';

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'ALL']);

/** A route declaration Strapi serves: a method it knows and a path (a router file's, or a plugin's). */
export function isServableRoute(route: unknown): route is Record<string, unknown> & { method: string; path: string } {
  return (
    isRecord(route) &&
    typeof route.path === 'string' &&
    typeof route.method === 'string' &&
    METHODS.has(route.method.toUpperCase())
  );
}

/** The warning for a route declaration that is not. */
export const unservableRoute = (route: unknown): string =>
  `a route needs a method (GET, POST, PUT, PATCH, DELETE, ALL) and a path; ${JSON.stringify(route)?.slice(0, 120)} is not served`;

export interface PlannedRoute {
  method: string;
  /** The full path, REST prefix included, in Strapi's (Koa router's) syntax. */
  path: string;
  handler: unknown;
  config: Record<string, unknown>;
  apiName: string;
  /** A plugin's route (an extension's): its policies are named within `plugin::<name>`. */
  pluginName?: string;
  file: string;
  /** A core route as `createCoreRouter` made it, unmoved. */
  core?: CoreRouteMark;
}

/** A route and where it was declared, for warnings: `GET /api/articles (src/api/article/routes/article.js)`. */
const describe = (route: PlannedRoute) => `${route.method} ${route.path} (${route.file})`;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** The routes of one router file's export, with the node's `strapi`. */
function routerRoutes(strapi: unknown, exported: unknown): { routes: RouteDefinition[]; prefix: string } | undefined {
  let router =
    typeof exported === 'function' ? (exported as (context: { strapi: unknown }) => unknown)({ strapi }) : exported;
  if (Array.isArray(router)) router = { routes: router };
  if (!isRecord(router)) return undefined;
  const core = (router as Record<symbol, { uid: string; options: CoreRouterOptions } | undefined>)[CORE_ROUTER];
  const routes = core ? coreRouterRoutes(strapi, core.uid, core.options) : router.routes;
  if (!Array.isArray(routes)) return undefined;
  return { routes: routes as RouteDefinition[], prefix: typeof router.prefix === 'string' ? router.prefix : '' };
}

/** Every route the project's router files declare, in Strapi's order (API folders, then files, by name). */
export function planRoutes(
  strapi: unknown,
  apis: LoadedApi[],
  restPrefix: string,
  warn: (message: string) => void,
): PlannedRoute[] {
  const planned: PlannedRoute[] = [];
  for (const api of apis) {
    for (const { file, exports } of api.folders.routes) {
      let router: ReturnType<typeof routerRoutes>;
      try {
        router = routerRoutes(strapi, exports);
      } catch (error) {
        warn(`${file}: ${(error as Error).message}; its routes are not served`);
        continue;
      }
      if (!router) {
        warn(`${file}: not a router ({ routes: [...] } or createCoreRouter(...)); it is not served`);
        continue;
      }
      for (const route of router.routes) {
        if (!isServableRoute(route)) {
          warn(`${file}: ${unservableRoute(route)}`);
          continue;
        }
        const config = isRecord(route.config) ? route.config : {};
        // A route's own `config.prefix` takes it out of its router's prefix (Strapi's route manager).
        const prefix = 'prefix' in config ? '' : router.prefix;
        const mark = (route as RouteDefinition)[CORE_ROUTE];
        const method = route.method.toUpperCase();
        const path = `${restPrefix}${prefix}${route.path.trim()}`;
        const unmoved = mark && prefix === '' && mark.method === method && mark.path === route.path.trim();
        planned.push({
          method,
          path,
          handler: route.handler,
          config,
          apiName: api.name,
          file,
          core: unmoved ? mark : undefined,
        });
      }
    }
  }
  return planned;
}

/** The permission a route needs (Strapi's route scope): false for `auth: false`. */
function scopeOf(route: PlannedRoute): Permission[] | false | undefined {
  const auth = route.config.auth;
  if (auth === false) return false;
  const names: unknown[] =
    isRecord(auth) && Array.isArray(auth.scope)
      ? auth.scope
      : typeof route.handler === 'string'
        ? [scopeName(route.apiName, route.handler)]
        : [];
  if (names.length === 0) return undefined;
  return names.map((name) => {
    const text = String(name);
    const at = text.lastIndexOf('.');
    return { uid: text.slice(0, at), action: text.slice(at + 1) };
  });
}

/** `article.bySlug` in API `article` -> `api::article.article.bySlug`; full names (another API's too) stay. */
const scopeName = (apiName: string, handler: string) => {
  const trimmed = handler.trim();
  return /^(api|plugin)::/.test(trimmed) ? trimmed : `api::${apiName}.${trimmed}`;
};

/**
 * Every action the project's routes name: each one can be granted to a role or a token. Strapi
 * registers the action of each route's handler (an `auth: false` route's too, where a grant
 * changes nothing), and the scopes name actions to check.
 */
export function routeActions(routes: PlannedRoute[]): string[] {
  const actions = new Set<string>();
  for (const route of routes) {
    if (typeof route.handler === 'string') actions.add(scopeName(route.apiName, route.handler));
    const scope = scopeOf(route);
    if (scope) for (const permission of scope) actions.add(`${permission.uid}.${permission.action}`);
  }
  return [...actions];
}

/** Strapi's `getAction`: the controller of the route's API, or the full uid, and its action. */
function resolveAction(
  runtime: Runtime,
  route: PlannedRoute,
): { controller?: Instance; uid?: string; action: Middleware[] } {
  const { handler } = route;
  if (typeof handler === 'function') return { action: [handler as Middleware] };
  if (Array.isArray(handler) && handler.every((h) => typeof h === 'function'))
    return { action: handler as Middleware[] };
  if (typeof handler !== 'string') throw new Error('a handler is "<controller>.<action>" or a function');
  const text = handler.trim();
  const at = text.lastIndexOf('.');
  const name = text.slice(0, at);
  const actionName = text.slice(at + 1);
  const { registry } = runtime;
  let uid = `api::${route.apiName}.${name}`;
  let controller = registry.controller(uid);
  if (!controller) {
    uid = name;
    controller = registry.controller(uid);
  }
  const action = controller?.[actionName];
  if (!controller || typeof action !== 'function') throw new Error(`Handler not found "${text}"`);
  const found = controller;
  // `this` is the controller as this request sees it (core-api.ts, forRequest).
  return {
    controller,
    uid,
    action: [(ctx, next) => (action as Handler as Middleware).call(forRequest(found, ctx), ctx, next)],
  };
}

/** What a core action calls on its controller besides itself. */
const CONTROLLER_HELPERS = [
  'validateQuery',
  'sanitizeQuery',
  'sanitizeOutput',
  'sanitizeInput',
  'validateInput',
  'transformResponse',
];

/** Whether a core route can be answered by REST's own handler: nothing of the project runs in it. */
function isPlainCore(
  runtime: Runtime,
  route: PlannedRoute,
  type: ContentType,
  uid: string | undefined,
  controller: Instance | undefined,
): boolean {
  const { core } = route;
  if (!core || uid !== core.uid || !controller) return false;
  const config = route.config;
  if (
    config.auth !== undefined ||
    (Array.isArray(config.policies) && config.policies.length > 0) ||
    (Array.isArray(config.middlewares) && config.middlewares.length > 0)
  )
    return false;
  if (![core.action, ...CONTROLLER_HELPERS].every((name) => CORE_FUNCTIONS.has(controller[name] as object)))
    return false;
  const service = runtime.registry.service(core.uid);
  if (!service) return false;
  return [...serviceMethodsOf(type, core.action), 'getFetchParams'].every((name) =>
    CORE_FUNCTIONS.has(service[name] as object),
  );
}

/** Koa router path syntax to Fastify's: `:id(\\d+)` -> `:id(^\\d+$)`. */
export const fastifyPath = (path: string) =>
  path.replace(/:(\w+)\(([^)]*)\)/g, (_m, name: string, pattern: string) => `:${name}(^${pattern}$)`);

/** A path pattern as a regular expression, to tell a wrong method (405) from an unknown path (404). */
const pathPattern = (path: string) =>
  new RegExp(
    `^${path
      .replace(/[.+^${}|[\]\\]/g, '\\$&')
      .replace(/:(\w+)(\([^)]*\))?\??/g, '[^/]+')
      .replace(/\*/g, '.*')}/?$`,
  );

export interface Routing {
  /** The core actions REST answers itself, by content-type uid (the others are the project's or not served). */
  rest: Map<string, Set<CoreAction>>;
  /** Registers the project's other routes. */
  register(app: FastifyInstance): void;
  /** The methods served at a path that exists for another method (405 with Allow), else undefined. */
  allowedMethods(path: string): string[] | undefined;
}

export function buildRouting(runtime: Runtime, routes: PlannedRoute[]): Routing {
  const rest = new Map<string, Set<CoreAction>>();
  const own: { route: PlannedRoute; run: Middleware[] }[] = [];
  const served: { method: string; pattern: RegExp }[] = [];
  const taken = new Set<string>();
  for (const route of routes) {
    const key = `${route.method} ${route.path.replace(/:\w+(\([^)]*\))?/g, ':')}`;
    if (taken.has(key)) {
      runtime.warn(`${describe(route)}: an earlier route has the same method and path; this one is not served`);
      continue;
    }
    let plan: Middleware[] | 'rest';
    try {
      const { controller, uid, action } = resolveAction(runtime, route);
      const type = route.core ? runtime.schema.contentTypes.get(route.core.uid) : undefined;
      if (type && isPlainCore(runtime, route, type, uid, controller)) {
        plan = 'rest';
      } else {
        const scope = scopeOf(route);
        if (scope === undefined) throw new Error('a function handler needs config.auth (false, or { scope: [...] })');
        const access: Access = { auth: scope === false ? false : { scope } };
        const policies = runtime.registry.resolvePolicies(
          Array.isArray(route.config.policies) ? route.config.policies : [],
          route.pluginName ? `plugin::${route.pluginName}` : route.apiName,
        );
        const middlewares = runtime.registry.resolveMiddlewares(
          Array.isArray(route.config.middlewares) ? route.config.middlewares : [],
        );
        const strapi = runtime.strapi;
        const checkPolicies: Middleware = async (ctx, next) => {
          if (policies.length > 0) {
            const policyContext = Object.assign({ is: (type: string) => type === 'koa', type: 'koa' }, ctx);
            for (const { handler, config } of policies) {
              const result = await (handler as (...args: unknown[]) => unknown)(policyContext, config, { strapi });
              if (result !== true && result !== undefined) throw new PolicyError();
            }
          }
          return next();
        };
        plan = [authenticate(runtime, access), hideAccessErrors, checkPolicies, ...middlewares, returnBody, ...action];
      }
    } catch (error) {
      runtime.warn(`${describe(route)}: ${(error as Error).message}; this route is not served`);
      continue;
    }
    taken.add(key);
    served.push({ method: route.method, pattern: pathPattern(route.path) });
    if (plan === 'rest') {
      const actions = rest.get(route.core!.uid) ?? new Set<CoreAction>();
      actions.add(route.core!.action);
      rest.set(route.core!.uid, actions);
    } else {
      own.push({ route, run: plan });
    }
  }

  return {
    rest,
    register(app) {
      for (const { route, run } of own) {
        const chain = compose(run);
        const info = {
          method: route.method,
          path: route.path,
          handler: route.handler,
          config: route.config,
          info: route.pluginName
            ? { pluginName: route.pluginName, type: 'content-api' }
            : { apiName: route.apiName, type: 'content-api' },
        };
        const handle = async (request: FastifyRequest, reply: FastifyReply) => {
          const ctx = contextOf(request, reply);
          ctx.state.route = info;
          try {
            await chain(ctx);
          } catch (error) {
            answerError(ctx, error, (e) => request.log.error({ err: e }, 'project code failed'));
          }
          return respond(ctx, reply);
        };
        try {
          app.route({
            method: route.method === 'ALL' ? ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] : route.method,
            url: fastifyPath(route.path),
            // What the OpenAPI document tags it with (Strapi's `info.apiName` or `info.pluginName`).
            config: { origin: route.pluginName ?? route.apiName },
            handler: handle,
          });
        } catch (error) {
          runtime.warn(`${describe(route)}: ${(error as Error).message}; this route is not served`);
        }
      }
    },
    allowedMethods(path) {
      const methods: string[] = [];
      for (const { method, pattern } of served) {
        if (!pattern.test(path)) continue;
        for (const m of method === 'ALL'
          ? ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']
          : method === 'GET'
            ? ['HEAD', 'GET']
            : [method])
          if (!methods.includes(m)) methods.push(m);
      }
      return methods.length > 0 ? methods : undefined;
    },
  };
}

const CONTEXT = Symbol('vellum.strapi.context');

/** The request's Koa context: the one a global middleware already made, or a new one. */
export function contextOf(request: FastifyRequest, reply: FastifyReply): Context {
  const holder = request as unknown as Record<symbol, Context | undefined>;
  return (holder[CONTEXT] ??= new Context(request, reply));
}

/** Makes the context a global middleware hook uses the request's. */
export function attachContext(request: FastifyRequest, ctx: Context): void {
  (request as unknown as Record<symbol, Context>)[CONTEXT] = ctx;
}
