/**
 * Preview (Strapi 5.54's `config/admin` `preview: { enabled, config: { allowedOrigins, handler } }`):
 * the configuration checked at start-up (a bad one stops it, naming the key), and
 * `GET /content-manager/preview/url/:uid?documentId&locale&status`, which calls the project's
 * handler with Strapi's arguments `(uid, { documentId, locale, status })` and answers
 * `{ data: { url } }` (the handler's URL with a `previewToken` added: a short-lived, read-only
 * token of the type's drafts, users-permissions/preview-tokens.ts), or 204 when it returns nothing
 * (or preview is off). The administrator needs
 * read on the type (Strapi 5.54 asks only for a signed-in administrator: its code says "TODO").
 */
import type { FastifyInstance } from 'fastify';
import type { DocumentService } from '../../core/documents/service.js';
import { NotFoundError, ProjectError, ValidationError } from '../../core/errors.js';
import { isPlainObject } from '../../core/objects.js';
import { EXPLORER } from '../admin-roles/index.js';
import type { Auth } from '../users-permissions/index.js';
import { sendJson } from '../../api/json-body.js';
import { requireAction } from './guard.js';

type Handler = (
  uid: string,
  params: { documentId: string; locale: string | null | undefined; status: string },
) => unknown;

interface Preview {
  handler: Handler;
  allowedOrigins: string[];
}

const FILE = 'config/admin';

/** `config/admin`'s `preview`, checked: undefined when off. */
export function previewConfig(admin: Record<string, unknown>): Preview | undefined {
  const preview = admin.preview;
  if (preview === undefined || preview === null) return undefined;
  if (!isPlainObject(preview)) throw new ProjectError('preview must be an object ({ enabled, config })', FILE);
  if (preview.enabled !== undefined && typeof preview.enabled !== 'boolean')
    throw new ProjectError('preview.enabled must be true or false', FILE);
  if (preview.enabled === false) return undefined;
  const config = preview.config;
  if (config !== undefined && !isPlainObject(config))
    throw new ProjectError('preview.config must be an object ({ allowedOrigins, handler })', FILE);
  const handler = config?.handler;
  // Strapi's words: "Preview configuration is invalid. Handler must be a function".
  if (typeof handler !== 'function')
    throw new ProjectError('preview.config.handler must be a function (uid, { documentId, locale, status })', FILE);
  const origins = config?.allowedOrigins ?? [];
  const allowedOrigins = typeof origins === 'string' ? [origins] : origins;
  if (!Array.isArray(allowedOrigins) || allowedOrigins.some((origin) => typeof origin !== 'string'))
    throw new ProjectError('preview.config.allowedOrigins must be a list of origins', FILE);
  return { handler: handler as Handler, allowedOrigins };
}

/**
 * `config/middlewares` with the preview's allowed origins as the security headers' `frame-src`, so
 * that the panel may frame the front end (Strapi's preview does the same at its registration).
 * Unchanged without preview; an empty list stands for Strapi's defaults (security and CORS).
 */
export function withPreviewFrames(middlewares: unknown[], admin: Record<string, unknown>): unknown[] {
  const preview = previewConfig(admin);
  if (!preview || preview.allowedOrigins.length === 0) return middlewares;
  const framed = (config: unknown) => {
    const given = isPlainObject(config) ? config : {};
    const csp = isPlainObject(given.contentSecurityPolicy) ? given.contentSecurityPolicy : {};
    const directives = isPlainObject(csp.directives) ? csp.directives : {};
    return {
      ...given,
      contentSecurityPolicy: { ...csp, directives: { ...directives, 'frame-src': preview.allowedOrigins } },
    };
  };
  if (middlewares.length === 0) return ['strapi::cors', { name: 'strapi::security', config: framed({}) }];
  return middlewares.map((entry) =>
    entry === 'strapi::security'
      ? { name: 'strapi::security', config: framed({}) }
      : isPlainObject(entry) && entry.name === 'strapi::security'
        ? { ...entry, config: framed(entry.config) }
        : entry,
  );
}

const text = (value: unknown, name: string, nullable = false): string | null | undefined => {
  if (value === undefined || (nullable && value === null)) return value as undefined;
  if (typeof value !== 'string') throw new ValidationError(`${name}: Invalid input: expected string`);
  return value;
};

/** The URL with `previewToken=<token>` in its query (before any fragment). */
function withToken(url: string, token: string): string {
  const hash = url.indexOf('#');
  const [base, fragment] = hash === -1 ? [url, ''] : [url.slice(0, hash), url.slice(hash)];
  return `${base}${base.includes('?') ? '&' : '?'}previewToken=${encodeURIComponent(token)}${fragment}`;
}

export function registerPreview(
  app: FastifyInstance,
  auth: Auth,
  service: DocumentService,
  preview: Preview | undefined,
): void {
  app.get<{ Params: { uid: string } }>('/content-manager/preview/url/:uid', async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    const asked = {
      documentId: text(query.documentId, 'documentId'),
      locale: text(query.locale, 'locale', true),
      status: text(query.status, 'status'),
    };
    const type = service.schema.contentTypes.get(request.params.uid);
    if (!type) throw new ValidationError('Invalid content type');
    await requireAction(auth, request, EXPLORER.read, type.uid);
    let documentId = asked.documentId;
    if (type.kind === 'singleType') {
      const found = await service.of(type).findOne({ locale: asked.locale ?? undefined, fields: [] });
      if (!found) throw new NotFoundError('Document not found');
      documentId = String(found.documentId);
    } else if (!documentId) throw new ValidationError('documentId is required for Collection Types');
    const status = asked.status ?? (type.draftAndPublish ? 'draft' : 'published');
    const url = preview
      ? await preview.handler(type.uid, { documentId: documentId!, locale: asked.locale, status })
      : undefined;
    if (url === undefined || url === null || url === '') return reply.status(204).send();
    // The front end reads the draft with the token the URL carries (preview-tokens.ts).
    return sendJson(reply, { data: { url: withToken(String(url), auth.previews.issue(type.uid)) } });
  });
}
