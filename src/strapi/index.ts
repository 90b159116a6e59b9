/**
 * A Strapi project's own code on a Vellum node: `src/index` (`register`, `bootstrap`, `destroy`),
 * the APIs' routes, controllers, services, policies and middlewares, the global policies and
 * middlewares, run with a `strapi` object and Vellum's `@strapi/strapi` and `@strapi/utils`.
 * app/server.ts drives it: load (before the database), start (with the node's services), route.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { VellumConfig } from '../core/config/load.js';
import { loadApiCode, type ProjectApiCode } from '../core/project/api-code.js';
import { loadProjectCode, type ProjectHooks } from '../core/project/code.js';
import { createCustomFields } from './custom-fields.js';
import { provideModules } from '../core/project/modules.js';
import { resolveCustomFields } from '../core/schema/build.js';
import type { ScalarType, Schema } from '../core/schema/model.js';
import { globalMiddlewares, GlobalMiddlewares } from './global-middlewares.js';
import * as strapiModule from './public/strapi.js';
import * as utilsModule from './public/utils.js';
import { Registry, type MiddlewareFactory, type PolicyEntry } from './registry.js';
import type { AccessControl } from '../api/access.js';
import { describeCaller } from './pipeline.js';
import { RequestContext, namesRequestContext } from './request-context.js';
import type { Context } from './context.js';
import type { GraphqlFieldSource } from '../features/graphql/index.js';
import { usersPermissionsGraphql } from './users-permissions-graphql.js';
import {
  buildRouting,
  contextOf,
  fastifyPath,
  planRoutes,
  routeActions,
  type PlannedRoute,
  type Routing,
} from './routes.js';
import { RUNTIME, type Handler, type Middleware, type Runtime, type Services } from './runtime.js';
import { Lifecycles } from './lifecycles.js';
import { DocumentMiddlewares } from './document-middlewares.js';
import { attachDataApis, type DataApis } from './data.js';
import { loadLifecycleFiles } from './lifecycle-files.js';
import { createStrapiObject, installGlobal, type PluginServices } from './strapi.js';
import { runPluginExtensions } from './plugin-extensions.js';
import { registerOriginalControllers } from './users-permissions-plugin.js';

export type { Lifecycles, LifecycleEvent, Subscriber } from './lifecycles.js';
export type { DocumentMiddlewares } from './document-middlewares.js';
export { ProjectDocuments } from './documents.js';
export type { PluginServices } from './strapi.js';

/** `@strapi/strapi` and `@strapi/utils` resolve to Vellum's modules for project code (process-wide). */
export function provideStrapiModules(): void {
  provideModules({
    '@strapi/strapi': { exports: strapiModule, url: strapiModule.moduleUrl },
    '@strapi/utils': { exports: utilsModule, url: utilsModule.moduleUrl },
  });
}

/** The plugins of `config/plugins` Vellum has (their configuration is read by its own layers). */
const KNOWN_PLUGINS = new Set(['users-permissions', 'upload', 'i18n', 'graphql', 'email']);

/** Policies Strapi's plugins provide that projects name. */
const BUILT_IN_POLICIES: Record<string, PolicyEntry> = {
  // Strapi v4's; Strapi 5.54 has none by this name (a project naming it does not start there).
  'plugin::users-permissions.isAuthenticated': (policyContext: { state?: { user?: unknown } }) =>
    Boolean(policyContext.state?.user),
};

export interface Project {
  /** The `strapi` object its code receives. */
  strapi: Record<string, unknown>;
  hooks?: ProjectHooks;
  /** Every action its routes name, grantable like `find` (`api::article.article.bySlug`). */
  actions: string[];
  /** Whether it has router files: then its routes' actions are the only ones of its APIs. */
  routed: boolean;
  /** Files present but not run, each named in a warning. */
  notRun: string[];
  /** Once the database is open: the node's documents, access control and users. */
  start(services: Services): void;
  /** Runs `register`, `bootstrap` or `destroy` of `src/index` with `{ strapi }`. */
  run(hook: 'register' | 'bootstrap' | 'destroy'): Promise<void>;
  /**
   * The project's routing: undefined when it has no router files (REST serves every type as it
   * is); otherwise which core actions REST answers and the routes the project serves itself.
   */
  routing(): Routing | undefined;
  /** The methods served at a path that exists for others (a 405 with Allow). */
  allowedMethods(path: string): string[] | undefined;
  /** Users-permissions' routes (`GET /users/me`) its extension serves or removed: Vellum's own handlers leave them out. */
  usersPermissionsLeftOut: ReadonlySet<string>;
  /** The routes a plugin extension changed or added, served by the Strapi pipeline. */
  registerPluginRoutes(app: FastifyInstance): void;
  /** The paths of the routes its routers and plugin extensions declare, as the server registers them. */
  routePaths(): string[];
  /** `config/middlewares`' project middlewares, around every request. */
  registerGlobalMiddlewares(app: FastifyInstance): Promise<void>;
  /** `strapi.requestContext` around every request (request-context.ts); before any route. */
  registerRequestContext(app: FastifyInstance): void;
  /** The access seam of Vellum's own routes, filling `strapi.requestContext.get().state` when in use. */
  describingAccess(access: AccessControl): AccessControl;
  /** Users-permissions' GraphQL fields, its account mutations running actions project code replaced (users-permissions-graphql.ts). */
  usersPermissionsGraphql(source: () => Promise<GraphqlFieldSource>): () => Promise<GraphqlFieldSource>;
  /**
   * What its GraphQL resolvers receive as `context.state` and `context.koaContext`, as Strapi 5.54's
   * GraphQL plugin gives them (`{ state: ctx.state, koaContext: ctx }`): the request's ctx (the one
   * `strapi.requestContext` answers), its state describing who asks (`auth`, `user`,
   * `isAuthenticated`) and `route` (`info.type: 'content-api'`).
   */
  graphqlContext(
    request: FastifyRequest,
    reply: FastifyReply,
    access: AccessControl,
  ): Promise<{ state: Record<string, unknown>; koaContext: Context }>;
  /** Its lifecycle subscribers (lifecycles files, `strapi.db.lifecycles.subscribe`), for the document service. */
  lifecycles: Lifecycles;
  /** Its Document Service middlewares (`strapi.documents.use`), for the document service. */
  middlewares: DocumentMiddlewares;
  /** `strapi.db`, `strapi.entityService`, `strapi.store`: started once the database is open. */
  data: DataApis;
  /** `strapi.customFields`: the custom fields its `register` declared, by uid. */
  customFields: { typeOf(uid: string): ScalarType | undefined };
  /** Its registered policies and middleware factories by name (GraphQL's `resolversConfig` names them too). */
  named: {
    policy(name: string): Handler | undefined;
    middleware(name: string): MiddlewareFactory | undefined;
    /** Every registered name (`vellum policies:list`, `middlewares:list`). */
    policies(): string[];
    middlewares(): string[];
  };
}

/** Loads the project's code and makes its `strapi` object; nothing runs yet. */
export async function loadProject(
  config: VellumConfig,
  schema: Schema,
  plugins: PluginServices,
  warnings: string[],
): Promise<Project> {
  provideStrapiModules();
  const warn = (message: string): void => {
    warnings.push(message);
  };
  const hooks = await loadProjectCode(config.projectDir);
  const code: ProjectApiCode = await loadApiCode(config.projectDir);
  const notRun = code.failures.map((failure) => failure.file);
  for (const failure of code.failures) warn(`${failure.file}: cannot be run (${failure.message}); it is left out`);
  for (const [name, section] of Object.entries(config.plugins)) {
    if (!KNOWN_PLUGINS.has(name) && (section as { enabled?: unknown } | null)?.enabled !== false) {
      warn(
        `config/plugins: "${name}" is not a plugin Vellum has (it serves users-permissions, upload, i18n, graphql, email); its configuration is ignored`,
      );
    }
  }

  const runtime = { config, schema, warn } as Omit<Runtime, 'registry' | 'strapi'> as Runtime;
  const registry = new Registry(() => runtime);
  runtime.registry = registry;
  const strapi = createStrapiObject(runtime, plugins);
  runtime.strapi = strapi;
  Object.defineProperty(strapi, RUNTIME, { value: runtime, enumerable: false });
  installGlobal(strapi);
  const lifecycles = new Lifecycles();
  const middlewares = new DocumentMiddlewares();
  const data = attachDataApis(strapi, { schema, lifecycles, middlewares, warn });
  // Before register: a model's lifecycles come first, as in Strapi.
  await loadLifecycleFiles(config.projectDir, schema, lifecycles, warn);

  for (const api of code.apis) {
    const uid = (name: string) => `api::${api.name}.${name}`;
    for (const file of api.folders.controllers) registry.addController(uid(file.name), file.exports as never);
    for (const file of api.folders.services) registry.addService(uid(file.name), file.exports as never);
    for (const file of api.folders.policies) registry.policies.set(uid(file.name), file.exports as PolicyEntry);
    for (const file of api.folders.middlewares)
      registry.middlewares.set(uid(file.name), file.exports as MiddlewareFactory);
  }
  for (const file of code.policies) registry.policies.set(`global::${file.name}`, file.exports as PolicyEntry);
  for (const file of code.middlewares)
    registry.middlewares.set(`global::${file.name}`, file.exports as MiddlewareFactory);
  for (const [name, policy] of Object.entries(BUILT_IN_POLICIES))
    if (!registry.policies.has(name)) registry.policies.set(name, policy);

  // Users-permissions' controllers as Strapi's, then the project's extension of the plugin, if any.
  registerOriginalControllers(runtime);
  const extensions = await runPluginExtensions(runtime, plugins);
  notRun.push(...extensions.notRun);
  const extended = extensions.usersPermissions;
  let pluginRouting: Routing | undefined;

  const hasRouters = code.apis.some((api) => api.folders.routes.length > 0);
  const planned: PlannedRoute[] = hasRouters ? planRoutes(strapi, code.apis, config.api.rest.prefix, warn) : [];
  let global: ReturnType<typeof globalMiddlewares> | undefined;
  const middlewaresOf = () => (global ??= globalMiddlewares(runtime, config.middlewares));
  const aroundRequests = new GlobalMiddlewares();
  // `strapi.server.use(fn)`: Koa middlewares around every request (register or bootstrap).
  const server = {
    use(middleware: Middleware) {
      aroundRequests.use(middleware);
      return server;
    },
  };
  strapi.server = server;
  const customFields = createCustomFields();
  strapi.customFields = { register: customFields.register, getAll: customFields.getAll };
  const requestContext = new RequestContext(namesRequestContext(config.projectDir));
  strapi.requestContext = requestContext.api;
  let routing: Routing | undefined;
  let routed = false;

  return {
    strapi,
    hooks,
    lifecycles,
    middlewares,
    data,
    customFields,
    named: {
      policy(name) {
        const entry = registry.policy(name);
        return typeof entry === 'function' ? entry : entry?.handler;
      },
      middleware: (name) => registry.middlewares.get(name),
      policies: () => [...registry.policies.keys()],
      middlewares: () => [...registry.middlewares.keys()],
    },
    actions: [...routeActions(planned), ...routeActions(extended?.routes ?? [])],
    routed: hasRouters,
    notRun,
    start(services) {
      runtime.services = services;
    },
    async run(hook) {
      // A plugin's register and bootstrap run before the project's own, as in Strapi.
      await extended?.hooks[hook]?.({ strapi });
      const fn = hooks?.[hook];
      if (fn) await fn({ strapi });
    },
    routing() {
      if (!routed) {
        routed = true;
        if (hasRouters) routing = buildRouting(runtime, planned);
      }
      return routing;
    },
    usersPermissionsLeftOut: extended?.leaveOut ?? new Set(),
    routePaths: () => [...planned, ...(extended?.routes ?? [])].map((route) => fastifyPath(route.path)),
    registerPluginRoutes(app) {
      if (!extended?.routes.length) return;
      pluginRouting = buildRouting(runtime, extended.routes);
      pluginRouting.register(app);
    },
    allowedMethods: (path) => {
      const methods = [...(routing?.allowedMethods(path) ?? []), ...(pluginRouting?.allowedMethods(path) ?? [])];
      return methods.length > 0 ? [...new Set(methods)] : undefined;
    },
    async registerGlobalMiddlewares(app) {
      aroundRequests.attach(app, await middlewaresOf());
    },
    registerRequestContext: (app) => requestContext.register(app, contextOf),
    describingAccess: (access) =>
      requestContext.describing(access, (ctx, caller) => describeCaller(runtime, ctx, caller)),
    usersPermissionsGraphql: (source) => usersPermissionsGraphql(runtime, source),
    async graphqlContext(request, reply, access) {
      const ctx = contextOf(request, reply);
      ctx.state.route ??= { info: { type: 'content-api' } };
      if (ctx.state.auth === undefined && access.identify)
        await describeCaller(runtime, ctx, await access.identify(request.headers));
      return { state: ctx.state, koaContext: ctx };
    },
  };
}

/**
 * For commands that do not start a node (`vellum import`, `export`, `token`, `permissions`): loads
 * the project's code and runs its `register`, as Strapi's own commands load the app, so that the
 * schema's custom fields get the types a node gives them before the tables are checked. A
 * `register` that fails outside a node (it asks for what only a running node has) leaves them JSON,
 * with a warning.
 */
export async function loadProjectForCommand(
  config: VellumConfig,
  schema: Schema,
  warnings: string[],
): Promise<Project> {
  // The command's `strapi` is the global one while its register runs, then the one before is
  // again: in a process that also serves a node (a command run in-process, tests), the node's.
  const global = globalThis as { strapi?: unknown };
  const before = global.strapi;
  const project = await loadProject(config, schema, {}, warnings);
  try {
    await project.run('register');
  } catch (error) {
    warnings.push(
      `${project.hooks?.file ?? 'src/index'}: register failed outside a running node (${(error as Error).message}); custom fields it registers are JSON here`,
    );
  } finally {
    if (global.strapi === project.strapi) global.strapi = before;
  }
  resolveCustomFields(
    schema,
    (uid) => project.customFields.typeOf(uid),
    (message) => warnings.push(message),
  );
  return project;
}
