/**
 * The `strapi` object project code receives (`register({ strapi })`, `({ strapi }) => ({ ... })`
 * factories, policies' third argument) and the global `strapi` Strapi sets: registries, content
 * types, configuration, the log and the Document Service.
 */
import { join } from 'node:path';
import type { VellumConfig } from '../core/config/load.js';
import type { Attribute, Component, ContentType, Schema } from '../core/schema/model.js';
import { createContentApi } from './content-api.js';
import { pluginServiceByUid } from './plugin-services.js';
import { RUNTIME, servicesOf, type Instance, type Runtime } from './runtime.js';

/** A plugin's services project code may ask for (`strapi.plugin('graphql').service('extension')`). */
export type PluginServices = Record<string, Record<string, unknown>>;

/** An attribute as a Strapi schema writes it. */
function attributeSchema(attribute: Attribute): Record<string, unknown> {
  const common = {
    required: attribute.required || undefined,
    private: attribute.private || undefined,
    configurable: attribute.configurable === false ? false : undefined,
  };
  switch (attribute.kind) {
    case 'scalar':
      return {
        type: attribute.type,
        ...common,
        unique: attribute.unique || undefined,
        default: attribute.default,
        min: attribute.min,
        max: attribute.max,
        minLength: attribute.minLength,
        maxLength: attribute.maxLength,
        enum: attribute.enum,
        targetField: attribute.targetField,
      };
    case 'relation':
      return {
        type: 'relation',
        relation: attribute.relation,
        target: attribute.target,
        inversedBy: attribute.inversedBy,
        mappedBy: attribute.mappedBy,
        ...common,
      };
    case 'component':
      return {
        type: 'component',
        component: attribute.component,
        repeatable: attribute.repeatable,
        min: attribute.min,
        max: attribute.max,
        ...common,
      };
    case 'dynamiczone':
      return {
        type: 'dynamiczone',
        components: attribute.components,
        min: attribute.min,
        max: attribute.max,
        ...common,
      };
    case 'media':
      return {
        type: 'media',
        multiple: attribute.multiple,
        allowedTypes: attribute.allowedTypes ?? undefined,
        ...common,
      };
  }
}

const withoutUndefined = (value: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));

const pascal = (name: string) => name.replace(/(^|[-_ ])(\w)/g, (_m, _s: string, c: string) => c.toUpperCase());

/** A content-type as `strapi.contentType(uid)` answers it (Strapi's model shape). */
function contentTypeSchema(type: ContentType): Record<string, unknown> {
  return {
    uid: type.uid,
    kind: type.kind,
    modelType: 'contentType',
    modelName: type.singularName,
    globalId: pascal(type.singularName),
    apiName: type.uid.startsWith('api::') ? type.uid.slice('api::'.length).split('.')[0] : undefined,
    collectionName: type.collectionName,
    info: { singularName: type.singularName, pluralName: type.pluralName, displayName: type.displayName },
    options: { draftAndPublish: type.draftAndPublish },
    pluginOptions: type.localized ? { i18n: { localized: true } } : {},
    attributes: Object.fromEntries(
      Object.entries(type.attributes).map(([name, attribute]) => [name, withoutUndefined(attributeSchema(attribute))]),
    ),
  };
}

function componentSchema(component: Component): Record<string, unknown> {
  return {
    uid: component.uid,
    category: component.category,
    modelType: 'component',
    modelName: component.uid.split('.').pop(),
    globalId: pascal(component.uid.replace('.', '-')),
    collectionName: component.collectionName,
    info: { displayName: component.displayName },
    attributes: Object.fromEntries(
      Object.entries(component.attributes).map(([name, attribute]) => [
        name,
        withoutUndefined(attributeSchema(attribute)),
      ]),
    ),
  };
}

/** Configuration as `strapi.config.get(path)` reads it: Strapi's sections, and `plugin::<name>` for a plugin's config. */
function configTree(config: VellumConfig): Record<string, unknown> {
  const tree: Record<string, unknown> = {
    // The project's own files first: a name Vellum reads itself keeps Vellum's reading.
    ...config.custom,
    environment: config.environment,
    server: { ...config.server },
    database: { connection: config.database },
    api: { rest: { ...config.api.rest } },
    plugins: config.plugins,
    middlewares: config.middlewares,
    admin: config.admin,
    permissions: config.permissions,
  };
  for (const [name, section] of Object.entries(config.plugins)) {
    tree[`plugin::${name}`] = (section as { config?: unknown } | null)?.config ?? {};
  }
  return tree;
}

const read = (tree: Record<string, unknown>, path: string | string[]) => {
  const keys = Array.isArray(path)
    ? path
    : path.startsWith('plugin::')
      ? [path.split('.')[0]!, ...path.split('.').slice(1)]
      : path.split('.');
  return keys.reduce<unknown>(
    (value, key) => (value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined),
    tree,
  );
};

/** `strapi.log`: error and warn always; info unless in the test environment; debug with `server.logger`. */
function createLog(config: VellumConfig) {
  const quiet = config.environment === 'test';
  const noop = () => undefined;
  const info = quiet ? noop : (...args: unknown[]) => console.log('[project]', ...args);
  const debug = config.server.logger ? (...args: unknown[]) => console.debug('[project]', ...args) : noop;
  return {
    error: (...args: unknown[]) => console.error('[project]', ...args),
    warn: (...args: unknown[]) => console.warn('[project]', ...args),
    info,
    http: debug,
    verbose: debug,
    debug,
    silly: debug,
    log: (level: string, ...args: unknown[]) =>
      level === 'error' ? console.error('[project]', ...args) : info(...args),
  };
}

export function createStrapiObject(runtime: Omit<Runtime, 'strapi'>, plugins: PluginServices): Record<string, unknown> {
  const { schema, config, registry } = runtime;
  const tree = configTree(config);
  // A plugin service a plugin extension replaced (users-permissions-plugin.ts), made on first use.
  const extendedService = (uid: string) => runtime.pluginServices?.get(uid)?.();
  const projectDir = config.projectDir;
  const contentTypes = (s: Schema) =>
    Object.fromEntries([...s.contentTypes.values()].map((type) => [type.uid, contentTypeSchema(type)]));
  const dirs = {
    app: {
      root: projectDir,
      src: join(projectDir, 'src'),
      api: join(projectDir, 'src', 'api'),
      components: join(projectDir, 'src', 'components'),
      extensions: join(projectDir, 'src', 'extensions'),
      policies: join(projectDir, 'src', 'policies'),
      middlewares: join(projectDir, 'src', 'middlewares'),
      config: join(projectDir, 'config'),
    },
    static: { public: config.server.dirs.public },
  };
  const strapi: Record<string | symbol, unknown> = {
    dirs: { ...dirs, dist: dirs.app },
    config: {
      get: (path: string | string[], fallback?: unknown) => read(tree, path) ?? fallback,
      has: (path: string | string[]) => read(tree, path) !== undefined,
      set(path: string, value: unknown) {
        const keys = path.split('.');
        let level = tree;
        for (const key of keys.slice(0, -1)) level = (level[key] ??= {}) as Record<string, unknown>;
        level[keys[keys.length - 1]!] = value;
      },
      environment: config.environment,
    },
    log: createLog(config),
    // A plugin's service by uid too: `strapi.service('plugin::users-permissions.role')`.
    service: (uid: string) => registry.service(uid) ?? extendedService(uid) ?? pluginServiceByUid(plugins, uid),
    controller: (uid: string) => registry.controller(uid),
    policy: (name: string) => registry.policy(name),
    middleware: (name: string) => registry.middlewares.get(name),
    contentType: (uid: string) => {
      const type = schema.contentTypes.get(uid);
      return type ? contentTypeSchema(type) : undefined;
    },
    contentAPI: createContentApi(runtime as Runtime),
    /** A content-type's or a component's schema by uid (Strapi's `getModel`). */
    getModel: (uid: string) => {
      const type = schema.contentTypes.get(uid);
      if (type) return contentTypeSchema(type);
      const component = schema.components.get(uid);
      return component ? componentSchema(component) : undefined;
    },
    /** Strapi's registries as objects by uid: `strapi.services['api::article.article']`, `strapi.controllers[...]`. */
    get services() {
      const found: Record<string, unknown> = {};
      for (const uid of [...new Set([...registry.serviceUids(), ...apiUids(schema)])])
        found[uid] = registry.service(uid);
      for (const [name, services] of Object.entries(plugins))
        for (const [service, value] of Object.entries(services)) found[`plugin::${name}.${service}`] = value;
      return found;
    },
    get controllers() {
      const found: Record<string, unknown> = {};
      for (const uid of [...new Set([...registry.controllerUids(), ...apiUids(schema)])])
        found[uid] = registry.controller(uid);
      return found;
    },
    /** Strapi's `strapi.plugins[name].services[name]` (the older spelling of `strapi.plugin(name).service(name)`). */
    get plugins() {
      return Object.fromEntries(
        Object.entries(plugins).map(([name, services]) => [
          name,
          {
            services,
            service: (service: string) => services[service],
            config: (path: string, fallback?: unknown) =>
              read(tree, [`plugin::${name}`, ...path.split('.')]) ?? fallback,
          },
        ]),
      );
    },
    get contentTypes() {
      return contentTypes(schema);
    },
    get components() {
      return Object.fromEntries(
        [...schema.components.values()].map((component) => [component.uid, componentSchema(component)]),
      );
    },
    plugin(name: string) {
      return {
        service(service: string) {
          const found = extendedService(`plugin::${name}.${service}`) ?? plugins[name]?.[service];
          if (!found) throw new Error(`strapi.plugin('${name}').service('${service}') is not available in Vellum`);
          return found;
        },
        /** A plugin's controller: users-permissions' (extended by the project's extension, if any). */
        controller: (controller: string) => registry.controller(`plugin::${name}.${controller}`),
        config: (path: string, fallback?: unknown) => read(tree, [`plugin::${name}`, ...path.split('.')]) ?? fallback,
        contentType: (type: string) =>
          strapi.contentType instanceof Function
            ? (strapi.contentType as (uid: string) => unknown)(`plugin::${name}.${type}`)
            : undefined,
      };
    },
    /** `strapi.documents(uid)`: Strapi 5's Document Service over the node's documents. */
    documents(uid: string) {
      const type = schema.contentTypes.get(uid);
      if (!type) throw new Error(`strapi.documents('${uid}'): no such content-type`);
      return servicesOf(strapi[RUNTIME] as Runtime).documents.strapi(type);
    },
  };
  return strapi as Record<string, unknown>;
}

/** The project's content-types' uids (`api::...`): each has a controller and a service, its own or the core one. */
const apiUids = (schema: Schema) => [...schema.contentTypes.keys()].filter((uid) => uid.startsWith('api::'));

let latest: object | undefined;

/**
 * Strapi's global `strapi`: the last node started (Vellum's own code never reads it; several nodes
 * in one process, as in tests, each hand their own to the code they run).
 */
export function installGlobal(strapi: object): void {
  latest = strapi;
  const descriptor = Object.getOwnPropertyDescriptor(globalThis, 'strapi');
  if (descriptor?.get) return;
  Object.defineProperty(globalThis, 'strapi', {
    configurable: true,
    get: () => latest,
    set: (value: object) => {
      latest = value;
    },
  });
}

export type { Instance };
