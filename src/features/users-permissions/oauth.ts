/**
 * Login with a provider, as Strapi 5's users-permissions does it:
 *
 * 1. `GET /api/connect/:provider` redirects the browser to the provider's authorize URL, with a
 *    random `state` kept in a short-lived httpOnly cookie signed with the server's JWT secret (no
 *    session store: any node can answer the next step);
 * 2. the provider redirects to `GET /api/connect/:provider/callback?code&state`: the state is
 *    checked against the cookie, the code exchanged at the provider's token endpoint, and the
 *    browser sent to the provider's `callback` (the frontend) with `?access_token=...&raw[...]`;
 * 3. the frontend calls `GET /api/auth/:provider/callback?access_token=...`: the profile is read
 *    with that token and the user found or created (users.ts `providerLogin`), answering `{ jwt, user }`.
 *
 * The generic OpenID Connect provider (`oidc`) runs the same three steps with PKCE and a nonce:
 * step 2 verifies the ID token against the issuer's JWKS (issuer, audience, nonce, expiry) and
 * hands the frontend, as `access_token`, a token of Vellum's own (signed, 5 minutes) carrying the
 * verified identity, which step 3 checks; step 3 also takes an `id_token` the app got itself for
 * this client (verified the same way, without nonce).
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { createRemoteJWKSet, JWTPayload } from 'jose';
import { ApplicationError, ValidationError } from '../../core/errors.js';
import { isPlainObject } from '../../core/objects.js';
import { cookieValue } from './sessions.js';
import { jose } from './jwt.js';
import {
  OAUTH_PROVIDERS,
  OIDC_PROVIDER,
  subdomainBase,
  UNSUPPORTED_PROVIDERS,
  type ProviderProfile,
  type ProviderSettings,
  type ProviderSettingsValue,
} from './providers.js';

export interface ProviderLoginDeps {
  settings: ProviderSettings;
  /** The users' JWT secret: signs the state cookie and the OIDC hand-off token (keys derived from it). */
  secret: string;
  serverUrl: () => string;
  apiPrefix: string;
  production: boolean;
}

/** A redirect to answer: where, and the cookie to set (or clear). */
export interface Redirect {
  location: string;
  cookie: string;
}

interface Endpoints {
  authorize: string;
  token: string;
  tokenAuth: 'basic' | 'body';
  /** OIDC only. */
  oidc?: { issuer: string; jwksUri: string; userinfo?: string };
}

interface PendingLogin {
  /** provider */
  p: string;
  /** state */
  s: string;
  /** PKCE verifier */
  v: string;
  /** nonce */
  n: string;
  /** expiry, seconds */
  e: number;
}

type Query = Record<string, unknown>;

const COOKIE = 'vellum_connect';
const STATE_SECONDS = 600;
const HANDOFF_SECONDS = 300;
const HANDOFF_AUDIENCE = 'vellum:provider-login';
const DISCOVERY_SECONDS = 600;
const FETCH_TIMEOUT_MS = 10_000;

const random = (bytes = 24) => randomBytes(bytes).toString('base64url');
const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.length > 0 ? value : undefined;

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** `url` with `params` added to its query. */
function withParams(url: string, params: Record<string, string>): string {
  const target = new URL(url);
  for (const [key, value] of Object.entries(params)) target.searchParams.set(key, value);
  return target.toString();
}

async function fetchJson(
  url: string,
  init: RequestInit = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  let response: Response;
  try {
    response = await fetch(url, {
      ...init,
      redirect: 'error',
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
      headers: { accept: 'application/json', ...(init.headers as Record<string, string>) },
    });
  } catch (error) {
    throw new ApplicationError(`The provider could not be reached: ${(error as Error).message}`);
  }
  const raw = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    // GitHub's token endpoint answers a form unless asked for JSON; some providers still do.
    body = Object.fromEntries(new URLSearchParams(raw));
  }
  return { status: response.status, body: isPlainObject(body) ? body : { items: body } };
}

export class ProviderLogins {
  private readonly stateKey: Buffer;
  private readonly handoffKey: Uint8Array;
  private readonly discoveries = new Map<string, { until: number; endpoints: Promise<Endpoints> }>();
  private readonly keySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

  constructor(private readonly deps: ProviderLoginDeps) {
    this.stateKey = createHmac('sha256', deps.secret).update('vellum provider login state').digest();
    this.handoffKey = createHmac('sha256', deps.secret).update('vellum provider login hand-off').digest();
  }

  /** Where the provider sends the browser back: this server's `/api/connect/:provider/callback` (register it at the provider). */
  redirectUri(provider: string): string {
    return `${this.deps.serverUrl()}${this.deps.apiPrefix}/connect/${provider}/callback`;
  }

  /** Step 1: the provider's authorize URL, and the state cookie. */
  async connect(provider: string): Promise<Redirect> {
    const settings = await this.enabled(provider);
    const endpoints = await this.endpoints(provider, settings);
    const pending: PendingLogin = {
      p: provider,
      s: random(),
      v: random(32),
      n: random(),
      e: Math.floor(Date.now() / 1000) + STATE_SECONDS,
    };
    const params: Record<string, string> = {
      response_type: 'code',
      client_id: settings.key ?? '',
      redirect_uri: this.redirectUri(provider),
      state: pending.s,
    };
    if (settings.scope?.length) params.scope = settings.scope.join(' ');
    if (endpoints.oidc) {
      params.nonce = pending.n;
      params.code_challenge = createHash('sha256').update(pending.v).digest('base64url');
      params.code_challenge_method = 'S256';
    }
    return {
      location: withParams(endpoints.authorize, params),
      cookie: this.cookie(this.sign(pending), STATE_SECONDS),
    };
  }

  /** Step 2: the provider's redirect back; answers the redirect to the frontend's callback. */
  async connectCallback(
    provider: string,
    query: Query,
    cookieHeader: string | string[] | undefined,
  ): Promise<Redirect> {
    const settings = await this.enabled(provider);
    const pending = this.read(cookieValue(cookieHeader, COOKIE));
    const state = text(query.state);
    if (!pending || pending.p !== provider || !state || !sameText(state, pending.s))
      throw new ValidationError('Invalid state: start again from /connect/' + provider);
    const clear = this.cookie('', 0);
    const frontend = this.frontendCallback(provider, settings);
    const error = text(query.error);
    if (error)
      return {
        location: withParams(frontend, {
          error,
          ...(text(query.error_description) ? { error_description: text(query.error_description)! } : {}),
        }),
        cookie: clear,
      };
    const code = text(query.code);
    if (!code) throw new ValidationError('The provider sent no code');
    const endpoints = await this.endpoints(provider, settings);
    const tokens = await this.exchange(endpoints, settings, provider, code, pending.v);
    const accessToken = text(tokens.access_token);
    if (endpoints.oidc) {
      const claims = await this.oidcClaims(endpoints, settings, tokens, pending.n);
      return { location: withParams(frontend, { access_token: await this.handoff(provider, claims) }), cookie: clear };
    }
    if (!accessToken) throw new ApplicationError('The provider answered no access_token');
    const params: Record<string, string> = { access_token: accessToken };
    if (text(tokens.id_token)) params.id_token = text(tokens.id_token)!;
    for (const [key, value] of Object.entries(tokens))
      if (typeof value === 'string' || typeof value === 'number') params[`raw[${key}]`] = String(value);
    return { location: withParams(frontend, params), cookie: clear };
  }

  /** Step 3: the user the callback's token proves. */
  async profile(provider: string, query: Query): Promise<ProviderProfile> {
    const settings = await this.enabled(provider);
    if (provider === OIDC_PROVIDER) {
      const handoff = text(query.access_token);
      if (handoff) return this.readHandoff(provider, handoff);
      const idToken = text(query.id_token);
      if (!idToken) throw new ApplicationError('No access_token.');
      const endpoints = await this.endpoints(provider, settings);
      return this.oidcProfile(await this.oidcClaims(endpoints, settings, { id_token: idToken }, undefined));
    }
    if (provider === 'cognito') {
      const idToken = text(query.id_token);
      if (!idToken) throw new ApplicationError('Cognito authentication requires a completed OAuth session');
      const payload = await this.verifyIdToken(idToken, text(settings.jwksurl) ?? '', { audience: settings.key ?? '' });
      if (payload.email_verified !== true) throw new ApplicationError('Email not verified by Cognito');
      return { username: text(payload['cognito:username']), email: text(payload.email) };
    }
    const accessToken = text(query.access_token) ?? text(query.code) ?? text(query.oauth_token);
    if (!accessToken) throw new ApplicationError('No access_token.');
    const spec = OAUTH_PROVIDERS[provider]!;
    const getJson = async (url: string, options: { headers?: Record<string, string>; bearer?: boolean } = {}) => {
      const headers = {
        ...(options.bearer === false ? {} : { authorization: `Bearer ${accessToken}` }),
        ...options.headers,
      };
      const { status, body } = await fetchJson(url, { headers });
      if (status < 200 || status >= 300) throw new Error(`The provider refused the access token (${status})`);
      return body;
    };
    try {
      return await spec.profile({ accessToken, query, settings, getJson });
    } catch (error) {
      if (error instanceof ApplicationError) throw error;
      throw new ApplicationError((error as Error).message);
    }
  }

  /** An enabled provider's settings; Strapi's 400 for an unknown or disabled one. */
  private async enabled(provider: string): Promise<ProviderSettingsValue> {
    const settings =
      provider === 'email' || UNSUPPORTED_PROVIDERS[provider] ? undefined : await this.deps.settings.provider(provider);
    if (!settings?.enabled) throw new ApplicationError('This provider is disabled');
    return settings;
  }

  /** Where the browser goes at the end: the `callback` setting, else this server's `/api/auth/:provider/callback`. */
  private frontendCallback(provider: string, settings: ProviderSettingsValue): string {
    return text(settings.callback) ?? `${this.deps.serverUrl()}${this.deps.apiPrefix}/auth/${provider}/callback`;
  }

  private async endpoints(provider: string, settings: ProviderSettingsValue): Promise<Endpoints> {
    if (provider === OIDC_PROVIDER) return this.discover(settings);
    const spec = OAUTH_PROVIDERS[provider]!;
    const resolve = (url: string) => url.replace('{subdomain}', subdomainBase(settings.subdomain));
    return {
      authorize: resolve(spec.authorizeUrl),
      token: resolve(spec.tokenUrl),
      tokenAuth: spec.tokenAuth ?? 'body',
    };
  }

  /** The issuer's `/.well-known/openid-configuration`, kept 10 minutes per issuer. */
  private discover(settings: ProviderSettingsValue): Promise<Endpoints> {
    const issuer = text(settings.issuer);
    if (!issuer || !text(settings.key))
      throw new ApplicationError('The oidc provider needs its issuer and key (the client id)');
    const cached = this.discoveries.get(issuer);
    if (cached && cached.until > Date.now()) return cached.endpoints;
    const endpoints = (async (): Promise<Endpoints> => {
      const { status, body } = await fetchJson(`${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`);
      const authorize = text(body.authorization_endpoint);
      const token = text(body.token_endpoint);
      const jwksUri = text(body.jwks_uri);
      if (status !== 200 || !authorize || !token || !jwksUri)
        throw new ApplicationError(`The OpenID provider's configuration could not be read at ${issuer} (${status})`);
      if (body.issuer !== issuer)
        throw new ApplicationError(`The OpenID provider names itself ${String(body.issuer)}, not ${issuer}`);
      const methods = Array.isArray(body.token_endpoint_auth_methods_supported)
        ? body.token_endpoint_auth_methods_supported
        : ['client_secret_basic'];
      return {
        authorize,
        token,
        tokenAuth: methods.includes('client_secret_basic') ? 'basic' : 'body',
        oidc: { issuer, jwksUri, userinfo: text(body.userinfo_endpoint) },
      };
    })();
    this.discoveries.set(issuer, { until: Date.now() + DISCOVERY_SECONDS * 1000, endpoints });
    endpoints.catch(() => this.discoveries.delete(issuer));
    return endpoints;
  }

  /** The code exchanged at the token endpoint; a refusal (a wrong or used code) is a 400 naming the provider's error. */
  private async exchange(
    endpoints: Endpoints,
    settings: ProviderSettingsValue,
    provider: string,
    code: string,
    verifier: string,
  ): Promise<Record<string, unknown>> {
    const form = new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: this.redirectUri(provider),
    });
    if (endpoints.oidc) form.set('code_verifier', verifier);
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
    const id = settings.key ?? '';
    const secret = settings.secret ?? '';
    if (endpoints.tokenAuth === 'basic') {
      headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
    } else {
      form.set('client_id', id);
      form.set('client_secret', secret);
    }
    const { status, body } = await fetchJson(endpoints.token, { method: 'POST', headers, body: form.toString() });
    if (status !== 200 || text(body.error)) {
      const reason = [text(body.error), text(body.error_description)].filter(Boolean).join(': ') || `status ${status}`;
      throw new ApplicationError(`The provider refused the code (${reason})`);
    }
    return body;
  }

  /** The verified ID token's claims, completed from the userinfo endpoint when it lacks the email (the same `sub`). */
  private async oidcClaims(
    endpoints: Endpoints,
    settings: ProviderSettingsValue,
    tokens: Record<string, unknown>,
    nonce: string | undefined,
  ): Promise<JWTPayload> {
    const idToken = text(tokens.id_token);
    if (!idToken) throw new ApplicationError('The OpenID provider answered no id_token');
    const oidc = endpoints.oidc!;
    const claims = await this.verifyIdToken(idToken, oidc.jwksUri, {
      issuer: oidc.issuer,
      audience: settings.key ?? '',
      nonce,
    });
    const accessToken = text(tokens.access_token);
    if (claims.email || !accessToken || !oidc.userinfo) return claims;
    const { status, body } = await fetchJson(oidc.userinfo, { headers: { authorization: `Bearer ${accessToken}` } });
    if (status !== 200 || body.sub !== claims.sub)
      throw new ApplicationError("The OpenID provider's userinfo does not match the ID token");
    return {
      ...body,
      ...claims,
      email: body.email,
      email_verified: body.email_verified,
      preferred_username: body.preferred_username ?? claims.preferred_username,
      name: body.name ?? claims.name,
    };
  }

  private async verifyIdToken(
    idToken: string,
    jwksUri: string,
    expect: { issuer?: string; audience: string; nonce?: string },
  ): Promise<JWTPayload> {
    if (!jwksUri) throw new ApplicationError('No JWKS URL to verify the ID token with');
    const { createRemoteJWKSet, jwtVerify } = await jose();
    let keys = this.keySets.get(jwksUri);
    if (!keys)
      this.keySets.set(jwksUri, (keys = createRemoteJWKSet(new URL(jwksUri), { timeoutDuration: FETCH_TIMEOUT_MS })));
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(idToken, keys, {
        issuer: expect.issuer,
        audience: expect.audience,
        requiredClaims: ['sub', 'exp', 'iat'],
      }));
    } catch (error) {
      throw new ApplicationError(`Invalid ID token: ${(error as Error).message}`);
    }
    if (Array.isArray(payload.aud) && payload.aud.length > 1 && payload.azp !== expect.audience)
      throw new ApplicationError('Invalid ID token: azp is not this client');
    if (expect.nonce !== undefined && (typeof payload.nonce !== 'string' || !sameText(payload.nonce, expect.nonce)))
      throw new ApplicationError('Invalid ID token: nonce mismatch');
    return payload;
  }

  private oidcProfile(claims: JWTPayload): ProviderProfile {
    const email = text(claims.email);
    if (!email) throw new ApplicationError('Email was not available.');
    if (claims.email_verified !== true) throw new ApplicationError('Email not verified by the OpenID provider');
    return { username: text(claims.preferred_username) ?? text(claims.nickname) ?? email.split('@')[0], email };
  }

  /** The identity of a verified ID token, as a short-lived token of this server for step 3. */
  private async handoff(provider: string, claims: JWTPayload): Promise<string> {
    const profile = this.oidcProfile(claims);
    const { SignJWT } = await jose();
    return new SignJWT({ email: profile.email, username: profile.username, provider })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(claims.sub))
      .setAudience(HANDOFF_AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(`${HANDOFF_SECONDS}s`)
      .sign(this.handoffKey);
  }

  private async readHandoff(provider: string, token: string): Promise<ProviderProfile> {
    const { jwtVerify } = await jose();
    try {
      const { payload } = await jwtVerify(token, this.handoffKey, {
        audience: HANDOFF_AUDIENCE,
        algorithms: ['HS256'],
      });
      if (payload.provider !== provider) throw new Error("another provider's token");
      return { email: text(payload.email), username: text(payload.username) };
    } catch {
      throw new ApplicationError('Invalid access_token: start again from /connect/' + provider);
    }
  }

  private sign(pending: PendingLogin): string {
    const body = Buffer.from(JSON.stringify(pending)).toString('base64url');
    return `${body}.${createHmac('sha256', this.stateKey).update(body).digest('base64url')}`;
  }

  /** The pending login of a state cookie, or undefined when it is absent, tampered with or expired. */
  private read(value: string | undefined): PendingLogin | undefined {
    const [body, mac] = (value ?? '').split('.');
    if (!body || !mac || !sameText(mac, createHmac('sha256', this.stateKey).update(body).digest('base64url')))
      return undefined;
    try {
      const pending = JSON.parse(Buffer.from(body, 'base64url').toString()) as PendingLogin;
      return pending.e > Date.now() / 1000 ? pending : undefined;
    } catch {
      return undefined;
    }
  }

  private cookie(value: string, maxAge: number): string {
    const secure = this.deps.production ? '; Secure' : '';
    return `${COOKIE}=${value}; Path=${this.deps.apiPrefix}/connect; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure}`;
  }
}
