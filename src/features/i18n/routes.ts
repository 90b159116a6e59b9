/**
 * The locales over HTTP: `GET /api/i18n/locales` as Strapi's i18n plugin answers it (no envelope),
 * and their administration under the admin API (`/admin/locales`, an administrator's token), which
 * does what `vellum locale` does.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Auth } from '../users-permissions/index.js';
import type { Audited, Locales } from '../../core/documents/service.js';
import { ValidationError } from '../../core/errors.js';

interface I18nRoutesOptions {
  prefix: string;
  locales: Locales;
  auth: Auth;
  /** The locales `config/plugins` lists: they cannot be removed at run time. */
  configured: string[];
}

function body(request: FastifyRequest): Record<string, unknown> {
  const value = request.body;
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new ValidationError('The request body must be a JSON object');
  return value as Record<string, unknown>;
}

const optionalName = (value: unknown): string | undefined => {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new ValidationError('name must be a text', { key: 'name' });
  return value;
};

export function registerI18nRoutes(app: FastifyInstance, options: Pick<I18nRoutesOptions, 'prefix' | 'locales'>): void {
  const { locales } = options;
  app.get(`${options.prefix}/i18n/locales`, async () => locales.list());
}

/** `/admin/locales`: registered with the admin API, on its first request (app/admin-api.ts). */
export function registerI18nAdminRoutes(app: FastifyInstance, options: Omit<I18nRoutesOptions, 'prefix'>): void {
  const { locales, auth, configured } = options;
  void app.register(async (admin) => {
    const actors = new WeakMap<FastifyRequest, number>();
    admin.addHook('onRequest', async (request) => {
      actors.set(request, await auth.admins.authenticate(request.headers.authorization));
    });
    /** The request's administrator as the change's author, when changes are recorded. */
    const by = (request: FastifyRequest): Audited | undefined => {
      const actor = actors.get(request);
      return auth.audit && actor !== undefined ? { trail: auth.audit, actor } : undefined;
    };
    admin.get('/admin/locales', async () => ({ data: await locales.list() }));
    admin.post('/admin/locales', async (request, reply) => {
      const input = body(request);
      if (typeof input.code !== 'string') throw new ValidationError('code is required', { key: 'code' });
      const existed = (await locales.list()).some((l) => l.code === input.code);
      const locale = await locales.add(
        input.code,
        optionalName(input.name),
        { isDefault: input.isDefault === true },
        by(request),
      );
      return reply.status(existed ? 200 : 201).send({ data: locale });
    });
    admin.put<{ Params: { code: string } }>('/admin/locales/:code', async (request) => {
      const input = body(request);
      await locales.get(request.params.code);
      return {
        data: await locales.add(
          request.params.code,
          optionalName(input.name),
          { isDefault: input.isDefault === true },
          by(request),
        ),
      };
    });
    admin.delete<{ Params: { code: string } }>('/admin/locales/:code', async (request) => ({
      data: await locales.remove(request.params.code, configured, by(request)),
    }));
  });
}
