/**
 * The content manager's view configurations at Strapi 5.54's paths:
 * `GET|PUT /content-manager/content-types/:uid/configuration`,
 * `GET|PUT /content-manager/components/:uid/configuration` and
 * `GET /content-manager/content-types-settings`. Stored where Strapi stores them, in the core
 * store under `plugin_content_manager_configuration_content_types::<uid>` (and `components::`),
 * so that `vellum import` brings a Strapi project's own; generated from the schema while none is
 * (view-configuration.ts). Any administrator reads them; a change takes Strapi's configure-view
 * action (configure-layout for a component).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Database } from '../../core/database/connection.js';
import { coreStore, CORE_STORE_TABLE } from '../../core/database/store.js';
import { NotFoundError } from '../../core/errors.js';
import type { ContentType, Model, Schema } from '../../core/schema/model.js';
import { reachableComponents } from '../../core/schema/reachable.js';
import type { Auth } from '../users-permissions/index.js';
import { sendJson } from '../../api/json-body.js';
import { requireAction } from './guard.js';
import { presented, syncConfiguration, type ViewConfiguration } from './view-configuration.js';
import { checkConfiguration } from './view-configuration-check.js';

const KEY_PREFIX = 'plugin_content_manager_configuration_';
const storeKey = (model: Model) => `${model.modelType === 'component' ? 'components' : 'content_types'}::${model.uid}`;

export interface ViewConfigurations {
  /** Each type's or component's configuration, stored or generated: one statement for all. */
  of(models: Model[]): Promise<Map<string, ViewConfiguration>>;
}

export function viewConfigurations(schema: Schema, database: Database): ViewConfigurations {
  return {
    async of(models) {
      const found = new Map<string, ViewConfiguration>();
      if (models.length === 0) return found;
      const rows = await database.system
        .selectFrom(CORE_STORE_TABLE)
        .select(['key', 'value'])
        .where(
          'key',
          'in',
          models.map((model) => `${KEY_PREFIX}${storeKey(model)}`),
        )
        .where('environment', 'is', null)
        .where('tag', 'is', null)
        .orderBy('id')
        .execute();
      const stored = new Map<string, unknown>();
      for (const row of rows) {
        if (stored.has(String(row.key))) continue;
        try {
          stored.set(String(row.key), JSON.parse(row.value ?? 'null'));
        } catch {
          // A value that is not JSON configures nothing: the defaults apply.
        }
      }
      for (const model of models) {
        const value = stored.get(`${KEY_PREFIX}${storeKey(model)}`);
        found.set(
          model.uid,
          syncConfiguration(
            schema,
            model,
            value && typeof value === 'object' ? (value as Record<string, unknown>) : null,
          ),
        );
      }
      return found;
    },
  };
}

export function registerViewConfiguration(app: FastifyInstance, auth: Auth, schema: Schema, database: Database): void {
  const configurations = viewConfigurations(schema, database);
  const store = coreStore(
    () => database.system,
    (fn) => database.write(fn),
  );
  const componentEntry = (model: Model, configuration: ViewConfiguration) => ({
    uid: model.uid,
    category: model.modelType === 'component' ? model.category : undefined,
    ...configuration,
    isComponent: true,
  });
  const componentsAnswer = async (model: Model) => {
    const used = reachableComponents(schema, model);
    const found = await configurations.of(used);
    return Object.fromEntries(
      used.map((component) => [component.uid, componentEntry(component, found.get(component.uid)!)]),
    );
  };
  /** Stores a change over the configuration as it is; answers the stored one. */
  const change = async (model: Model, request: FastifyRequest) => {
    const given = checkConfiguration(schema, model, request.body);
    const current = (await configurations.of([model])).get(model.uid)!;
    const next: ViewConfiguration = { ...current, ...given };
    await store.set({
      type: 'plugin',
      name: 'content_manager',
      key: `configuration_${storeKey(model)}`,
      value: { ...next, uid: model.uid, ...(model.modelType === 'component' ? { isComponent: true } : {}) },
    });
    return next;
  };
  const contentType = (uid: string): ContentType => {
    const type = schema.contentTypes.get(uid);
    if (!type) throw new NotFoundError('contentType.notFound');
    return type;
  };
  const component = (uid: string): Model => {
    const found = schema.components.get(uid);
    if (!found) throw new NotFoundError('component.notFound');
    return found;
  };
  type Params = { uid: string };

  app.get('/content-manager/content-types-settings', async (_request, reply) => {
    const types = [...schema.contentTypes.values()];
    const found = await configurations.of(types);
    return sendJson(reply, { data: types.map((type) => ({ uid: type.uid, settings: found.get(type.uid)!.settings })) });
  });
  app.get<{ Params: Params }>('/content-manager/content-types/:uid/configuration', async (request, reply) => {
    const type = contentType(request.params.uid);
    const configuration = (await configurations.of([type])).get(type.uid)!;
    return sendJson(reply, {
      data: {
        contentType: { uid: type.uid, ...presented(configuration, true) },
        components: await componentsAnswer(type),
      },
    });
  });
  app.put<{ Params: Params }>('/content-manager/content-types/:uid/configuration', async (request, reply) => {
    const type = contentType(request.params.uid);
    await requireAction(
      auth,
      request,
      `plugin::content-manager.${type.kind === 'singleType' ? 'single' : 'collection'}-types.configure-view`,
    );
    const next = await change(type, request);
    return sendJson(reply, {
      data: { contentType: { uid: type.uid, ...presented(next, false) }, components: await componentsAnswer(type) },
    });
  });
  app.get<{ Params: Params }>('/content-manager/components/:uid/configuration', async (request, reply) => {
    const model = component(request.params.uid);
    const configuration = (await configurations.of([model])).get(model.uid)!;
    return sendJson(reply, {
      data: { component: componentEntry(model, configuration), components: await componentsAnswer(model) },
    });
  });
  app.put<{ Params: Params }>('/content-manager/components/:uid/configuration', async (request, reply) => {
    const model = component(request.params.uid);
    await requireAction(auth, request, 'plugin::content-manager.components.configure-layout');
    return sendJson(reply, { data: componentEntry(model, await change(model, request)) });
  });
}
