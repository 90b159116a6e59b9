/**
 * `factories` of `@strapi/strapi`, as Strapi 5 builds them: a core controller or service is the
 * project's object (or what its function returns) with the core methods it lacks copied in and the
 * core object as its prototype, so `super.find(ctx)` in an override and `this.sanitizeQuery(ctx)`
 * in a core action both work. A core router lists the content-type's core routes with the
 * project's `only`, `except`, `prefix` and per-action `config`.
 */
import {
  coreRoutes,
  createBaseController,
  createBaseService,
  type CoreAction,
  type RouteDefinition,
} from './core-api.js';
import { contentTypeOf, runtimeOf, type Instance } from './runtime.js';

type Factory = (context: { strapi: unknown }) => Instance;
type Config = Instance | ((context: { strapi: unknown }) => Instance) | undefined;

/** Functions of the core controllers and services: a route whose action and helpers are all core is answered by REST's own handler. */
export const CORE_FUNCTIONS = new WeakSet<object>();

function extend(base: Instance, cfg: Config, strapi: unknown): Instance {
  const own = typeof cfg === 'function' ? cfg({ strapi }) : (cfg ?? {});
  for (const name of Object.keys(base)) if (own[name] === undefined) own[name] = base[name];
  Object.setPrototypeOf(own, base);
  return own;
}

/** Every function reachable on `instance` (own and prototypes), as core. */
function markCore(instance: Instance): Instance {
  for (let level: object | null = instance; level && level !== Object.prototype; level = Object.getPrototypeOf(level)) {
    for (const name of Object.getOwnPropertyNames(level)) {
      const value = Object.getOwnPropertyDescriptor(level, name)?.value;
      if (typeof value === 'function') CORE_FUNCTIONS.add(value);
    }
  }
  return instance;
}

export function createCoreController(uid: string, cfg?: Config): Factory {
  return ({ strapi }) => {
    const runtime = runtimeOf(strapi);
    return extend(markCore(createBaseController(runtime, contentTypeOf(runtime, uid))), cfg, strapi);
  };
}

export function createCoreService(uid: string, cfg?: Config): Factory {
  return ({ strapi }) => {
    const runtime = runtimeOf(strapi);
    return extend(markCore(createBaseService(runtime, contentTypeOf(runtime, uid))), cfg, strapi);
  };
}

/** Marks a router made by `createCoreRouter` (Vellum lists its routes with the node that loads it). */
export const CORE_ROUTER = Symbol.for('vellum.strapi.coreRouter');

export interface CoreRouterOptions {
  prefix?: string;
  only?: string[];
  except?: string[];
  config?: Record<string, Record<string, unknown>>;
  type?: string;
}

export interface CoreRouter {
  type: string;
  prefix?: string;
  readonly routes: RouteDefinition[];
  [CORE_ROUTER]: { uid: string; options: CoreRouterOptions };
}

/** The routes of a core router, with the node whose schema names the content-type. */
export function coreRouterRoutes(strapi: unknown, uid: string, options: CoreRouterOptions): RouteDefinition[] {
  const runtime = runtimeOf(strapi);
  const all = coreRoutes(contentTypeOf(runtime, uid));
  const config = options.config ?? {};
  const names = (Object.keys(all) as CoreAction[]).filter(
    (name) => (!options.except || !options.except.includes(name)) && (!options.only || options.only.includes(name)),
  );
  return names.map((name) => ({ ...all[name]!, config: (config[name] as Record<string, unknown> | undefined) ?? {} }));
}

function createCoreRouter(uid: string, options: CoreRouterOptions = {}): CoreRouter {
  let routes: RouteDefinition[] | undefined;
  return {
    type: options.type ?? 'content-api',
    prefix: options.prefix,
    [CORE_ROUTER]: { uid, options },
    // Read by projects that extend a core router (`[...custom, ...core.routes]`): the node that
    // serves the request, or the last one started (Strapi's global `strapi`).
    get routes() {
      routes ??= coreRouterRoutes((globalThis as { strapi?: unknown }).strapi, uid, options);
      return routes;
    },
  };
}

export const factories = { createCoreController, createCoreService, createCoreRouter };
