/**
 * HS256 JSON Web Tokens (jose). User tokens carry `{ id }` like Strapi's; admin tokens are signed
 * with another secret and an audience of their own, so neither is accepted where the other is.
 * A user's (or an administrator's) tokens issued at or before the second their JWTs were revoked
 * (a password change) are refused by the access layer (admins.ts for administrators); a token issued after a revocation carries a later `iat`, even in
 * the same second (see `issuedAt`).
 */
import type * as Jose from 'jose';
import { UnauthorizedError } from '../../core/errors.js';

// jose loads with the first token signed or checked (a start serving API tokens never needs it);
// oauth.ts loads it through here too.
let joseModule: Promise<typeof Jose> | undefined;
export const jose = (): Promise<typeof Jose> => (joseModule ??= import('jose'));

const ADMIN_AUDIENCE = 'vellum-admin';

export class JwtSigner {
  private readonly key: Uint8Array;

  constructor(
    secret: string,
    private readonly lifetimeSeconds: number,
    private readonly audience?: string,
    /** The second through which a user's or an administrator's tokens are revoked, if ever. */
    private readonly revokedThrough?: (id: number) => Promise<number | undefined>,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  /** Now in epoch seconds, or the second after the user's revocation when that is later. */
  private async issuedAt(id: unknown): Promise<number> {
    const now = Math.floor(Date.now() / 1000);
    if (!this.revokedThrough || typeof id !== 'number' || !Number.isInteger(id)) return now;
    const revoked = await this.revokedThrough(id);
    return revoked === undefined ? now : Math.max(now, revoked + 1);
  }

  static admin(
    secret: string,
    lifetimeSeconds = 8 * 3600,
    revokedThrough?: (id: number) => Promise<number | undefined>,
  ): JwtSigner {
    return new JwtSigner(secret, lifetimeSeconds, ADMIN_AUDIENCE, revokedThrough);
  }

  async sign(id: number): Promise<string> {
    const iat = await this.issuedAt(id);
    let jwt = new (await jose()).SignJWT({ id })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt(iat)
      .setExpirationTime(iat + this.lifetimeSeconds);
    if (this.audience) jwt = jwt.setAudience(this.audience);
    return jwt.sign(this.key);
  }

  /**
   * A token of any payload (the users-permissions `jwt` service's `issue`, which project code
   * calls): `expiresIn` in seconds or as jose reads it (`'30d'`), the node's lifetime by default.
   */
  async issue(payload: Record<string, unknown>, expiresIn?: string | number): Promise<string> {
    const iat = await this.issuedAt(payload.id);
    const lifetime =
      expiresIn === undefined
        ? iat + this.lifetimeSeconds
        : typeof expiresIn === 'number'
          ? iat + expiresIn
          : expiresIn;
    let jwt = new (await jose()).SignJWT(payload)
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt(iat)
      .setExpirationTime(lifetime);
    if (this.audience) jwt = jwt.setAudience(this.audience);
    return jwt.sign(this.key);
  }

  /** The payload of a token this signer issued; 401 when it is malformed, tampered with or expired. */
  async payload(token: string): Promise<Record<string, unknown>> {
    try {
      const { payload } = await (
        await jose()
      ).jwtVerify(token, this.key, { algorithms: ['HS256'], audience: this.audience });
      if (!this.audience && payload.aud !== undefined) throw new UnauthorizedError();
      return payload as Record<string, unknown>;
    } catch (error) {
      if (error instanceof UnauthorizedError) throw error;
      // Strapi's words for any token it cannot use; why goes into the details.
      if (error instanceof (await jose()).errors.JWTExpired)
        throw new UnauthorizedError(undefined, { reason: 'Token expired' });
      throw new UnauthorizedError();
    }
  }

  /** The id the token was issued for; 401 when it is malformed, tampered with or expired. */
  async verify(token: string): Promise<number> {
    return (await this.verifyIssued(token)).id;
  }

  /**
   * The id the token was issued for and when (`iat`, epoch seconds; absent in a token made without
   * it); `sessionId` for an access token of a refresh session (sessions.ts).
   */
  async verifyIssued(token: string): Promise<{ id: number; issuedAt?: number; sessionId?: string }> {
    try {
      const { payload } = await (
        await jose()
      ).jwtVerify(token, this.key, { algorithms: ['HS256'], audience: this.audience });
      if (!this.audience && payload.aud !== undefined) throw new UnauthorizedError();
      if (typeof payload.id !== 'number' || !Number.isInteger(payload.id)) throw new UnauthorizedError();
      if (payload.type === 'access') {
        if (typeof payload.sessionId !== 'string') throw new UnauthorizedError();
        return { id: payload.id, issuedAt: payload.iat, sessionId: payload.sessionId };
      }
      return { id: payload.id, issuedAt: payload.iat };
    } catch (error) {
      if (error instanceof UnauthorizedError) throw error;
      // Strapi's words for any token it cannot use; why goes into the details.
      if (error instanceof (await jose()).errors.JWTExpired)
        throw new UnauthorizedError(undefined, { reason: 'Token expired' });
      throw new UnauthorizedError();
    }
  }
}

/** A JWT has three base64url parts; API tokens are hex. */
export const looksLikeJwt = (token: string): boolean => /^[\w-]+\.[\w-]+\.[\w-]+$/.test(token);

/**
 * The bearer token of an `Authorization` header; undefined when there is none, or when the header
 * is not `Bearer <token>` (another scheme, an empty token): Strapi 5 reads such a request as one
 * without credentials, so it is the Public role's (and a 403 where Public may not go).
 */
export function bearerToken(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  const value = Array.isArray(header) ? header[0] : header;
  return /^Bearer\s+(\S+)\s*$/i.exec(value ?? '')?.[1];
}
