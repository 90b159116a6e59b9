/**
 * Users-and-permissions settings, read as Strapi's: `config/plugins` -> `users-permissions.config`
 * (`jwtSecret`, `jwt.expiresIn`, `register.allowedFields`, `ratelimit`, `advanced`, `email`,
 * `validationRules`, the lifetimes of reset and confirmation codes), `config/admin`
 * (`auth.secret`, `apiToken.salt`), and the environment (`JWT_SECRET`, `ADMIN_JWT_SECRET`,
 * `API_TOKEN_SALT`).
 */
import { z } from 'zod';
import type { VellumConfig } from '../config/load.js';
import { ProjectError } from '../errors.js';
import { asRecord } from '../objects.js';
import { parseConfig } from '../config/validate.js';

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
  /** How long a password reset code stays valid, in seconds (`resetPasswordLifetime`, default 1h). */
  resetPasswordLifetime: number;
  /** How long an email confirmation link stays valid, in seconds (`emailConfirmationLifetime`, default 1d). */
  emailConfirmationLifetime: number;
  /** Strapi's `validationRules.validatePassword`: false (or a throw) refuses a new password. */
  validatePassword?: (password: string) => unknown;
  /** Failed logins allowed per client and identifier in `loginWindow` seconds. */
  loginAttempts: number;
  loginWindow: number;
  production: boolean;
  /** `jwtManagement`: `legacy-support` (one long-lived JWT) or `refresh` (short access tokens and refresh sessions). */
  jwtManagement: 'legacy-support' | 'refresh';
  /** `sessions` of `refresh` mode (sessions.ts). */
  sessions: SessionsConfig;
}

/** Strapi 5's `sessions` settings, lifespans in seconds. */
export interface SessionsConfig {
  accessTokenLifespan: number;
  maxRefreshTokenLifespan: number;
  idleRefreshTokenLifespan: number;
  /** Send the refresh token in an httpOnly cookie instead of the body (also per request: `x-strapi-refresh-cookie: httpOnly`). */
  httpOnly: boolean;
  cookie: { name: string; secure?: boolean; sameSite: 'lax' | 'strict' | 'none'; path: string; domain?: string; maxAge?: number };
}

const UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400, w: 604800, y: 31557600 };

/** `30d`, `12h`, `3600` (seconds) as the `jsonwebtoken` style `expiresIn` Strapi configs use. */
function parseDuration(value: string | number): number {
  if (typeof value === 'number') return value;
  const match = /^(\d+)\s*(s|m|h|d|w|y)?$/.exec(value.trim());
  if (!match) throw new Error(`"${value}" is not a duration such as 30d, 12h or 3600`);
  return Number(match[1]) * UNITS[match[2] ?? 's']!;
}

const pluginSchema = z.object({
  jwtSecret: z.string().min(16).optional(),
  jwt: z.object({ expiresIn: z.union([z.string(), z.number()]).default('30d') }).default({ expiresIn: '30d' }),
  register: z.object({ allowedFields: z.array(z.string()).default([]), enabled: z.boolean().optional() }).default({ allowedFields: [] }),
  advanced: z.record(z.string(), z.unknown()).default({}),
  email: z.record(z.string(), z.unknown()).default({}),
  resetPasswordLifetime: z.union([z.string(), z.number()]).default('1h'),
  emailConfirmationLifetime: z.union([z.string(), z.number()]).default('1d'),
  validationRules: z
    .object({ validatePassword: z.custom<(password: string) => unknown>((value) => typeof value === 'function', 'must be a function').optional() })
    .catchall(z.unknown())
    .default({}),
  jwtManagement: z.enum(['legacy-support', 'refresh']).default('legacy-support'),
  sessions: z
    .object({
      // Strapi's defaults (services/constants.js): 10 minutes, 30 days, 14 days.
      accessTokenLifespan: z.number().int().default(10 * 60),
      maxRefreshTokenLifespan: z.number().int().default(30 * 24 * 3600),
      idleRefreshTokenLifespan: z.number().int().default(14 * 24 * 3600),
      httpOnly: z.boolean().default(false),
      cookie: z
        .object({
          name: z.string().regex(/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/, 'must be a cookie name').default('strapi_up_refresh'),
          secure: z.boolean().optional(),
          sameSite: z.enum(['lax', 'strict', 'none']).default('lax'),
          path: z.string().regex(/^\/[^;\s]*$/, 'must be a path').default('/'),
          domain: z.string().regex(/^[^;\s]+$/, 'must be a domain').optional(),
          // Milliseconds, as Koa's cookies take it.
          maxAge: z.number().int().positive().optional(),
        })
        .default({ name: 'strapi_up_refresh', sameSite: 'lax', path: '/' }),
    })
    .catchall(z.unknown())
    .default({ accessTokenLifespan: 600, maxRefreshTokenLifespan: 30 * 24 * 3600, idleRefreshTokenLifespan: 14 * 24 * 3600, httpOnly: false, cookie: { name: 'strapi_up_refresh', sameSite: 'lax', path: '/' } }),
  ratelimit: z.object({ max: z.number().int().positive().default(5), interval: z.number().int().positive().default(5 * 60_000) }).default({ max: 5, interval: 5 * 60_000 }),
});

export function resolveAuthConfig(config: VellumConfig, env: NodeJS.ProcessEnv = process.env): AuthConfig {
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
  const admin = asRecord(config.admin);
  const production = config.environment === 'production';
  const jwtSecret = plugin.jwtSecret ?? env.JWT_SECRET;
  if (production && !jwtSecret) {
    throw new ProjectError('JWT_SECRET (or users-permissions.config.jwtSecret) is required in production', 'config/plugins');
  }
  return {
    jwtSecret,
    jwtLifetime,
    adminJwtSecret: (asRecord(admin.auth).secret as string | undefined) ?? env.ADMIN_JWT_SECRET,
    apiTokenSalt: (asRecord(admin.apiToken).salt as string | undefined) ?? env.API_TOKEN_SALT,
    allowedFields: plugin.register.allowedFields,
    allowRegister: plugin.register.enabled,
    advanced: plugin.advanced,
    emailTemplates: plugin.email,
    resetPasswordLifetime: duration(plugin.resetPasswordLifetime, 'resetPasswordLifetime'),
    emailConfirmationLifetime: duration(plugin.emailConfirmationLifetime, 'emailConfirmationLifetime'),
    validatePassword: plugin.validationRules.validatePassword,
    loginAttempts: plugin.ratelimit.max,
    loginWindow: Math.ceil(plugin.ratelimit.interval / 1000),
    production,
    jwtManagement: plugin.jwtManagement,
    sessions: {
      accessTokenLifespan: plugin.sessions.accessTokenLifespan,
      maxRefreshTokenLifespan: plugin.sessions.maxRefreshTokenLifespan,
      idleRefreshTokenLifespan: plugin.sessions.idleRefreshTokenLifespan,
      httpOnly: plugin.sessions.httpOnly,
      cookie: plugin.sessions.cookie,
    },
  };
}
