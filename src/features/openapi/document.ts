/**
 * The OpenAPI 3.1 document of a project's content API, as `strapi openapi generate` 5.54 writes it
 * (its paths, operation ids, tags and schema names), from Vellum's schema and the routes the node
 * registered: a pure function, no HTTP, no file. What is served is what is described: a route the
 * node does not register (a core action a project's router leaves out, `/users` taken by a project
 * type) is not in the document, and a project's own route is, with its path parameters.
 *
 * Paths are below the REST prefix, as Strapi's; the prefix is in `servers` (Strapi's default server,
 * `server.url` alone, misses it: its paths answer 404 as written).
 */
import type { ContentType, Schema } from '../../core/schema/model.js';
import { apiNameOf, contentOperation, contentRoutes, ERRORS, json, type ContentAction } from './content.js';
import { modelSchemas } from './models.js';
import { pathParameter } from './parameters.js';
import { pluginOperation, pluginRoutes } from './plugins.js';
import { operationId, type JsonSchema, type OpenApiDocument, type Operation, type PathItem } from './spec.js';

/** A route as the HTTP server registered it (`registeredRoutes`), with the project route's origin when known. */
export interface DescribedRoute {
  method: string;
  /** Fastify's syntax: `/api/articles/:documentId`, `/api/things/:id(^\d+$)`. */
  url: string;
  /** A project route's API or plugin (Strapi's `info.apiName` / `info.pluginName`): its tag and id prefix. */
  origin?: string;
}

/** Strapi's `config/openapi` (`strapi.config.get('openapi.servers')`, ...), honoured as Strapi does. */
export interface OpenApiProjectConfig {
  servers?: { url: string; description?: string }[];
  security?: Record<string, JsonSchema>;
  globalSecurity?: Record<string, string[]>[];
}

export interface OpenApiInput {
  schema: Schema;
  routes: readonly DescribedRoute[];
  /** `api.rest.prefix` (`/api`). */
  prefix: string;
  /** The project's package.json `name` and `version` (Strapi's `info`). */
  info: { name: string; version: string };
  /** `server.url`: the public URL (absolute, or a path), '' when not set. */
  serverUrl: string;
  config?: OpenApiProjectConfig;
}

/** The version of Strapi whose content API Vellum answers as (`x-strapi-version`). */
const STRAPI_VERSION = '5.54.0';

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

/** A Fastify path as OpenAPI's: `:id(^\d+$)` is `{id}`, a wildcard `{wildcard}`. */
const openApiPath = (path: string) => path.replace(/:(\w+)(\([^)]*\))?/g, '{$1}').replace(/\*$/, '{wildcard}');

/** The key the route tables use: the method and the path with every parameter as `:`. */
const routeKey = (method: string, path: string) =>
  `${method} ${path.replace(/:\w+(\([^)]*\))?/g, ':').replace(/\{[^}]+\}/g, ':')}`;

/** Strapi's path syntax back, for the operation id (`/articles/{id}` is `/articles/:id`). */
const strapiPath = (path: string) => path.replace(/\{([^}]+)\}/g, ':$1');

/** A project route Vellum knows nothing of but its path: its path parameters, any JSON answer. */
function projectOperation(method: string, path: string, origin: string | undefined): Operation {
  const names = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);
  return {
    operationId: operationId(origin, method, strapiPath(path)),
    summary: 'A route of the project',
    tags: origin ? [origin] : [],
    parameters: names.map((name) => pathParameter(name)),
    responses: { '200': { description: 'OK', content: json({}) }, ...ERRORS },
  };
}

/** The API a project route without a known origin most likely belongs to: the type its path starts with. */
function guessedOrigin(schema: Schema, path: string): string | undefined {
  const first = path.split('/').find(Boolean) ?? '';
  const type = schema.byPluralName.get(first) ?? schema.bySingularName.get(first);
  return type ? apiNameOf(type.uid) : undefined;
}

function paths(input: OpenApiInput): Record<string, PathItem> {
  const { schema, prefix } = input;
  const content = new Map<string, { type: ContentType; path: string; action: ContentAction }>();
  for (const type of schema.contentTypes.values()) {
    if (type.builtIn) continue;
    for (const [key, route] of contentRoutes(type)) content.set(key, { type, ...route });
  }
  const plugins = pluginRoutes(schema);
  const items: Record<string, PathItem> = {};
  for (const route of input.routes) {
    const method = route.method.toUpperCase();
    // HEAD is GET's (Fastify adds it), OPTIONS the CORS preflight's.
    if (!METHODS.has(method)) continue;
    if (!route.url.startsWith(`${prefix}/`)) continue;
    const below = route.url.slice(prefix.length);
    const key = routeKey(method, below);
    const served = content.get(key);
    const plugin = served ? undefined : plugins.get(key);
    const path = served?.path ?? plugin?.path ?? openApiPath(below);
    const verb = method.toLowerCase() as keyof PathItem;
    const item = (items[path] ??= {});
    // The first registration of a method and path is the one that answers.
    if (item[verb]) continue;
    if (served) {
      const origin = apiNameOf(served.type.uid);
      item[verb] = contentOperation(served.type, served.action, operationId(origin, method, strapiPath(path)));
    } else if (plugin) {
      item[verb] = pluginOperation(plugin, operationId(plugin.origin, method, strapiPath(path)));
    } else {
      item[verb] = projectOperation(method, path, route.origin ?? guessedOrigin(schema, path));
    }
  }
  return items;
}

const BEARER = {
  type: 'http',
  scheme: 'bearer',
  description: "A user's JWT (POST /auth/local) or an API token; without one, the Public role's permissions apply",
};

/** The document (`strapi openapi generate`'s `specification.json`). */
export function openApiDocument(input: OpenApiInput): OpenApiDocument {
  const { name, version } = input.info;
  const config = input.config ?? {};
  const securitySchemes: Record<string, JsonSchema> = config.security?.bearerAuth ? {} : { bearerAuth: BEARER };
  Object.assign(securitySchemes, config.security ?? {});
  const servers = config.servers?.length
    ? config.servers
    : [{ url: `${input.serverUrl.replace(/\/+$/, '')}${input.prefix}`, description: 'Default server' }];
  return {
    openapi: '3.1.0',
    'x-powered-by': 'vellum',
    'x-strapi-version': STRAPI_VERSION,
    info: { title: name, description: `API documentation for ${name} v${version}`, version },
    servers,
    components: { securitySchemes, schemas: modelSchemas(input.schema) },
    // A bearer token, or none: what a route allows without one is the Public role's to say.
    security: config.globalSecurity ?? [{ bearerAuth: [] }, {}],
    paths: paths(input),
  };
}
