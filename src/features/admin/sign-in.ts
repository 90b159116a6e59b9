/**
 * How administrators sign in, as Strapi 5.54's admin API: `POST /admin/login` (with `rememberMe`
 * and `deviceId`), the refresh cookie traded at `POST /admin/access-token`, a forgotten password
 * (`POST /admin/forgot-password`, `POST /admin/reset-password`), and the signed-in administrator's
 * sessions (`GET|DELETE /admin/users/me/sessions`, `DELETE /admin/users/me/sessions/:sessionId`).
 * Every sign-in answers `{ data: { token, accessToken, user } }` and sets the cookie (the sessions'
 * rules: users-permissions/admin-sessions.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  ADMIN_REFRESH_COOKIE,
  cookieValue,
  deviceName,
  type AdminSessionTokens,
  type Auth,
  type SignInOptions,
} from '../users-permissions/index.js';
import { NotFoundError, ValidationError, type FieldError } from '../../core/errors.js';
import { isPlainObject } from '../../core/objects.js';
import { passwordErrors } from './password-rule.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
/** An email address as the admin's sign-in, reset and registration check it. */
export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

type Body = Record<string, unknown>;
const bodyOf = (request: FastifyRequest): Body => (isPlainObject(request.body) ? request.body : {});

/** A field's error in the ValidationError of the admin's sign-in, reset and registration (Strapi's messages). */
export const required = (path: string): FieldError => ({
  path: [path],
  message: `${path} is a required field`,
  name: 'ValidationError',
});
export const invalid = (path: string, message: string, value: unknown): FieldError => ({
  path: [path],
  message,
  name: 'ValidationError',
  value,
});

function fail(errors: FieldError[]): void {
  if (errors.length === 1) throw new ValidationError(errors[0]!.message, { errors });
  if (errors.length > 1) throw new ValidationError(`${errors.length} errors occurred`, { errors });
}

/** yup's words for a value that is not of the type (`rememberMe: "yes"`). */
const typeError = (path: string, type: string, value: unknown): FieldError =>
  invalid(path, `${path} must be a \`${type}\` type, but the final value was: \`${JSON.stringify(value)}\`.`, value);

/** A sign-in body's session fields (Strapi's `validateLoginSessionInput`): `deviceId` a UUID, `rememberMe` a boolean. */
export function signInOptions(request: FastifyRequest): SignInOptions {
  const { deviceId, rememberMe } = bodyOf(request);
  const errors: FieldError[] = [];
  if (deviceId !== undefined && (typeof deviceId !== 'string' || !UUID.test(deviceId)))
    errors.push(
      typeof deviceId === 'string'
        ? invalid('deviceId', 'deviceId must be a valid UUID', deviceId)
        : typeError('deviceId', 'string', deviceId),
    );
  if (rememberMe !== undefined && typeof rememberMe !== 'boolean')
    errors.push(typeError('rememberMe', 'boolean', rememberMe));
  fail(errors);
  return {
    rememberMe: rememberMe === true,
    ...(typeof deviceId === 'string' ? { deviceId } : {}),
    deviceName: deviceName(request.headers['user-agent']),
  };
}

/** Whether the refresh cookie is `secure`: in production over HTTPS, unless `auth.cookie.secure` says. */
const secureRequest = (auth: Auth, request: FastifyRequest) => auth.config.production && request.protocol === 'https';

function setCookie(auth: Auth, request: FastifyRequest, reply: FastifyReply, tokens?: AdminSessionTokens): void {
  reply.header('set-cookie', auth.admins.sessions.cookie(tokens, secureRequest(auth, request)));
}

/** A new session's answer: the cookie set, and Strapi's `{ data: { token, accessToken, user } }`. */
export async function answerSignIn(
  auth: Auth,
  request: FastifyRequest,
  reply: FastifyReply,
  id: number,
  options: SignInOptions,
  /** Strapi's login answers the administrator without their roles; registrations with them. */
  withRoles = true,
): Promise<{ data: { token: string; accessToken: string; user: unknown } }> {
  const tokens = await auth.admins.signIn(id, options);
  setCookie(auth, request, reply, tokens);
  const { roles, ...user } = await auth.admins.get(id);
  return {
    data: { token: tokens.accessToken, accessToken: tokens.accessToken, user: withRoles ? { ...user, roles } : user },
  };
}

/** The public routes: login, the cookie's exchange, a forgotten password. */
export function registerSignInRoutes(app: FastifyInstance, auth: Auth, prefix = '/admin'): void {
  app.post(`${prefix}/login`, async (request, reply) => {
    const options = signInOptions(request);
    const { email, password } = bodyOf(request);
    const id = await auth.admins.login(email, password, request.clientIp, auth.audit);
    return answerSignIn(auth, request, reply, id, options, false);
  });

  app.post(`${prefix}/access-token`, async (request, reply) => {
    const tokens = await auth.admins.sessions.rotate(cookieValue(request.headers.cookie, ADMIN_REFRESH_COOKIE));
    setCookie(auth, request, reply, tokens);
    return { data: { token: tokens.accessToken } };
  });

  app.post(`${prefix}/forgot-password`, async (request, reply) => {
    const { email } = bodyOf(request);
    // Strapi's yup rules and words (validation/authentication/forgot-password).
    if (email === undefined || email === null || email === '') fail([required('email')]);
    else if (typeof email !== 'string' || !EMAIL.test(email))
      fail([invalid('email', 'email must be a valid email', email)]);
    else if (email !== email.toLowerCase()) fail([invalid('email', 'email must be a lowercase string', email)]);
    await auth.admins.forgotPassword(email as string);
    return reply.status(204).send();
  });

  app.post(`${prefix}/reset-password`, async (request, reply) => {
    const { resetPasswordToken, password } = bodyOf(request);
    const errors: FieldError[] = [];
    if (typeof resetPasswordToken !== 'string' || resetPasswordToken === '')
      errors.push(required('resetPasswordToken'));
    if (password === undefined || password === null || password === '') errors.push(required('password'));
    else errors.push(...passwordErrors('password', password).map((error) => ({ ...error, value: password })));
    fail(errors);
    const id = await auth.admins.resetPassword(resetPasswordToken as string, password as string, auth.audit);
    const tokens = await auth.admins.signIn(id, { deviceName: deviceName(request.headers['user-agent']) });
    setCookie(auth, request, reply, tokens);
    // Strapi's answer here has no `accessToken`.
    return { data: { token: tokens.accessToken, user: await auth.admins.get(id) } };
  });
}

/** The session of the request's access token (the scope's hook checked the token already). */
async function sessionOf(auth: Auth, request: FastifyRequest): Promise<string> {
  return (await auth.admins.authenticateSession(request.headers.authorization)).sessionId;
}

/** The routes of a signed-in administrator: log out, their sessions. */
export function registerSessionRoutes(
  admin: FastifyInstance,
  auth: Auth,
  actorOf: (request: FastifyRequest) => number,
  prefix = '/admin',
): void {
  admin.post(`${prefix}/logout`, async (request, reply) => {
    // The cookie goes whatever happens, as Strapi's.
    setCookie(auth, request, reply);
    await auth.admins.logout(actorOf(request), bodyOf(request).deviceId, auth.audit);
    return { data: {} };
  });
  admin.get(`${prefix}/users/me/sessions`, async (request) => ({
    data: await auth.admins.sessions.list(actorOf(request), await sessionOf(auth, request)),
  }));
  admin.delete<{ Querystring: { keepCurrent?: string } }>(`${prefix}/users/me/sessions`, async (request) => {
    const keep = request.query.keepCurrent === 'true' || request.query.keepCurrent === '1';
    await auth.admins.sessions.revoke(actorOf(request), keep ? { except: await sessionOf(auth, request) } : {});
    return { data: {} };
  });
  admin.delete<{ Params: { sessionId: string } }>(`${prefix}/users/me/sessions/:sessionId`, async (request) => {
    const ended = await auth.admins.sessions.revoke(actorOf(request), { sessionId: request.params.sessionId });
    if (ended === 0) throw new NotFoundError('Session not found');
    return { data: {} };
  });
}
