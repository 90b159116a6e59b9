/**
 * Security headers and CORS (cors.ts) as Strapi's default middlewares set them (`strapi::security`,
 * `strapi::cors`), configurable the same way in `config/middlewares`:
 *   module.exports = ['strapi::security', { name: 'strapi::cors', config: { origin: ['https://example.com'] } }, ...]
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';
import { asRecord } from '../core/objects.js';
import { registerCors } from './cors.js';

/** The `config` of a named entry of `config/middlewares`, or undefined when it is absent. */
function middlewareConfig(middlewares: unknown[], name: string): Record<string, unknown> | undefined {
  if (middlewares.length === 0) return {};
  for (const entry of middlewares) {
    if (entry === name) return {};
    if (asRecord(entry).name === name) return asRecord(asRecord(entry).config);
  }
  return undefined;
}

type Middleware = (request: IncomingMessage, response: ServerResponse, next: (error?: unknown) => void) => void;

/**
 * The headers a helmet middleware sets. They depend on its configuration only, so they are
 * computed once instead of running the middleware (which re-parses its CSP) on every request.
 */
function staticHeaders(middleware: Middleware): [string, string | number | readonly string[]][] {
  const headers: [string, string | number | readonly string[]][] = [];
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => void headers.push([name, value]),
    removeHeader: () => undefined,
  } as unknown as ServerResponse;
  middleware({} as IncomingMessage, recorder, (error) => {
    if (error) throw error;
  });
  return headers;
}

export async function registerSecurity(app: FastifyInstance, middlewares: unknown[]): Promise<void> {
  const security = middlewareConfig(middlewares, 'strapi::security');
  if (security) {
    const headers = staticHeaders(
      helmet({
        contentSecurityPolicy: {
          useDefaults: true,
          directives: {
            'connect-src': ["'self'", 'https:'],
            'img-src': ["'self'", 'data:', 'blob:', 'https:'],
            'media-src': ["'self'", 'data:', 'blob:', 'https:'],
            upgradeInsecureRequests: null,
            ...asRecord(asRecord(security.contentSecurityPolicy).directives),
          },
        },
        crossOriginEmbedderPolicy: false,
        crossOriginOpenerPolicy: false,
        crossOriginResourcePolicy: false,
        originAgentCluster: false,
        xssFilter: false,
        hsts: { maxAge: 31536000, includeSubDomains: true },
        frameguard: { action: 'sameorigin' },
      }),
    );
    app.addHook('onRequest', (_request, reply, done) => {
      for (const [name, value] of headers) reply.raw.setHeader(name, value);
      done();
    });
  }
  const corsConfig = middlewareConfig(middlewares, 'strapi::cors');
  if (corsConfig) registerCors(app, corsConfig);
}
