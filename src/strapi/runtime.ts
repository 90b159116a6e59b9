/**
 * What Vellum's implementations behind project code share: the schema, configuration, the
 * project's documents, its registry of controllers, services, policies and middlewares, and the
 * request being served. The `strapi` object carries it under a symbol, so that factories
 * (`createCoreController(uid)(({ strapi }))`) reach the instance that calls them, never a global.
 */
import type { AccessControl } from '../api/access.js';
import type { Auth, ContentApiAction } from '../features/users-permissions/index.js';
import type { VellumConfig } from '../core/config/load.js';
import type { ContentType, Schema } from '../core/schema/model.js';
import type { Context } from './context.js';
import type { ProjectDocuments } from './documents.js';

export const RUNTIME = Symbol.for('vellum.strapi.runtime');

/** A controller, service, or anything project code exports: an object of functions. */
export type Instance = Record<string, unknown>;
/** A controller action, a policy or a middleware as Strapi calls them. */
export type Handler = (...args: never[]) => unknown;
/** Koa's middleware signature. */
export type Middleware = (ctx: Context, next: () => Promise<unknown>) => unknown;

/** What a running node provides once its database is open (before that, reads and writes fail). */
/** A controller or service as registered: the instance, or a factory given `{ strapi }`. */
export type Made = Instance | ((context: { strapi: unknown }) => Instance);

/** A policy as project code writes it: a function, or `{ handler, validator }` (`policy.createPolicy`). */
export type PolicyEntry = Handler | { handler: Handler; validator?: (config: unknown) => void; name?: string };
/** A middleware file exports a factory `(config, { strapi }) => (ctx, next) => ...`. */
export type MiddlewareFactory = (config: unknown, context: { strapi: unknown }) => Middleware | undefined;

export interface ResolvedPolicy {
  handler: Handler;
  config: unknown;
}

/** The project's controllers, services, policies and middlewares (registry.ts). */
export interface ProjectRegistry {
  readonly policies: Map<string, PolicyEntry>;
  readonly middlewares: Map<string, MiddlewareFactory>;
  addController(uid: string, made: Made): void;
  addService(uid: string, made: Made): void;
  controllerUids(): string[];
  serviceUids(): string[];
  controller(uid: string): Instance | undefined;
  service(uid: string): Instance | undefined;
  policy(name: string, apiName?: string): PolicyEntry | undefined;
  resolvePolicies(list: unknown[], apiName: string): ResolvedPolicy[];
  resolveMiddlewares(list: unknown[]): Middleware[];
  instantiate(factory: MiddlewareFactory, name: string, config: unknown): Middleware;
}

export interface Services {
  documents: ProjectDocuments;
  access: AccessControl;
  auth?: Auth;
  /** Users-permissions' content-API actions by handler name (`user.me`), which its plugin's controllers run. */
  usersPermissions?: Record<string, ContentApiAction>;
}

export interface Runtime {
  config: VellumConfig;
  schema: Schema;
  registry: ProjectRegistry;
  /** The `strapi` object project code receives. */
  strapi: Record<string, unknown>;
  services?: Services;
  /** Plugin services a plugin extension replaced, by uid (`plugin::users-permissions.user`): made on first use. */
  pluginServices?: Map<string, () => unknown>;
  warn(message: string): void;
}

export function runtimeOf(strapi: unknown): Runtime {
  const runtime = (strapi as Record<symbol, Runtime> | undefined)?.[RUNTIME];
  if (!runtime) throw new TypeError("Vellum's factories need the strapi object they are called with ({ strapi })");
  return runtime;
}

/** The running node's services; project code that reads or writes during `register` gets this error. */
export function servicesOf(runtime: Runtime): Services {
  if (!runtime.services)
    throw new Error('strapi.documents and the core services are available from bootstrap on, not during register');
  return runtime.services;
}

export function contentTypeOf(runtime: Runtime, uid: string): ContentType {
  const type = runtime.schema.contentTypes.get(uid);
  if (!type) throw new Error(`Unknown content-type ${uid}`);
  return type;
}
