/**
 * CORS as Strapi 5's `strapi::cors` answers it (its middleware over @koa/cors 5), configured the
 * same way in `config/middlewares`: `{ name: 'strapi::cors', config: { origin, methods, headers,
 * expose, maxAge, credentials } }`.
 *
 * - Every answer varies on `Origin`. A request without `Origin` is not a CORS request: nothing else
 *   is added, and it goes on (an `OPTIONS /_health` of a load balancer is answered 204 by its route).
 * - `origin` (default `'*'`: any origin): a list, a comma-separated string, or a function of the
 *   request answering one. An allowed origin is answered as the request's own origin (with
 *   `credentials`, a browser refuses `*`); another gets no CORS header, and goes on.
 * - A preflight (`OPTIONS` with `Access-Control-Request-Method`) from an allowed origin is answered
 *   here, 204: `Access-Control-Allow-Methods` (`methods`), `Access-Control-Allow-Headers` (`headers`,
 *   or by default the headers the preflight asks for, as @koa/cors does without a list),
 *   `Access-Control-Max-Age` (`maxAge`, Strapi's default one year; `0` or `null` sends none),
 *   `Access-Control-Allow-Credentials: true` (`credentials`, Strapi's default true).
 * - Other requests from an allowed origin get `Access-Control-Allow-Origin`, the credentials header
 *   and `Access-Control-Expose-Headers` (`expose`), kept on error answers too.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { parseConfig } from '../core/config/validate.js';

const stringList = z.union([z.string(), z.array(z.string())]);

type OriginFunction = (request: OriginRequest) => unknown;

const corsSchema = z.object({
  origin: z
    .union([stringList, z.custom<OriginFunction>((value) => typeof value === 'function')], {
      message: 'origin must be a string, a list of strings or a function',
    })
    .default('*'),
  methods: stringList.default(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']),
  // No default list: the headers a preflight asks for are allowed (see above).
  headers: stringList.optional(),
  expose: stringList.optional(),
  maxAge: z.union([z.number().int().nonnegative(), z.null(), z.literal(false)]).default(31_536_000),
  credentials: z.boolean().default(true),
  // Strapi's option; Vellum keeps the headers on errors either way (as Strapi's error middleware does).
  keepHeadersOnError: z.boolean().optional(),
  // Strapi 5 warns that it no longer reads `enabled`; so does Vellum (it is ignored).
  enabled: z.unknown().optional(),
});

/** What an `origin` function gets: the few members of Koa's `ctx` such functions read. */
interface OriginRequest {
  method: string;
  url: string;
  headers: FastifyRequest['headers'];
  request: { headers: FastifyRequest['headers']; header: FastifyRequest['headers'] };
  get(name: string): string;
}

const joined = (value: string | string[] | undefined): string | undefined =>
  (Array.isArray(value) ? value.join(',') : value) || undefined;

/** As Strapi reads `origin` (or what its function answers): none means any, an unknown type none. */
function allowedOrigins(value: unknown): string[] {
  if (value === undefined || value === null) return ['*'];
  if (Array.isArray(value)) return value.map(String);
  return typeof value === 'string' ? value.split(',').map((origin) => origin.trim()) : [];
}

export function registerCors(app: FastifyInstance, rawConfig: Record<string, unknown>): void {
  const config = parseConfig(corsSchema, rawConfig, 'config/middlewares', 'strapi::cors config.');
  const methods = joined(config.methods);
  const headers = joined(config.headers);
  const expose = joined(config.expose);
  const maxAge = config.maxAge ? String(config.maxAge) : undefined;
  const { origin: configured } = config;
  const fixed = typeof configured === 'function' ? undefined : allowedOrigins(configured);

  /** The request's origin when the configuration allows it, '' otherwise. */
  const allowed = async (request: FastifyRequest, origin: string): Promise<string> => {
    let list = fixed;
    if (!list && typeof configured === 'function') {
      const get = (name: string) => String(request.headers[name.toLowerCase()] ?? '');
      const view: OriginRequest = {
        method: request.method,
        url: request.url,
        headers: request.headers,
        request: { headers: request.headers, header: request.headers },
        get,
      };
      list = allowedOrigins(await configured(view));
    }
    return list && (list.includes('*') || list.includes(origin)) ? origin : '';
  };

  app.addHook('onRequest', async (request, reply) => {
    reply.header('vary', 'Origin');
    const origin = request.headers.origin;
    if (!origin) return;
    const allowOrigin = await allowed(request, origin);
    if (!allowOrigin) return;
    if (request.method !== 'OPTIONS') {
      reply.header('access-control-allow-origin', allowOrigin);
      if (config.credentials) reply.header('access-control-allow-credentials', 'true');
      if (expose) reply.header('access-control-expose-headers', expose);
      return;
    }
    // An OPTIONS that is no preflight goes on to the routes, as in @koa/cors.
    if (!request.headers['access-control-request-method']) return;
    reply.header('access-control-allow-origin', allowOrigin);
    if (config.credentials) reply.header('access-control-allow-credentials', 'true');
    if (maxAge) reply.header('access-control-max-age', maxAge);
    if (methods) reply.header('access-control-allow-methods', methods);
    if (headers) reply.header('access-control-allow-headers', headers);
    else {
      reply.header('vary', 'Origin, Access-Control-Request-Headers');
      const requested = request.headers['access-control-request-headers'];
      if (requested) reply.header('access-control-allow-headers', requested);
    }
    return reply.status(204).send();
  });
}
