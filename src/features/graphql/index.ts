/**
 * The GraphQL API (docs/graphql.md): the generated schema at `graphql.config.endpoint` on the REST
 * server's Fastify instance. The routes are registered at start; graphql-js, the schema and the
 * executor (executor.ts) load with the first operation, unless project code extends the schema:
 * then they are built at start, so that a broken extension stops the start as it always did.
 * (A start without them: CPU to the first answer -20%, docs/performance.md "Start-up and memory".)
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ReadBudget } from '../../core/documents/service.js';
import type { GraphqlContext } from './context.js';
import { GraphqlCache } from './cache.js';
import { ExtensionService } from './extension.js';
import { UnauthorizedError } from '../../core/errors.js';
import { errorBody } from '../../api/errors.js';
import { PLAYGROUND_CSP, playgroundHtml, registerPlaygroundAssets, wantsPlayground } from './playground.js';
import { operationOfBody, operationOfQueryString, type GraphqlOperation } from './request.js';
import type { GraphqlExecutor } from './executor.js';
import type { GraphqlOptions } from './options.js';

export { parseGraphqlConfig } from './config.js';
export { ExtensionService, type NamedHandlers } from './extension.js';
// What a feature adding root fields (GraphqlFieldSource) builds them with.
export type { GraphqlContext } from './context.js';
export type { Operations } from './resolvers/operations.js';
export type { RootFields } from './schema/operations.js';
export type { ModelTypes } from './schema/types.js';
export type { GraphqlFieldSource, GraphqlOptions } from './options.js';

export async function registerGraphql(app: FastifyInstance, options: GraphqlOptions): Promise<void> {
  const { config } = options;
  // Project code that extended the schema before this point (src/index's register) gets it built
  // now, with what it registered. Otherwise the schema is the content types' alone, whose names the
  // schema loader checked: it is built with the first operation, from the extension service as it
  // is now (untouched), so that later calls change nothing, as in Strapi, whose plugin builds the
  // schema before the project's bootstrap.
  const eager = options.extension.customized();
  let extension = options.extension;
  if (!eager) {
    extension = new ExtensionService();
    extension.named = options.extension.named;
  }
  const cache = options.cache ? new GraphqlCache(options.cache, options.service, options.access) : undefined;
  let executor: Promise<GraphqlExecutor> | undefined;
  const load = (): Promise<GraphqlExecutor> =>
    (executor ??= import('./executor.js').then((module) => module.createExecutor(options, extension, cache)));
  // Answers are cached unless project code resolves fields (they may answer from anything), which
  // only an extension can: known here when `eager`, and never otherwise.
  const served = eager ? (await load()).cache : cache;

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
          // This scope's errors are GraphQL's (a 400): the envelope is sent here.
          if (!(error instanceof UnauthorizedError)) throw error;
          return reply.code(error.status).send(errorBody(error));
        }
      });
    }
    // A non-string `query` is refused plainly, before authentication.
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
    if (served) served.register(scope, config.endpoint);
    // Anything refused in this scope (an unreadable body, an unsupported content type, a bad
    // operation) is answered in GraphQL's shape.
    scope.setErrorHandler(async (error, request, reply) => {
      const { statusCode, response } = (await load()).failure(error, request.log);
      return reply.code(statusCode).send(response);
    });
    scope.addContentTypeParser('application/graphql', { parseAs: 'string' }, (_request, body, done) =>
      done(null, { query: body }),
    );
    const run = async (request: FastifyRequest, reply: FastifyReply, operation: GraphqlOperation) => {
      const context: GraphqlContext = {
        request,
        reply,
        state: {},
        budget: new ReadBudget(config.costLimit, 'graphql.config.costLimit'),
        reads: served?.readsOf(request),
      };
      const { statusCode, response } = await (await load()).run(operation, context, request, request.log);
      if (statusCode !== undefined) reply.code(statusCode);
      return reply.send(response);
    };
    scope.get(config.endpoint, (request, reply) => run(request, reply, operationOfQueryString(request.query)));
    scope.post(config.endpoint, (request, reply) => run(request, reply, operationOfBody(request.body)));
  });
}
