/**
 * Mercurius, loaded with the first GraphQL request rather than at start: it and what it requires
 * (graphql-jit, its route schemas compiled by Ajv, ...) were ~14% of a start's CPU, for a server
 * that may never be asked a GraphQL question (README "Start-up and memory").
 *
 * The endpoint is a route of the server itself, so everything around it runs as before: CORS,
 * security headers, project middlewares (which see the parsed body), the response cache, the
 * playground, the server's query-string and JSON parsers. Its handler passes the request, already
 * parsed, to a Fastify instance of its own where mercurius serves the same path, through `inject`
 * (no socket, no second parse: the inner request takes the outer one's query and body), and sends
 * back what mercurius answered. Resolvers see the outer request as `context.request` (its headers,
 * its `clientIp`). Errors raised around the handler (a body or query string that does not parse)
 * are answered as mercurius' own error handler answers them, without loading it.
 */
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { GraphQLError, type ExecutionResult } from 'graphql';
import type { MercuriusOptions } from 'mercurius';

/** Carries the outer request's number to the inner one (never seen by resolvers or clients). */
const FORWARDED = 'x-vellum-graphql-forwarded';

/** The inner answer's headers that describe its own transfer, not the answer. */
const TRANSFER_HEADERS = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'date']);

interface Forwarded {
  request: FastifyRequest;
}

type Formatter = (execution: ExecutionResult & { statusCode?: number }, context: { reply?: FastifyReply }) => { statusCode: number; response: unknown };

/** Mercurius' own `toGraphQLError` (lib/errors.js): any error as a GraphQLError. */
function toGraphQLError(error: Error & Partial<Pick<GraphQLError, 'nodes' | 'source' | 'positions' | 'path' | 'extensions' | 'locations'>>): GraphQLError {
  if (error instanceof GraphQLError) return error;
  // graphql-js 16's positional form, as mercurius calls it.
  const converted = new GraphQLError(error.message, error.nodes, error.source, error.positions, error.path, error, error.extensions);
  (converted as { locations?: unknown }).locations = error.locations;
  return converted;
}

export interface LazyMercuriusOptions {
  endpoint: string;
  /** Mercurius' options, `path` and `routes` aside (set here). */
  mercurius: Omit<MercuriusOptions, 'path' | 'routes' | 'context'>;
  /** The resolvers' context of a request (the outer one) and mercurius' reply. */
  context: (request: FastifyRequest, reply: FastifyReply) => Record<string, unknown>;
  /** Once mercurius is registered (its hooks: `app.graphql.addHook`). */
  configure?: (inner: FastifyInstance) => void;
}

/**
 * Serves `endpoint` (GET and POST) in a context of its own in `scope` (as mercurius' routes are),
 * with mercurius loaded on first use, and answers its errors as mercurius would.
 */
export async function registerLazyMercurius(parent: FastifyInstance, options: LazyMercuriusOptions): Promise<void> {
  await parent.register(async (scope) => serveLazily(scope, options));
}

function serveLazily(scope: FastifyInstance, options: LazyMercuriusOptions): void {
  const forwarded = new Map<string, Forwarded>();
  let next = 0;
  let inner: Promise<FastifyInstance> | undefined;

  const build = async (): Promise<FastifyInstance> => {
    const { default: mercurius } = await import('mercurius');
    // The server's logger, under the outer request's id; each request is logged once, by the outer server.
    const app = Fastify({
      loggerInstance: scope.log,
      logController: new LogController({ disableRequestLogging: true }),
      genReqId: (raw) => forwarded.get(raw.headers[FORWARDED] as string)?.request.id ?? 'graphql',
    });
    // The outer request's parsed query and body, before mercurius' route validates them.
    app.addHook('preValidation', async (request) => {
      const outer = forwarded.get(request.headers[FORWARDED] as string);
      if (!outer) return;
      request.query = outer.request.query;
      request.body = outer.request.body;
    });
    await app.register(mercurius, {
      ...options.mercurius,
      path: options.endpoint,
      context: (request, reply) => options.context(forwarded.get(request.headers[FORWARDED] as string)?.request ?? request, reply),
    } as MercuriusOptions);
    options.configure?.(app);
    await app.ready();
    return app;
  };

  const serve = async (request: FastifyRequest, reply: FastifyReply) => {
    const app = await (inner ??= build().catch((error: unknown) => {
      inner = undefined;
      throw error;
    }));
    const id = String(next++);
    forwarded.set(id, { request });
    let answer;
    try {
      const headers = { ...request.headers, [FORWARDED]: id };
      // No body to read: the outer request's, parsed, is taken as it is (preValidation above).
      delete headers['content-length'];
      delete headers['transfer-encoding'];
      delete headers['content-type'];
      const query = request.url.indexOf('?');
      answer = await app.inject({
        // HEAD runs GET's handler, and Fastify leaves the body out, as for mercurius' own route.
        method: request.method === 'HEAD' ? 'GET' : (request.method as 'GET' | 'POST'),
        url: options.endpoint + (query === -1 ? '' : request.url.slice(query)),
        headers,
      });
    } finally {
      forwarded.delete(id);
    }
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value !== undefined && !TRANSFER_HEADERS.has(name)) void reply.header(name, value);
    }
    return reply.code(answer.statusCode).send(answer.payload);
  };

  scope.route({ method: ['GET', 'POST'], url: options.endpoint, handler: serve });
  // Mercurius reads `application/graphql` bodies as the query itself.
  scope.addContentTypeParser('application/graphql', { parseAs: 'string' }, (_request, payload, done) => done(null, { query: payload }));
  // Mercurius' error handler (lib/routes.js), for what fails before the handler.
  const formatter = options.mercurius.errorFormatter as unknown as Formatter;
  scope.setErrorHandler(async (error, _request, reply) => {
    const { statusCode, response } = formatter({ errors: [toGraphQLError(error as Error)] }, { reply });
    return reply.code(statusCode).send(response);
  });
  scope.addHook('onClose', async () => {
    if (inner) await (await inner.catch(() => undefined))?.close();
  });
}
