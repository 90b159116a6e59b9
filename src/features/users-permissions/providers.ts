/**
 * Login providers: Strapi 5's list (`services/providers-registry.js`) with its default settings,
 * the OAuth 2.0 endpoints of each (grant's, which Strapi's connect uses) and how each reads the
 * user's profile, plus `oidc`, a generic OpenID Connect provider Strapi lacks. The settings live
 * in the core store under Strapi's key `plugin_users-permissions_grant`, so every node sees a
 * change at once; at start-up the providers and keys the store lacks are seeded from
 * `config/plugins` `users-permissions.config.providers`, else Strapi's defaults.
 */
import type { CoreStore } from '../../core/database/store.js';
import { recordAudit, type Audited } from '../../core/documents/service.js';
import { changedKeys } from './changed-keys.js';
import { ProjectError, ValidationError } from '../../core/errors.js';
import { isPlainObject } from '../../core/objects.js';

/** One provider's stored settings (Strapi's grant config: `key` is the client id, `secret` its secret). */
export interface ProviderSettingsValue {
  enabled: boolean;
  icon: string;
  key?: string;
  secret?: string;
  /**
   * Where the browser ends, with `?access_token=`: the frontend's page, which then calls
   * `GET /api/auth/:provider/callback`. Empty: that route of this server (it answers the JSON).
   */
  callback?: string;
  scope?: string[];
  /** auth0, cas, cognito, keycloak: the provider's host (and path); Vellum also takes a full `http(s)://` URL. */
  subdomain?: string;
  /** cognito: the user pool's JWKS URL, which verifies its ID tokens. */
  jwksurl?: string;
  /** oidc: the issuer URL (`/.well-known/openid-configuration` is found under it). */
  issuer?: string;
}

export type ProvidersValue = Record<string, ProviderSettingsValue>;

/** A provider's user, as its profile names them. */
export interface ProviderProfile {
  username?: string;
  email?: string;
}

/** What reading a profile may use: the provider's access token, the callback's query, the settings. */
export interface ProfileInput {
  accessToken: string;
  query: Record<string, unknown>;
  settings: ProviderSettingsValue;
  /** GET a JSON document with the access token as bearer (or none). */
  getJson(
    url: string,
    options?: { headers?: Record<string, string>; bearer?: boolean },
  ): Promise<Record<string, unknown>>;
}

export interface OAuthProviderSpec {
  defaults: ProviderSettingsValue;
  /** The authorize and token URLs; `{subdomain}` is the setting. */
  authorizeUrl: string;
  tokenUrl: string;
  /** How the client authenticates at the token endpoint (grant's default: in the body). */
  tokenAuth?: 'basic' | 'body';
  profile(input: ProfileInput): Promise<ProviderProfile>;
}

type Body = Record<string, unknown>;
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const notVerified = (name: string): never => {
  throw new Error(`Email not verified by ${name}`);
};

/** The base of a `subdomain` setting: `https://<subdomain>`, or the setting itself when it has a scheme (a local Keycloak). */
export const subdomainBase = (subdomain: string | undefined): string => {
  const value = (subdomain ?? '').replace(/\/+$/, '');
  return /^https?:\/\//i.test(value) ? value : `https://${value}`;
};

const off = (
  icon: string,
  scope: string[] | undefined,
  extra: Partial<ProviderSettingsValue> = {},
): ProviderSettingsValue => ({
  enabled: false,
  icon,
  key: '',
  secret: '',
  callback: '',
  ...(scope ? { scope } : {}),
  ...extra,
});

/** Strapi 5's providers (twitter, OAuth 1.0a, is listed but cannot be enabled: docs/auth.md "Login with a provider"). */
export const OAUTH_PROVIDERS: Record<string, OAuthProviderSpec> = {
  discord: {
    defaults: off('discord', ['identify', 'email']),
    authorizeUrl: 'https://discord.com/api/oauth2/authorize',
    tokenUrl: 'https://discord.com/api/oauth2/token',
    async profile({ getJson }) {
      const body = await getJson('https://discord.com/api/users/@me');
      if (body.verified !== true) notVerified('Discord');
      const discriminator = str(body.discriminator);
      return {
        username:
          discriminator && discriminator !== '0' ? `${str(body.username)}#${discriminator}` : str(body.username),
        email: str(body.email),
      };
    },
  },
  facebook: {
    defaults: off('facebook-square', ['email']),
    authorizeUrl: 'https://www.facebook.com/dialog/oauth',
    tokenUrl: 'https://graph.facebook.com/oauth/access_token',
    async profile({ getJson }) {
      const body = await getJson('https://graph.facebook.com/me?fields=name,email');
      if (!body.email) notVerified('Facebook');
      return { username: str(body.name), email: str(body.email) };
    },
  },
  google: {
    defaults: off('google', ['email']),
    authorizeUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
    tokenUrl: 'https://oauth2.googleapis.com/token',
    async profile({ getJson, accessToken }) {
      const body = await getJson(
        `https://oauth2.googleapis.com/tokeninfo?access_token=${encodeURIComponent(accessToken)}`,
        { bearer: false },
      );
      const verified = body.verified_email ?? body.email_verified;
      if (verified !== true && verified !== 'true') notVerified('Google');
      return { username: str(body.email)?.split('@')[0], email: str(body.email) };
    },
  },
  github: {
    defaults: off('github', ['user', 'user:email']),
    authorizeUrl: 'https://github.com/login/oauth/authorize',
    tokenUrl: 'https://github.com/login/oauth/access_token',
    async profile({ getJson }) {
      const headers = { 'user-agent': 'strapi' };
      const user = await getJson('https://api.github.com/user', { headers });
      const emails = (await getJson('https://api.github.com/user/emails', { headers })) as unknown;
      const list = Array.isArray(emails) ? (emails as Body[]) : [];
      const entry = user.email ? list.find((e) => e.email === user.email) : list.find((e) => e.primary === true);
      if (!entry || entry.verified !== true) notVerified('GitHub');
      return { username: str(user.login), email: str(entry!.email) };
    },
  },
  microsoft: {
    defaults: off('windows', ['user.read']),
    authorizeUrl: 'https://login.microsoftonline.com/common/oauth2/v2.0/authorize',
    tokenUrl: 'https://login.microsoftonline.com/common/oauth2/v2.0/token',
    async profile({ getJson }) {
      const body = await getJson('https://graph.microsoft.com/v1.0/me');
      return { username: str(body.userPrincipalName), email: str(body.userPrincipalName) };
    },
  },
  instagram: {
    defaults: off('instagram', ['user_profile']),
    authorizeUrl: 'https://api.instagram.com/oauth/authorize',
    tokenUrl: 'https://api.instagram.com/oauth/access_token',
    async profile({ getJson }) {
      const body = await getJson('https://graph.instagram.com/me?fields=id,username');
      return { username: str(body.username), email: `${str(body.username)}@strapi.io` };
    },
  },
  vk: {
    defaults: off('vk', ['email']),
    authorizeUrl: 'https://oauth.vk.com/authorize',
    tokenUrl: 'https://oauth.vk.com/access_token',
    async profile({ getJson, query }) {
      const raw = isPlainObject(query.raw) ? query.raw : {};
      const email = str(raw.email) ?? str(query['raw[email]']);
      const userId = str(raw.user_id) ?? str(query['raw[user_id]']);
      if (!email || !userId) throw new Error('VK authentication requires a completed OAuth session');
      const body = await getJson(`https://api.vk.com/method/users.get?user_ids=${encodeURIComponent(userId)}&v=5.122`);
      const first = Array.isArray(body.response) ? (body.response[0] as Body | undefined) : undefined;
      if (!first) throw new Error('Invalid VK access token');
      return { username: `${str(first.last_name)} ${str(first.first_name)}`, email };
    },
  },
  twitch: {
    defaults: off('twitch', ['user:read:email']),
    authorizeUrl: 'https://id.twitch.tv/oauth2/authorize',
    tokenUrl: 'https://id.twitch.tv/oauth2/token',
    async profile({ getJson, settings }) {
      const body = await getJson('https://api.twitch.tv/helix/users', { headers: { 'Client-Id': settings.key ?? '' } });
      const first = Array.isArray(body.data) ? (body.data[0] as Body | undefined) : undefined;
      if (!first?.email) notVerified('Twitch');
      return { username: str(first!.login), email: str(first!.email) };
    },
  },
  linkedin: {
    defaults: off('linkedin', ['r_liteprofile', 'r_emailaddress']),
    authorizeUrl: 'https://www.linkedin.com/oauth/v2/authorization',
    tokenUrl: 'https://www.linkedin.com/oauth/v2/accessToken',
    async profile({ getJson }) {
      const profile = await getJson('https://api.linkedin.com/v2/me');
      const emails = await getJson(
        'https://api.linkedin.com/v2/emailAddress?q=members&projection=(elements*(handle~))',
      );
      const first = Array.isArray(emails.elements) ? (emails.elements[0] as Body | undefined) : undefined;
      const handle = first && isPlainObject(first['handle~']) ? first['handle~'] : undefined;
      if (!handle?.emailAddress) notVerified('LinkedIn');
      return { username: str(profile.localizedFirstName), email: str(handle!.emailAddress) };
    },
  },
  cognito: {
    defaults: off('aws', ['email', 'openid', 'profile'], { subdomain: 'my.subdomain.com', jwksurl: '' }),
    authorizeUrl: '{subdomain}/oauth2/authorize',
    tokenUrl: '{subdomain}/oauth2/token',
    // Read from the ID token the connect callback passes on (verified against `jwksurl`): oauth.ts.
    async profile() {
      throw new Error('Cognito authentication requires a completed OAuth session');
    },
  },
  reddit: {
    defaults: off('reddit', ['identity']),
    authorizeUrl: 'https://www.reddit.com/api/v1/authorize',
    tokenUrl: 'https://www.reddit.com/api/v1/access_token',
    tokenAuth: 'basic',
    async profile({ getJson }) {
      const body = await getJson('https://oauth.reddit.com/api/v1/me', { headers: { 'user-agent': 'strapi' } });
      return { username: str(body.name), email: `${str(body.name)}@strapi.io` };
    },
  },
  auth0: {
    defaults: off('', ['openid', 'email', 'profile'], { subdomain: 'my-tenant.eu' }),
    authorizeUrl: '{subdomain}.auth0.com/authorize',
    tokenUrl: '{subdomain}.auth0.com/oauth/token',
    async profile({ getJson, settings }) {
      const body = await getJson(`${subdomainBase(settings.subdomain)}.auth0.com/userinfo`);
      if (body.email && body.email_verified !== true) notVerified('Auth0');
      const username = str(body.username) || str(body.nickname) || str(body.name) || str(body.email)?.split('@')[0];
      return { username, email: str(body.email) || `${(username ?? '').replace(/\s+/g, '.')}@strapi.io` };
    },
  },
  cas: {
    defaults: off('book', ['openid email'], { subdomain: 'my.subdomain.com/cas' }),
    authorizeUrl: '{subdomain}/oidc/authorize',
    tokenUrl: '{subdomain}/oidc/token',
    async profile({ getJson, settings }) {
      const body = await getJson(`${subdomainBase(settings.subdomain)}/oidc/profile`);
      const source = isPlainObject(body.attributes) ? body.attributes : body;
      const username = str(source.strapiusername) || str(body.id) || str(body.sub);
      const email = str(source.strapiemail) || str(source.email);
      if (email && (body.email_verified ?? source.email_verified) !== true) notVerified('CAS');
      return { username, email };
    },
  },
  patreon: {
    defaults: off('', ['identity', 'identity[email]']),
    authorizeUrl: 'https://www.patreon.com/oauth2/authorize',
    tokenUrl: 'https://www.patreon.com/api/oauth2/token',
    async profile({ getJson }) {
      const body = await getJson(
        'https://www.patreon.com/api/oauth2/v2/identity?fields[user]=full_name,email,is_email_verified',
      );
      const data = isPlainObject(body.data) && isPlainObject(body.data.attributes) ? body.data.attributes : {};
      if (data.is_email_verified !== true) notVerified('Patreon');
      return { username: str(data.full_name), email: str(data.email) };
    },
  },
  keycloak: {
    defaults: off('', ['openid', 'email', 'profile'], { subdomain: 'myKeycloakProvider.com/realms/myrealm' }),
    authorizeUrl: '{subdomain}/protocol/openid-connect/auth',
    tokenUrl: '{subdomain}/protocol/openid-connect/token',
    async profile({ getJson, settings }) {
      const body = await getJson(`${subdomainBase(settings.subdomain)}/protocol/openid-connect/userinfo`);
      if (body.email_verified !== true) notVerified('Keycloak');
      return { username: str(body.preferred_username), email: str(body.email) };
    },
  },
};

/** Providers listed (and stored) but not offered: twitter is OAuth 1.0a. */
export const UNSUPPORTED_PROVIDERS: Record<string, { defaults: ProviderSettingsValue; reason: string }> = {
  twitter: {
    defaults: off('twitter', undefined),
    reason: 'twitter signs in with OAuth 1.0a, which Vellum does not implement',
  },
};

export const OIDC_PROVIDER = 'oidc';

/** Every provider's default settings, in Strapi's order, then Vellum's `oidc`. */
export function defaultProviders(): ProvidersValue {
  const value: ProvidersValue = { email: { enabled: true, icon: 'envelope' } };
  for (const [name, spec] of Object.entries({ ...OAUTH_PROVIDERS, ...UNSUPPORTED_PROVIDERS }))
    value[name] = structuredClone(spec.defaults);
  value[OIDC_PROVIDER] = {
    enabled: false,
    icon: 'openid',
    key: '',
    secret: '',
    callback: '',
    issuer: '',
    scope: ['openid', 'email', 'profile'],
  };
  return value;
}

const STRING_KEYS = new Set(['icon', 'key', 'secret', 'subdomain']);
const URL_KEYS = new Set(['callback', 'jwksurl', 'issuer']);

function urlValue(where: string, value: unknown): string {
  if (value === null || value === '') return '';
  if (typeof value === 'string') {
    try {
      const url = new URL(value);
      if (url.protocol === 'http:' || url.protocol === 'https:') return value;
    } catch {
      // answered below
    }
  }
  throw new ValidationError(`${where} must be an absolute http(s) URL, or empty`, { key: where });
}

/** Providers changed by `changes` (`{ github: { enabled: true, key, secret } }`), validated: a 400 names the key. */
export function mergeProviders(current: ProvidersValue, changes: Record<string, unknown>): ProvidersValue {
  const next = structuredClone(current);
  const known = defaultProviders();
  for (const [name, change] of Object.entries(changes)) {
    if (!known[name])
      throw new ValidationError(`Unknown provider "${name}" (known: ${Object.keys(known).join(', ')})`, { key: name });
    if (!isPlainObject(change)) throw new ValidationError(`${name} must be an object of settings`, { key: name });
    const provider = (next[name] ??= structuredClone(known[name]!));
    const allowed = new Set([...Object.keys(known[name]!), 'enabled', 'icon', 'redirectUri']);
    for (const [key, value] of Object.entries(change)) {
      const where = `${name}.${key}`;
      if (!allowed.has(key))
        throw new ValidationError(
          `Unknown setting "${where}" (known: ${[...allowed].filter((k) => k !== 'redirectUri').join(', ')})`,
          { key: where },
        );
      if (key === 'redirectUri') continue; // shown by GET, computed: sending it back changes nothing
      if (key === 'enabled') {
        if (typeof value !== 'boolean') throw new ValidationError(`${where} must be a boolean`, { key: where });
        if (value && UNSUPPORTED_PROVIDERS[name])
          throw new ValidationError(`${name} cannot be enabled: ${UNSUPPORTED_PROVIDERS[name].reason}`, { key: where });
        provider.enabled = value;
      } else if (key === 'scope') {
        const scope = typeof value === 'string' ? value.split(/\s+/).filter(Boolean) : value;
        if (!Array.isArray(scope) || scope.some((s) => typeof s !== 'string'))
          throw new ValidationError(`${where} must be an array of strings (or one space-separated string)`, {
            key: where,
          });
        provider.scope = scope as string[];
      } else if (URL_KEYS.has(key)) {
        (provider as unknown as Body)[key] = urlValue(where, value);
      } else if (STRING_KEYS.has(key)) {
        if (typeof value !== 'string') throw new ValidationError(`${where} must be a string`, { key: where });
        (provider as unknown as Body)[key] = value;
      }
    }
  }
  return next;
}

/** The stored value over the defaults (a store written by Strapi or by hand may lack providers or keys). */
function providersOf(stored: unknown): ProvidersValue {
  const value = defaultProviders();
  if (!isPlainObject(stored)) return value;
  for (const [name, settings] of Object.entries(stored)) {
    if (!value[name] || !isPlainObject(settings)) continue;
    for (const key of Object.keys(value[name]!))
      if (settings[key] !== undefined) (value[name] as unknown as Body)[key] = settings[key];
  }
  return value;
}

const STORE = { type: 'plugin', name: 'users-permissions', key: 'grant' } as const;

export class ProviderSettings {
  constructor(private readonly store: CoreStore) {}

  async get(): Promise<ProvidersValue> {
    return providersOf(await this.store.get(STORE));
  }

  /** One provider's settings; undefined for a name no provider has. */
  async provider(name: string): Promise<ProviderSettingsValue | undefined> {
    return Object.hasOwn(defaultProviders(), name) ? (await this.get())[name] : undefined;
  }

  /** `audited`: the providers' keys changed (`github.secret`: names only) are recorded as `settings.update`. */
  async update(changes: Record<string, unknown>, audited?: Audited): Promise<ProvidersValue> {
    const current = await this.get();
    const next = mergeProviders(current, changes);
    await this.store.set({ ...STORE, value: next }, (trx) =>
      recordAudit(trx, audited, {
        action: 'settings.update',
        subject: 'users-permissions.providers',
        changed: changedKeys(current, next, 2),
      }),
    );
    return next;
  }

  /** At start-up, under the schema lock: providers and keys the store lacks get their configured value, else the default. */
  static async seed(store: CoreStore, configured: Record<string, unknown>): Promise<void> {
    const stored = await store.get(STORE);
    const storedValue = isPlainObject(stored) ? stored : {};
    const missing: Record<string, unknown> = {};
    for (const [name, settings] of Object.entries(configured)) {
      if (!isPlainObject(settings)) {
        missing[name] = settings;
        continue;
      }
      const present = isPlainObject(storedValue[name]) ? storedValue[name] : {};
      const keys = Object.fromEntries(Object.entries(settings).filter(([key]) => present[key] === undefined));
      if (Object.keys(keys).length) missing[name] = keys;
    }
    let next: ProvidersValue;
    try {
      next = mergeProviders(providersOf(stored), missing);
    } catch (error) {
      if (error instanceof ValidationError)
        throw new ProjectError(`users-permissions.config.providers: ${error.message}`, 'config/plugins');
      throw error;
    }
    const complete = Object.entries(defaultProviders()).every(
      ([name, defaults]) =>
        isPlainObject(storedValue[name]) &&
        Object.keys(defaults).every((key) => (storedValue[name] as Body)[key] !== undefined),
    );
    if (!complete || Object.keys(missing).length) await store.set({ ...STORE, value: next });
  }
}
