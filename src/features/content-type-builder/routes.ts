/**
 * The Content-Type Builder's admin API at Strapi 5.54's paths (`/content-type-builder/...`,
 * an administrator's JWT): the reads, and `POST /update-schema`, the batch the admin panel sends.
 * Writes change the project's files, so they are refused outside `vellum develop` with Strapi's
 * 403 `PolicyError`; under develop the new version of the project serves as soon as the files are
 * written (no restart: develop's reload, about 0.1-0.2 s).
 */
import type { FastifyInstance } from 'fastify';
import { PolicyError } from '../../core/errors.js';
import { ApplicationError } from '../../core/errors.js';
import type { RawSchemaFile } from '../../core/schema/build.js';
import type { Schema } from '../../core/schema/model.js';
import { describeSchema, formatComponent, formatContentType, isContentTypeVisible } from './format.js';
import { readProjectModels } from './models.js';
import { reservedNames } from './strings.js';
import { applySchemaChange } from './update.js';
import { parseUpdateSchema } from './validation.js';

export interface ContentTypeBuilderOptions {
  projectDir: string;
  schema: Schema;
  builtIns: RawSchemaFile[];
  /** Checks the administrator's JWT (throws a 401). */
  authenticate: (authorization: string | string[] | undefined) => Promise<unknown>;
  /**
   * Under `vellum develop`: serves the project's next version once these files have changed
   * (resolves when it serves, rejects when it does not start). Absent in production.
   */
  reload?: (files: string[]) => Promise<void>;
}

const PRODUCTION_MESSAGE =
  'Content-Type Builder modifications are disabled in production mode. Schema changes can only be made when running with autoReload enabled (strapi develop).';

const KINDS = ['singleType', 'collectionType'];

export function registerContentTypeBuilderRoutes(app: FastifyInstance, options: ContentTypeBuilderOptions): void {
  const base = '/content-type-builder';
  const models = () => readProjectModels(options.projectDir, options.schema, options.builtIns);
  let isUpdating = false;

  void app.register(async (ctb) => {
    ctb.addHook('onRequest', async (request) => {
      await options.authenticate(request.headers.authorization);
    });
    const developOnly = async () => {
      if (!options.reload) throw new PolicyError(PRODUCTION_MESSAGE);
    };

    ctb.get(`${base}/reserved-names`, async () => reservedNames());
    ctb.get(`${base}/schema`, async () => ({ data: describeSchema(models()) }));
    ctb.get(`${base}/update-schema-status`, async () => ({ data: { isUpdating } }));

    ctb.get<{ Querystring: { kind?: unknown } }>(`${base}/content-types`, async (request, reply) => {
      const { kind } = request.query;
      if (kind !== undefined && !KINDS.includes(kind as string)) {
        const message = `this must be one of the following values: ${KINDS.join(', ')}`;
        return reply.status(400).send({
          error: {
            name: 'ValidationError',
            message,
            details: { errors: [{ path: [], message, name: 'ValidationError', value: kind }] },
          },
        });
      }
      const all = [...models().contentTypes.values()];
      return {
        data: all.filter((type) => !kind || (type.schema.kind ?? 'collectionType') === kind).map(formatContentType),
      };
    });
    ctb.get<{ Params: { uid: string } }>(`${base}/content-types/:uid`, async (request, reply) => {
      const type = models().contentTypes.get(request.params.uid);
      if (!type || !isContentTypeVisible(type)) return reply.status(404).send({ error: 'contentType.notFound' });
      return { data: formatContentType(type) };
    });
    ctb.get(`${base}/components`, async () => ({ data: [...models().components.values()].map(formatComponent) }));
    ctb.get<{ Params: { uid: string } }>(`${base}/components/:uid`, async (request, reply) => {
      const component = models().components.get(request.params.uid);
      if (!component) return reply.status(404).send({ error: 'component.notFound' });
      return { data: formatComponent(component) };
    });

    ctb.post(`${base}/update-schema`, { preHandler: developOnly }, async (request, reply) => {
      if (isUpdating) return reply.status(409).send(conflict('Schema update is already in progress.'));
      const current = models();
      // An empty body is `{}` to Strapi's body parser.
      const parsed = parseUpdateSchema(request.body ?? {}, current);
      if (!parsed.ok) return reply.status(400).send({ error: parsed.message });
      const { components, contentTypes } = parsed.data;
      if (components.length === 0 && contentTypes.length === 0) return {};
      isUpdating = true;
      let files: string[];
      try {
        files = applySchemaChange(options.projectDir, current, parsed.data, options.builtIns).files;
      } catch (error) {
        isUpdating = false;
        if (error instanceof ApplicationError) return reply.status(400).send({ error: error.message });
        throw error;
      }
      // This version answers `isUpdating: true` until the next one serves (it has its own flag).
      options.reload!(files).catch(() => (isUpdating = false));
      return {};
    });
  });
}

/** Koa's `ctx.conflict` body, as Strapi answers it. */
const conflict = (message: string) => ({
  data: null,
  error: { status: 409, name: 'ConflictError', message, details: {} },
});
