/**
 * The parts of an OpenAPI 3.1 document this feature writes, and the two names it shares with
 * Strapi 5.54's `@strapi/openapi`: a schema's name from its uid and an operation's id from its
 * route, so that a client written against Strapi's document finds the same names in Vellum's.
 */

/** A JSON Schema (2020-12, OpenAPI 3.1's dialect), as written into the document. */
export type JsonSchema = Record<string, unknown>;

export interface Parameter {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  description?: string;
  schema: JsonSchema;
  style?: 'deepObject' | 'form';
  explode?: boolean;
  /** Strapi's mark on its query parameters: serialised as qs does (brackets), not as OpenAPI styles say. */
  'x-strapi-serialize'?: 'querystring';
}

export interface MediaContent {
  schema: JsonSchema;
}

export interface RequestBody {
  required?: boolean;
  description?: string;
  content: Record<string, MediaContent>;
}

export interface Response {
  description: string;
  headers?: Record<string, { description: string; schema: JsonSchema }>;
  content?: Record<string, MediaContent>;
}

export interface Operation {
  operationId: string;
  summary?: string;
  description?: string;
  tags: string[];
  parameters: Parameter[];
  requestBody?: RequestBody;
  responses: Record<string, Response>;
}

export type PathItem = Partial<Record<'get' | 'put' | 'post' | 'delete' | 'patch', Operation>>;

export interface OpenApiDocument {
  openapi: '3.1.0';
  'x-powered-by': string;
  'x-strapi-version': string;
  info: { title: string; description: string; version: string };
  servers: { url: string; description?: string }[];
  components: { securitySchemes: Record<string, JsonSchema>; schemas: Record<string, JsonSchema> };
  security: Record<string, string[]>[];
  paths: Record<string, PathItem>;
}

/** A reference to a schema of `components.schemas`. */
export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

/** A schema that also takes null (OpenAPI 3.1 has no `nullable`). */
export const orNull = (schema: JsonSchema): JsonSchema =>
  typeof schema.type === 'string' && !('enum' in schema)
    ? { ...schema, type: [schema.type, 'null'] }
    : { anyOf: [schema, { type: 'null' }] };

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const pascal = (text: string) => text.split(/[-_]/).map(capitalize).join('');

/**
 * A model's schema name, as `@strapi/utils`' `transformUidToValidOpenApiName`: a content-type's
 * `api::category.category` is `ApiCategoryCategoryDocument`, `plugin::upload.file`
 * `PluginUploadFileDocument`, a component's `shared.rich-text` `SharedRichTextEntry`.
 */
export function schemaName(uid: string): string {
  if (uid.includes('::')) {
    const [namespace, ...rest] = uid.split('::');
    const parts = rest.join('.').split('.').map(pascal).map(capitalize);
    return `${capitalize(pascal(namespace!))}${parts.join('')}Document`;
  }
  if (uid.includes('.')) return `${uid.split('.').map(pascal).map(capitalize).join('')}Entry`;
  return `${pascal(capitalize(uid))}Schema`;
}

/**
 * An operation's id, as `@strapi/openapi` 5.54 makes it: `<origin>/<method>/<path words>`, a
 * parameter `:id` as `by_id`, other characters than word characters as `_`
 * (`article/get/articles_by_id`, `users-permissions/get/auth_by_provider_callback`). Strapi matches
 * the parameters with one global regular expression, whose `lastIndex` carries from one segment to
 * the next: a parameter right after another is read as a word (`/a/:x/:y` is `get/a_by_x__y`).
 * Kept, so that such a route's id is Strapi's; the state is reset per path, where Strapi's also
 * carries from one route to the next (an order no client can depend on).
 */
export function operationId(origin: string | undefined, method: string, path: string): string {
  const parameter = /:([^/]+)/g;
  const parts = path.split('/').filter(Boolean);
  const start = `${origin ? `${origin}/` : ''}${method.toLowerCase()}`;
  if (parts.length === 0) return start;
  let appendix = '/';
  const word = (text: string) => (/[_/]$/.test(appendix) ? text : `_${text}`);
  for (const part of parts) {
    const match = parameter.exec(part);
    appendix += match ? word(`by_${match[1]}`) : word(part.replaceAll(/\W/g, '_'));
  }
  return `${start}${appendix}`;
}
