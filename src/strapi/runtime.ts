/**
 * What Vellum's implementations behind project code share: the schema, configuration, the
 * project's documents, its registry of controllers, services, policies and middlewares, and the
 * request being served. The `strapi` object carries it under a symbol, so that factories
 * (`createCoreController(uid)(({ strapi }))`) reach the instance that calls them, never a global.
 */
import type { AccessControl } from '../access/index.js';
import type { Auth } from '../auth/index.js';
import type { VellumConfig } from '../config/load.js';
import type { ContentType, Schema } from '../schema/model.js';
import type { Context } from './context.js';
import type { ProjectDocuments } from './documents.js';
import type { Registry } from './registry.js';

export const RUNTIME = Symbol.for('vellum.strapi.runtime');

/** A controller, service, or anything project code exports: an object of functions. */
export type Instance = Record<string, unknown>;
/** A controller action, a policy or a middleware as Strapi calls them. */
export type Handler = (...args: never[]) => unknown;
/** Koa's middleware signature. */
export type Middleware = (ctx: Context, next: () => Promise<unknown>) => unknown;

/** What a running node provides once its database is open (before that, reads and writes fail). */
export interface Services {
  documents: ProjectDocuments;
  access: AccessControl;
  auth?: Auth;
}

export interface Runtime {
  config: VellumConfig;
  schema: Schema;
  registry: Registry;
  /** The `strapi` object project code receives. */
  strapi: Record<string, unknown>;
  services?: Services;
  warn(message: string): void;
}

export function runtimeOf(strapi: unknown): Runtime {
  const runtime = (strapi as Record<symbol, Runtime> | undefined)?.[RUNTIME];
  if (!runtime) throw new TypeError("Vellum's factories need the strapi object they are called with ({ strapi })");
  return runtime;
}

/** The running node's services; project code that reads or writes during `register` gets this error. */
export function servicesOf(runtime: Runtime): Services {
  if (!runtime.services) throw new Error('strapi.documents and the core services are available from bootstrap on, not during register');
  return runtime.services;
}

export function contentTypeOf(runtime: Runtime, uid: string): ContentType {
  const type = runtime.schema.contentTypes.get(uid);
  if (!type) throw new Error(`Unknown content-type ${uid}`);
  return type;
}
