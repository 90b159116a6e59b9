/**
 * The server as a registration function sees it, without some of the routes it registers: a
 * project's extension may serve one of Vellum's own routes itself (`METHOD /path` in `skipped`),
 * and Fastify refuses two handlers for one method and path.
 */
import type { FastifyInstance } from 'fastify';

const SHORTHANDS: Record<string, string> = { get: 'GET', post: 'POST', put: 'PUT', patch: 'PATCH', delete: 'DELETE' };

export function withoutRoutes(app: FastifyInstance, skipped: ReadonlySet<string>): FastifyInstance {
  if (skipped.size === 0) return app;
  return new Proxy(app, {
    get(target, property, receiver) {
      const method = typeof property === 'string' ? SHORTHANDS[property] : undefined;
      const value = Reflect.get(target, property, receiver) as unknown;
      if (!method || typeof value !== 'function') return value;
      return (url: string, ...rest: unknown[]) =>
        skipped.has(`${method} ${url}`)
          ? receiver
          : (value as (...args: unknown[]) => unknown).call(target, url, ...rest);
    },
  });
}
