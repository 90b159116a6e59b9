/**
 * The admin API under `/admin/`: a surface of its own, reached only with an administrator's JWT
 * (`POST /admin/login`), never with content API tokens or user JWTs. It manages what the CLI
 * manages: API tokens, roles and their permissions, users, administrators (admin-access.ts), the users-permissions settings
 * (advanced settings, email templates), webhooks and scheduled actions (admin-events.ts).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Auth } from '../users-permissions/index.js';
import type { TokenType } from '../api-tokens/index.js';
import { ValidationError } from '../../core/errors.js';
import { registerAdminAccessRoutes, updateUser } from './access.js';
import { actorOf, auditedBy, rememberActor } from './actor.js';
import { registerFirstAdminRoutes } from './first-admin.js';
import { registerSessionRoutes, registerSignInRoutes } from './sign-in.js';
import { registerAdminUserRoutes, registerInvitationRoutes } from './admin-users.js';
import { registerAdminEventRoutes, type AdminEvents } from '../events/index.js';
import { adminCaller } from './guard.js';

type Body = Record<string, unknown>;
type Params = { ref: string; action: string };

function body(request: FastifyRequest): Body {
  const value = request.body;
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new ValidationError('The request body must be a JSON object');
  return value as Body;
}

function stringList(value: unknown, name: string): string[] {
  if (!Array.isArray(value) || value.length === 0 || value.some((item) => typeof item !== 'string')) {
    throw new ValidationError(`${name} must be a non-empty array of action strings`);
  }
  return value as string[];
}

/** Strapi's check of the settings routes. */
function nonEmpty(value: Body): Body {
  if (Object.keys(value).length === 0) throw new ValidationError('Request body cannot be empty');
  return value;
}

export function registerAdminRoutes(app: FastifyInstance, auth: Auth, events?: AdminEvents, prefix = '/admin'): void {
  registerSignInRoutes(app, auth, prefix);
  registerFirstAdminRoutes(app, auth, prefix);
  registerInvitationRoutes(app, auth, prefix);

  // Everything else needs an administrator.
  void app.register(async (admin) => {
    admin.addHook('onRequest', async (request) => {
      rememberActor(request, (await adminCaller(auth, request)).id);
    });
    /** Who makes this request's change, recorded in the audit log (none without a trail). */
    const by = (request: FastifyRequest) => auditedBy(request, auth.audit);

    // Log out (the audit log records it) and the administrator's own sessions.
    registerSessionRoutes(admin, auth, actorOf, prefix);

    admin.get(`${prefix}/api-tokens`, async () => ({ data: await auth.tokens.list() }));
    admin.get<{ Params: Params }>(`${prefix}/api-tokens/:ref`, async (request) => ({
      data: await auth.tokens.get(request.params.ref),
    }));
    admin.post(`${prefix}/api-tokens`, async (request, reply) => {
      const input = body(request);
      const type = input.type as TokenType;
      const permissions =
        type === 'custom' ? auth.expand(stringList(input.permissions, 'permissions'), 'permissions') : undefined;
      const lifespan = input.lifespan === undefined || input.lifespan === null ? null : Number(input.lifespan);
      const { token, accessKey } = await auth.tokens.create(
        {
          name: input.name as string,
          type,
          description: typeof input.description === 'string' ? input.description : null,
          lifespan,
          permissions,
        },
        by(request),
      );
      return reply.status(201).send({ data: { ...token, accessKey } });
    });
    admin.delete<{ Params: Params }>(`${prefix}/api-tokens/:ref`, async (request) => ({
      data: await auth.tokens.revoke(request.params.ref, by(request)),
    }));

    // Vellum's earlier API for the content API's roles, by documentId or type, granting and revoking
    // actions one by one (its `/admin/roles` are Strapi's administrator roles now).
    admin.get(`${prefix}/content-api/roles`, async () => ({ data: await auth.roles.list() }));
    admin.get<{ Params: Params }>(`${prefix}/content-api/roles/:ref`, async (request) => ({
      data: await auth.roles.get(request.params.ref),
    }));
    admin.post(`${prefix}/content-api/roles`, async (request, reply) => {
      const input = body(request);
      if (typeof input.name !== 'string') throw new ValidationError('name is required');
      const role = await auth.roles.create(
        input.name,
        typeof input.description === 'string' ? input.description : null,
        by(request),
      );
      return reply.status(201).send({ data: role });
    });
    admin.post<{ Params: Params }>(`${prefix}/content-api/roles/:ref/permissions`, async (request) => {
      const role = await auth.roles.get(request.params.ref);
      const actions = auth.expand(stringList(body(request).actions, 'actions'), 'actions');
      await auth.roles.grant(role.documentId, actions, undefined, by(request));
      return { data: await auth.roles.get(role.documentId) };
    });
    admin.delete<{ Params: Params }>(`${prefix}/content-api/roles/:ref/permissions/:action`, async (request) => {
      const role = await auth.roles.get(request.params.ref);
      await auth.roles.revoke(role.documentId, auth.expand([request.params.action], 'action'), by(request));
      return { data: await auth.roles.get(role.documentId) };
    });

    // The content API's users (Strapi's content manager edits them as `plugin::users-permissions.user`).
    admin.post(`${prefix}/users-permissions/users`, async (request, reply) => {
      const input = body(request);
      const user = await auth.users.create(
        {
          username: input.username as string,
          email: input.email as string,
          password: input.password as string,
          role: typeof input.role === 'string' ? input.role : undefined,
          blocked: input.blocked === true,
          confirmed: typeof input.confirmed === 'boolean' ? input.confirmed : undefined,
        },
        by(request),
      );
      return reply.status(201).send({ data: user });
    });
    admin.put<{ Params: Params }>(`${prefix}/users-permissions/users/:ref`, async (request) => ({
      data: await updateUser(auth, request.params.ref, body(request), by(request)),
    }));
    registerAdminAccessRoutes(admin, auth, prefix);
    registerAdminUserRoutes(admin, auth, prefix);

    // Strapi's users-permissions settings routes (their paths and answers, under /admin).
    admin.get(`${prefix}/users-permissions/advanced`, async () => ({
      settings: await auth.advanced.get(),
      roles: (await auth.roles.list()).map(({ id, documentId, name, description, type }) => ({
        id,
        documentId,
        name,
        description,
        type,
      })),
    }));
    admin.put(`${prefix}/users-permissions/advanced`, async (request) => {
      await auth.advanced.update(nonEmpty(body(request)), by(request));
      return { ok: true };
    });
    admin.get(`${prefix}/users-permissions/email-templates`, async () => auth.advanced.emailTemplates());
    admin.put(`${prefix}/users-permissions/email-templates`, async (request) => {
      const templates = nonEmpty(body(request))['email-templates'];
      if (!templates || typeof templates !== 'object' || Array.isArray(templates))
        throw new ValidationError('email-templates must be an object ({ reset_password, email_confirmation })');
      await auth.advanced.updateEmailTemplates(templates as Body, by(request));
      return { ok: true };
    });

    // Login providers (Strapi's `GET|PUT /users-permissions/providers`): each with the redirect
    // URI to register at the provider; a PUT changes the providers and keys it names.
    admin.get(`${prefix}/users-permissions/providers`, async () => {
      const providers = await auth.providers.get();
      return Object.fromEntries(
        Object.entries(providers).map(([name, settings]) => [
          name,
          name === 'email' ? settings : { ...settings, redirectUri: auth.providerLogins.redirectUri(name) },
        ]),
      );
    });
    admin.put(`${prefix}/users-permissions/providers`, async (request) => {
      const providers = nonEmpty(body(request)).providers;
      if (!providers || typeof providers !== 'object' || Array.isArray(providers))
        throw new ValidationError(
          'providers must be an object ({ github: { enabled, key, secret, callback, scope }, ... })',
        );
      await auth.providers.update(providers as Body, by(request));
      return { ok: true };
    });

    // Vellum's earlier switch, the same stored setting as `allow_register`.
    admin.get(`${prefix}/settings`, async () => ({ data: { allowRegister: await auth.registrationOpen() } }));
    admin.put(`${prefix}/settings`, async (request) => {
      const input = body(request);
      if (typeof input.allowRegister !== 'boolean') throw new ValidationError('allowRegister must be a boolean');
      await auth.setRegistrationOpen(input.allowRegister, by(request));
      return { data: { allowRegister: input.allowRegister } };
    });

    if (events) registerAdminEventRoutes(admin, prefix, { ...events, audited: by });
  });
}
