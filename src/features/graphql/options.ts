/** What the GraphQL feature is given (index.ts) and builds its schema from (executor.ts). */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RestConfig } from '../../core/config/load.js';
import type { DocumentService } from '../../core/documents/service.js';
import type { Schema } from '../../core/schema/model.js';
import type { AccessControl } from '../../api/access.js';
import type { ResponseCache } from '../../api/response-cache.js';
import type { GraphqlConfig } from './config.js';
import type { ExtensionService } from './extension.js';
import type { Operations } from './resolvers/operations.js';
import type { RootFields } from './schema/operations.js';
import type { ModelTypes } from './schema/types.js';

/**
 * Root fields another feature adds to the schema (users-permissions: `register`, `login`, `me`,
 * the account mutations, users' and roles' mutations), built once the content types are known.
 */
export interface GraphqlFieldSource {
  /** Built-in content types the schema exposes (Shadow CRUD) because this source serves them. */
  exposedBuiltIns(schema: Schema): string[];
  fields(context: { types: ModelTypes; operations: Operations; schema: Schema }): {
    query: RootFields;
    mutation: RootFields;
  };
}

export interface GraphqlOptions {
  config: GraphqlConfig;
  service: DocumentService;
  /** `api.rest`: its default page size applies to GraphQL lists too (capped by amountLimit). */
  rest: RestConfig;
  access: AccessControl;
  extension: ExtensionService;
  /** Root fields of other features (users-permissions), loaded with the schema. */
  fieldSource?: () => Promise<GraphqlFieldSource>;
  /** What extension factories receive as `strapi`. */
  strapi?: unknown;
  /**
   * What project code's resolvers see as `context.state` and `context.koaContext` (given by the
   * layer that runs project code); asked once per operation when the extension service was used.
   */
  projectContext?: (
    request: FastifyRequest,
    reply: FastifyReply,
  ) => Promise<{ state: Record<string, unknown>; koaContext: unknown }>;
  /** The response cache REST reads share (`api.rest.cache`); absent when switched off. */
  cache?: ResponseCache;
}
