/**
 * Strapi 5.54's admin API for administrators, roles and permissions, at its paths and in its
 * shapes (answers compared with Strapi's; test/fixtures/admin-roles/): `/admin/users` (a page,
 * one, invite, update, delete, batch-delete), `/admin/users/me` and its permissions,
 * `/admin/roles` with `/admin/roles/:id/permissions`, `/admin/permissions`, and an invited
 * administrator's `/admin/registration-info` and `/admin/register` (public, as Strapi's). The
 * actions each route requires are in guard.ts.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sendCompressibleJson } from '../../api/json-body.js';
import { ApplicationError, NotFoundError, ValidationError, type FieldError } from '../../core/errors.js';
import { isPlainObject } from '../../core/objects.js';
import { checkRole } from '../admin-roles/index.js';
import type { Auth } from '../users-permissions/index.js';
import { adminCaller } from './guard.js';
import { auditedBy } from './actor.js';
import { passwordErrors } from './password-rule.js';
import { answerSignIn, signInOptions } from './sign-in.js';

type Body = Record<string, unknown>;
type IdParams = { id: string };

const fieldError = (path: string, message: string, value?: unknown): FieldError => ({
  path: [path],
  message,
  name: 'ValidationError',
  ...(value === undefined ? {} : { value }),
});

function fail(errors: FieldError[]): never {
  throw ValidationError.fromFieldErrors(errors);
}

const body = (request: FastifyRequest): Body => (isPlainObject(request.body) ? request.body : {});

/** An id in a path: digits; anything else names nothing. */
function idOf(raw: string, missing: string): number {
  if (!/^\d{1,15}$/.test(raw)) throw new NotFoundError(missing);
  return Number(raw);
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function unknownKeys(input: Body, allowed: string[]): FieldError[] {
  const extra = Object.keys(input).filter((key) => !allowed.includes(key));
  return extra.length ? [fieldError('', `this field has unspecified keys: ${extra.join(', ')}`)] : [];
}

function roleIds(value: unknown, errors: FieldError[]): number[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.length === 0) {
    errors.push(fieldError('roles', 'roles field must have at least 1 items'));
    return undefined;
  }
  const ids = value.map(Number);
  if (ids.some((id) => !Number.isSafeInteger(id) || id < 1)) {
    errors.push(fieldError('roles', 'roles must be an array of ids'));
    return undefined;
  }
  return ids;
}

/** `PUT /admin/users/:id` and `PUT /admin/users/me` bodies (Strapi's userUpdateSchema, profileUpdateSchema). */
function checkUpdate(input: Body, self: boolean) {
  const allowed = ['email', 'firstname', 'lastname', 'username', 'password', 'preferedLanguage'];
  const errors = unknownKeys(input, self ? [...allowed, 'currentPassword'] : [...allowed, 'isActive', 'roles']);
  const out: {
    email?: string;
    firstname?: string;
    lastname?: string | null;
    username?: string | null;
    password?: string;
    preferedLanguage?: string | null;
    isActive?: boolean;
    roles?: number[];
  } = {};
  const { email, firstname, lastname, username, password, preferedLanguage, isActive } = input;
  if (email !== undefined) {
    if (typeof email !== 'string' || !EMAIL.test(email))
      errors.push(fieldError('email', 'email must be a valid email'));
    else out.email = email.toLowerCase();
  }
  if (firstname !== undefined) {
    if (typeof firstname !== 'string' || firstname.trim() === '')
      errors.push(fieldError('firstname', 'firstname must be at least 1 characters'));
    else out.firstname = firstname.trim();
  }
  if (lastname !== undefined) {
    if (lastname !== null && typeof lastname !== 'string')
      errors.push(fieldError('lastname', 'lastname must be a `string` type'));
    else out.lastname = lastname;
  }
  if (username !== undefined) {
    if (username !== null && (typeof username !== 'string' || username === ''))
      errors.push(fieldError('username', 'username must be at least 1 characters'));
    else out.username = username;
  }
  if (preferedLanguage !== undefined)
    out.preferedLanguage = typeof preferedLanguage === 'string' ? preferedLanguage : null;
  if (password !== undefined) {
    const problems = passwordErrors('password', password);
    if (problems.length) errors.push(...problems);
    else out.password = password as string;
  }
  if (!self && isActive !== undefined) {
    if (typeof isActive !== 'boolean') errors.push(fieldError('isActive', 'isActive must be a `boolean` type'));
    else out.isActive = isActive;
  }
  if (!self) {
    const roles = roleIds(input.roles, errors);
    if (roles) out.roles = roles;
  }
  if (self && password !== undefined && (typeof input.currentPassword !== 'string' || input.currentPassword === ''))
    errors.push(fieldError('currentPassword', 'currentPassword is a required field'));
  if (errors.length) fail(errors);
  return out;
}

export function registerAdminUserRoutes(admin: FastifyInstance, auth: Auth, prefix: string): void {
  const { admins, adminRoles } = auth;

  admin.get<{ Querystring: Record<string, unknown> }>(`${prefix}/users`, async (request) => ({
    data: await admins.page(request.query),
  }));
  admin.get<{ Params: IdParams }>(`${prefix}/users/me`, async (request) => ({
    data: await admins.get((await adminCaller(auth, request)).id),
  }));
  admin.put(`${prefix}/users/me`, async (request) => {
    const { id } = await adminCaller(auth, request);
    const input = body(request);
    const changes = checkUpdate(input, true);
    if (changes.password !== undefined && !(await admins.verifyPassword(id, input.currentPassword)))
      fail([fieldError('currentPassword', 'Invalid credentials')]);
    if (changes.email !== undefined && (await admins.emailTaken(changes.email, id)))
      fail([fieldError('email', 'Email already taken')]);
    // A new password ends the administrator's other sessions; this one goes on.
    const { sessionId } = await admins.authenticateSession(request.headers.authorization);
    return { data: await admins.update(id, changes, auditedBy(request, auth.audit), sessionId) };
  });
  admin.get(`${prefix}/users/me/permissions`, async (request, reply) => {
    const { id } = await adminCaller(auth, request);
    return sendCompressibleJson(request, reply, { data: await adminRoles.permissionsOfUser(id) });
  });
  admin.post(`${prefix}/users`, async (request, reply) => {
    const input = body(request);
    const errors = unknownKeys(input, ['email', 'firstname', 'lastname', 'roles', 'preferedLanguage']);
    // Strapi reads a missing email as '' (lodash get with a default) before checking it.
    const email = typeof input.email === 'string' ? input.email.toLowerCase() : (input.email ?? '');
    if (email === null || email === '') errors.push(fieldError('email', 'email is a required field', email));
    else if (typeof email !== 'string' || !EMAIL.test(email))
      errors.push(fieldError('email', 'email must be a valid email'));
    if (typeof input.firstname !== 'string' || input.firstname.trim() === '')
      errors.push(fieldError('firstname', 'firstname is a required field'));
    // Roles are optional (Strapi's `roles.min(1)`, not required): an invitation without any is allowed.
    const roles = roleIds(input.roles, errors) ?? [];
    if (errors.length) fail(errors);
    const { admin: created, registrationToken } = await admins.invite(
      {
        email: email as string,
        firstname: (input.firstname as string).trim(),
        lastname: typeof input.lastname === 'string' ? input.lastname : null,
        roles,
        preferedLanguage: typeof input.preferedLanguage === 'string' ? input.preferedLanguage : null,
      },
      auditedBy(request, auth.audit),
    );
    return reply.status(201).send({ data: { ...created, registrationToken } });
  });
  admin.get<{ Params: IdParams }>(`${prefix}/users/:id`, async (request) => {
    const found = await admins.find(idOf(request.params.id, 'User does not exist'));
    if (!found) throw new NotFoundError('User does not exist');
    return { data: found };
  });
  admin.put<{ Params: IdParams }>(`${prefix}/users/:id`, async (request) => {
    const id = idOf(request.params.id, 'User does not exist');
    const changes = checkUpdate(body(request), false);
    if (changes.email !== undefined && (await admins.emailTaken(changes.email, id)))
      throw new ApplicationError('A user with this email address already exists');
    return { data: await admins.update(id, changes, auditedBy(request, auth.audit)) };
  });
  admin.delete<{ Params: IdParams }>(`${prefix}/users/:id`, async (request) => {
    const id = idOf(request.params.id, 'User not found');
    const { id: self } = await adminCaller(auth, request);
    const [removed] = await admins.removeMany([id], self, auditedBy(request, auth.audit));
    if (!removed) throw new NotFoundError('User not found');
    return { data: removed };
  });
  admin.post(`${prefix}/users/batch-delete`, async (request) => {
    const input = body(request);
    const ids = Array.isArray(input.ids) ? input.ids.map(Number) : [];
    if (ids.length === 0 || ids.some((id) => !Number.isSafeInteger(id)))
      fail([fieldError('ids', 'ids field must have at least 1 items')]);
    const { id: self } = await adminCaller(auth, request);
    return { data: await admins.removeMany(ids, self, auditedBy(request, auth.audit)) };
  });

  admin.get(`${prefix}/roles`, async () => ({ data: await adminRoles.list() }));
  admin.get<{ Params: IdParams }>(`${prefix}/roles/:id`, async (request) => ({
    data: await adminRoles.get(idOf(request.params.id, 'role.notFound')),
  }));
  admin.post(`${prefix}/roles`, async (request, reply) => {
    const { name, description } = checkRole(request.body, true);
    const role = await adminRoles.create({ name: name!, description }, auditedBy(request, auth.audit));
    return reply.status(201).send({ data: role });
  });
  admin.put<{ Params: IdParams }>(`${prefix}/roles/:id`, async (request) => ({
    data: await adminRoles.update(
      idOf(request.params.id, 'role.notFound'),
      checkRole(request.body, false),
      auditedBy(request, auth.audit),
    ),
  }));
  admin.delete<{ Params: IdParams }>(`${prefix}/roles/:id`, async (request) => {
    const [deleted] = await adminRoles.delete(
      [idOf(request.params.id, 'role.notFound')],
      'id',
      auditedBy(request, auth.audit),
    );
    return { data: deleted ?? null };
  });
  admin.post(`${prefix}/roles/batch-delete`, async (request) => {
    const input = body(request);
    const ids = Array.isArray(input.ids) ? input.ids.map(Number) : [];
    if (ids.length === 0 || ids.some((id) => !Number.isSafeInteger(id)))
      fail([fieldError('ids', 'ids field must have at least 1 items')]);
    return { data: await adminRoles.delete(ids, 'ids', auditedBy(request, auth.audit)) };
  });
  admin.get<{ Params: IdParams }>(`${prefix}/roles/:id/permissions`, async (request) => ({
    data: await adminRoles.permissions(idOf(request.params.id, 'role.notFound')),
  }));
  admin.put<{ Params: IdParams }>(`${prefix}/roles/:id/permissions`, async (request) => ({
    data: await adminRoles.setPermissions(
      idOf(request.params.id, 'role.notFound'),
      request.body,
      auditedBy(request, auth.audit),
    ),
  }));
  admin.get(`${prefix}/permissions`, async () => ({ data: await adminRoles.sections() }));
  // Strapi's check of several permissions at once: a boolean each, in order.
  admin.post(`${prefix}/permissions/check`, async (request) => {
    const input = body(request);
    const list = input.permissions === undefined ? [] : input.permissions;
    if (!Array.isArray(list)) fail([fieldError('permissions', 'permissions must be a `array` type')]);
    const errors: FieldError[] = [];
    list.forEach((item, index) => {
      const at = ['permissions', String(index)];
      if (!isPlainObject(item) || typeof item.action !== 'string' || item.action === '')
        errors.push({
          path: [...at, 'action'],
          message: `permissions[${index}].action is a required field`,
          name: 'ValidationError',
        });
    });
    if (errors.length) fail(errors);
    const { ability } = await adminCaller(auth, request);
    return {
      data: (list as { action: string; subject?: string | null; field?: string }[]).map(({ action, subject, field }) =>
        ability.canField(action, subject, field),
      ),
    };
  });
}

/** An invited administrator's registration: public routes, as Strapi's. */
export function registerInvitationRoutes(app: FastifyInstance, auth: Auth, prefix: string): void {
  app.get<{ Querystring: { registrationToken?: unknown } }>(`${prefix}/registration-info`, async (request) => {
    const code = request.query.registrationToken;
    if (typeof code !== 'string' || code === '')
      fail([fieldError('registrationToken', 'registrationToken is a required field')]);
    const info = await auth.admins.registrationInfo(code);
    if (!info) throw new ValidationError('Invalid registrationToken');
    return { data: info };
  });
  app.post(`${prefix}/register`, async (request, reply) => {
    const input = body(request);
    const errors: FieldError[] = [];
    const code = input.registrationToken;
    const info = isPlainObject(input.userInfo) ? input.userInfo : undefined;
    if (typeof code !== 'string' || code === '')
      errors.push(fieldError('registrationToken', 'registrationToken is a required field'));
    if (!info) errors.push(fieldError('userInfo', 'userInfo is a required field'));
    else {
      if (typeof info.firstname !== 'string' || info.firstname.trim() === '')
        errors.push(fieldError('userInfo.firstname', 'userInfo.firstname is a required field'));
      if (info.password === undefined)
        errors.push(fieldError('userInfo.password', 'userInfo.password is a required field'));
      else
        errors.push(
          ...passwordErrors('userInfo.password', info.password).map((e) => ({
            ...e,
            path: ['userInfo', 'password'],
            value: info.password,
          })),
        );
    }
    if (errors.length) fail(errors);
    const options = signInOptions(request);
    const { id } = await auth.admins.register(
      code as string,
      info!.password as string,
      {
        firstname: (info!.firstname as string).trim(),
        ...(typeof info!.lastname === 'string' ? { lastname: info!.lastname } : {}),
      },
      auth.audit,
    );
    return answerSignIn(auth, request, reply, id, options);
  });
}
