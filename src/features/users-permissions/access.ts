/**
 * The users-and-permissions implementation of the access seam (api/access.ts). Each request is
 * resolved from the database — no per-process cache — so a permission change applies to the next
 * request on every node:
 *   no credentials  -> the Public role's grants (one statement)
 *   user JWT        -> the user's role's grants (one statement; blocked or deleted users, and JWTs
 *                      issued before the user's password changed, are refused)
 *   API token       -> its type's grants (one statement)
 *   preview token   -> `find` and `findOne` of the type previewed, drafts included (no statement)
 * What it may read follows from the grants: a type it may `find`; relations and media to others are
 * left out, and a write may not link them. Drafts (`rest.draftAccess`): see `draftReader`.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { ForbiddenError, UnauthorizedError } from '../../core/errors.js';
import type { AccessControl, Caller as AuthorizedCaller, Permission } from '../../api/access.js';
import type { ContentType } from '../../core/schema/model.js';
import { bearerToken, looksLikeJwt, type JwtSigner } from './jwt.js';
import { grantSet, type Grants } from '../../api/access.js';
import { readAction } from './permissions.js';
import type { Roles } from './roles.js';
import type { ApiTokens } from '../api-tokens/index.js';
import type { Users } from './users.js';
import { PreviewTokens } from './preview-tokens.js';

export type Caller =
  | { kind: 'public'; grants: Grants }
  | { kind: 'user'; userId: number; grants: Grants; sessionId?: string }
  | { kind: 'api-token'; tokenId: number; grants: Grants }
  /** A preview token (preview-tokens.ts): reads one type, its drafts included. */
  | { kind: 'preview'; uid: string; grants: Grants };

/**
 * Who may read drafts (`config/api` `rest.draftAccess`): `editors`, an API token that may read the
 * type, or a role that may also create or update it; `find`, whoever may read it (Strapi 5).
 */
export type DraftAccess = 'editors' | 'find';

/**
 * Whose drafts a caller reads, or undefined when it reads the drafts of every type it may read.
 * A role needs `create` or `update` on the type (its editors; anyone may hold Public's or
 * Authenticated's grants); an API token is a secret an administrator gives an application (a
 * preview site), which reads drafts as Strapi's tokens do. A caller authorized to delete a type
 * reads what it deletes (the earlier response format answers it).
 */
function draftReader(
  drafts: DraftAccess,
  caller: Caller,
  permission: Permission | undefined,
): ((type: ContentType) => boolean) | undefined {
  if (drafts === 'find' || caller.kind === 'api-token') return undefined;
  if (caller.kind === 'preview') return (type) => type.uid === caller.uid;
  const { grants } = caller;
  return (type) =>
    grants.allows(`${type.uid}.create`) ||
    grants.allows(`${type.uid}.update`) ||
    (permission?.action === 'delete' && permission.uid === type.uid);
}

export class UsersPermissionsAccess implements AccessControl {
  private readonly publicGrants: () => Promise<Set<string>>;

  constructor(
    private readonly jwt: JwtSigner,
    private readonly users: Users,
    private readonly tokens: ApiTokens,
    roles: Roles,
    publicRole: string,
    private readonly drafts: DraftAccess = 'editors',
    /** The actions that exist, when not every stored one does: a role's grant of another is ignored. */
    private readonly known?: ReadonlySet<string>,
    private readonly previews?: PreviewTokens,
  ) {
    this.publicGrants = roles.grantsReader(publicRole);
  }

  /** A role's grants of actions that exist (Strapi's permission engine ignores the others). */
  private roleGrants(actions: Iterable<string>): Grants {
    const { known } = this;
    return grantSet(known ? [...actions].filter((action) => known.has(action)) : actions);
  }

  async authenticate(headers: IncomingHttpHeaders): Promise<void> {
    if (headers.authorization !== undefined) await this.resolve(headers);
  }

  /**
   * Who is asking. Invalid, expired or revoked credentials are a 401, also on public routes.
   * Resolved once per request (its headers object): a GraphQL operation authorizes each of its root
   * fields, and each resolution verifies a JWT and reads the user's identity and grants. Measured,
   * 50 aliased root fields with a user's JWT (SQLite, no response cache): 14.4-15.1 ms of CPU per
   * operation before, 6.8-7.2 after (client included, same process).
   */
  resolve(headers: IncomingHttpHeaders): Promise<Caller> {
    let caller = this.resolved.get(headers);
    if (!caller) this.resolved.set(headers, (caller = this.resolveNow(headers)));
    return caller;
  }

  /** Callers by the headers object of their request, while it lives. */
  private readonly resolved = new WeakMap<IncomingHttpHeaders, Promise<Caller>>();

  private async resolveNow(headers: IncomingHttpHeaders): Promise<Caller> {
    const token = bearerToken(headers.authorization);
    if (token === undefined) return { kind: 'public', grants: this.roleGrants(await this.publicGrants()) };
    if (this.previews && PreviewTokens.looksLike(token)) {
      const uid = this.previews.verify(token);
      return { kind: 'preview', uid, grants: grantSet([`${uid}.find`, `${uid}.findOne`]) };
    }
    if (looksLikeJwt(token)) {
      const { id, issuedAt, sessionId } = await this.jwt.verifyIssued(token);
      const identity = await this.users.identity(id, sessionId);
      if (!identity) throw new UnauthorizedError('Invalid credentials');
      // An access token of a refresh session that was logged out or revoked (sessions.ts).
      if (identity.sessionActive === false) throw new UnauthorizedError('Invalid credentials');
      // Issued before the user's password last changed (or was reset): no longer valid.
      if (identity.revokedThrough !== undefined && (issuedAt === undefined || issuedAt <= identity.revokedThrough))
        throw new UnauthorizedError('Invalid credentials');
      // Strapi's words for a blocked user's token; Vellum says why in the details.
      if (identity.blocked)
        throw new UnauthorizedError('Invalid credentials', {
          reason: 'Your account has been blocked by an administrator',
        });
      return {
        kind: 'user',
        userId: identity.id,
        grants: this.roleGrants(identity.actions),
        ...(sessionId === undefined ? {} : { sessionId }),
      };
    }
    const verified = await this.tokens.verify(token);
    return { kind: 'api-token', tokenId: verified.id, grants: verified.grants };
  }

  async authorize(headers: IncomingHttpHeaders, permission: Permission): Promise<AuthorizedCaller> {
    const caller = await this.resolve(headers);
    if (!caller.grants.allows(`${permission.uid}.${permission.action}`)) throw new ForbiddenError();
    return this.authorized(caller, permission);
  }

  async identify(headers: IncomingHttpHeaders): Promise<AuthorizedCaller> {
    return this.authorized(await this.resolve(headers));
  }

  /** What a resolved caller may read, for `permission` (none: no action's draft rule applies). */
  private authorized(caller: Caller, permission?: Permission): AuthorizedCaller {
    const { grants } = caller;
    const canRead = (type: ContentType) => grants.allows(readAction(type));
    const canReadDrafts = draftReader(this.drafts, caller, permission);
    // Callers of equal grants read the same, but for drafts: a token reads those a role may not.
    const draftScope =
      this.drafts === 'editors' && (caller.kind === 'api-token' || caller.kind === 'preview') ? '+drafts' : '';
    return {
      canRead,
      canLink: canRead,
      canReadDrafts,
      get cacheScope() {
        return grants.scope + draftScope;
      },
      principal:
        caller.kind === 'user'
          ? { kind: 'user', id: caller.userId }
          : caller.kind === 'api-token'
            ? { kind: 'api-token', id: caller.tokenId }
            : { kind: 'public' },
    };
  }
}
