import { createServer, type Server } from 'node:http';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyRequest,
  type FastifyServerFactoryHandler,
} from 'fastify';
import type { ProxyConfig, ServerTimeouts, VellumConfig } from '../core/config/load.js';
import { parseJsonKeepingIntegers } from '../core/documents/exact-integers.js';
import { NotFoundError, RequestTimeoutError, VellumError } from '../core/errors.js';
import { parseQueryString } from '../core/query/parse/query-string.js';
import { errorBody, toVellumError } from './errors.js';

const QUERY_ERROR = Symbol('queryError');
const QUERY_TOUCHED = Symbol('queryTouched');

/** Marks a request whose query project code read or replaced: its answer is not its URL's alone. */
export function markQueryTouched(request: FastifyRequest): void {
  (request as unknown as Record<symbol, boolean>)[QUERY_TOUCHED] = true;
}

export const queryTouched = (request: FastifyRequest): boolean =>
  (request as unknown as Record<symbol, boolean | undefined>)[QUERY_TOUCHED] === true;

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The client's address as Koa (and so Strapi) reads it: from `server.proxy.ipHeader` when
     * `server.proxy.koa` is set, otherwise the socket's peer. What login and registration limits key on.
     */
    readonly clientIp: string;
  }
  interface FastifyContextConfig {
    /** A project route's API or plugin (Strapi's `info.apiName`, `info.pluginName`), for `registeredRoutes`. */
    origin?: string;
  }
}

/**
 * Koa's `request.ip`: the first of the header's addresses, keeping only the last `maxIpsCount`
 * (0: all) when a proxy is trusted; the socket's peer when there is none.
 */
export function clientAddress(
  headers: Record<string, string | string[] | undefined>,
  peer: string | undefined,
  proxy: ProxyConfig,
): string {
  if (proxy.koa) {
    const value = headers[proxy.ipHeader];
    const text = Array.isArray(value) ? value.join(',') : value;
    if (text) {
      const ips = text.split(',').map((ip) => ip.trim());
      const first = ips[proxy.maxIpsCount > 0 ? Math.max(0, ips.length - proxy.maxIpsCount) : 0];
      if (first) return first;
    }
  }
  return peer ?? '';
}

export interface HttpServerOptions {
  /**
   * The methods served at a path that exists for other methods: a request by another method than
   * GET or HEAD is then a 405 with `Allow` (Koa router's answer, which Strapi gives for a project's
   * routes), not a 404.
   */
  allowedMethods?: (path: string) => string[] | undefined;
  /**
   * Serve through another HTTP server (`vellum develop`, which swaps instances behind one port):
   * called with the instance's request handler; the server it answers is never listened on.
   */
  handlerOf?: (handler: FastifyServerFactoryHandler) => void;
  /**
   * What the server calls with each request instead of the instance's handler: a handler that
   * hands some requests to another instance (app/admin-api.ts), the others to this one's.
   */
  dispatch?: (handler: FastifyServerFactoryHandler) => FastifyServerFactoryHandler;
  /** The request ids, when instances of a node share them (`requestIds()`). */
  genReqId?: () => string;
  /** Another instance's logger, for an instance that serves part of its requests. */
  logger?: FastifyBaseLogger;
}

/** Fastify's request ids (`req-1`, `req-2`, ... in base 36), from one counter for the instances of a node. */
export function requestIds(): () => string {
  let next = 0;
  return () => {
    next = (next + 1) & 2147483647;
    return `req-${next.toString(36)}`;
  };
}

/** Node's HTTP server with the limits and timeouts of `config/server` (what Fastify makes itself otherwise). */
export function createNodeServer(config: VellumConfig): Server {
  const timeouts = serverTimeouts(config.server.http.serverOptions);
  const server = createServer({ maxHeaderSize: 64 * 1024, ...timeouts });
  server.keepAliveTimeout = timeouts.keepAliveTimeout;
  return server;
}

/**
 * The HTTP server shared by REST, GraphQL and uploads: Strapi-style query strings, JSON bodies
 * (an empty body is no body, as the official SDK sends on GET and DELETE), and every error in the
 * envelope (docs/rest.md "Documents and the envelope").
 */
/**
 * A route a server registered: method, URL and, for a project's route, the API or plugin it is
 * declared by (its Fastify `config.origin`).
 */
export interface RegisteredRoute {
  method: string;
  url: string;
  origin?: string;
}

/** The routes each server registered (`vellum routes:list`, the OpenAPI document). */
const ROUTES = new WeakMap<FastifyInstance, RegisteredRoute[]>();

/** The routes registered on a server made by `createHttpServer`, in registration order. */
export const registeredRoutes = (app: FastifyInstance): RegisteredRoute[] => ROUTES.get(app) ?? [];

export function createHttpServer(config: VellumConfig, options: HttpServerOptions = {}): FastifyInstance {
  const timeouts = serverTimeouts(config.server.http.serverOptions);
  const app = Fastify({
    // Unexpected (5xx) failures are always logged; request logging is opt-in.
    ...(options.logger
      ? { loggerInstance: options.logger }
      : { logger: { level: config.server.logger ? 'info' : 'error', redact: ['req.headers.authorization'] } }),
    ...(options.genReqId ? { genReqId: options.genReqId } : {}),
    bodyLimit: config.server.bodyLimit,
    // The route schemas are Vellum's and mercurius's own, not input: checking them against JSON
    // Schema's meta-schema compiled that meta-schema at every start (~5% of a start's CPU, profiled).
    ajv: { customOptions: { validateSchema: false } },
    // Room for long query strings so that our parser, not Node's, refuses them (with an envelope).
    http: { maxHeaderSize: 64 * 1024, ...timeouts },
    // Fastify sets these on Node's server itself (its own defaults: no request timeout, 72 s keep-alive).
    requestTimeout: timeouts.requestTimeout,
    keepAliveTimeout: timeouts.keepAliveTimeout,
    // As Koa's `proxy`: the protocol and host a trusted proxy forwards (X-Forwarded-Proto, -Host).
    trustProxy: proxyTrust(config.server.proxy),
    ...(options.handlerOf
      ? {
          serverFactory: (handler: FastifyServerFactoryHandler) => {
            options.handlerOf!(options.dispatch ? options.dispatch(handler) : handler);
            return createServer();
          },
        }
      : {}),
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

  if (options.dispatch && !options.handlerOf) {
    // Fastify's server calls its handler as the 'request' listener (its own server, not a
    // serverFactory's: Fastify binds a second server of its own for 'localhost', with its handler).
    const [handler] = app.server.listeners('request') as FastifyServerFactoryHandler[];
    app.server.removeListener('request', handler!);
    app.server.on('request', options.dispatch(handler!));
  }

  const routes: RegisteredRoute[] = [];
  ROUTES.set(app, routes);
  app.addHook('onRoute', (route) => {
    const origin = route.config?.origin;
    for (const method of [route.method].flat())
      routes.push({ method, url: route.url ?? route.path, ...(origin ? { origin } : {}) });
  });

  const proxy = config.server.proxy;
  app.decorateRequest('clientIp', {
    getter(this: FastifyRequest) {
      return clientAddress(this.headers, this.raw.socket?.remoteAddress, proxy);
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

  if (config.server.bodyTimeout > 0) limitBodyTime(app, config.server.bodyTimeout);

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
    // GET and HEAD are a 404 there too: Strapi's `strapi::public` middleware answers them for any
    // path the router does not serve by that method (checked on Strapi 5.54: GET of a POST-only
    // route is a 404, PATCH a 405).
    const allowed =
      request.method === 'GET' || request.method === 'HEAD'
        ? undefined
        : options.allowedMethods?.(request.url.split('?')[0]!);
    if (allowed) {
      void reply
        .status(405)
        .header('allow', allowed.join(', '))
        .type('text/plain; charset=utf-8')
        .send('Method Not Allowed');
      return;
    }
    const error: VellumError = NotFoundError.missing(`No route ${request.method} ${request.url.split('?')[0]}`);
    void reply.status(404).send(errorBody(error));
  });

  return app;
}

/** Fastify's `trustProxy` for Koa's `proxy`: every hop, or the last `maxIpsCount`. */
function proxyTrust(proxy: ProxyConfig): boolean | ((address: string, hop: number) => boolean) {
  if (!proxy.koa) return false;
  const hops = proxy.maxIpsCount;
  return hops > 0 ? (_address, hop) => hop < hops : true;
}

/**
 * Node's timeouts as its HTTP server takes them. Node checks them every
 * `connectionsCheckingInterval` (30 s by default): shorter timeouts are checked more often, so that
 * a client is cut off near its deadline. Node refuses a headers timeout beyond the request timeout.
 */
function serverTimeouts(options: ServerTimeouts) {
  const { requestTimeout, keepAliveTimeout } = options;
  const headersTimeout =
    requestTimeout > 0 && options.headersTimeout > requestTimeout ? requestTimeout : options.headersTimeout;
  const shortest = Math.min(...[requestTimeout, headersTimeout].filter((t) => t > 0), 60_000);
  return {
    requestTimeout,
    headersTimeout,
    keepAliveTimeout,
    connectionsCheckingInterval: Math.max(50, Math.floor(shortest / 2)),
  };
}

/**
 * A body Fastify reads whole before the handler runs (JSON, GraphQL, anything but a streamed
 * upload) must arrive within `limit` ms of its headers: a client sending a byte now and then would
 * otherwise hold its socket until the request timeout. Late: 408, and the connection is closed.
 */
function limitBodyTime(app: FastifyInstance, limit: number): void {
  app.addHook('preParsing', async (request, reply, payload) => {
    const headers = request.headers;
    const hasBody =
      headers['transfer-encoding'] !== undefined ||
      (headers['content-length'] !== undefined && headers['content-length'] !== '0');
    if (!hasBody || /^multipart\//i.test(headers['content-type'] ?? '')) return payload;
    const timer = setTimeout(() => {
      const socket = request.raw.socket;
      if (reply.sent || reply.raw.headersSent) {
        socket.destroy();
        return;
      }
      reply.raw.once('finish', () => socket.destroy());
      void reply
        .status(408)
        .header('connection', 'close')
        .send(
          errorBody(
            new RequestTimeoutError(`The request body did not arrive within ${limit} ms (server.bodyTimeout)`, {
              limit,
            }),
          ),
        );
    }, limit);
    timer.unref();
    const clear = () => clearTimeout(timer);
    payload.once('end', clear);
    // Answered without reading the body (a 413 over bodyLimit, ...): nothing left to wait for.
    reply.raw.once('finish', clear);
    return payload;
  });
}
