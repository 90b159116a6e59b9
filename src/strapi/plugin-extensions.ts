/**
 * Plugin extensions (`src/extensions/<plugin>/strapi-server.{js,ts,mjs,cjs}`), run as Strapi runs
 * them, with the plugin object, before anything is served. Users-permissions' is run
 * (users-permissions-plugin.ts): its controllers, routes and route configuration take effect; its
 * content-types are the schema files' (`src/extensions/users-permissions/content-types/user/
 * schema.json`), so a change of `plugin.contentTypes` is named in a warning. Other plugins'
 * extensions are named in a warning and left out.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ProjectError } from '../core/errors.js';
import { loadProjectModule } from '../core/project/modules.js';
import type { Registry } from './registry.js';
import type { Made, MiddlewareFactory } from './runtime.js';
import {
  extendedRoutes,
  NativeRoutes,
  PLUGIN,
  usersPermissionsPlugin,
  type ExtendedRoutes,
} from './users-permissions-plugin.js';

type Json = Record<string, unknown>;

export interface UsersPermissionsExtension extends ExtendedRoutes {
  native: NativeRoutes;
  file: string;
}

/** The extension files of the project, by plugin (`users-permissions` -> `src/extensions/users-permissions/strapi-server.js`). */
function extensionFiles(projectDir: string): Map<string, string> {
  const found = new Map<string, string>();
  const root = join(projectDir, 'src', 'extensions');
  if (!existsSync(root)) return found;
  for (const plugin of readdirSync(root).sort()) {
    const dir = join(root, plugin);
    if (!statSync(dir).isDirectory()) continue;
    const file = readdirSync(dir)
      .sort()
      .find((name) => /^strapi-server\.([cm]?js|[cm]?ts)$/.test(name));
    if (file) found.set(plugin, join(dir, file));
  }
  return found;
}

/** A plugin's services as the extension sees them: each call goes to the node's service, once it runs. */
function lazyServices(services: () => Record<string, Json> | undefined): Json {
  const one = (name: string) =>
    new Proxy({} as Json, {
      get(own, method) {
        if (method in own) return own[method as string];
        const real = services()?.[name];
        const value = real?.[method as string];
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(real) : value;
      },
    });
  return new Proxy({} as Json, {
    get(own, name) {
      if (typeof name !== 'string') return undefined;
      return (own[name] ??= one(name));
    },
  });
}

export interface ExtensionOptions {
  projectDir: string;
  restPrefix: string;
  registry: Registry;
  /** The plugins' services project code reaches (`strapi.plugin(name).service(...)`), filled once the node runs. */
  plugins: Record<string, Record<string, Json>>;
  /** The node's `strapi`, which the plugin's controller factories receive. */
  strapi: unknown;
  /** A content-type's schema as `strapi.contentType(uid)` answers it. */
  contentType: (uid: string) => unknown;
  warn: (message: string) => void;
}

/** Runs the project's plugin extensions; answers users-permissions' (undefined without one) and the files not run. */
export async function runPluginExtensions(
  options: ExtensionOptions,
): Promise<{ usersPermissions?: UsersPermissionsExtension; notRun: string[] }> {
  const { projectDir, warn } = options;
  const notRun: string[] = [];
  let usersPermissions: UsersPermissionsExtension | undefined;
  for (const [plugin, path] of extensionFiles(projectDir)) {
    const file = relative(projectDir, path);
    if (plugin !== PLUGIN) {
      notRun.push(file);
      warn(`${file}: not run by Vellum (it runs extensions of users-permissions only); it is left out`);
      continue;
    }
    usersPermissions = await runUsersPermissionsExtension(options, path, file);
  }
  return { usersPermissions, notRun };
}

async function runUsersPermissionsExtension(
  options: ExtensionOptions,
  path: string,
  file: string,
): Promise<UsersPermissionsExtension> {
  const { registry, restPrefix, warn } = options;
  const native = new NativeRoutes(restPrefix);
  const schema = (name: string) => ({ schema: options.contentType(`plugin::${PLUGIN}.${name}`) });
  const contentTypes = { user: schema('user'), role: schema('role'), permission: schema('permission') };
  const contentTypesBefore = JSON.stringify(contentTypes);
  const plugin = usersPermissionsPlugin(
    native,
    lazyServices(() => options.plugins[PLUGIN]),
    contentTypes,
  );
  const before = { routes: [...plugin.routes['content-api']!.routes] };
  let after: unknown;
  try {
    const exported = (await loadProjectModule(path, options.projectDir)) as { default?: unknown } | unknown;
    const extend = (exported as { default?: unknown })?.default ?? exported;
    if (typeof extend !== 'function') throw new Error('it exports no function (module.exports = (plugin) => plugin)');
    after = (await (extend as (plugin: unknown) => unknown)(plugin)) ?? plugin;
  } catch (error) {
    throw new ProjectError(`cannot be run: ${(error as Error).message}`, file);
  }
  if (after === null || typeof after !== 'object') throw new ProjectError('returns no plugin object', file);
  const extended = after as typeof plugin;
  if (JSON.stringify(extended.contentTypes) !== contentTypesBefore)
    warn(
      `${file}: changes users-permissions' content-types, which Vellum reads from src/extensions/users-permissions/content-types/user/schema.json only; the change is left out`,
    );
  const routes = extendedRoutes(before, extended, options.strapi, restPrefix, file);
  for (const [uid, controller] of routes.controllers) registry.addController(uid, controller as unknown as Made);
  for (const [name, factory] of Object.entries(extended.middlewares ?? {}))
    if (typeof factory === 'function')
      registry.middlewares.set(`plugin::${PLUGIN}.${name}`, factory as MiddlewareFactory);
  for (const [name, policy] of Object.entries(extended.policies ?? {}))
    if (policy) registry.policies.set(`plugin::${PLUGIN}.${name}`, policy as never);
  return { ...routes, native, file };
}
