/**
 * `strapi.requestContext`: the `ctx` of the request project code runs in (a lifecycle's
 * `strapi.requestContext.get()?.state?.user`), undefined outside a request (bootstrap, cron), as
 * Strapi's @strapi/core request-context answers it, over an AsyncLocalStorage.
 *
 * On Node 20 an AsyncLocalStorage in use runs a promise hook for every promise of the process
 * (the slowdown that made Vellum keep the format and transactions out of one, see core-api.ts and
 * core/documents/row-events.ts): a node uses it only when the project's code names `requestContext`
 * (its src/ and config/ files, read once at start). Code that never names it never asks.
 *
 * The ctx is made when asked for (the one a global middleware or project route made, else a new
 * one over the request); on Vellum's own routes (core REST routes, GraphQL) its `state.user` and
 * `state.auth` are filled when the request is authorized, as Strapi's authentication fills them.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AccessControl } from '../api/access.js';
import type { Context } from './context.js';

/** A request's ctx, made on the first `get()`. */
class LazyContext {
  private ctx: Context | undefined;
  constructor(private readonly make: () => Context) {}
  get(): Context {
    return (this.ctx ??= this.make());
  }
}

/** `strapi.requestContext`, as project code calls it. */
export interface RequestContextApi {
  get(): unknown;
  run<T>(store: unknown, callback: () => T): Promise<T>;
}

const CODE = /\.(c|m)?(j|t)sx?$/;

/** Whether a project's own code (src/, config/) names `requestContext`. */
export function namesRequestContext(projectDir: string): boolean {
  const walk = (dir: string): boolean => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return false;
    }
    return entries.some((entry) => {
      if (entry.name === 'node_modules' || entry.name.startsWith('.')) return false;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return walk(path);
      return CODE.test(entry.name) && readFileSync(path, 'utf8').includes('requestContext');
    });
  };
  return walk(join(projectDir, 'src')) || walk(join(projectDir, 'config'));
}

export class RequestContext {
  private readonly storage: AsyncLocalStorage<unknown> | undefined;
  readonly api: RequestContextApi;

  constructor(enabled: boolean) {
    const storage = (this.storage = enabled ? new AsyncLocalStorage<unknown>() : undefined);
    this.api = {
      get: () => this.current(),
      // Strapi's `run` is async and answers what the callback answers.
      run: async (store, callback) => (storage ? storage.run(store, callback) : callback()),
    };
  }

  /** The current request's ctx (or what project code's `run` stored), else undefined. */
  current(): unknown {
    const store = this.storage?.getStore();
    return store instanceof LazyContext ? store.get() : store;
  }

  /**
   * Every request's handling runs in the storage, from the first preHandler on (after the body is
   * parsed: the parser's stream events would not carry it). Before any route is registered.
   */
  register(app: FastifyInstance, contextOf: (request: FastifyRequest, reply: FastifyReply) => Context): void {
    const { storage } = this;
    if (!storage) return;
    app.addHook('preHandler', (request, reply, done) =>
      storage.run(new LazyContext(() => contextOf(request, reply)), done),
    );
  }

  /**
   * The access seam of Vellum's own routes, filling the request's `ctx.state` once authorized
   * (`describe`: what project routes' authentication sets); the seam unchanged when not in use.
   */
  describing(
    access: AccessControl,
    describe: (ctx: Context, caller: Awaited<ReturnType<AccessControl['authorize']>>) => Promise<void>,
  ): AccessControl {
    if (!this.storage) return access;
    return {
      authenticate: access.authenticate?.bind(access),
      identify: access.identify?.bind(access),
      authorize: async (headers, permission) => {
        const caller = await access.authorize(headers, permission);
        const store = this.storage?.getStore();
        if (store instanceof LazyContext) {
          const ctx = store.get();
          if (ctx.state.auth === undefined) await describe(ctx, caller);
        }
        return caller;
      },
    };
  }
}
