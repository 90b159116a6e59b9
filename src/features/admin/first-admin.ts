/**
 * The first minutes of an administrator, as Strapi's admin API: `GET /admin/init` (whether an
 * administrator exists: a fresh panel offers to create the first) and `POST /admin/register-admin`
 * (the first administrator, a super admin; refused once one exists). Both are public, as Strapi's.
 * The body is checked with Strapi's rules and words (its yup messages).
 */
import type { FastifyInstance } from 'fastify';
import { ValidationError, type FieldError } from '../../core/errors.js';
import { isPlainObject } from '../../core/objects.js';
import type { Auth } from '../users-permissions/index.js';
import { answerSignIn, EMAIL, invalid, required, signInOptions } from './sign-in.js';

/** Strapi's `registerAdmin` rules, its errors in its order (email, firstname, password). */
function checkRegistration(body: Record<string, unknown>): { email: string; password: string; firstname: string } {
  const errors: FieldError[] = [];
  const { email, firstname, password } = body;
  if (email === undefined || email === null || email === '') errors.push(required('email'));
  else if (typeof email !== 'string' || !EMAIL.test(email))
    errors.push(invalid('email', 'email must be a valid email', email));
  else if (email !== email.toLowerCase()) errors.push(invalid('email', 'email must be a lowercase string', email));
  if (typeof firstname !== 'string' || firstname === '') errors.push(required('firstname'));
  if (password === undefined || password === null || password === '') errors.push(required('password'));
  else {
    const text = String(password);
    if (text.length < 8) errors.push(invalid('password', 'password must be at least 8 characters', password));
    if (Buffer.byteLength(text) > 72) errors.push(invalid('password', 'password must be less than 73 bytes', password));
    if (!/[a-z]/.test(text))
      errors.push(invalid('password', 'password must contain at least one lowercase character', password));
    if (!/[A-Z]/.test(text))
      errors.push(invalid('password', 'password must contain at least one uppercase character', password));
    if (!/\d/.test(text)) errors.push(invalid('password', 'password must contain at least one number', password));
  }
  if (errors.length === 1) throw new ValidationError(errors[0]!.message, { errors });
  if (errors.length > 1) throw new ValidationError(`${errors.length} errors occurred`, { errors });
  return { email: email as string, password: password as string, firstname: firstname as string };
}

export function registerFirstAdminRoutes(app: FastifyInstance, auth: Auth, prefix = '/admin'): void {
  app.get(`${prefix}/init`, async () => ({
    data: { uuid: false, hasAdmin: await auth.admins.any(), menuLogo: null, authLogo: null },
  }));
  app.post(`${prefix}/register-admin`, async (request, reply) => {
    const body = isPlainObject(request.body) ? request.body : {};
    const { email, password, firstname } = checkRegistration(body);
    const options = signInOptions(request);
    const { id } = await auth.admins.registerFirst(
      email,
      password,
      {
        firstname,
        lastname: typeof body.lastname === 'string' ? body.lastname : null,
      },
      auth.audit,
    );
    return answerSignIn(auth, request, reply, id, options);
  });
}
