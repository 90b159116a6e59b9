/**
 * The administrators' sign-in settings of `config/admin`, read as Strapi 5.54 reads them:
 *
 * - `auth.sessions`: `accessTokenLifespan` (default 30 minutes), `idleSessionLifespan` and
 *   `maxSessionLifespan` for a sign-in that ends with the browser (2 hours idle, 1 day at most),
 *   `idleRefreshTokenLifespan` and `maxRefreshTokenLifespan` for "remember me" (14 and 30 days);
 * - `auth.cookie`: the refresh cookie's `secure`, `sameSite` (lax), `path` (`/admin`), `domain`
 *   (or `auth.domain`);
 * - `forgotPassword`: `from`, `replyTo`, `emailTemplate` (`subject`, `text`, `html`) and
 *   `expiresIn` (a code's lifetime, 1 hour) of the forgotten-password email.
 *
 * Anything else in these keys stops start-up with one line naming it.
 */
import { z } from 'zod';
import { ProjectError } from '../../core/errors.js';
import { asRecord } from '../../core/objects.js';
import { parseConfig } from '../../core/config/validate.js';
import { parseDuration } from './durations.js';

export interface AdminSessionsConfig {
  accessTokenLifespan: number;
  /** "Remember me": lifespans of the refresh family, in seconds. */
  idleRefreshTokenLifespan: number;
  maxRefreshTokenLifespan: number;
  /** Without "remember me": lifespans of the session family, in seconds. */
  idleSessionLifespan: number;
  maxSessionLifespan: number;
  cookie: { secure?: boolean; sameSite: 'lax' | 'strict' | 'none'; path: string; domain?: string };
}

export interface AdminForgotPasswordConfig {
  from?: string;
  replyTo?: string;
  /** Strapi's template: lodash-style `<%= url %>` and `<%= user.firstname %>`. */
  emailTemplate: { subject: string; text: string; html: string };
  /** A code's lifetime in seconds. */
  expiresIn: number;
}

export interface AdminAuthConfig {
  sessions: AdminSessionsConfig;
  forgotPassword: AdminForgotPasswordConfig;
}

// Strapi 5.54's words (admin/server/src/config/email-templates/forgot-password.js).
const TEMPLATE = {
  subject: 'Reset password',
  text: `We heard that you lost your password. Sorry about that!

But don’t worry! You can use the following link to reset your password:

<%= url %>

Thanks.`,
  html: `<p>We heard that you lost your password. Sorry about that!</p>

<p>But don’t worry! You can use the following link to reset your password:</p>

<p><%= url %></p>

<p>Thanks.</p>`,
};

const seconds = z.number().int().positive();

const schema = z
  .object({
    auth: z
      .object({
        domain: z
          .string()
          .regex(/^[^;\s]+$/, 'must be a domain')
          .optional(),
        sessions: z
          .object({
            accessTokenLifespan: seconds.default(30 * 60),
            idleRefreshTokenLifespan: seconds.default(14 * 24 * 3600),
            maxRefreshTokenLifespan: seconds.default(30 * 24 * 3600),
            idleSessionLifespan: seconds.default(2 * 3600),
            maxSessionLifespan: seconds.default(24 * 3600),
          })
          .catchall(z.unknown())
          .prefault({}),
        cookie: z
          .object({
            secure: z.boolean().optional(),
            sameSite: z.enum(['lax', 'strict', 'none']).default('lax'),
            path: z
              .string()
              .regex(/^\/[^;\s]*$/, 'must be a path')
              .default('/admin'),
            domain: z
              .string()
              .regex(/^[^;\s]+$/, 'must be a domain')
              .optional(),
          })
          .catchall(z.unknown())
          .prefault({}),
      })
      .catchall(z.unknown())
      .prefault({}),
    forgotPassword: z
      .object({
        from: z.string().optional(),
        replyTo: z.string().optional(),
        emailTemplate: z.object({ subject: z.string(), text: z.string(), html: z.string() }).partial().optional(),
        expiresIn: z.union([z.string(), z.number()]).default('1h'),
      })
      .catchall(z.unknown())
      .prefault({}),
  })
  .catchall(z.unknown());

export function resolveAdminAuthConfig(admin: unknown): AdminAuthConfig {
  const parsed = parseConfig(schema, asRecord(admin), 'config/admin');
  const { sessions, cookie, domain } = parsed.auth;
  let expiresIn: number;
  try {
    expiresIn = parseDuration(parsed.forgotPassword.expiresIn);
  } catch (error) {
    throw new ProjectError(`forgotPassword.expiresIn: ${(error as Error).message}`, 'config/admin');
  }
  if (expiresIn <= 0) throw new ProjectError('forgotPassword.expiresIn: must be a positive duration', 'config/admin');
  return {
    sessions: {
      accessTokenLifespan: sessions.accessTokenLifespan,
      idleRefreshTokenLifespan: sessions.idleRefreshTokenLifespan,
      maxRefreshTokenLifespan: sessions.maxRefreshTokenLifespan,
      idleSessionLifespan: sessions.idleSessionLifespan,
      maxSessionLifespan: sessions.maxSessionLifespan,
      cookie: { secure: cookie.secure, sameSite: cookie.sameSite, path: cookie.path, domain: cookie.domain ?? domain },
    },
    forgotPassword: {
      from: parsed.forgotPassword.from,
      replyTo: parsed.forgotPassword.replyTo,
      emailTemplate: { ...TEMPLATE, ...parsed.forgotPassword.emailTemplate },
      expiresIn,
    },
  };
}
