/**
 * OpenAPI: the document of the project's content API (`vellum openapi generate`, as Strapi 5.54's
 * experimental `strapi openapi generate`), served at `/openapi.json` with a reference page at
 * `/openapi` (docs/openapi.md).
 */
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { VellumConfig } from '../../core/config/load.js';
import { asRecord } from '../../core/objects.js';
import type { Schema } from '../../core/schema/model.js';
import type { DescribedRoute, OpenApiInput, OpenApiProjectConfig } from './document.js';

export { openApiDocument } from './document.js';
export { documentText, registerOpenApiRoutes } from './routes.js';
export type { OpenApiDocument } from './spec.js';

/** The file `vellum openapi generate` writes without `--output`: Strapi's command's. */
export const OPENAPI_FILE = 'specification.json';

/** Strapi's `info`: the project's package.json `name` and `version` (its folder's name and 0.0.0 without one). */
function projectInfo(projectDir: string): { name: string; version: string } {
  let manifest: Record<string, unknown> = {};
  try {
    manifest = asRecord(JSON.parse(readFileSync(join(projectDir, 'package.json'), 'utf8')));
  } catch {
    // No package.json (the blog example has none): the folder names the project.
  }
  return {
    name: typeof manifest.name === 'string' ? manifest.name : basename(projectDir),
    version: typeof manifest.version === 'string' ? manifest.version : '0.0.0',
  };
}

/** `config/openapi` as written (Strapi's `servers`, `security`, `globalSecurity`; Vellum's `serve`). */
const openApiConfig = (config: VellumConfig) => asRecord(config.custom.openapi);

/** The generator's input for a node: its schema, the routes it registered, its configuration. */
export function openApiInput(config: VellumConfig, schema: Schema, routes: readonly DescribedRoute[]): OpenApiInput {
  return {
    schema,
    routes,
    prefix: config.api.rest.prefix,
    info: projectInfo(config.projectDir),
    serverUrl: /^https?:\/\//.test(config.server.url) || config.server.url.startsWith('/') ? config.server.url : '',
    config: openApiConfig(config) as OpenApiProjectConfig,
  };
}

/** Whether the node serves `/openapi.json` and `/openapi`: `config/openapi` `serve`, else outside production. */
export function openApiServed(config: VellumConfig): boolean {
  const serve = openApiConfig(config).serve;
  return typeof serve === 'boolean' ? serve : config.environment !== 'production';
}
