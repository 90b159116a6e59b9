/**
 * GraphQL reads served from the response cache (api/response-cache.ts), as REST's are: the same
 * entries, the same change counters, the same scoping by the caller's grants.
 *
 * An operation's answer is kept when it is a query whose every root field is a Shadow CRUD read
 * (Operations notes each one: its permission, the caller's cacheScope, the change groups it reads),
 * all of one scope, of types no project code changes the reads of, and it answered without errors.
 * A later request with the same body (query, variables, operation name) is first authorized for
 * every permission the answer needed, one by one, as its root fields would be; it is answered from
 * memory only when each grants it, under the same scope, and no group read has moved since.
 * Anything else (a mutation, `me`, a custom resolver, a policy) runs as usual.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AccessControl, Permission } from '../../api/access.js';
import type { ChangeVersions } from '../../core/database/changes.js';
import type { DocumentService } from '../../core/documents/service.js';
import type { ResponseCache } from '../../api/response-cache.js';
import { sendBody } from '../../api/json-body.js';
import { responseMediaType } from './accept.js';

/** What an operation's reads note while it runs (GraphqlContext.reads). */
export interface OperationReads {
  /** Root fields the query names (`__typename` aside); -1 when the answer is not to be kept. */
  rootFields: number;
  /** Shadow CRUD reads noted so far, with their permissions. */
  permissions: Permission[];
  scopes: Set<string>;
  dependsOn: Set<string>;
  cacheable: boolean;
}

/** The permissions each cached body needed (they depend on the body's root fields only). */
const MAX_BODIES = 5000;

interface Pending {
  key: string;
  versions?: ChangeVersions;
  reads: OperationReads;
}

export class GraphqlCache {
  private readonly permissions = new Map<string, Permission[]>();
  private readonly pending = new WeakMap<FastifyRequest, Pending>();

  constructor(
    private readonly cache: ResponseCache,
    private readonly service: DocumentService,
    private readonly access: AccessControl,
  ) {}

  /** The operation's text key: method, body or query string. Undefined: not a read worth caching. */
  private textKey(request: FastifyRequest): string | undefined {
    if (request.method === 'GET') return `GET ${request.url}`;
    const body = request.body as Record<string, unknown> | undefined;
    if (!body || typeof body.query !== 'string' || /^\s*(mutation|subscription)\b/.test(body.query)) return undefined;
    return `POST ${JSON.stringify([body.query, body.variables ?? null, body.operationName ?? null])}`;
  }

  /**
   * Before parsing: answers from the cache when an answer to the same body is kept and the caller
   * may have it; otherwise the operation runs, and `beforeExecution` reads the counters.
   */
  async answer(request: FastifyRequest, reply: Parameters<typeof sendBody>[0]): Promise<boolean> {
    // An `Accept` that allows none of Apollo's media types is answered once the operation has run (a 406).
    const type = responseMediaType(request.headers.accept);
    if (type === null) return false;
    const key = this.textKey(request);
    if (!key) return false;
    const needed = this.permissions.get(key);
    let versions: ChangeVersions | undefined;
    if (needed) {
      const scope = await this.scopeOf(request, needed);
      if (scope !== undefined) {
        versions = await this.service.changeVersions();
        const hit = this.cache.lookup(`graphql\n${scope}\n${key}`, versions);
        if (hit) {
          sendBody(reply, hit, 200, type);
          return true;
        }
      }
    }
    this.pending.set(request, { key, versions, reads: this.readsOf(request) });
    return false;
  }

  /**
   * Once the operation is valid, before it runs: how many root fields it has, and the counters
   * (read before any of its reads, so that what is stored is never older than them).
   */
  async beforeExecution(request: FastifyRequest, rootFields: number): Promise<void> {
    this.readsOf(request).rootFields = rootFields;
    const pending = this.pending.get(request);
    if (pending && !pending.versions && rootFields > 0) pending.versions = await this.service.changeVersions();
  }

  /** The one scope these permissions give the request's caller, or undefined (refused, or not shared). */
  private async scopeOf(request: FastifyRequest, permissions: Permission[]): Promise<string | undefined> {
    let scope: string | undefined;
    for (const permission of permissions) {
      try {
        const caller = await this.access.authorize(request.headers, permission);
        if (!caller.cacheScope || (scope !== undefined && caller.cacheScope !== scope)) return undefined;
        scope = caller.cacheScope;
      } catch {
        // Refused: the operation runs and answers the error itself.
        return undefined;
      }
    }
    return scope;
  }

  private readonly reads = new WeakMap<FastifyRequest, OperationReads>();

  /** The reads record of a request's operation (the context's). */
  readsOf(request: FastifyRequest): OperationReads {
    let reads = this.reads.get(request);
    if (!reads)
      this.reads.set(
        request,
        (reads = { rootFields: -1, permissions: [], scopes: new Set(), dependsOn: new Set(), cacheable: true }),
      );
    return reads;
  }

  /** After execution: keeps the answer when every root field was a noted read of one scope. */
  store(request: FastifyRequest, status: number, payload: unknown): void {
    const pending = this.pending.get(request);
    if (!pending?.versions || status !== 200 || typeof payload !== 'string') return;
    const { reads } = pending;
    if (
      !reads.cacheable ||
      reads.rootFields <= 0 ||
      reads.permissions.length !== reads.rootFields ||
      reads.scopes.size !== 1
    )
      return;
    // An answer with errors (a refused field, a bad argument) is not kept; a value that merely
    // contains the text is not kept either, which costs a hit, never a wrong answer.
    if (payload.includes('"errors"')) return;
    const [scope] = reads.scopes;
    if (this.permissions.size >= MAX_BODIES) this.permissions.clear();
    this.permissions.set(pending.key, reads.permissions);
    const bytes = Buffer.from(payload);
    this.cache.store(`graphql\n${scope}\n${pending.key}`, pending.versions, [...reads.dependsOn], {
      chunks: [bytes],
      length: bytes.length,
    });
  }

  /** Registers the hooks around the endpoint's handler, in the GraphQL plugin's scope; `onHit` sees each request answered from memory. */
  register(scope: FastifyInstance, endpoint: string, onHit?: (request: FastifyRequest) => void): void {
    scope.addHook('preHandler', async (request, reply) => {
      if (request.routeOptions.url !== endpoint) return;
      if (await this.answer(request, reply)) {
        onHit?.(request);
        return reply;
      }
    });
    scope.addHook('onSend', async (request, reply, payload) => {
      if (request.routeOptions.url === endpoint) this.store(request, reply.statusCode, payload);
      return payload;
    });
  }
}
