/**
 * Strapi 5.54's admin home page routes beside the content manager's (homepage.ts), any
 * administrator's (Strapi's `isAuthenticatedAdmin`):
 * - `GET /admin/homepage/key-statistics`: the "Project statistics" widget's counts, Strapi's keys:
 *   `{ assets, contentTypes, components, locales, admins, webhooks, apiTokens }` (`components`
 *   counts component categories, as Strapi's does). Five counts on tables whose names are Strapi's
 *   own, one statement: bounded by the number of tables, never by rows.
 * - `GET|PUT /admin/homepage/layout`: the widgets an administrator moved, resized or hid, kept per
 *   administrator in the core store under Strapi's key (`core_admin_homepage-layout:<id>`), so that
 *   an imported Strapi project keeps its layouts. `null` until one is saved.
 * Compared with Strapi: test/differential/homepage.diff.ts.
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Database } from '../../core/database/connection.js';
import { coreStore } from '../../core/database/store.js';
import type { DocumentService } from '../../core/documents/service.js';
import { ValidationError, type FieldError } from '../../core/errors.js';
import { isPlainObject } from '../../core/objects.js';
import { FILE_UID } from '../../core/schema/model.js';
import type { Auth } from '../users-permissions/index.js';
import type { KeyStatistics } from './contract.js';
import { adminCaller } from './guard.js';

/**
 * Strapi's own content-types its count includes (those its builder shows) that Vellum's schema has
 * not as project types: the content API's users. Its other built-in types are hidden from its
 * builder (`pluginOptions['content-type-builder'].visible: false`). Checked against Strapi 5.54.
 */
const STRAPI_VISIBLE_BUILT_INS = ['plugin::users-permissions.user'];

/** Strapi's widths of a widget (a 12-column grid), and its other bounds. */
const WIDTHS = new Set([4, 6, 8, 12]);
const MAX_WIDGETS = 100;

export interface HomepageLayout {
  version: number;
  widgets: { uid: string; width: number }[];
  updatedAt: string;
}

const isDateTime = (value: unknown): value is string =>
  typeof value === 'string' &&
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/.test(value) &&
  !Number.isNaN(Date.parse(value));

/**
 * A layout to save, checked as Strapi's zod schema checks it (strict: no other keys). Strapi
 * answers its refusals with a 500; here they are a 400 naming each problem.
 */
function parseLayoutWrite(body: unknown): { version?: number; widgets: HomepageLayout['widgets']; updatedAt?: string } {
  const errors: FieldError[] = [];
  const fail = (path: string[], message: string) => errors.push({ path, message, name: 'ValidationError' });
  if (!isPlainObject(body)) throw new ValidationError('The layout must be a JSON object');
  for (const key of Object.keys(body))
    if (!['version', 'widgets', 'updatedAt'].includes(key)) fail([key], `Unrecognized key: "${key}"`);
  const { version, widgets, updatedAt } = body;
  if (version !== undefined && !(Number.isInteger(version) && (version as number) >= 1))
    fail(['version'], 'version must be an integer of 1 or more');
  if (updatedAt !== undefined && !isDateTime(updatedAt)) fail(['updatedAt'], 'updatedAt must be an ISO date-time');
  const parsed: HomepageLayout['widgets'] = [];
  if (!Array.isArray(widgets)) fail(['widgets'], 'widgets must be an array');
  else if (widgets.length > MAX_WIDGETS) fail(['widgets'], `widgets must hold at most ${MAX_WIDGETS} entries`);
  else
    widgets.forEach((widget, index) => {
      const at = ['widgets', String(index)];
      if (!isPlainObject(widget)) return fail(at, 'a widget must be an object');
      for (const key of Object.keys(widget))
        if (key !== 'uid' && key !== 'width') fail([...at, key], `Unrecognized key: "${key}"`);
      if (typeof widget.uid !== 'string' || widget.uid === '') fail([...at, 'uid'], 'uid must be a non-empty string');
      if (!WIDTHS.has(widget.width as number)) fail([...at, 'width'], 'width must be 4, 6, 8 or 12');
      parsed.push({ uid: String(widget.uid), width: widget.width as number });
    });
  if (errors.length)
    throw new ValidationError(`${errors.length} error${errors.length > 1 ? 's' : ''} occurred`, { errors });
  return {
    widgets: parsed,
    ...(version === undefined ? {} : { version: version as number }),
    ...(updatedAt === undefined ? {} : { updatedAt: updatedAt as string }),
  };
}

export function registerKeyStatistics(
  app: FastifyInstance,
  auth: Auth,
  service: DocumentService,
  database: Database,
): void {
  const store = coreStore(
    () => database.db,
    (fn) => database.write(fn),
  );
  const layoutKey = (id: number) => ({ type: 'core', name: 'admin', key: `homepage-layout:${id}` });

  const statistics = async (): Promise<KeyStatistics> => {
    const { schema } = service;
    const files = schema.contentTypes.get(FILE_UID)?.table ?? 'files';
    const { rows } = await sql<Record<string, number | string>>`select
        (select count(*) from ${sql.table(files)}) as assets,
        (select count(*) from ${sql.table('admin_users')}) as admins,
        (select count(*) from ${sql.table('strapi_webhooks')}) as webhooks,
        (select count(*) from ${sql.table('strapi_api_tokens')}) as api_tokens`.execute(database.db);
    const row = rows[0] ?? {};
    const projectTypes = [...schema.contentTypes.values()].filter((type) => !type.builtIn && type.builderVisible);
    const builtIns = STRAPI_VISIBLE_BUILT_INS.filter((uid) => schema.contentTypes.has(uid));
    return {
      assets: Number(row.assets ?? 0),
      contentTypes: projectTypes.length + builtIns.length,
      components: new Set([...schema.components.values()].map((component) => component.category)).size,
      locales: service.i18n.locales.length,
      admins: Number(row.admins ?? 0),
      webhooks: Number(row.webhooks ?? 0),
      apiTokens: Number(row.api_tokens ?? 0),
    };
  };

  void app.register(async (homepage) => {
    homepage.get('/admin/homepage/key-statistics', async (request) => {
      await adminCaller(auth, request);
      return { data: await statistics() };
    });
    homepage.get('/admin/homepage/layout', async (request) => {
      const { id } = await adminCaller(auth, request);
      return { data: ((await store.get(layoutKey(id))) as HomepageLayout | null) ?? null };
    });
    homepage.put('/admin/homepage/layout', async (request) => {
      const { id } = await adminCaller(auth, request);
      const write = parseLayoutWrite(request.body);
      // Strapi's: the widgets as sent (each with its width), version 1 and now unless given.
      const next: HomepageLayout = {
        version: write.version ?? 1,
        widgets: write.widgets,
        updatedAt: write.updatedAt ?? new Date().toISOString(),
      };
      await store.set({ ...layoutKey(id), value: next });
      return { data: next };
    });
  });
}
