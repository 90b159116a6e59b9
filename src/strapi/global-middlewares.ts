/**
 * `config/middlewares`, as Strapi reads it: Strapi's own names (`strapi::cors`, ...) are what
 * Vellum's server does already (security headers, CORS and the body limit read their config in
 * api/), and the project's own (`global::name`, `{ name, config }`, `{ resolve, config }`) run
 * around every request, in order, Koa-style: the part before `await next()` runs before the route,
 * the rest once the route has answered (with `ctx.status` and `ctx.body` the answer's, which it may
 * change). A project without any pays nothing: no hook is added.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isAbsolute, join } from 'node:path';
import { existsSync } from 'node:fs';
import { markQueryTouched } from '../api/http.js';
import { jsonBody, streamedJson } from '../api/json-body.js';
import { loadProjectModule } from '../core/project/modules.js';
import { Context } from './context.js';
import { answerError, compose, respond } from './pipeline.js';
import type { MiddlewareFactory } from './registry.js';
import { attachContext } from './routes.js';
import type { Middleware, Runtime } from './runtime.js';

/** Strapi's built-in middlewares, which Vellum's server does itself (or does not need). */
const BUILT_IN = new Set([
  'strapi::logger',
  'strapi::errors',
  'strapi::security',
  'strapi::cors',
  'strapi::poweredBy',
  'strapi::query',
  'strapi::body',
  'strapi::session',
  'strapi::favicon',
  'strapi::public',
]);

/** `X-Response-Time`, as `strapi::responseTime` sets it. */
const responseTime: Middleware = async (ctx, next) => {
  const start = process.hrtime.bigint();
  await next();
  ctx.set('X-Response-Time', `${Number((process.hrtime.bigint() - start) / 1000n) / 1000}ms`);
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** `{ resolve: './src/middlewares/x' }`: a file of the project (or a package it has installed). */
async function resolveFile(runtime: Runtime, resolve: string): Promise<MiddlewareFactory> {
  const base = isAbsolute(resolve) ? resolve : join(runtime.config.projectDir, resolve);
  const file = ['', '.js', '.ts', '.cjs', '.mjs']
    .map((ext) => base + ext)
    .find((candidate) => existsSync(candidate) && !candidate.endsWith('/'));
  if (!file) throw new Error(`cannot find ${resolve}`);
  const loaded = (await loadProjectModule(file, runtime.config.projectDir)) as {
    default?: unknown;
    __esModule?: boolean;
  };
  const factory = typeof loaded === 'function' ? loaded : loaded?.default;
  if (typeof factory !== 'function') throw new Error(`${resolve} exports no middleware factory`);
  return factory as MiddlewareFactory;
}

/** The project's middlewares of `config/middlewares`, made with their config; what cannot run is named. */
export async function globalMiddlewares(runtime: Runtime, entries: unknown[]): Promise<Middleware[]> {
  const made: Middleware[] = [];
  for (const entry of entries) {
    const name =
      typeof entry === 'string' ? entry : isRecord(entry) && typeof entry.name === 'string' ? entry.name : undefined;
    const resolve = isRecord(entry) && typeof entry.resolve === 'string' ? entry.resolve : undefined;
    const config = isRecord(entry) ? (entry.config ?? {}) : {};
    const label = name ?? resolve ?? JSON.stringify(entry);
    try {
      if (name && BUILT_IN.has(name)) continue;
      if (name === 'strapi::responseTime') {
        made.push(responseTime);
        continue;
      }
      if (name?.startsWith('strapi::')) {
        runtime.warn(`config/middlewares: ${name} is not provided by Vellum; it is left out`);
        continue;
      }
      const factory = name
        ? runtime.registry.middlewares.get(name)
        : resolve
          ? await resolveFile(runtime, resolve)
          : undefined;
      if (!factory)
        throw new Error(
          name
            ? `no middleware ${name} (src/middlewares/<name> is global::<name>)`
            : 'an entry is a name or { name | resolve, config }',
        );
      made.push(runtime.registry.instantiate(factory, label, config));
    } catch (error) {
      runtime.warn(`config/middlewares: ${label}: ${(error as Error).message}; it is left out`);
    }
  }
  return made;
}

interface Suspended {
  ctx: Context;
  /** Resumes the middlewares after `await next()`. */
  resume: () => void;
  /** The middlewares' run, settled once they all returned. */
  done: Promise<unknown>;
}

const SUSPENDED = Symbol('vellum.strapi.globalMiddlewares');

/** What a JSON answer's payload was, for a middleware that reads `ctx.body` after the route. */
function payloadBody(payload: unknown, reply: FastifyReply): unknown {
  // A compressed answer (sendCompressibleJson) is bytes to the middleware, not text.
  if (reply.getHeader('content-encoding') !== undefined) return payload;
  const text =
    typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : streamedJson(payload);
  if (text === undefined) return payload;
  if (!String(reply.getHeader('content-type') ?? '').includes('json')) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * The middlewares around every request, in Strapi's order: Strapi mounts a `strapi.server.use(fn)`
 * on its Koa app as it comes, and config/middlewares' between `register` and `bootstrap`; so those
 * used in `register` run first, then config/middlewares', then those used in `bootstrap`. The
 * server's hooks are added once there is one, whenever that is; a project without any pays nothing.
 * The admin API's instance, built later (app/admin-api.ts), runs the same list.
 */
export class GlobalMiddlewares {
  private readonly list: Middleware[] = [];
  private used = 0;
  private readonly apps: FastifyInstance[] = [];
  private readonly hooked = new Set<FastifyInstance>();

  /** `strapi.server.use(fn)`: a Koa middleware `(ctx, next)`. */
  use(middleware: Middleware): void {
    if (typeof middleware !== 'function')
      throw new TypeError('strapi.server.use expects a middleware function (ctx, next)');
    if (this.apps.length > 0) this.list.push(middleware);
    else this.list.splice(this.used++, 0, middleware);
    this.hook();
  }

  /**
   * config/middlewares' own (with the first server), after those used so far; then the hooks on
   * `app` when there is a middleware.
   */
  attach(app: FastifyInstance, configured: Middleware[]): void {
    if (this.apps.length === 0) this.list.push(...configured);
    this.apps.push(app);
    this.hook();
  }

  private hook(): void {
    if (this.list.length === 0) return;
    for (const app of this.apps) {
      if (this.hooked.has(app)) continue;
      this.hooked.add(app);
      // The chain reads the list as each request runs it: a middleware used later joins it.
      registerGlobalMiddlewares(app, this.list);
    }
  }
}

function registerGlobalMiddlewares(app: FastifyInstance, middlewares: Middleware[]): void {
  if (middlewares.length === 0) return;
  const chain = compose(middlewares);
  const log = (request: FastifyRequest) => (error: unknown) =>
    request.log.error({ err: error }, 'project middleware failed');

  app.addHook('preHandler', async (request, reply) => {
    // A project route may read what the middlewares set (ctx.state, ctx.query): one context.
    const ctx = new Context(request, reply, () => markQueryTouched(request));
    attachContext(request, ctx);
    let reached!: () => void;
    const atRoute = new Promise<'route'>((resolve) => (reached = () => resolve('route')));
    let resume!: () => void;
    const routeAnswered = new Promise<void>((resolve) => (resume = resolve));
    const done = chain(ctx, async () => {
      reached();
      await routeAnswered;
    });
    (request as unknown as Record<symbol, Suspended>)[SUSPENDED] = { ctx, resume, done };
    let outcome: 'route' | 'answered';
    try {
      outcome = await Promise.race([atRoute, done.then(() => 'answered' as const)]);
    } catch (error) {
      answerError(ctx, error, log(request));
      outcome = 'answered';
    }
    if (outcome === 'answered') {
      // A middleware answered without calling next(): the route does not run.
      (request as unknown as Record<symbol, Suspended | undefined>)[SUSPENDED] = undefined;
      respond(ctx, reply);
      return reply;
    }
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const holder = request as unknown as Record<symbol, Suspended | undefined>;
    const suspended = holder[SUSPENDED];
    if (!suspended) return payload;
    holder[SUSPENDED] = undefined;
    const { ctx } = suspended;
    const response = ctx.response;
    const answeredByProject = response.explicitStatus;
    if (answeredByProject) response.watch();
    else response.adopt(reply.statusCode, () => payloadBody(payload, reply));
    const status = response.status;
    suspended.resume();
    try {
      await suspended.done;
    } catch (error) {
      answerError(ctx, error, log(request));
    }
    if (response.status !== status) void reply.status(response.status);
    if (!response.replaced) return payload;
    void reply.removeHeader('content-length');
    const body = response.body;
    if (body === null || body === undefined) return '';
    if (typeof body === 'string' || Buffer.isBuffer(body)) return body;
    void reply.type('application/json; charset=utf-8');
    return Buffer.concat(jsonBody(body).chunks);
  });
}
