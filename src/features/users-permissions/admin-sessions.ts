/**
 * Administrators' sign-ins, as Strapi 5.54's admin session manager: signing in (login, the first
 * administrator, an invitation's registration, a password reset) starts a session whose refresh
 * token goes in the httpOnly cookie `strapi_admin_refresh` (path `/admin`), and answers a short
 * access token (`config/admin` `auth.sessions.accessTokenLifespan`, 30 minutes). The panel trades
 * the cookie for a new access token at `POST /admin/access-token`, which rotates the cookie.
 *
 * Two families, Strapi's: without "remember me" a `session` (a cookie that ends with the browser;
 * 2 hours idle, 1 day at most), with it a `refresh` (a cookie that survives restarts; 14 days idle,
 * 30 days at most). Every tab of the browser shares the cookie, so a new tab signs itself in.
 *
 * What differs from Strapi on purpose (as the content API's sessions.ts):
 * - a session is one row holding the SHA-256 of its current refresh token (and of the one before);
 *   a rotation replaces it by compare-and-set, so of two rotations with one token one wins. The
 *   loser (another tab renewing at the same moment) is refused and tries again with the cookie the
 *   winner set; a token older than that, sent again, was copied: the whole session ends (rotation
 *   reuse detection). Strapi refuses any earlier token and lets the session go on;
 * - an access token names its session, and is refused once the session is gone (log out, password
 *   change or reset, deactivation), on every node, in the statement that reads the administrator.
 * Strapi signs its cookie with the app keys (`.sig`); the token is a JWT signed with the admin
 * secret already, so Vellum sends no signature cookie.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Database } from '../../core/database/connection.js';
import type { SystemDb } from '../../core/database/system-tables.js';
import { UnauthorizedError } from '../../core/errors.js';
import type { AdminSessionsConfig } from './admin-config.js';
import type { JwtSigner } from './jwt.js';
import { ADMIN_SESSIONS_TABLE } from './model.js';

export const ADMIN_REFRESH_COOKIE = 'strapi_admin_refresh';

export type SessionFamily = 'session' | 'refresh';

/** A started or rotated session: the access token, the refresh token and how the cookie lives. */
export interface AdminSessionTokens {
  accessToken: string;
  refreshToken: string;
  family: SessionFamily;
  /** When the refresh token stops working (the persistent cookie's expiry). */
  expiresAt: Date;
}

/** One of an administrator's sessions as `GET /admin/users/me/sessions` lists it (Strapi's `sanitizeSessionEntry`). */
export interface AdminSessionEntry {
  id: string;
  deviceId: string | null;
  deviceName?: string;
  current: boolean;
  loginAt?: string;
  lastActiveAt?: string;
}

const sha256 = (token: string) => createHash('sha256').update(token).digest('hex');

export class AdminSessions {
  constructor(
    private readonly database: Database,
    private readonly jwt: JwtSigner,
    private readonly settings: AdminSessionsConfig,
    /** Whether the administrator may still sign in (exists, active). */
    private readonly mayContinue: (adminId: number) => Promise<boolean>,
  ) {}

  private lifespans(family: SessionFamily): { idle: number; max: number } {
    const s = this.settings;
    return family === 'refresh'
      ? { idle: s.idleRefreshTokenLifespan, max: s.maxRefreshTokenLifespan }
      : { idle: s.idleSessionLifespan, max: s.maxSessionLifespan };
  }

  private encode(date: Date): unknown {
    return this.database.dialect.encode('datetime', date);
  }

  private decode(value: unknown): Date {
    return new Date(this.database.dialect.decode('datetime', value) as string | Date);
  }

  private refreshTokenFor(adminId: number, sessionId: string, expiresAt: Date): Promise<string> {
    const payload = { userId: String(adminId), sessionId, type: 'refresh', jti: randomBytes(16).toString('hex') };
    return this.jwt.issue(payload, Math.max(1, Math.ceil((expiresAt.getTime() - Date.now()) / 1000)));
  }

  /** An access token of the session (`id` too: the admin signer's `verifyIssued` reads it). */
  accessTokenFor(adminId: number, sessionId: string): Promise<string> {
    return this.jwt.issue(
      { id: adminId, userId: String(adminId), sessionId, type: 'access' },
      this.settings.accessTokenLifespan,
    );
  }

  /**
   * A new session for the administrator; `deviceId` a client's (Strapi's UUID) or a new one.
   * `trx`: the write it belongs to (a password reset ends the other sessions in the same one).
   */
  async start(
    adminId: number,
    options: { rememberMe?: boolean; deviceId?: string; deviceName?: string } = {},
    trx?: SystemDb,
  ): Promise<AdminSessionTokens> {
    const family: SessionFamily = options.rememberMe ? 'refresh' : 'session';
    const { idle, max } = this.lifespans(family);
    const now = Date.now();
    const expiresAt = new Date(now + Math.min(idle, max) * 1000);
    const sessionId = randomBytes(16).toString('hex');
    const refreshToken = await this.refreshTokenFor(adminId, sessionId, expiresAt);
    const insert = async (db: SystemDb) => {
      // The administrator's expired sessions go now: the table holds live sessions and a few stale ones.
      await db
        .deleteFrom(ADMIN_SESSIONS_TABLE)
        .where('admin_id', '=', adminId)
        .where('absolute_expires_at', '<=', this.encode(new Date(now)))
        .execute();
      await db
        .insertInto(ADMIN_SESSIONS_TABLE)
        .values({
          session_id: sessionId,
          admin_id: adminId,
          device_id: options.deviceId ?? randomUUID(),
          family,
          device_name: options.deviceName ?? null,
          token_hash: sha256(refreshToken),
          expires_at: this.encode(expiresAt),
          absolute_expires_at: this.encode(new Date(now + max * 1000)),
          created_at: this.encode(new Date(now)),
          updated_at: this.encode(new Date(now)),
        })
        .execute();
    };
    if (trx) await insert(trx);
    else await this.database.write(insert);
    return { accessToken: await this.accessTokenFor(adminId, sessionId), refreshToken, family, expiresAt };
  }

  /** The payload of a refresh token this signer issued, or undefined. */
  private async refreshPayload(token: string): Promise<{ sessionId: string; adminId: number } | undefined> {
    let payload: Record<string, unknown>;
    try {
      payload = await this.jwt.payload(token);
    } catch {
      return undefined;
    }
    if (payload.type !== 'refresh' || typeof payload.sessionId !== 'string' || typeof payload.userId !== 'string')
      return undefined;
    const adminId = Number(payload.userId);
    return Number.isSafeInteger(adminId) ? { sessionId: payload.sessionId, adminId } : undefined;
  }

  /**
   * `POST /admin/access-token`: the session's next refresh token and a new access token; the one
   * given stops working. Strapi's 401s: "Missing refresh token", "Invalid refresh token".
   */
  async rotate(token: string | undefined): Promise<AdminSessionTokens> {
    if (!token) throw new UnauthorizedError('Missing refresh token');
    const claimed = await this.refreshPayload(token);
    if (!claimed) throw new UnauthorizedError('Invalid refresh token');
    const { sessionId, adminId } = claimed;
    const now = new Date();
    const row = await this.database.system
      .selectFrom(ADMIN_SESSIONS_TABLE)
      .select(['token_hash', 'previous_hash', 'family', 'expires_at', 'absolute_expires_at'])
      .where('session_id', '=', sessionId)
      .where('admin_id', '=', adminId)
      .executeTakeFirst();
    if (!row) throw new UnauthorizedError('Invalid refresh token');
    if (row.token_hash !== sha256(token)) {
      // The token just replaced: another tab renewed first. Older: two parties hold it; the session ends.
      if (row.previous_hash !== sha256(token)) await this.revoke(adminId, { sessionId });
      throw new UnauthorizedError('Invalid refresh token');
    }
    const absolute = this.decode(row.absolute_expires_at);
    if (this.decode(row.expires_at) <= now || absolute <= now || !(await this.mayContinue(adminId)))
      throw new UnauthorizedError('Invalid refresh token');
    const family: SessionFamily = row.family === 'refresh' ? 'refresh' : 'session';
    const expiresAt = new Date(Math.min(now.getTime() + this.lifespans(family).idle * 1000, absolute.getTime()));
    const next = await this.refreshTokenFor(adminId, sessionId, expiresAt);
    const updated = await this.database.write((trx: SystemDb) =>
      trx
        .updateTable(ADMIN_SESSIONS_TABLE)
        .set({
          token_hash: sha256(next),
          previous_hash: sha256(token),
          expires_at: this.encode(expiresAt),
          updated_at: this.encode(now),
        })
        .where('session_id', '=', sessionId)
        .where('token_hash', '=', sha256(token))
        .executeTakeFirst(),
    );
    // Another rotation with the same token won the race.
    if (Number(updated.numUpdatedRows) !== 1) throw new UnauthorizedError('Invalid refresh token');
    return { accessToken: await this.accessTokenFor(adminId, sessionId), refreshToken: next, family, expiresAt };
  }

  /** `GET /admin/users/me/sessions`: live sessions, the current first, then the most recently active. */
  async list(adminId: number, currentSessionId: string | undefined): Promise<AdminSessionEntry[]> {
    const now = this.encode(new Date());
    const rows = await this.database.system
      .selectFrom(ADMIN_SESSIONS_TABLE)
      .select(['session_id', 'device_id', 'device_name', 'created_at', 'updated_at'])
      .where('admin_id', '=', adminId)
      .where('expires_at', '>', now)
      .where('absolute_expires_at', '>', now)
      .execute();
    const iso = (value: unknown) =>
      value === null || value === undefined ? undefined : this.decode(value).toISOString();
    return rows
      .map((row) => ({
        id: row.session_id,
        deviceId: row.device_id,
        deviceName: row.device_name ?? undefined,
        current: row.session_id === currentSessionId,
        loginAt: iso(row.created_at),
        lastActiveAt: iso(row.updated_at ?? row.created_at),
      }))
      .sort((a, b) =>
        a.current !== b.current ? (a.current ? -1 : 1) : (b.lastActiveAt ?? '').localeCompare(a.lastActiveAt ?? ''),
      );
  }

  /**
   * Ends sessions of the administrator (all; a device's; one; all but one): their refresh and
   * access tokens stop working. Answers how many ended. `trx`: the write it belongs to.
   */
  async revoke(
    adminId: number,
    which: { deviceId?: string; sessionId?: string; except?: string } = {},
    trx?: SystemDb,
  ): Promise<number> {
    let query = (trx ?? this.database.system).deleteFrom(ADMIN_SESSIONS_TABLE).where('admin_id', '=', adminId);
    if (which.deviceId !== undefined) query = query.where('device_id', '=', which.deviceId);
    if (which.sessionId !== undefined) query = query.where('session_id', '=', which.sessionId);
    if (which.except !== undefined) query = query.where('session_id', '!=', which.except);
    const deleted = await query.executeTakeFirst();
    return Number(deleted.numDeletedRows);
  }

  /**
   * The `Set-Cookie` of the refresh token (Strapi's `buildCookieOptionsWithExpiry`): a session
   * cookie for the `session` family, an expiring one for `refresh`; `secure` as configured, else in
   * production over HTTPS. An empty value clears it.
   */
  cookie(
    tokens: Pick<AdminSessionTokens, 'refreshToken' | 'family' | 'expiresAt'> | undefined,
    secure: boolean,
  ): string {
    const { sameSite, path, domain, secure: configured } = this.settings.cookie;
    const parts = [`${ADMIN_REFRESH_COOKIE}=${tokens ? encodeURIComponent(tokens.refreshToken) : ''}`, `path=${path}`];
    if (!tokens) parts.push('expires=Thu, 01 Jan 1970 00:00:00 GMT');
    else if (tokens.family === 'refresh') parts.push(`expires=${tokens.expiresAt.toUTCString()}`);
    if (domain) parts.push(`domain=${domain}`);
    parts.push(`samesite=${sameSite}`);
    if (configured ?? secure) parts.push('secure');
    parts.push('httponly');
    return parts.join('; ');
  }
}
