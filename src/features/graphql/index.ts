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
import { PayloadTooLargeError, UnauthorizedError } from '../../core/errors.js';
import { errorBody, toVellumError } from '../../api/errors.js';
import { PLAYGROUND_CSP, playgroundHtml, registerPlaygroundAssets, wantsPlayground } from './playground.js';
import {
  badRequest,
  GraphqlRequestError,
  readGraphqlRequest,
  type GraphqlOperation,
  type RequestReading,
} from './request.js';
import { APPLICATION_JSON, GRAPHQL_RESPONSE_JSON, responseMediaType } from './accept.js';
import { registerBodyParsers } from './body.js';
import { PersistedQueries } from './persisted-queries.js';
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
    // The request read as Apollo reads it for Strapi (request.ts), after authentication and before
    // the response cache: a refused request is never answered from it.
    const reading: RequestReading = { csrfHeaders: config.csrfPreventionHeaders, persisted: new PersistedQueries() };
    const operations = new WeakMap<FastifyRequest, GraphqlOperation>();
    scope.addHook('preHandler', async (request) => {
      if (request.routeOptions.url !== config.endpoint) return;
      operations.set(request, readGraphqlRequest(request, reading));
    });
    // An answer from the cache was valid: a persisted query sent with it is kept, as when it runs.
    if (served) served.register(scope, config.endpoint, (request) => operations.get(request)?.onValid?.());
    // A refused request is answered in Apollo's shape; an unreadable body as Strapi's body parser
    // fails, through its error middleware: REST's envelope (`SyntaxError`, 413, ...).
    scope.setErrorHandler(async (error, request, reply) => {
      if (error instanceof GraphqlRequestError) {
        // In the media type the request prefers, as Apollo's answers: JSON when none (its HTTP layer's refusals).
        const type = responseMediaType(request.headers.accept);
        if (type === null && error.asResult) return notAcceptable(reply);
        const { statusCode, headers, response } = error.answer();
        return reply
          .code(statusCode)
          .headers(headers)
          .type(type ?? APPLICATION_JSON)
          .send(response);
      }
      // koa-bodyparser's words for a body over the limit are raw-body's.
      const failure =
        (error as { code?: string }).code === 'FST_ERR_CTP_BODY_TOO_LARGE'
          ? new PayloadTooLargeError('request entity too large')
          : toVellumError(error);
      if (failure.status >= 500) request.log.error({ err: error }, 'GraphQL request failed');
      return reply.code(failure.status).send(errorBody(failure));
    });
    registerBodyParsers(scope, config.endpoint);
    const { projectContext, extension } = options;
    const run = async (request: FastifyRequest, reply: FastifyReply) => {
      // Project resolvers read who asks from `context.state` (Strapi authenticates the operation
      // before it runs); without extensions no project code reads it, so nothing is looked up.
      const project = projectContext && extension.customized() ? await projectContext(request, reply) : undefined;
      const context: GraphqlContext = {
        request,
        reply,
        state: project?.state ?? {},
        koaContext: project?.koaContext,
        budget: new ReadBudget(config.costLimit, 'graphql.config.costLimit'),
        reads: served?.readsOf(request),
      };
      const operation = operations.get(request)!;
      const result = await (await load()).run(operation, context, request, request.log);
      // Apollo picks the media type once the operation has run: a mutation refused so was made.
      const type = responseMediaType(request.headers.accept);
      if (type === null) return notAcceptable(reply);
      // A status a resolver set stays unless the result has its own refusal (Strapi's users-permissions
      // mutations leave their action's status on the Koa context, users-permissions-graphql.ts).
      if (result.statusCode !== undefined && result.statusCode !== 200) reply.code(result.statusCode);
      if ('headers' in result && result.headers) reply.headers(result.headers);
      return reply.type(type).send(result.response);
    };
    // HEAD is Apollo's 405 too, not the GET route's answer without a body.
    scope.get(config.endpoint, { exposeHeadRoute: false }, run);
    scope.post(config.endpoint, run);
    // Strapi's route takes every method: Apollo refuses the others (after CSRF prevention), 405.
    scope.route({ method: ['PUT', 'PATCH', 'DELETE', 'HEAD'], url: config.endpoint, handler: run });
  });
}

/** Apollo's answer to a request whose `Accept` allows none of its media types (accept.ts). */
function notAcceptable(reply: FastifyReply): FastifyReply {
  const { response } = badRequest(
    `An 'accept' header was provided for this request which does not accept ${APPLICATION_JSON} or ${GRAPHQL_RESPONSE_JSON}`,
    406,
  ).answer();
  return reply.code(406).type(APPLICATION_JSON).send(response);
}
