/**
 * HS256 JSON Web Tokens (jose). User tokens carry `{ id }` like Strapi's; admin tokens are signed
 * with another secret and an audience of their own, so neither is accepted where the other is.
 */
import { errors, jwtVerify, SignJWT } from 'jose';
import { UnauthorizedError } from '../errors.js';

const ADMIN_AUDIENCE = 'vellum-admin';

export class JwtSigner {
  private readonly key: Uint8Array;

  constructor(
    secret: string,
    private readonly lifetimeSeconds: number,
    private readonly audience?: string,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  static admin(secret: string, lifetimeSeconds = 8 * 3600): JwtSigner {
    return new JwtSigner(secret, lifetimeSeconds, ADMIN_AUDIENCE);
  }

  sign(id: number): Promise<string> {
    let jwt = new SignJWT({ id }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setIssuedAt().setExpirationTime(`${this.lifetimeSeconds}s`);
    if (this.audience) jwt = jwt.setAudience(this.audience);
    return jwt.sign(this.key);
  }

  /**
   * A token of any payload (the users-permissions `jwt` service's `issue`, which project code
   * calls): `expiresIn` in seconds or as jose reads it (`'30d'`), the node's lifetime by default.
   */
  issue(payload: Record<string, unknown>, expiresIn?: string | number): Promise<string> {
    const lifetime = expiresIn === undefined ? `${this.lifetimeSeconds}s` : typeof expiresIn === 'number' ? `${expiresIn}s` : expiresIn;
    let jwt = new SignJWT(payload).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setIssuedAt().setExpirationTime(lifetime);
    if (this.audience) jwt = jwt.setAudience(this.audience);
    return jwt.sign(this.key);
  }

  /** The payload of a token this signer issued; 401 when it is malformed, tampered with or expired. */
  async payload(token: string): Promise<Record<string, unknown>> {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'], audience: this.audience });
      if (!this.audience && payload.aud !== undefined) throw new UnauthorizedError('Invalid credentials');
      return payload as Record<string, unknown>;
    } catch (error) {
      if (error instanceof UnauthorizedError) throw error;
      if (error instanceof errors.JWTExpired) throw new UnauthorizedError('Token expired');
      throw new UnauthorizedError('Invalid credentials');
    }
  }

  /** The id the token was issued for; 401 when it is malformed, tampered with or expired. */
  async verify(token: string): Promise<number> {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'], audience: this.audience });
      if (!this.audience && payload.aud !== undefined) throw new UnauthorizedError('Invalid credentials');
      if (typeof payload.id !== 'number' || !Number.isInteger(payload.id)) throw new UnauthorizedError('Invalid credentials');
      return payload.id;
    } catch (error) {
      if (error instanceof UnauthorizedError) throw error;
      if (error instanceof errors.JWTExpired) throw new UnauthorizedError('Token expired');
      throw new UnauthorizedError('Invalid credentials');
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
