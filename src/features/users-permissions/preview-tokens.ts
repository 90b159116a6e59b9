/**
 * Preview tokens: what the content manager's preview URL carries (features/admin/preview.ts) so
 * that a project's front end reads the drafts of the type previewed through the content API
 * (`GET /api/:pluralName[/:documentId]?status=draft` with `Authorization: Bearer <token>`). A
 * token is read-only (`find` and `findOne` of one type, drafts included), expires after
 * `PREVIEW_TTL_SECONDS`, and is stateless: an HMAC of `{ uid, exp }` with a key made from the
 * project's stored admin secret, so that every node verifies what any node issued, and nothing is
 * written per preview. It cannot be revoked before it expires: hence the short life.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { UnauthorizedError } from '../../core/errors.js';

/** Ten minutes: a preview frame is reloaded after each save, and asks for a fresh URL then. */
export const PREVIEW_TTL_SECONDS = 600;
const PREFIX = 'vpt.';

export class PreviewTokens {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = createHmac('sha256', secret).update('vellum preview tokens').digest();
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.key).update(payload).digest('base64url');
  }

  /** A token reading the drafts of `uid` until `PREVIEW_TTL_SECONDS` from now. */
  issue(uid: string, now = Date.now()): string {
    const payload = Buffer.from(JSON.stringify({ uid, exp: Math.floor(now / 1000) + PREVIEW_TTL_SECONDS })).toString(
      'base64url',
    );
    return `${PREFIX}${payload}.${this.sign(payload)}`;
  }

  static looksLike(token: string): boolean {
    return token.startsWith(PREFIX);
  }

  /** The type a valid token reads; a 401 for one altered or expired. */
  verify(token: string, now = Date.now()): string {
    const [payload = '', signature = ''] = token.slice(PREFIX.length).split('.');
    const expected = Buffer.from(this.sign(payload));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected))
      throw new UnauthorizedError('Invalid credentials');
    let claims: { uid?: unknown; exp?: unknown };
    try {
      claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as typeof claims;
    } catch {
      throw new UnauthorizedError('Invalid credentials');
    }
    if (typeof claims.uid !== 'string' || typeof claims.exp !== 'number' || claims.exp * 1000 <= now)
      throw new UnauthorizedError('Invalid credentials');
    return claims.uid;
  }
}
