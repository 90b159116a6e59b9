/**
 * Users-and-permissions settings, read as Strapi's: `config/plugins` -> `users-permissions.config`
 * (`jwtSecret`, `jwt.expiresIn`, `register.allowedFields`, `ratelimit`, `advanced`, `email`,
 * `validationRules`, the lifetimes of reset and confirmation codes; Vellum's `register.ratelimit`), `config/admin`
 * (`auth.secret`, `apiToken.salt`), and the environment (`JWT_SECRET`, `ADMIN_JWT_SECRET`,
 * `API_TOKEN_SALT`).
 */
import { z } from 'zod';
import type { VellumConfig } from '../../core/config/load.js';
import { ProjectError } from '../../core/errors.js';
import { asRecord } from '../../core/objects.js';
import { parseConfig } from '../../core/config/validate.js';
import { resolveAdminAuthConfig, type AdminAuthConfig } from './admin-config.js';
import { parseDuration } from './durations.js';

export interface AuthConfig {
  /** Undefined: a generated secret is kept in the database (refused in production). */
  jwtSecret?: string;
  /** Lifetime of a user JWT in seconds. */
  jwtLifetime: number;
  adminJwtSecret?: string;
  apiTokenSalt?: string;
  /** Extra user attributes accepted by registration besides username, email and password. */
  allowedFields: string[];
  /** `register.enabled` when given: the first value of the stored `allow_register` (advanced.ts). */
  allowRegister?: boolean;
  /** `advanced`: the first values of the stored advanced settings, under Strapi's key names. */
  advanced: Record<string, unknown>;
  /** `email`: the first values of the stored email templates (`reset_password`, `email_confirmation`). */
  emailTemplates: Record<string, unknown>;
  /** `providers`: the first values of the stored login providers (`github: { enabled, key, secret, callback, scope }`, `oidc`). */
  providers: Record<string, unknown>;
  /** How long a password reset code stays valid, in seconds (`resetPasswordLifetime`, default 1h). */
  resetPasswordLifetime: number;
  /** How long an email confirmation link stays valid, in seconds (`emailConfirmationLifetime`, default 1d). */
  emailConfirmationLifetime: number;
  /** Strapi's `validationRules.validatePassword`: false (or a throw) refuses a new password. */
  validatePassword?: (password: string) => unknown;
  /**
   * `ratelimit.perAccount` (Vellum's stricter counting, off by default): failed logins per account
   * and client address, registrations per client address. Off: Strapi 5.54's counting, every
   * request per route and client address, and per body email on the routes Strapi keys by it.
   */
  perAccount: boolean;
  /** Logins and the account flows (`ratelimit`; Strapi's 10 in 60 s, or 5 in 5 minutes per account). */
  loginLimit: RateLimit;
  /** Registrations (`register.ratelimit`, else `ratelimit`'s). */
  registerLimit: RateLimit;
  /** Failed admin logins per email and client address (`ratelimit`, else 5 in 5 minutes as Strapi's admin). */
  adminLoginLimit: RateLimit;
  production: boolean;
  /** Weak secrets accepted outside production, one line each (start-up prints them). */
  warnings: string[];
  /** `jwtManagement`: `legacy-support` (one long-lived JWT) or `refresh` (short access tokens and refresh sessions). */
  jwtManagement: 'legacy-support' | 'refresh';
  /** `sessions` of `refresh` mode (sessions.ts). */
  sessions: SessionsConfig;
  /** Administrators' sign-ins and forgotten passwords (`config/admin`). */
  admin: AdminAuthConfig;
}

/** Strapi 5's `sessions` settings, lifespans in seconds. */
export interface SessionsConfig {
  accessTokenLifespan: number;
  maxRefreshTokenLifespan: number;
  idleRefreshTokenLifespan: number;
  /** Send the refresh token in an httpOnly cookie instead of the body (also per request: `x-strapi-refresh-cookie: httpOnly`). */
  httpOnly: boolean;
  cookie: {
    name: string;
    secure?: boolean;
    sameSite: 'lax' | 'strict' | 'none';
    path: string;
    domain?: string;
    maxAge?: number;
  };
}

/** At most `max` attempts per key in a window of `windowSeconds` from the first (koa2-ratelimit's counting). */
export interface RateLimit {
  enabled: boolean;
  max: number;
  windowSeconds: number;
}

/** koa2-ratelimit's units of a time object (`{ min: 5 }`), in milliseconds. */
const TIME_UNITS = {
  ms: 1,
  sec: 1000,
  min: 60_000,
  hour: 3_600_000,
  day: 86_400_000,
  week: 604_800_000,
  month: 2_628_000_000,
  year: 12 * 2_628_000_000,
};

/** koa2-ratelimit's `interval`: milliseconds, or a time object such as `{ min: 5 }` or `{ hour: 1, min: 30 }`. */
const interval = z.union([
  z.number().int().positive(),
  z
    .strictObject(
      Object.fromEntries(Object.keys(TIME_UNITS).map((unit) => [unit, z.number().nonnegative().optional()])) as Record<
        keyof typeof TIME_UNITS,
        z.ZodOptional<z.ZodNumber>
      >,
    )
    .transform((time) =>
      Object.entries(time).reduce((ms, [unit, n]) => ms + (n ?? 0) * TIME_UNITS[unit as keyof typeof TIME_UNITS], 0),
    )
    .refine((ms) => ms > 0, 'an interval longer than 0'),
]);

// Strapi 5.54's plugin default is 10 per 60 s; `perAccount` (Vellum's) defaults to 5 per 5 minutes
// (docs/security.md "Accounts"). Other koa2-ratelimit options (prefixKey, message, ...) are ignored.
const rateLimitSchema = z.looseObject({
  enabled: z.boolean().optional(),
  max: z.number().int().positive().optional(),
  interval: interval.optional(),
});
const pluginRateLimitSchema = rateLimitSchema.extend({ perAccount: z.boolean().optional() });

const pluginSchema = z.object({
  // Checked with the environment's JWT_SECRET by secretWeakness: refused in production, a warning elsewhere.
  jwtSecret: z.string().optional(),
  jwt: z.object({ expiresIn: z.union([z.string(), z.number()]).default('30d') }).default({ expiresIn: '30d' }),
  register: z
    .object({
      allowedFields: z.array(z.string()).default([]),
      enabled: z.boolean().optional(),
      ratelimit: rateLimitSchema.optional(),
    })
    .default({ allowedFields: [] }),
  advanced: z.record(z.string(), z.unknown()).default({}),
  email: z.record(z.string(), z.unknown()).default({}),
  providers: z.record(z.string(), z.unknown()).default({}),
  resetPasswordLifetime: z.union([z.string(), z.number()]).default('1h'),
  emailConfirmationLifetime: z.union([z.string(), z.number()]).default('1d'),
  validationRules: z
    .object({
      validatePassword: z
        .custom<(password: string) => unknown>((value) => typeof value === 'function', 'must be a function')
        .optional(),
    })
    .catchall(z.unknown())
    .default({}),
  jwtManagement: z.enum(['legacy-support', 'refresh']).default('legacy-support'),
  sessions: z
    .object({
      // Strapi's defaults (services/constants.js): 10 minutes, 30 days, 14 days.
      accessTokenLifespan: z
        .number()
        .int()
        .default(10 * 60),
      maxRefreshTokenLifespan: z
        .number()
        .int()
        .default(30 * 24 * 3600),
      idleRefreshTokenLifespan: z
        .number()
        .int()
        .default(14 * 24 * 3600),
      httpOnly: z.boolean().default(false),
      cookie: z
        .object({
          name: z
            .string()
            .regex(/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/, 'must be a cookie name')
            .default('strapi_up_refresh'),
          secure: z.boolean().optional(),
          sameSite: z.enum(['lax', 'strict', 'none']).default('lax'),
          path: z
            .string()
            .regex(/^\/[^;\s]*$/, 'must be a path')
            .default('/'),
          domain: z
            .string()
            .regex(/^[^;\s]+$/, 'must be a domain')
            .optional(),
          // Milliseconds, as Koa's cookies take it.
          maxAge: z.number().int().positive().optional(),
        })
        .default({ name: 'strapi_up_refresh', sameSite: 'lax', path: '/' }),
    })
    .catchall(z.unknown())
    .default({
      accessTokenLifespan: 600,
      maxRefreshTokenLifespan: 30 * 24 * 3600,
      idleRefreshTokenLifespan: 14 * 24 * 3600,
      httpOnly: false,
      cookie: { name: 'strapi_up_refresh', sameSite: 'lax', path: '/' },
    }),
  ratelimit: pluginRateLimitSchema.default({}),
});

type RateLimitInput = z.infer<typeof rateLimitSchema>;

function rateLimit(input: RateLimitInput, fallback: RateLimit): RateLimit {
  return {
    enabled: input.enabled ?? fallback.enabled,
    max: input.max ?? fallback.max,
    windowSeconds:
      input.interval === undefined ? fallback.windowSeconds : Math.max(1, Math.ceil(input.interval / 1000)),
  };
}

/** The rule every secret must pass in production (docs/security.md "Secrets"). */
const SECRET_RULE = { minLength: 16, minDistinct: 8 } as const;

/** Placeholders of Strapi's `.env.example` and tutorials: never a secret, however long. */
const PLACEHOLDER = /tobemodified|changeme|change-me|change_me|replaceme|yoursecret|your-secret|mysecret/i;

/** Why a secret is weak, or undefined when it passes SECRET_RULE. */
export function secretWeakness(secret: string): string | undefined {
  const characters = [...secret];
  if (characters.length < SECRET_RULE.minLength) {
    return `it has ${characters.length} character${characters.length === 1 ? '' : 's'}`;
  }
  if (new Set(characters).size < SECRET_RULE.minDistinct)
    return `it uses fewer than ${SECRET_RULE.minDistinct} different characters`;
  if (PLACEHOLDER.test(secret)) return 'it is a placeholder';
  return undefined;
}

interface SecretSource {
  /** What the message names: the variable, or the setting and its file. */
  label: string;
  /** The file a refusal names (ProjectError's `file`), none for the environment. */
  file?: string;
  value: unknown;
}

/**
 * The secret of the first source that has one (an empty environment variable is none), checked:
 * in production a weak one stops start-up, naming where it came from and how to make a good one;
 * elsewhere it is accepted with a warning.
 */
function checkedSecret(sources: SecretSource[], production: boolean, warnings: string[]): string | undefined {
  const source = sources.find((s) => s.value !== undefined && s.value !== null && s.value !== '');
  if (!source) return undefined;
  if (typeof source.value !== 'string') throw new ProjectError(`${source.label} must be a string`, source.file);
  const weakness = secretWeakness(source.value);
  if (!weakness) return source.value;
  const rule = `a secret needs at least ${SECRET_RULE.minLength} characters, ${SECRET_RULE.minDistinct} of them different (generate one with \`openssl rand -base64 32\`)`;
  if (production) throw new ProjectError(`${source.label} is too weak: ${weakness}; ${rule}`, source.file);
  warnings.push(
    `${source.label} is weak: ${weakness}; accepted outside production, refused when NODE_ENV=production: ${rule}`,
  );
  return source.value;
}

export function resolveAuthConfig(config: VellumConfig, env: NodeJS.ProcessEnv = config.env): AuthConfig {
  const raw = asRecord(asRecord(config.plugins['users-permissions']).config);
  const plugin = parseConfig(pluginSchema, raw, 'config/plugins', 'users-permissions.config.');
  const duration = (value: string | number, key: string) => {
    try {
      return parseDuration(value);
    } catch (error) {
      throw new ProjectError(`users-permissions.config.${key}: ${(error as Error).message}`, 'config/plugins');
    }
  };
  const jwtLifetime = duration(plugin.jwt.expiresIn, 'jwt.expiresIn');
  const perAccount = plugin.ratelimit.perAccount === true;
  const stricter = { enabled: true, max: 5, windowSeconds: 300 };
  const loginLimit = rateLimit(plugin.ratelimit, perAccount ? stricter : { enabled: true, max: 10, windowSeconds: 60 });
  const admin = asRecord(config.admin);
  const production = config.environment === 'production';
  const warnings: string[] = [];
  const jwtSecret = checkedSecret(
    [
      { label: 'users-permissions.config.jwtSecret', file: 'config/plugins', value: plugin.jwtSecret },
      { label: 'JWT_SECRET', value: env.JWT_SECRET },
    ],
    production,
    warnings,
  );
  if (production && !jwtSecret) {
    throw new ProjectError(
      'JWT_SECRET (or users-permissions.config.jwtSecret) is required in production; generate one with `openssl rand -base64 32`',
      'config/plugins',
    );
  }
  const adminJwtSecret = checkedSecret(
    [
      { label: 'auth.secret', file: 'config/admin', value: asRecord(admin.auth).secret },
      { label: 'ADMIN_JWT_SECRET', value: env.ADMIN_JWT_SECRET },
    ],
    production,
    warnings,
  );
  const apiTokenSalt = checkedSecret(
    [
      { label: 'apiToken.salt', file: 'config/admin', value: asRecord(admin.apiToken).salt },
      { label: 'API_TOKEN_SALT', value: env.API_TOKEN_SALT },
    ],
    production,
    warnings,
  );
  return {
    jwtSecret,
    jwtLifetime,
    adminJwtSecret,
    apiTokenSalt,
    allowedFields: plugin.register.allowedFields,
    allowRegister: plugin.register.enabled,
    advanced: plugin.advanced,
    emailTemplates: plugin.email,
    providers: plugin.providers,
    resetPasswordLifetime: duration(plugin.resetPasswordLifetime, 'resetPasswordLifetime'),
    emailConfirmationLifetime: duration(plugin.emailConfirmationLifetime, 'emailConfirmationLifetime'),
    validatePassword: plugin.validationRules.validatePassword,
    perAccount,
    loginLimit,
    // Strapi limits registration with `ratelimit` too; `register.ratelimit` sets it apart.
    registerLimit: rateLimit(plugin.register.ratelimit ?? {}, loginLimit),
    adminLoginLimit: rateLimit(plugin.ratelimit, stricter),
    production,
    warnings,
    jwtManagement: plugin.jwtManagement,
    admin: resolveAdminAuthConfig(admin),
    sessions: {
      accessTokenLifespan: plugin.sessions.accessTokenLifespan,
      maxRefreshTokenLifespan: plugin.sessions.maxRefreshTokenLifespan,
      idleRefreshTokenLifespan: plugin.sessions.idleRefreshTokenLifespan,
      httpOnly: plugin.sessions.httpOnly,
      cookie: plugin.sessions.cookie,
    },
  };
}
