/**
 * The users-and-permissions implementation of the access seam (access/index.ts). Each request is
 * resolved from the database — no per-process cache — so a permission change applies to the next
 * request on every node:
 *   no credentials  -> the Public role's grants (one statement)
 *   user JWT        -> the user's role's grants (one statement; blocked or deleted users are refused)
 *   API token       -> its type's grants (one statement)
 */
import type { IncomingHttpHeaders } from 'node:http';
import { ForbiddenError, UnauthorizedError } from '../errors.js';
import type { AccessControl, Caller as AuthorizedCaller, Permission } from '../access/index.js';
import type { ContentType } from '../schema/model.js';
import { bearerToken, looksLikeJwt, type JwtSigner } from './jwt.js';
import { grantSet, readAction, type Grants } from './permissions.js';
import type { Roles } from './roles.js';
import type { ApiTokens } from './tokens.js';
import type { Users } from './users.js';

export type Caller =
  | { kind: 'public'; grants: Grants }
  | { kind: 'user'; userId: number; grants: Grants }
  | { kind: 'api-token'; tokenId: number; grants: Grants };

export class UsersPermissionsAccess implements AccessControl {
  private readonly publicGrants: () => Promise<Set<string>>;

  constructor(
    private readonly jwt: JwtSigner,
    private readonly users: Users,
    private readonly tokens: ApiTokens,
    roles: Roles,
    publicRole: string,
    /** The actions that exist, when not every stored one does: a role's grant of another is ignored. */
    private readonly known?: ReadonlySet<string>,
  ) {
    this.publicGrants = roles.grantsReader(publicRole);
  }

  /** A role's grants of actions that exist (Strapi's permission engine ignores the others). */
  private roleGrants(actions: Iterable<string>): Grants {
    const { known } = this;
    return grantSet(known ? [...actions].filter((action) => known.has(action)) : actions);
  }

  /** Who is asking. Invalid, expired or revoked credentials are a 401, also on public routes. */
  async resolve(headers: IncomingHttpHeaders): Promise<Caller> {
    const token = bearerToken(headers.authorization);
    if (token === undefined) return { kind: 'public', grants: this.roleGrants(await this.publicGrants()) };
    if (looksLikeJwt(token)) {
      const identity = await this.users.identity(await this.jwt.verify(token));
      if (!identity) throw new UnauthorizedError('Invalid credentials');
      if (identity.blocked) throw new UnauthorizedError('Your account has been blocked by an administrator');
      return { kind: 'user', userId: identity.id, grants: this.roleGrants(identity.actions) };
    }
    const verified = await this.tokens.verify(token);
    return { kind: 'api-token', tokenId: verified.id, grants: verified.grants };
  }

  async authorize(headers: IncomingHttpHeaders, permission: Permission): Promise<AuthorizedCaller> {
    const caller = await this.resolve(headers);
    if (!caller.grants.allows(`${permission.uid}.${permission.action}`)) throw new ForbiddenError();
    const { grants } = caller;
    return {
      canRead: (type: ContentType) => grants.allows(readAction(type)),
      get cacheScope() {
        return grants.scope;
      },
      principal: caller.kind === 'user' ? { kind: 'user', id: caller.userId } : caller.kind === 'api-token' ? { kind: 'api-token', id: caller.tokenId } : { kind: 'public' },
    };
  }
}
