/**
 * The services of Strapi's plugins that project code calls, over Vellum's own implementations:
 * `strapi.plugin('users-permissions').service('role' | 'user' | 'jwt' | 'users-permissions')`,
 * `strapi.plugin('email').service('email')`, `strapi.plugin('upload').service('upload')` and
 * `strapi.plugin('i18n').service('locales')` (also reachable as
 * `strapi.service('plugin::users-permissions.role')`). Their methods and answers are Strapi
 * 5.54's, read from its source and checked on the running server.
 */
import type { Auth } from '../features/users-permissions/index.js';
import type { Document, DocumentService, QueryParams, RowRepository } from '../core/documents/service.js';
import { renderTemplate, type EmailService } from '../features/email/index.js';
import { NotFoundError } from '../core/errors.js';
import type { EntityDocuments } from './entity-service.js';

type Params = Record<string, unknown>;
const USER = 'plugin::users-permissions.user';
const ROLE = 'plugin::users-permissions.role';
const PERMISSION = 'plugin::users-permissions.permission';

/** A file already on disk, as the media library receives uploads. */
interface ReceivedFile {
  path: string;
  clientName: string;
  sizeInBytes: number;
}

/** What the upload service needs of the media library (features/upload/service.ts; one layer with this one). */
export interface MediaLibrary {
  upload(
    files: ReceivedFile[],
    infos: Record<string, unknown>[],
    link?: { ref: string; refId: string; field: string },
  ): Promise<Document[]>;
  findOne(id: number, query?: Record<string, unknown>): Promise<Document>;
  list(query: Record<string, unknown>): Promise<Document[]>;
  delete(id: number): Promise<Document>;
}

export interface PluginServiceDeps {
  documents: DocumentService;
  strapiDocuments: (uid: string) => EntityDocuments;
  auth: Auth;
  email?: EmailService;
  media?: MediaLibrary;
  i18n: { defaultLocale: string; locales: string[] };
}

const objectOf = (value: unknown): Params =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Params) : {};

/**
 * REST-style parameters (`filters`, `fields`, `sort`, `populate`, `start`, `limit`) as the query
 * engine's (`where`, `select`, `orderBy`, `populate`, `offset`, `limit`): Strapi's `query-params`
 * transform, which its users service applies.
 */
function queryParams(params: Params = {}): QueryParams {
  const out: QueryParams = {};
  if (params.filters !== undefined) out.where = params.filters;
  if (params.fields !== undefined)
    out.select = typeof params.fields === 'string' ? params.fields.split(',') : params.fields;
  if (params.sort !== undefined) out.orderBy = params.sort;
  if (params.populate !== undefined) out.populate = params.populate;
  if (params.start !== undefined) out.offset = Number(params.start);
  if (params.limit !== undefined) out.limit = Number(params.limit);
  return out;
}

/** `type.controller.action` strings as Strapi's permissions tree: `{ [type]: { controllers: { [controller]: { [action]: { enabled, policy } } } } }`. */
function permissionTree(all: string[], enabled: Set<string>): Params {
  const tree: Record<string, { controllers: Record<string, Record<string, { enabled: boolean; policy: string }>> }> =
    {};
  for (const name of [...new Set([...all, ...enabled])].sort()) {
    const [type, controller, action] = name.split('.');
    if (!type || !controller || !action) continue;
    ((tree[type] ??= { controllers: {} }).controllers[controller] ??= {})[action] = {
      enabled: enabled.has(name),
      policy: '',
    };
  }
  return tree;
}

/** The enabled actions of a permissions tree. */
function enabledActions(tree: unknown): string[] {
  const actions: string[] = [];
  for (const [type, entry] of Object.entries(objectOf(tree))) {
    for (const [controller, methods] of Object.entries(objectOf(objectOf(entry).controllers))) {
      for (const [action, state] of Object.entries(objectOf(methods)))
        if (objectOf(state).enabled) actions.push(`${type}.${controller}.${action}`);
    }
  }
  return actions;
}

const snakeCase = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');

export type PluginServices = Record<string, Record<string, Record<string, unknown>>>;

export function pluginServices(deps: PluginServiceDeps): PluginServices {
  const query = (uid: string): RowRepository => deps.documents.engine.query(uid);
  const grantsOf = async (roleId: unknown) =>
    (await query(PERMISSION).findMany({ where: { role: roleId } })) as { id: number; action: string }[];
  const roleRow = async (roleId: unknown) => {
    const role = await query(ROLE).findOne({ where: { id: roleId } });
    if (!role) throw new NotFoundError('Role not found');
    return role;
  };
  const setGrants = async (roleId: unknown, wanted: string[]) => {
    const current = await grantsOf(roleId);
    for (const permission of current)
      if (!wanted.includes(permission.action)) await query(PERMISSION).delete({ where: { id: permission.id } });
    const have = new Set(current.map((permission) => permission.action));
    for (const action of wanted)
      if (!have.has(action)) await query(PERMISSION).create({ data: { action, role: roleId } });
  };

  const role = {
    async createRole(params: Params) {
      const type = typeof params.type === 'string' && params.type ? params.type : snakeCase(String(params.name ?? ''));
      const { users: _users, permissions, ...data } = params;
      const created = await query(ROLE).create({ data: { ...data, type } });
      await setGrants(created.id, enabledActions(permissions));
    },
    async findOne(roleId: unknown) {
      const found = await roleRow(roleId);
      const enabled = new Set((await grantsOf(found.id)).map((permission) => permission.action));
      return { ...found, permissions: permissionTree(deps.auth.actions, enabled) };
    },
    async find() {
      const roles = await query(ROLE).findMany({ orderBy: 'name' });
      for (const found of roles) found.nb_users = await query(USER).count({ where: { role: { id: found.id } } });
      return roles;
    },
    async updateRole(roleId: unknown, data: Params) {
      const found = await roleRow(roleId);
      const changes = Object.fromEntries(
        Object.entries(data).filter(([key]) => key === 'name' || key === 'description'),
      );
      if (Object.keys(changes).length) await query(ROLE).update({ where: { id: found.id }, data: changes });
      if (data.permissions !== undefined) await setGrants(found.id, enabledActions(data.permissions));
    },
    async deleteRole(roleId: unknown, publicRoleId: unknown) {
      const found = await roleRow(roleId);
      for (const user of await query(USER).findMany({ where: { role: { id: found.id } }, select: ['id'] })) {
        await query(USER).update({ where: { id: user.id }, data: { role: publicRoleId } });
      }
      await query(PERMISSION).deleteMany({ where: { role: found.id } });
      await query(ROLE).delete({ where: { id: found.id } });
    },
  };

  const user = {
    count: (params?: Params) => query(USER).count(queryParams(params)),
    async ensureHashedPasswords(values: Params) {
      const type = deps.documents.schema.contentTypes.get(USER)!;
      for (const key of Object.keys(values)) {
        const attribute = type.attributes[key];
        if (attribute?.kind === 'scalar' && attribute.type === 'password' && typeof values[key] === 'string')
          values[key] = await deps.documents.passwords.hash(values[key]);
      }
      return values;
    },
    add: (values: Params) => deps.strapiDocuments(USER).create({ data: values, populate: ['role'] }),
    async edit(userId: unknown, params: Params = {}) {
      const entry = await query(USER).findOne({ where: { id: userId }, select: ['documentId'] });
      if (!entry) return null;
      return deps.strapiDocuments(USER).update({ documentId: entry.documentId, data: params, populate: ['role'] });
    },
    fetch(id: unknown, params?: Params) {
      const transformed = queryParams(params);
      return query(USER).findOne({ ...transformed, where: { $and: [{ id }, transformed.where ?? {}] } });
    },
    fetchAuthenticatedUser: (id: unknown) => query(USER).findOne({ where: { id }, populate: ['role'] }),
    fetchAll: (params?: Params) => query(USER).findMany(queryParams(params)),
    remove: (params: Params) => query(USER).delete({ where: params }),
    validatePassword: (password: string, hash: string) => deps.documents.passwords.verify(password, hash),
    /** A new confirmation code, sent with the `email_confirmation` template (the user needs an `id`). */
    sendConfirmationEmail: (target: { id?: unknown }) =>
      deps.auth.account.sendConfirmationEmail(Number(objectOf(target).id)),
  };

  /** Strapi's `users-permissions` service: its `template` renders `<%= NAME.path %>` of `data` (nothing is evaluated). */
  const usersPermissions = {
    template: (layout: string, data: Params) => renderTemplate(String(layout ?? ''), objectOf(data)),
  };

  const jwt = {
    /** The `Authorization: Bearer <token>` of a Koa-like ctx, verified; null without one. */
    getToken(ctx: {
      request?: { header?: Record<string, string | undefined>; headers?: Record<string, string | undefined> };
    }) {
      const header = ctx?.request?.header?.authorization ?? ctx?.request?.headers?.authorization;
      if (!header) return null;
      const parts = header.split(/\s+/);
      if (parts[0]!.toLowerCase() !== 'bearer' || parts.length !== 2) return null;
      return jwt.verify(parts[1]!);
    },
    issue: (payload: Params, options: { expiresIn?: string | number } = {}) =>
      deps.auth.jwt.issue({ ...payload }, options.expiresIn),
    verify: (token: string) => deps.auth.jwt.payload(token),
  };

  const media = () => {
    if (!deps.media) throw new Error('The media library is not available');
    return deps.media;
  };
  /** Strapi's file objects (formidable's: `filepath`, `originalFilename`, `size`) as received files. */
  const received = (files: unknown): ReceivedFile[] =>
    (Array.isArray(files) ? files : files ? [files] : []).map((file) => {
      const f = objectOf(file);
      return {
        path: String(f.filepath ?? f.path),
        clientName: String(f.originalFilename ?? f.originalFileName ?? f.name ?? 'file'),
        sizeInBytes: Number(f.size ?? 0),
      };
    });
  const upload = {
    async upload({ data = {}, files }: { data?: Params; files?: unknown } = {}) {
      const list = received(files);
      const info = data.fileInfo;
      const infos = (Array.isArray(info) ? info : list.map(() => info ?? {})) as Record<string, unknown>[];
      const link =
        data.ref && data.refId !== undefined && data.field
          ? { ref: String(data.ref), refId: String(data.refId), field: String(data.field) }
          : undefined;
      return media().upload(list, infos, link);
    },
    findOne: (id: number, populate?: unknown) =>
      media().findOne(Number(id), populate === undefined ? {} : { populate }),
    findMany: (params: Params = {}) => media().list(params),
    remove: (file: { id: number }) => media().delete(Number(file.id)),
  };

  const localeRows = () =>
    deps.i18n.locales.map((code, index) => ({
      id: index + 1,
      documentId: code,
      name: code,
      code,
      isDefault: code === deps.i18n.defaultLocale,
    }));
  const locales = {
    find: async () => localeRows(),
    findById: async (id: number) => localeRows().find((locale) => locale.id === Number(id)) ?? null,
    findByCode: async (code: string) => localeRows().find((locale) => locale.code === code) ?? null,
    count: async () => deps.i18n.locales.length,
    getDefaultLocale: async () => deps.i18n.defaultLocale,
  };

  const services: PluginServices = {
    'users-permissions': { role, user, jwt, 'users-permissions': usersPermissions },
    upload: { upload },
    i18n: { locales },
  };
  const { email } = deps;
  if (email) {
    services.email = {
      email: {
        send: (options: Params) => email.send(objectOf(options)),
        sendTemplatedEmail: (options: Params, template: Params, data: Params) =>
          email.sendTemplatedEmail(objectOf(options), objectOf(template), objectOf(data)),
        getProviderSettings: () => email.getProviderSettings(),
      },
    };
  }
  return services;
}

/** `strapi.service('plugin::users-permissions.role')`: a plugin's service by its uid. */
export function pluginServiceByUid(services: Record<string, Record<string, unknown>>, uid: string): unknown {
  const match = /^plugin::([^.]+)\.(.+)$/.exec(uid);
  return match ? services[match[1]!]?.[match[2]!] : undefined;
}
