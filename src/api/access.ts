/**
 * The access seam, on neutral ground: every API (REST, GraphQL, upload) asks it, the
 * users-and-permissions layer (features/users-permissions/access.ts) implements it, and neither knows the other.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { CallerOptions } from '../core/documents/context.js';

/**
 * A permission as Strapi names it: a content-type or plugin uid and an action
 * (`api::article.article` + `find`, `plugin::upload.content-api` + `upload`).
 */
export interface Permission {
  uid: string;
  action: string;
}

/** Who asks, as access control answers it: what the document service needs, and the cache scope. */
export interface Caller extends CallerOptions {
  /**
   * Callers with the same scope are shown the same documents: the access layer names their
   * grants. Absent, answers to this caller are never shared through the response cache.
   */
  cacheScope?: string;
  /** Who asks, for project code (`ctx.state.user`): absent when the access layer does not say. */
  principal?: { kind: 'public' | 'user' | 'api-token'; id?: number };
}

/**
 * The single place where access control plugs into the request path: every route asks it before
 * touching the document service (features/users-permissions/access.ts implements it). It throws UnauthorizedError/ForbiddenError to refuse, and answers
 * what the caller may read below the document (populate, filters through relations, media), which
 * types its writes may link, and whose drafts it may read.
 */
export interface AccessControl {
  authorize(headers: IncomingHttpHeaders, permission: Permission): Promise<Caller>;
  /**
   * Refuses credentials that do not resolve (UnauthorizedError) before anything else runs: a
   * GraphQL request with a bad token is Strapi's HTTP 401, not an error per field.
   */
  authenticate?(headers: IncomingHttpHeaders): Promise<void>;
  /**
   * Who asks, with no action to check (refusing only credentials that do not resolve): what
   * project code's GraphQL resolvers see as `context.state`, which Strapi fills once per operation.
   */
  identify?(headers: IncomingHttpHeaders): Promise<Caller>;
}

/**
 * Grants are Strapi's action strings, `<uid>.<action>` (`api::article.article.find`): what a role, an
 * API token or an administrator holds. The access layers make them; the APIs only ask them.
 */
export interface Grants {
  allows(action: string): boolean;
  /** Equal for equal grants: callers with the same scope may share cached answers. */
  readonly scope: string;
}

export const grantSet = (actions: Iterable<string>): Grants => {
  const set = new Set(actions);
  let scope: string | undefined;
  return {
    allows: (action) => set.has(action),
    get scope() {
      return (scope ??= `grants:${[...set].sort().join(',')}`);
    },
  };
};

/** Full-access API tokens: every content API action, users-permissions' roles and users included (as Strapi). */
export const fullAccess: Grants = { allows: () => true, scope: 'full-access' };

/** Read-only API tokens: find and findOne on everything readable. */
export const readOnly: Grants = {
  allows: (action) => /\.(find|findOne)$/.test(action),
  scope: 'read-only',
};
