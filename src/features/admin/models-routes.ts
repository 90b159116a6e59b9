/**
 * The content manager's models at Strapi 5.54's paths, in its shapes: `GET /content-manager/init`
 * (`{ data: { fieldSizes, components, contentTypes } }`, what its panel loads first),
 * `GET /content-manager/content-types` (`?kind=collectionType|singleType`) and
 * `GET /content-manager/components`. Strapi's routes ask only for an administrator (no policy):
 * any administrator, whatever their role; a 401 without one. The models are the project's and
 * Vellum's own (Strapi also lists its admin's and plugins' internal types); they are formatted
 * once, at the first request (the schema does not change under a running node).
 */
import type { FastifyInstance } from 'fastify';
import { ValidationError } from '../../core/errors.js';
import type { Auth } from '../users-permissions/index.js';
import { sendCompressibleJson } from '../../api/json-body.js';
import { adminCaller } from './guard.js';
import { FIELD_SIZES } from './view-configuration.js';

type Json = Record<string, unknown>;

export interface ContentManagerModels {
  contentTypes: Json[];
  components: Json[];
}

const KINDS = ['collectionType', 'singleType'];

export function registerManagerModels(app: FastifyInstance, auth: Auth, load: () => ContentManagerModels): void {
  let models: ContentManagerModels | undefined;
  const formatted = () => (models ??= load());
  void app.register(async (cm) => {
    cm.addHook('onRequest', async (request) => {
      await adminCaller(auth, request);
    });
    cm.get('/content-manager/init', async (request, reply) => {
      const { contentTypes, components } = formatted();
      return sendCompressibleJson(request, reply, { data: { fieldSizes: FIELD_SIZES, components, contentTypes } });
    });
    cm.get<{ Querystring: { kind?: unknown } }>('/content-manager/content-types', async (request, reply) => {
      const { kind } = request.query;
      if (kind !== undefined && (typeof kind !== 'string' || !KINDS.includes(kind))) {
        // Zod's message, as Strapi's `validateKind` answers it.
        const message = 'Invalid option: expected one of "singleType"|"collectionType"';
        throw ValidationError.fromFieldErrors([{ path: [], message, name: 'ValidationError' }]);
      }
      const { contentTypes } = formatted();
      const data = kind === undefined ? contentTypes : contentTypes.filter((type) => type.kind === kind);
      return sendCompressibleJson(request, reply, { data });
    });
    cm.get('/content-manager/components', async (request, reply) =>
      sendCompressibleJson(request, reply, { data: formatted().components }),
    );
  });
}
