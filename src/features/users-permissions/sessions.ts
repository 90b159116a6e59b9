/**
 * Strapi 5's `jwtManagement: 'refresh'`: signing in gives a short-lived access token (`jwt`) and a
 * refresh token; `POST /api/auth/refresh` trades a refresh token for a new pair, `POST
 * /api/auth/logout` ends sessions. Answers and messages are Strapi 5.54's (`controllers/auth.js`,
 * `core/services/session-manager.ts`); what differs is on purpose:
 *
 * - a session is one row of `up_sessions` per signed-in device, holding the SHA-256 of its current
 *   refresh token only; a refresh replaces it (compare-and-set: of two refreshes with one token,
 *   one wins), so an earlier refresh token stops working at once;
 * - an access token names its session, and the access layer refuses it once the session is gone
 *   (logout, password change or reset, block), on every node, in the statement that already reads
 *   the user (Strapi's access tokens stay valid until they expire);
 * - refreshing refuses a blocked or deleted user.
 *
 * Refresh tokens are JWTs as Strapi's (`{ userId, sessionId, type: 'refresh' }`, signed with the
 * users' JWT secret) plus a random `jti`, so each one is new.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { Database } from '../../core/database/connection.js';
import type { SystemDb } from '../../core/database/system-tables.js';
import { BadRequestError, UnauthorizedError } from '../../core/errors.js';
import type { AuthConfig, SessionsConfig } from './config.js';
import type { JwtSigner } from './jwt.js';
import { SESSIONS_TABLE } from './model.js';

/** One of a user's sessions as `GET /api/auth/sessions` lists it (Strapi's `sanitizeSessionEntry`). */
export interface SessionEntry {
  id: string;
  /** null when the sign-in named none (as Strapi answers it). */
  deviceId: string | null;
  deviceName?: string;
  /** The session the request's access token belongs to. */
  current: boolean;
  loginAt?: string;
  /** The last sign-in or refresh. */
  lastActiveAt?: string;
}

export interface SessionTokens {
  /** The access token. */
  jwt: string;
  refreshToken: string;
}

/** How a route answers: the body's extra keys and the `Set-Cookie` header to send, if any. */
export interface SessionAnswer {
  body: { jwt: string; refreshToken?: string };
  cookie?: string;
}

const INVALID = 'Invalid refresh token';
const HEADER = 'x-strapi-refresh-cookie';

const sha256 = (token: string) => createHash('sha256').update(token).digest('hex');

/** The value of one cookie of a `Cookie` header. */
export function cookieValue(header: string | string[] | undefined, name: string): string | undefined {
  const text = Array.isArray(header) ? header.join('; ') : header;
  if (!text) return undefined;
  for (const part of text.split(';')) {
    const index = part.indexOf('=');
    if (index > 0 && part.slice(0, index).trim() === name) {
      const value = part.slice(index + 1).trim();
      try {
        return decodeURIComponent(value.replace(/^"|"$/g, ''));
      } catch {
        return value;
      }
    }
  }
  return undefined;
}

export class Sessions {
  readonly enabled: boolean;
  private readonly settings: SessionsConfig;

  constructor(
    private readonly database: Database,
    private readonly jwt: JwtSigner,
    config: AuthConfig,
    /** Whether the user may sign in (exists, not blocked). */
    private readonly mayRefresh: (userId: number) => Promise<boolean>,
  ) {
    this.enabled = config.jwtManagement === 'refresh';
    this.settings = config.sessions;
  }

  private now(offsetSeconds = 0): unknown {
    return this.database.dialect.encode('datetime', new Date(Date.now() + offsetSeconds * 1000));
  }

  private async refreshTokenFor(userId: number, sessionId: string): Promise<string> {
    const payload = { userId: String(userId), sessionId, type: 'refresh', jti: randomBytes(16).toString('hex') };
    return this.jwt.issue(payload, this.settings.idleRefreshTokenLifespan);
  }

  private accessTokenFor(userId: number, sessionId: string): Promise<string> {
    return this.jwt.issue(
      { id: userId, userId: String(userId), sessionId, type: 'access' },
      this.settings.accessTokenLifespan,
    );
  }

  /**
   * A new session for the user (a device): its access and refresh tokens. `signIn`: what a sign-in
   * records for the sessions list (a password change's new session has none, as in Strapi).
   */
  async start(userId: number, deviceId?: string, signIn?: { deviceName?: string }): Promise<SessionTokens> {
    const sessionId = randomBytes(16).toString('hex');
    const refreshToken = await this.refreshTokenFor(userId, sessionId);
    const { idleRefreshTokenLifespan: idle, maxRefreshTokenLifespan: max } = this.settings;
    await this.database.write(async (trx: SystemDb) => {
      // The user's sessions that expired go now: the table holds live sessions and a few stale ones.
      await trx
        .deleteFrom(SESSIONS_TABLE)
        .where('user_id', '=', userId)
        .where('absolute_expires_at', '<=', this.now())
        .execute();
      await trx
        .insertInto(SESSIONS_TABLE)
        .values({
          session_id: sessionId,
          user_id: userId,
          device_id: deviceId ?? null,
          device_name: signIn?.deviceName ?? null,
          login_at: signIn ? this.now() : null,
          token_hash: sha256(refreshToken),
          expires_at: this.now(Math.min(idle, max)),
          absolute_expires_at: this.now(max),
          created_at: this.now(),
          updated_at: this.now(),
        })
        .execute();
    });
    return { jwt: await this.accessTokenFor(userId, sessionId), refreshToken };
  }

  /** The session of a valid refresh token (its row's current token, not expired), or undefined. */
  private async sessionOf(token: string): Promise<{ sessionId: string; userId: number } | undefined> {
    let payload: Record<string, unknown>;
    try {
      payload = await this.jwt.payload(token);
    } catch {
      return undefined;
    }
    if (payload.type !== 'refresh' || typeof payload.sessionId !== 'string') return undefined;
    const row = await this.database.system
      .selectFrom(SESSIONS_TABLE)
      .select(['session_id', 'user_id'])
      .where('session_id', '=', payload.sessionId)
      .where('token_hash', '=', sha256(token))
      .where('expires_at', '>', this.now())
      .where('absolute_expires_at', '>', this.now())
      .executeTakeFirst();
    if (!row || String(row.user_id) !== payload.userId) return undefined;
    return { sessionId: row.session_id, userId: Number(row.user_id) };
  }

  /**
   * Reuse detection (OAuth 2.0 security best current practice, refresh token rotation): a genuine
   * refresh token of a live session that is no longer the session's current one was rotated away,
   * so two parties hold the session's tokens; the whole session ends, and its access tokens with
   * it. Strapi refuses the replayed token and lets the session go on.
   */
  private async endIfReplayed(token: string): Promise<void> {
    let payload: Record<string, unknown>;
    try {
      payload = await this.jwt.payload(token);
    } catch {
      return;
    }
    if (payload.type !== 'refresh' || typeof payload.sessionId !== 'string' || typeof payload.userId !== 'string')
      return;
    const { sessionId, userId } = payload;
    await this.database.write((trx: SystemDb) =>
      trx
        .deleteFrom(SESSIONS_TABLE)
        .where('session_id', '=', sessionId)
        .where('user_id', '=', Number(userId))
        .where('token_hash', '!=', sha256(token))
        .execute(),
    );
  }

  /**
   * `POST /api/auth/refresh`: a new access token and refresh token for a valid refresh token; the
   * one given stops working. Without one, Strapi's 400; an invalid one (tampered, expired, used,
   * revoked, a blocked user's) its 401, and nothing changes.
   */
  async refresh(token: unknown): Promise<SessionTokens> {
    if (typeof token !== 'string' || token === '') throw new BadRequestError('Missing refresh token');
    const session = await this.sessionOf(token);
    if (!session) {
      await this.endIfReplayed(token);
      throw new UnauthorizedError(INVALID);
    }
    if (!(await this.mayRefresh(session.userId))) throw new UnauthorizedError(INVALID);
    const next = await this.refreshTokenFor(session.userId, session.sessionId);
    const { idleRefreshTokenLifespan: idle } = this.settings;
    const rotated = await this.database.write(async (trx: SystemDb) => {
      const row = await trx
        .selectFrom(SESSIONS_TABLE)
        .select('absolute_expires_at')
        .where('session_id', '=', session.sessionId)
        .executeTakeFirst();
      if (!row) return false;
      const absolute = new Date(
        this.database.dialect.decode('datetime', row.absolute_expires_at) as string | Date,
      ).getTime();
      const expires = new Date(Math.min(Date.now() + idle * 1000, absolute));
      const updated = await trx
        .updateTable(SESSIONS_TABLE)
        .set({
          token_hash: sha256(next),
          expires_at: this.database.dialect.encode('datetime', expires),
          updated_at: this.now(),
        })
        .where('session_id', '=', session.sessionId)
        .where('token_hash', '=', sha256(token))
        .executeTakeFirst();
      return Number(updated.numUpdatedRows) === 1;
    });
    if (!rotated) throw new UnauthorizedError(INVALID);
    return { jwt: await this.accessTokenFor(session.userId, session.sessionId), refreshToken: next };
  }

  /**
   * `POST /api/auth/logout` for the signed-in user, as Strapi's: `scope: 'all'` ends every session,
   * a `deviceId` that device's, otherwise the current one (the access token's, or the refresh
   * token's in the cookie or body); when none is known, every session.
   */
  async logout(
    userId: number,
    body: Record<string, unknown>,
    current: { sessionId?: string; refreshToken?: string },
  ): Promise<void> {
    if (body.scope === 'all') return this.revoke(userId);
    const deviceId = typeof body.deviceId === 'string' && body.deviceId.length > 0 ? body.deviceId : undefined;
    if (deviceId) return this.revoke(userId, { deviceId });
    const fromToken = current.refreshToken ? await this.sessionOf(current.refreshToken) : undefined;
    const sessionId = fromToken && fromToken.userId === userId ? fromToken.sessionId : current.sessionId;
    return this.revoke(userId, sessionId ? { sessionId } : {});
  }

  /**
   * `GET /api/auth/sessions`: the user's live sessions, the current one first, then the most
   * recently active (Strapi's `sortSessionsForDisplay`). Never a token or a row id.
   */
  async list(userId: number, currentSessionId: string | undefined): Promise<SessionEntry[]> {
    const rows = await this.database.system
      .selectFrom(SESSIONS_TABLE)
      .select(['session_id', 'device_id', 'device_name', 'login_at', 'updated_at', 'created_at'])
      .where('user_id', '=', userId)
      .where('expires_at', '>', this.now())
      .where('absolute_expires_at', '>', this.now())
      .execute();
    const iso = (value: unknown) =>
      value === null || value === undefined
        ? undefined
        : new Date(this.database.dialect.decode('datetime', value) as string | Date).toISOString();
    const entries: SessionEntry[] = rows.map((row) => ({
      id: row.session_id,
      deviceId: row.device_id,
      deviceName: row.device_name ?? undefined,
      current: currentSessionId !== undefined && row.session_id === currentSessionId,
      loginAt: iso(row.login_at),
      lastActiveAt: iso(row.updated_at ?? row.created_at),
    }));
    return entries.sort((a, b) =>
      a.current !== b.current ? (a.current ? -1 : 1) : (b.lastActiveAt ?? '').localeCompare(a.lastActiveAt ?? ''),
    );
  }

  /** `DELETE /api/auth/sessions/:id`: ends one of the user's sessions; false when the user has no such session. */
  async revokeById(userId: number, sessionId: string): Promise<boolean> {
    const deleted = await this.database.system
      .deleteFrom(SESSIONS_TABLE)
      .where('user_id', '=', userId)
      .where('session_id', '=', sessionId)
      .executeTakeFirst();
    return Number(deleted.numDeletedRows) > 0;
  }

  /** Ends the user's sessions (all, a device's, one): their refresh and access tokens stop working. */
  async revoke(userId: number, which: { deviceId?: string; sessionId?: string } = {}): Promise<void> {
    let query = this.database.system.deleteFrom(SESSIONS_TABLE).where('user_id', '=', userId);
    if (which.deviceId !== undefined) query = query.where('device_id', '=', which.deviceId);
    if (which.sessionId !== undefined) query = query.where('session_id', '=', which.sessionId);
    await query.execute();
  }

  /** Whether the refresh token goes in an httpOnly cookie for this request (`httpOnly`, or the request's header). */
  usesCookie(headers: IncomingHttpHeaders): boolean {
    return this.settings.httpOnly || headers[HEADER] === 'httpOnly';
  }

  /** The refresh token a request carries: the cookie first, then the body's `refreshToken`, as Strapi reads them. */
  requestToken(headers: IncomingHttpHeaders, body: Record<string, unknown> | undefined): unknown {
    return cookieValue(headers.cookie, this.settings.cookie.name) || body?.refreshToken;
  }

  /**
   * What a route sends for new tokens: `{ jwt, refreshToken }`, or `{ jwt }` and the refresh token
   * in an httpOnly cookie (Strapi's `buildRefreshCookieOptions`: `secure` in production unless set).
   * `alwaysInBody`: Strapi's password change and reset give the refresh token in the body even then.
   */
  answer(
    tokens: SessionTokens,
    headers: IncomingHttpHeaders,
    production: boolean,
    alwaysInBody = false,
  ): SessionAnswer {
    if (!this.usesCookie(headers)) return { body: tokens };
    const cookie = this.cookie(tokens.refreshToken, production);
    return { body: alwaysInBody ? tokens : { jwt: tokens.jwt }, cookie };
  }

  /** The `Set-Cookie` header that sets the refresh cookie, or clears it (`value` empty). */
  cookie(value: string, production: boolean): string {
    const { name, secure, sameSite, path, domain, maxAge } = this.settings.cookie;
    const parts = [`${name}=${encodeURIComponent(value)}`, `path=${path}`];
    if (value === '') parts.push('expires=Thu, 01 Jan 1970 00:00:00 GMT');
    else if (maxAge !== undefined)
      parts.push(`max-age=${Math.floor(maxAge / 1000)}`, `expires=${new Date(Date.now() + maxAge).toUTCString()}`);
    if (domain) parts.push(`domain=${domain}`);
    parts.push(`samesite=${sameSite}`);
    if (secure ?? production) parts.push('secure');
    parts.push('httponly');
    return parts.join('; ');
  }
}
