/**
 * The GraphQL API (docs/graphql.md): the generated schema served by mercurius on the REST server's
 * Fastify instance, at `graphql.config.endpoint`.
 */
import type { FastifyInstance } from 'fastify';
import { NoSchemaIntrospectionCustomRule, type GraphQLSchema, type ValidationRule } from 'graphql';
import mercurius from 'mercurius';
import type { RestConfig } from '../../core/config/load.js';
import { ReadBudget, type DocumentService } from '../../core/documents/service.js';
import type { AccessControl } from '../../api/access.js';
import type { GraphqlConfig } from './config.js';
import type { GraphqlContext } from './context.js';
import { errorFormatter } from './errors.js';
import { GraphqlCache, rootFieldCount } from './cache.js';
import type { ResponseCache } from '../../api/response-cache.js';
import { ExtensionService } from './extension.js';
import { costLimitRule, depthLimitRule, rootFieldsRule } from './limits.js';
import { limitRootConcurrency } from './root-concurrency.js';
import { UnauthorizedError } from '../../core/errors.js';
import { errorBody } from '../../api/errors.js';
import { PLAYGROUND_CSP, playgroundHtml, registerPlaygroundAssets, wantsPlayground } from './playground.js';
import { Operations } from './resolvers/operations.js';
import { SelectionReader } from './resolvers/selection.js';
import { buildGraphqlSchema } from './schema/build.js';
import { ModelTypes } from './schema/types.js';
import type { RootFields } from './schema/operations.js';
import type { Schema } from '../../core/schema/model.js';

export { parseGraphqlConfig } from './config.js';
export { ExtensionService, type NamedHandlers } from './extension.js';
// What a feature adding root fields (GraphqlFieldSource) builds them with.
export type { GraphqlContext } from './context.js';
export type { Operations } from './resolvers/operations.js';
export type { RootFields } from './schema/operations.js';
export type { ModelTypes } from './schema/types.js';
export { JSONScalar } from './scalars.js';

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
  /** Root fields of other features (users-permissions). */
  fieldSource?: GraphqlFieldSource;
  /** What extension factories receive as `strapi`. */
  strapi?: unknown;
  /** The response cache REST reads share (`api.rest.cache`); absent when switched off. */
  cache?: ResponseCache;
}

/**
 * The executable schema for a configuration (also used to print the SDL), and whether project code
 * resolves or configures fields (resolvers, policies, middlewares may answer from anything: with
 * any, GraphQL answers are not cached).
 */
function createGraphqlSchema(options: GraphqlOptions): { schema: GraphQLSchema; custom: boolean } {
  const { config, service, extension } = options;
  const shape = config.v4CompatibilityMode ? 'v4' : 'flat';
  extension.enabled = config.shadowCRUD;
  const extensions = extension.resolve({ strapi: options.strapi });
  const custom = extensions.some((e) => e.resolvers !== undefined || e.resolversConfig !== undefined);
  const configs = new Map(extensions.flatMap((e) => Object.entries(e.resolversConfig ?? {})));
  const builtIns = new Set(options.fieldSource?.exposedBuiltIns(service.schema) ?? []);
  const types = new ModelTypes(service.schema, shape, extension, config.amountLimit, builtIns);
  const maxLimit = config.amountLimit;
  const operations = new Operations({
    service: service.withPageLimits({ maxLimit, defaultLimit: Math.min(options.rest.defaultLimit, maxLimit) }),
    access: options.access,
    shape,
    selection: new SelectionReader(service.schema, shape, config.amountLimit),
    componentUids: types.componentUidsByTypeName(),
    authConfig: (key) => configs.get(key)?.auth,
  });
  const schema = buildGraphqlSchema({
    schema: service.schema,
    types,
    operations,
    shadow: extension,
    extensions,
    access: options.access,
    extra: options.fieldSource?.fields({ types, operations, schema: service.schema }),
    named: extension.named,
    strapi: options.strapi,
  });
  return { schema, custom };
}

export async function registerGraphql(app: FastifyInstance, options: GraphqlOptions): Promise<GraphQLSchema> {
  const { config } = options;
  const { schema, custom } = createGraphqlSchema(options);
  limitRootConcurrency(schema);
  const cache = options.cache && !custom ? new GraphqlCache(options.cache, options.service, options.access) : undefined;
  const validationRules: ValidationRule[] = [
    depthLimitRule(config.depthLimit),
    costLimitRule({
      costLimit: config.costLimit,
      amountLimit: config.amountLimit,
      defaultLimit: Math.min(options.rest.defaultLimit, config.amountLimit),
    }),
    rootFieldsRule(config.maxRootFields),
  ];
  if (!config.introspection) validationRules.push(NoSchemaIntrospectionCustomRule);
  await app.register(async (scope) => {
    if (config.playground) {
      const page = playgroundHtml(config.endpoint);
      registerPlaygroundAssets(scope);
      scope.addHook('onRequest', async (request, reply) => {
        if (
          request.url.replace(/\/+$/, '') === config.endpoint &&
          wantsPlayground(request.method, request.url, request.headers.accept)
        ) {
          return reply.header('content-security-policy', PLAYGROUND_CSP).type('text/html; charset=utf-8').send(page);
        }
      });
    }
    // Credentials that do not resolve are refused before the operation runs, with REST's 401 envelope,
    // as Strapi 5.54's authentication middleware answers them (not an error per field).
    const { access } = options;
    if (access.authenticate) {
      scope.addHook('preHandler', async (request, reply) => {
        if (request.url.split('?')[0]!.replace(/\/+$/, '') !== config.endpoint) return;
        try {
          await access.authenticate!(request.headers);
        } catch (error) {
          // This scope's errors are mercurius' (a GraphQL 400): the envelope is sent here.
          if (!(error instanceof UnauthorizedError)) throw error;
          return reply.code(error.status).send(errorBody(error));
        }
      });
    }
    // Mercurius would take a non-string `query` for a parsed document; refuse it plainly.
    scope.addHook('preValidation', async (request, reply) => {
      const body = request.body as Record<string, unknown> | undefined;
      if (
        request.method === 'POST' &&
        body &&
        typeof body === 'object' &&
        'query' in body &&
        typeof body.query !== 'string'
      ) {
        return reply.code(400).send({
          data: null,
          errors: [{ message: 'query must be a string', extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }],
        });
      }
    });
    await scope.register(mercurius, {
      schema,
      path: config.endpoint,
      // Its IDE loads GraphiQL from a CDN: Vellum serves its own (playground.ts).
      graphiql: false,
      context: (request, reply): GraphqlContext => ({
        request,
        reply,
        state: {},
        budget: new ReadBudget(config.costLimit, 'graphql.config.costLimit'),
        reads: cache?.readsOf(request),
      }),
      errorFormatter: errorFormatter({ hideSuggestions: config.hideSuggestions }) as never,
      validationRules,
    });
    if (cache) {
      cache.register(scope, config.endpoint);
      scope.graphql.addHook('preExecution', async (_schema, document, context) => {
        const { request } = context.reply;
        const params = (request.method === 'GET' ? request.query : request.body) as
          { operationName?: string } | undefined;
        await cache.beforeExecution(request, rootFieldCount(document, params?.operationName));
      });
    }
  });
  return schema;
}
