/**
 * The builder's reads of types and components, as the admin API (routes.ts) and the content API
 * (`/api/content-type-builder/...`, each behind its users-permissions action) serve them. The
 * content API's copy is registered at start with the other content routes; the admin API's with
 * the admin API's first request (app/admin-api.ts).
 */
import type { FastifyInstance } from 'fastify';
import { ApplicationError, ProjectError } from '../../core/errors.js';
import type { AccessControl } from '../../api/access.js';
import { loadProjectSchema } from '../../core/schema/load.js';
import type { RawSchemaFile } from '../../core/schema/build.js';
import { formatComponent, formatContentType, isContentTypeVisible } from './format.js';
import { readProjectModels, type ProjectModels } from './models.js';

const KINDS = ['singleType', 'collectionType'];

/**
 * The files as they are now: under develop they change under a running version (and a version
 * built from a watcher's report can serve for a moment after a later change).
 */
export const projectModels = (projectDir: string, builtIns: RawSchemaFile[]) => (): ProjectModels => {
  try {
    return readProjectModels(projectDir, loadProjectSchema(projectDir, builtIns).schema, builtIns);
  } catch (error) {
    if (error instanceof ProjectError) throw new ApplicationError(error.message);
    throw error;
  }
};

/** The content API's reads by route (under its prefix), and the controller and action that guard each. */
const contentApiActions = (base: string): Record<string, [string, string]> => ({
  [`${base}/content-types`]: ['content-types', 'getContentTypes'],
  [`${base}/content-types/:uid`]: ['content-types', 'getContentType'],
  [`${base}/components`]: ['components', 'getComponents'],
  [`${base}/components/:uid`]: ['components', 'getComponent'],
});

export interface ContentApiReadsOptions {
  projectDir: string;
  builtIns: RawSchemaFile[];
  /** The content API's access control and prefix. */
  access: AccessControl;
  prefix: string;
}

/** The content API's copy: `plugin::content-type-builder.content-types.getContentTypes`, ... */
export function registerContentTypeBuilderContentApi(app: FastifyInstance, options: ContentApiReadsOptions): void {
  const base = `${options.prefix}/content-type-builder`;
  const guarded = contentApiActions(base);
  const models = projectModels(options.projectDir, options.builtIns);
  void app.register(async (contentApi) => {
    contentApi.addHook('onRequest', async (request) => {
      const [controller, action] = guarded[request.routeOptions.url ?? ''] ?? [];
      if (!controller || !action) return;
      await options.access.authorize(request.headers, { uid: `plugin::content-type-builder.${controller}`, action });
    });
    registerReads(contentApi, base, models);
  });
}

type Reading = (scope: FastifyInstance, base: string, models: () => ProjectModels) => void;

/**
 * The builder's reads of types and components: the admin API's, and the same controllers on the
 * content API (`/api/content-type-builder/...`), each behind its users-permissions action.
 */
export const registerReads: Reading = (scope, base, models) => {
  scope.get<{ Querystring: { kind?: unknown } }>(`${base}/content-types`, async (request, reply) => {
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
  scope.get<{ Params: { uid: string } }>(`${base}/content-types/:uid`, async (request, reply) => {
    const type = models().contentTypes.get(request.params.uid);
    if (!type || !isContentTypeVisible(type)) return reply.status(404).send({ error: 'contentType.notFound' });
    return { data: formatContentType(type) };
  });
  scope.get(`${base}/components`, async () => ({ data: [...models().components.values()].map(formatComponent) }));
  scope.get<{ Params: { uid: string } }>(`${base}/components/:uid`, async (request, reply) => {
    const component = models().components.get(request.params.uid);
    if (!component) return reply.status(404).send({ error: 'component.notFound' });
    return { data: formatComponent(component) };
  });
};
