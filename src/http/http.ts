import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import type { VellumConfig } from '../config/load.js';
import { parseJsonKeepingIntegers } from '../documents/exact-integers.js';
import { NotFoundError, VellumError } from '../errors.js';
import { parseQueryString } from '../query/parse/query-string.js';
import { errorBody, toVellumError } from './errors.js';

const QUERY_ERROR = Symbol('queryError');
const QUERY_TOUCHED = Symbol('queryTouched');

/** Marks a request whose query project code read or replaced: its answer is not its URL's alone. */
export function markQueryTouched(request: FastifyRequest): void {
  (request as unknown as Record<symbol, boolean>)[QUERY_TOUCHED] = true;
}

export const queryTouched = (request: FastifyRequest): boolean => (request as unknown as Record<symbol, boolean | undefined>)[QUERY_TOUCHED] === true;

export interface HttpServerOptions {
  /**
   * The methods served at a path that exists for other methods: the request is then a 405 with
   * `Allow` (Koa router's answer, which Strapi gives for a project's routes), not a 404.
   */
  allowedMethods?: (path: string) => string[] | undefined;
}

/**
 * The HTTP server shared by REST, GraphQL and uploads: Strapi-style query strings, JSON bodies
 * (an empty body is no body, as the official SDK sends on GET and DELETE), and every error in the
 * envelope of spec 2.3.
 */
export function createHttpServer(config: VellumConfig, options: HttpServerOptions = {}): FastifyInstance {
  const app = Fastify({
    // Unexpected (5xx) failures are always logged; request logging is opt-in.
    logger: { level: config.server.logger ? 'info' : 'error', redact: ['req.headers.authorization'] },
    bodyLimit: config.server.bodyLimit,
    // Room for long query strings so that our parser, not Node's, refuses them (with an envelope).
    http: { maxHeaderSize: 64 * 1024 },
    routerOptions: {
      // A failure is kept and raised in preValidation, where the error handler answers it.
      querystringParser: (raw: string) => {
        try {
          return parseQueryString(raw);
        } catch (error) {
          return { [QUERY_ERROR]: error } as Record<string, unknown>;
        }
      },
      ignoreTrailingSlash: true,
      maxParamLength: 200,
    },
  });

  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = (body as string).trim();
    if (text === '') return done(null, undefined);
    try {
      done(null, parseJsonKeepingIntegers(text));
    } catch (error) {
      done(error as Error, undefined);
    }
  });

  app.addHook('preValidation', async (request) => {
    const failure = (request.query as Record<PropertyKey, unknown> | undefined)?.[QUERY_ERROR];
    if (failure) throw failure;
  });

  // Strapi's liveness probe, for load balancers: any method, 204, and Strapi's own header.
  app.all('/_health', (_request, reply) => {
    void reply.status(204).header('strapi', 'You are so French!').send();
  });

  app.setErrorHandler((error, request, reply) => {
    const vellumError = toVellumError(error);
    if (vellumError.status >= 500) request.log.error({ err: error }, 'request failed');
    // Nothing was written: the client may send the same request again shortly.
    if (vellumError.status === 503) void reply.header('retry-after', '1');
    void reply.status(vellumError.status).send(errorBody(vellumError));
  });

  app.setNotFoundHandler((request, reply) => {
    const allowed = options.allowedMethods?.(request.url.split('?')[0]!);
    if (allowed) {
      void reply.status(405).header('allow', allowed.join(', ')).type('text/plain; charset=utf-8').send('Method Not Allowed');
      return;
    }
    const error: VellumError = new NotFoundError(`Not Found: ${request.method} ${request.url.split('?')[0]}`);
    void reply.status(404).send(errorBody(error));
  });

  return app;
}
