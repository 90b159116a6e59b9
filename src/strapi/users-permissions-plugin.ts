/**
 * The users-permissions plugin as a Strapi 5.54 extension (`src/extensions/users-permissions/
 * strapi-server`) receives it, and what Vellum does with what the extension returns.
 *
 * The object has Strapi's shape: `controllers` (`auth` a factory `({ strapi }) => controller`, as
 * in Strapi 5; `user`, `role`, `permissions` objects of actions; the admin ones), `routes`
 * (`'content-api'` Strapi's router factory with its `routes` array, `admin`), `services`
 * (factories), `policies`, `middlewares` (`rateLimit`), `contentTypes`, `config`, `register`,
 * `bootstrap`, `destroy`. Its original actions run Vellum's (plugin-actions.ts).
 *
 * Afterwards, a content-API route the extension left as it was (same handler, same config, and
 * its action still the original) stays with Vellum's own handler; every other route (an action
 * replaced or wrapped, a config changed, a route pushed) runs the Strapi pipeline under the REST
 * prefix, and its action (`plugin::users-permissions.user.updateMe`) is grantable. Original routes
 * the extension removed are no longer served.
 */
import { isDeepStrictEqual } from 'node:util';
import { CONTENT_API_ROUTES, routeKey } from '../features/users-permissions/index.js';
import { originalActions, rateLimitMiddleware } from './plugin-actions.js';
import { isServableRoute, unservableRoute, type PlannedRoute } from './routes.js';
import type { Instance, Made, MiddlewareFactory, PolicyEntry, Runtime } from './runtime.js';

const NAME = 'users-permissions';
const NAMESPACE = `plugin::${NAME}`;

type Plugin = Record<string, unknown>;
type Hook = (context: { strapi: unknown }) => unknown;

export interface ExtendedPlugin {
  /** Routes the Strapi pipeline serves (buildRouting). */
  routes: PlannedRoute[];
  /** Strapi's routes (`GET /users/me`) Vellum's own handlers leave out. */
  leaveOut: Set<string>;
  /** `register`, `bootstrap`, `destroy` the extension set, run before the project's own. */
  hooks: Partial<Record<'register' | 'bootstrap' | 'destroy', Hook>>;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** Strapi 5.54's admin routes of the plugin (its admin panel's; Vellum's admin API is its own). */
const ADMIN_ROUTES: [string, string, string, string?][] = [
  ['GET', '/roles/:id', 'role.findOne', 'roles.read'],
  ['GET', '/roles', 'role.find', 'roles.read'],
  ['POST', '/roles', 'role.createRole', 'roles.create'],
  ['PUT', '/roles/:role', 'role.updateRole', 'roles.update'],
  ['DELETE', '/roles/:role', 'role.deleteRole', 'roles.delete'],
  ['GET', '/email-templates', 'settings.getEmailTemplate', 'email-templates.read'],
  ['PUT', '/email-templates', 'settings.updateEmailTemplate', 'email-templates.update'],
  ['GET', '/advanced', 'settings.getAdvancedSettings', 'advanced-settings.read'],
  ['PUT', '/advanced', 'settings.updateAdvancedSettings', 'advanced-settings.update'],
  ['GET', '/providers', 'settings.getProviders', 'providers.read'],
  ['PUT', '/providers', 'settings.updateProviders', 'providers.update'],
  ['GET', '/permissions', 'permissions.getPermissions'],
  ['GET', '/policies', 'permissions.getPolicies'],
  ['GET', '/routes', 'permissions.getRoutes'],
];
const adminRoutes = () =>
  ADMIN_ROUTES.map(([method, path, handler, action]) => ({
    method,
    path,
    handler,
    ...(action
      ? { config: { policies: [{ name: 'admin::hasPermissions', config: { actions: [`${NAMESPACE}.${action}`] } }] } }
      : {}),
  }));
const ADMIN_ACTIONS: Record<string, string[]> = {
  settings: [
    'getEmailTemplate',
    'updateEmailTemplate',
    'getAdvancedSettings',
    'updateAdvancedSettings',
    'getProviders',
    'updateProviders',
  ],
  contentmanageruser: ['create', 'update'],
};
const SERVICES = ['jwt', 'providers', 'providers-registry', 'role', 'user', 'users-permissions', 'permission'];

/** Strapi's `createContentApiRoutesFactory`: a router factory whose `routes` is the shared array. */
function contentApiRouter(initial: unknown[]) {
  let shared = initial;
  const router = () => ({ type: 'content-api', routes: shared });
  Object.defineProperty(router, 'routes', {
    get: () => shared,
    set: (next: unknown[]) => {
      shared = next;
    },
    enumerable: true,
  });
  return router;
}

const clone = <T>(value: T): T => structuredClone(value);

/** What `strapi.config.get('plugin::users-permissions')` reads, and the content-types, to tell changes. */
const snapshot = (value: unknown) => JSON.stringify(value);

/**
 * Makes the plugin object, lets `extend` change it, and reads back what changed. `plugins` are the
 * node's plugin services (filled once it runs), which the original service factories answer.
 */
export async function extendUsersPermissions(
  runtime: Runtime,
  file: string,
  extend: (plugin: Plugin) => unknown,
  plugins: Record<string, Record<string, unknown>>,
): Promise<ExtendedPlugin> {
  const { registry, strapi } = runtime;
  const originals = originalActions(runtime);
  const { auth: authActions, ...objects } = originals;
  const notServed = (name: string) => () => {
    throw new Error(`users-permissions' ${name} is Strapi's admin panel's; Vellum's admin API is its own`);
  };
  const controllers: Record<string, unknown> = {
    // Strapi 5's auth controller is a factory: what an extension sets on it is not used (as in Strapi).
    auth: () => ({ ...authActions }),
    ...Object.fromEntries(Object.entries(objects).map(([name, actions]) => [name, { ...actions }])),
    ...Object.fromEntries(
      Object.entries(ADMIN_ACTIONS).map(([name, actions]) => [
        name,
        Object.fromEntries(actions.map((action) => [action, notServed(`${name}.${action}`)])),
      ]),
    ),
  };
  const authFactory = controllers.auth;
  const services: Record<string, unknown> = Object.fromEntries(
    SERVICES.map((name) => [
      name,
      () => {
        const found = plugins[NAME]?.[name];
        if (!found) throw new Error(`strapi.plugin('${NAME}').service('${name}') is not available in Vellum`);
        return found;
      },
    ]),
  );
  const originalServices = { ...services };
  const rateLimit: MiddlewareFactory = () => rateLimitMiddleware(runtime);
  const noop = () => undefined;
  const hooks = { register: noop, bootstrap: noop, destroy: noop };
  const contentTypes = Object.fromEntries(
    ['permission', 'role', 'user'].map((name) => [
      name,
      { schema: (strapi.getModel as (uid: string) => unknown)(`${NAMESPACE}.${name}`) ?? {} },
    ]),
  );
  const config = clone((strapi.config as { get(path: string): unknown }).get(NAMESPACE) ?? {});
  const before = { contentTypes: snapshot(contentTypes), config: snapshot(config), admin: adminRoutes() };
  const plugin: Plugin = {
    ...hooks,
    config,
    routes: {
      'content-api': contentApiRouter(CONTENT_API_ROUTES.map((route) => clone(route))),
      admin: { type: 'admin', routes: adminRoutes() },
    },
    controllers,
    services,
    policies: {},
    middlewares: { rateLimit },
    contentTypes,
  };

  let extended: unknown;
  try {
    extended = await extend(plugin);
  } catch (error) {
    throw new Error(`the extension failed: ${(error as Error)?.message ?? String(error)}`, { cause: error });
  }
  // Strapi 5 goes on with what the function returns.
  if (!isRecord(extended)) throw new Error('the extension must return the plugin it was given (return plugin;)');
  const warn = (message: string) => runtime.warn(`${file}: ${message}`);

  // Controllers: by uid, so that routes, `strapi.plugin('users-permissions').controller(name)` and
  // `strapi.controller('plugin::users-permissions.user')` find the extended ones.
  const extendedControllers = isRecord(extended.controllers) ? extended.controllers : {};
  for (const [name, controller] of Object.entries(extendedControllers))
    if (isRecord(controller) || typeof controller === 'function')
      registry.addController(`${NAMESPACE}.${name}`, controller as Made);
  const ignored = Object.keys(authFactory as object);
  if (ignored.length) {
    warn(
      `plugin.controllers.auth is a factory in Strapi 5 (({ strapi }) => controller): ${ignored.join(', ')} set on it ${ignored.length === 1 ? 'is' : 'are'} not used, as in Strapi 5.54; replace plugin.controllers.auth with a factory that calls the original`,
    );
  }
  for (const name of Object.keys(ADMIN_ACTIONS)) {
    const controller = extendedControllers[name];
    if (controller !== controllers[name] || !isDeepStrictEqual(Object.keys(controller as object), ADMIN_ACTIONS[name]))
      warn(
        `plugin.controllers.${name} is Strapi's admin panel's; Vellum's admin API is its own, so the change is not applied`,
      );
  }
  const actionOf = (handler: string): unknown => {
    const at = handler.lastIndexOf('.');
    return registry.controller(`${NAMESPACE}.${handler.slice(0, at)}`)?.[handler.slice(at + 1)];
  };
  const isOriginal = (handler: string) => {
    const at = handler.lastIndexOf('.');
    const action = originals[handler.slice(0, at)]?.[handler.slice(at + 1)];
    return action !== undefined && actionOf(handler) === action;
  };

  const result: ExtendedPlugin = { routes: [], leaveOut: new Set(), hooks: {} };
  for (const hook of ['register', 'bootstrap', 'destroy'] as const) {
    const fn = extended[hook];
    if (typeof fn === 'function' && fn !== hooks[hook]) result.hooks[hook] = fn as Hook;
  }
  for (const [kind, found] of [
    ['policies', extended.policies],
    ['middlewares', extended.middlewares],
  ] as const) {
    for (const [name, value] of Object.entries(isRecord(found) ? found : {})) {
      if (kind === 'policies') registry.policies.set(`${NAMESPACE}.${name}`, value as PolicyEntry);
      else registry.middlewares.set(`${NAMESPACE}.${name}`, value as MiddlewareFactory);
    }
  }
  if (!registry.middlewares.has(`${NAMESPACE}.rateLimit`))
    registry.middlewares.set(`${NAMESPACE}.rateLimit`, rateLimit);

  const extendedServices = isRecord(extended.services) ? extended.services : {};
  for (const [name, service] of Object.entries(extendedServices)) {
    if (service === originalServices[name]) continue;
    let made: unknown;
    (runtime.pluginServices ??= new Map()).set(
      `${NAMESPACE}.${name}`,
      () => (made ??= typeof service === 'function' ? (service as Hook)({ strapi }) : service),
    );
    warn(
      `plugin.services.${name}: project code gets the extension's (strapi.plugin('${NAME}').service('${name}')); Vellum's own users-permissions routes do not call it`,
    );
  }
  if (snapshot(extended.contentTypes) !== before.contentTypes)
    warn(
      'changes to plugin.contentTypes are not applied: a user attribute belongs in src/extensions/users-permissions/content-types/user/schema.json',
    );
  if (snapshot(extended.config) !== before.config)
    warn("changes to plugin.config are not applied: users-permissions' configuration is config/plugins'");

  // Routes: Strapi instantiates each router (a factory is called with { strapi }) and serves every one.
  const routers = isRecord(extended.routes) ? extended.routes : {};
  if (!isRecord(extended.routes)) warn('plugin.routes is not an object of routers; its routes are not served');
  const prefix = runtime.config.api.rest.prefix;
  const originalRoutes = new Map(CONTENT_API_ROUTES.map((route) => [routeKey(route.method, route.path), route]));
  const native = new Set<string>();
  const seen = new Set<string>();
  for (const [routerName, made] of Object.entries(routers)) {
    const router = typeof made === 'function' ? (made as Hook)({ strapi }) : made;
    if (!isRecord(router) || !Array.isArray(router.routes)) {
      warn(`plugin.routes['${routerName}'] is not a router ({ type, routes: [...] }); it is not served`);
      continue;
    }
    if ((router.type ?? 'admin') !== 'content-api') {
      if (routerName !== 'admin' || !isDeepStrictEqual(router.routes, before.admin))
        warn(
          `plugin.routes['${routerName}'] holds admin routes: Vellum's admin API is its own, so they are not served`,
        );
      continue;
    }
    const routerPrefix = typeof router.prefix === 'string' ? router.prefix : `/${NAME}`;
    for (const route of router.routes as unknown[]) {
      if (!isServableRoute(route)) {
        warn(unservableRoute(route));
        continue;
      }
      const method = route.method.toUpperCase();
      const key = routeKey(method, route.path);
      const config = isRecord(route.config) ? route.config : {};
      const handler =
        typeof route.handler === 'string' ? route.handler.trim().replace(`${NAMESPACE}.`, '') : route.handler;
      const unchanged = originalRoutes.get(key);
      if (
        !seen.has(key) &&
        routerName === 'content-api' &&
        unchanged &&
        handler === unchanged.handler &&
        isDeepStrictEqual(config, unchanged.config ?? {}) &&
        isOriginal(handler)
      ) {
        native.add(key);
        seen.add(key);
        continue;
      }
      seen.add(key);
      // Strapi: a route's own `config.prefix` puts it under the REST prefix alone, else under the router's.
      const path = `${prefix}${'prefix' in config ? '' : routerPrefix}${route.path.trim().replace('/(.*)', '/*')}`;
      result.routes.push({
        method,
        path,
        handler: typeof handler === 'string' ? `${NAMESPACE}.${handler}` : handler,
        config,
        apiName: NAME,
        pluginName: NAME,
        file,
      });
    }
  }
  for (const key of originalRoutes.keys()) if (!native.has(key)) result.leaveOut.add(key);
  return result;
}

/** The users-permissions controllers project code reaches without an extension (`strapi.plugin(...).controller('user')`). */
export function registerOriginalControllers(runtime: Runtime): void {
  const { auth, ...objects } = originalActions(runtime);
  runtime.registry.addController(`${NAMESPACE}.auth`, () => ({ ...auth }) as Instance);
  for (const [name, actions] of Object.entries(objects))
    runtime.registry.addController(`${NAMESPACE}.${name}`, { ...actions } as Instance);
  runtime.registry.middlewares.set(`${NAMESPACE}.rateLimit`, () => rateLimitMiddleware(runtime));
}
