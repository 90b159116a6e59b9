/**
 * The admin API (`/admin...`, `/content-manager/...`, `/content-type-builder/...`,
 * `/content-releases...`) served by a Fastify instance of its own, built with the first request
 * under those paths: at start its routes were 111 of a node's 173 paths and its features ~25% of
 * the code a start compiles (docs/performance.md "Start-up and memory"). The node's server hands
 * every request under those paths to that instance, every other to the node's own, before either
 * routes it: each instance has the same server-wide hooks (server.ts builds both alike), and no
 * route of one lies under the other's paths (server.ts checks the project's routes first), so a
 * request is routed and answered as one instance with every route would answer it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyServerFactoryHandler } from 'fastify';
import { errorBody, toVellumError } from '../api/errors.js';

/** The first segments of the admin API's paths (each alone, or followed by `/`). */
const SEGMENTS = new Set(['admin', 'content-manager', 'content-type-builder', 'content-releases']);

/**
 * Whether a request's URL (or a route's path) lies under the admin API's paths. The router
 * decodes a path before matching it (`/%61dmin/init` is `/admin/init`), and so does this.
 */
export function underAdminApi(url: string): boolean {
  if (url.charCodeAt(0) !== 47 /* / */) return false;
  let end = url.length;
  for (let i = 1; i < url.length; i++) {
    const c = url.charCodeAt(i);
    if (c === 47 /* / */ || c === 63 /* ? */ || c === 35 /* # */) {
      end = i;
      break;
    }
  }
  let segment = url.slice(1, end);
  if (segment.includes('%')) {
    try {
      segment = decodeURIComponent(segment);
    } catch {
      return false;
    }
  }
  return SEGMENTS.has(segment);
}

/** The instance serving the admin API: its request handler, and the instance to close. */
export interface AdminInstance {
  app: FastifyInstance;
  handler: FastifyServerFactoryHandler;
}

/**
 * Builds the admin API's instance once, with its first request; requests that arrive while it is
 * built wait for that one build (their bodies wait unread in Node's buffers).
 */
export class LazyAdminApi {
  private building: Promise<AdminInstance> | undefined;
  private closed = false;

  constructor(private readonly build: () => Promise<AdminInstance>) {}

  /** The node's request handler: the admin API's paths to its instance, the others to `main`. */
  dispatch(main: FastifyServerFactoryHandler): FastifyServerFactoryHandler {
    return (request, response) => {
      if (!underAdminApi(request.url ?? '')) return main(request, response);
      this.serve(request, response);
    };
  }

  private serve(request: IncomingMessage, response: ServerResponse): void {
    this.instance().then(
      ({ handler }) => handler(request, response),
      (error: unknown) => {
        // Not built (a project's hook threw): a 500 in the envelope; the next request tries again.
        console.error('[vellum] the admin API could not be loaded', error);
        const failure = toVellumError(error);
        response.writeHead(failure.status, { 'content-type': 'application/json; charset=utf-8' });
        response.end(JSON.stringify(errorBody(failure)));
      },
    );
  }

  private instance(): Promise<AdminInstance> {
    if (this.closed) return Promise.reject(new Error('The server is closing'));
    if (!this.building) {
      const building = this.build();
      this.building = building;
      building.catch(() => {
        if (this.building === building) this.building = undefined;
      });
    }
    return this.building;
  }

  /** Whether the admin API's instance has been built (or is being built). */
  get loaded(): boolean {
    return this.building !== undefined;
  }

  /** Builds it now (`vellum routes:list`, tests); resolves with its instance. */
  load(): Promise<FastifyInstance> {
    return this.instance().then(({ app }) => app);
  }

  /** Closes its instance, once one being built is built. */
  async close(): Promise<void> {
    this.closed = true;
    const building = this.building;
    if (!building) return;
    try {
      await (await building).app.close();
    } catch {
      // Never built: nothing to close.
    }
  }
}
