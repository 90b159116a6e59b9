/**
 * Administrator roles, as Strapi 5.54's admin role service keeps them: Super Admin, Editor and
 * Author made on a database that has none (Editor: every content-type action but on the content
 * API's users; Author: the same without publishing, only on what they created; both a part of the
 * media library), the Super Admin's permissions reset to every action at each start, custom roles,
 * and which administrators hold which roles. Every state is in the database: each node reads it
 * per request, so a change applies on every node at once.
 */
import type { Database } from '../../core/database/connection.js';
import type { Db } from '../../core/database/dialect.js';
import type { SystemDb } from '../../core/database/system-tables.js';
import { createDocumentId } from '../../core/documents/document-id.js';
import { recordAudit, type Audited } from '../../core/documents/service.js';
import { ApplicationError, NotFoundError, ValidationError } from '../../core/errors.js';
import type { Schema } from '../../core/schema/model.js';
import { AdminAbility, type Permission } from './ability.js';
import {
  adminActions,
  EXPLORER,
  fieldPaths,
  IS_CREATOR,
  managedTypes,
  permissionSections,
  type LocaleChoice,
} from './registry.js';
import { PERMISSIONS_TABLE, ROLES_TABLE, USER_ROLES_TABLE, type AdminRoleRow } from './tables.js';
import { checkPermissions } from './validation.js';

export const SUPER_ADMIN_CODE = 'strapi-super-admin';
const USER_TYPE_UID = 'plugin::users-permissions.user';

const DEFAULT_ROLES = [
  {
    name: 'Super Admin',
    code: SUPER_ADMIN_CODE,
    description: 'Super Admins can access and manage all features and settings.',
  },
  {
    name: 'Editor',
    code: 'strapi-editor',
    description: 'Editors can manage and publish contents including those of other users.',
  },
  { name: 'Author', code: 'strapi-author', description: 'Authors can manage the content they have created.' },
];

/** What an imported row keeps from its source: its documentId and times (undefined: new ones). */
export interface Stamps {
  documentId?: string;
  createdAt?: Date | null;
  updatedAt?: Date | null;
}

/** A role as the admin API answers it. */
export interface AdminRole {
  id: number;
  documentId: string;
  name: string;
  code: string;
  description: string | null;
  createdAt: string | null;
  updatedAt: string | null;
  publishedAt: string | null;
  locale: null;
  usersCount?: number;
}

/** A role as an administrator's `roles` lists it. */
export interface RoleSummary {
  id: number;
  name: string;
  description: string | null;
  code: string;
}

const system = (db: Db) => db as unknown as SystemDb;

/** Strapi's `kebabCase(name)-timestampCode()`: a code no other role has. */
const roleCode = (name: string) =>
  `${name
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .toLowerCase()}-${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

/** The Editor's and Author's media library permissions (Strapi's `getDefaultPluginPermissions`). */
function mediaPermissions(author: boolean): Permission[] {
  const conditions = author ? [IS_CREATOR] : [];
  return [
    ['plugin::upload.read', conditions],
    ['plugin::upload.configure-view', []],
    ['plugin::upload.assets.create', []],
    ['plugin::upload.assets.update', conditions],
    ['plugin::upload.assets.download', []],
    ['plugin::upload.assets.copy-link', []],
  ].map(([action, conditions]) => ({
    action: action as string,
    actionParameters: {},
    subject: null,
    properties: {},
    conditions: conditions as string[],
  }));
}

/**
 * Strapi 5.54's i18n `normalizeRolePermissionsLocales`: a permission on a localized type that names
 * no locales (`locales` missing or `[]`) is stored with the default locale only; `null` keeps every
 * locale. The ability then reads a missing `locales` as none, as Strapi's engine does.
 */
function withDefaultLocale(permissions: Permission[], schema: Schema, defaultLocale: string): Permission[] {
  const localesApply = new Set(
    adminActions(schema)
      .filter((action) => action.applyToProperties?.includes('locales'))
      .map((action) => action.actionId),
  );
  return permissions.map((permission) => {
    const type = permission.subject ? schema.contentTypes.get(permission.subject) : undefined;
    const { locales } = permission.properties;
    if (!type?.localized || !localesApply.has(permission.action) || locales === null) return permission;
    if (locales !== undefined && locales.length > 0) return permission;
    return { ...permission, properties: { ...permission.properties, locales: [defaultLocale] } };
  });
}

export class AdminRoles {
  constructor(
    private readonly database: Database,
    private readonly schemaOf: () => Schema,
    private readonly locales: {
      codes(): string[];
      list(): Promise<LocaleChoice[]>;
      defaultLocale(): string;
    },
  ) {}

  /** `GET /admin/permissions`'s `data`. */
  async sections() {
    return permissionSections(this.schemaOf(), await this.locales.list(), this.locales.defaultLocale());
  }

  /** Every content-type action on every managed type, with all fields and locales (the Super Admin's, the Editor's). */
  private contentPermissions(except: string[] = []): Permission[] {
    const schema = this.schemaOf();
    const locales = this.locales.codes();
    const permissions: Permission[] = [];
    for (const action of adminActions(schema).filter((a) => a.section === 'contentTypes')) {
      for (const type of managedTypes(schema)) {
        if (except.includes(type.uid)) continue;
        const properties: Permission['properties'] = {};
        if (action.applyToProperties?.includes('fields')) properties.fields = fieldPaths(schema, type);
        if (type.localized && action.applyToProperties?.includes('locales')) properties.locales = [...locales];
        permissions.push({
          action: action.actionId,
          actionParameters: {},
          subject: type.uid,
          properties,
          conditions: [],
        });
      }
    }
    return permissions;
  }

  private everyPermission(): Permission[] {
    const others = adminActions(this.schemaOf())
      .filter((action) => action.section !== 'contentTypes')
      .map((action): Permission => ({
        action: action.actionId,
        actionParameters: {},
        subject: null,
        properties: {},
        conditions: [],
      }));
    return [...this.contentPermissions(), ...others];
  }

  /**
   * At start, under the schema lock: the three roles on a database without roles (every existing
   * administrator a Super Admin, as Vellum's administrators were before roles), and the Super
   * Admin's permissions set to every action of this schema.
   */
  async seed(db: Db): Promise<void> {
    const trx = system(db);
    const { dialect } = this.database;
    const now = dialect.encode('datetime', new Date());
    const existing = await trx.selectFrom(ROLES_TABLE).select('id').limit(1).executeTakeFirst();
    if (!existing) {
      const ids: number[] = [];
      for (const role of DEFAULT_ROLES)
        ids.push(
          await dialect.insertReturningId(db, ROLES_TABLE, {
            document_id: createDocumentId(),
            ...role,
            created_at: now,
            updated_at: now,
            published_at: now,
          }),
        );
      const [superAdmin, editor, author] = ids as [number, number, number];
      const admins = await db.selectFrom('admin_users').select('id').execute();
      for (const admin of admins as { id: number }[])
        await trx
          .insertInto(USER_ROLES_TABLE)
          .values({ user_id: admin.id, role_id: superAdmin, role_ord: 1 })
          .execute();
      const editorPermissions = [...this.contentPermissions([USER_TYPE_UID]), ...mediaPermissions(false)];
      const authorPermissions = [
        ...this.contentPermissions([USER_TYPE_UID])
          .filter((permission) => permission.action !== EXPLORER.publish)
          .map((permission) => ({ ...permission, conditions: [IS_CREATOR] })),
        ...mediaPermissions(true),
      ];
      await this.insertPermissions(db, editor, editorPermissions);
      await this.insertPermissions(db, author, authorPermissions);
    }
    const superAdmin = await trx
      .selectFrom(ROLES_TABLE)
      .select('id')
      .where('code', '=', SUPER_ADMIN_CODE)
      .executeTakeFirst();
    if (superAdmin) await this.replacePermissions(db, superAdmin.id, this.everyPermission());
  }

  /**
   * Adds permissions to a role, in a write's transaction. A permission that comes with its
   * documentId and times (an import's) keeps them; the others get new ones.
   */
  async insertPermissions(db: Db, roleId: number, permissions: (Permission & Stamps)[]): Promise<void> {
    const { dialect } = this.database;
    const now = new Date();
    const rows = permissions.map((permission) => ({
      document_id: permission.documentId ?? createDocumentId(),
      role_id: roleId,
      action: permission.action,
      action_parameters: JSON.stringify(permission.actionParameters ?? {}),
      subject: permission.subject ?? null,
      properties: JSON.stringify(permission.properties ?? {}),
      conditions: JSON.stringify(permission.conditions ?? []),
      created_at: dialect.encode('datetime', permission.createdAt ?? now),
      updated_at: dialect.encode('datetime', permission.updatedAt ?? permission.createdAt ?? now),
    }));
    // In slices: one statement per few hundred rows keeps under every dialect's parameter limit.
    for (let i = 0; i < rows.length; i += 200)
      await system(db)
        .insertInto(PERMISSIONS_TABLE)
        .values(rows.slice(i, i + 200))
        .execute();
  }

  /**
   * Sets a role's permissions to `wanted`, as Strapi's `assignPermissions`: the permissions equal
   * to a wanted one (action, subject, properties, conditions, parameters) keep their ids, the
   * others are deleted, the missing ones added. Answers the role's permissions after. In a write's
   * transaction.
   */
  async replacePermissions(db: Db, roleId: number, wanted: (Permission & Stamps)[]): Promise<Permission[]> {
    const key = (p: Permission) =>
      JSON.stringify([p.action, p.subject ?? null, p.properties ?? {}, p.conditions ?? [], p.actionParameters ?? {}]);
    const current = await this.permissionsIn(db, [roleId]);
    const wantedKeys = new Set(wanted.map(key));
    const currentKeys = new Set(current.map(key));
    const stale = current.filter((p) => !wantedKeys.has(key(p))).map((p) => p.id!);
    const missing = wanted.filter((p) => !currentKeys.has(key(p)));
    for (let i = 0; i < stale.length; i += 500)
      await system(db)
        .deleteFrom(PERMISSIONS_TABLE)
        .where('id', 'in', stale.slice(i, i + 500))
        .execute();
    if (missing.length) await this.insertPermissions(db, roleId, missing);
    return stale.length || missing.length ? this.permissionsIn(db, [roleId]) : current;
  }

  /** The permissions of these roles, in the order they were added, read on `db`. */
  async permissionsIn(db: Db, roleIds: number[]): Promise<Permission[]> {
    if (roleIds.length === 0) return [];
    const rows = await system(db)
      .selectFrom(PERMISSIONS_TABLE)
      .select(['id', 'action', 'action_parameters', 'subject', 'properties', 'conditions'])
      .where('role_id', 'in', roleIds)
      .orderBy('id')
      .execute();
    return rows.map((row) => ({
      id: row.id,
      action: row.action,
      actionParameters: JSON.parse(row.action_parameters ?? '{}') as Record<string, unknown>,
      subject: row.subject,
      properties: JSON.parse(row.properties ?? '{}') as Permission['properties'],
      conditions: JSON.parse(row.conditions ?? '[]') as string[],
    }));
  }

  private role(row: Omit<AdminRoleRow, 'id'> & { id: number }, usersCount?: number): AdminRole {
    const { dialect } = this.database;
    const time = (value: unknown) => dialect.decode('datetime', value) as string | null;
    return {
      id: row.id,
      documentId: row.document_id,
      name: row.name,
      code: row.code,
      description: row.description,
      createdAt: time(row.created_at),
      updatedAt: time(row.updated_at),
      publishedAt: time(row.published_at),
      locale: null,
      ...(usersCount === undefined ? {} : { usersCount }),
    };
  }

  private async usersCounts(roleIds: number[]): Promise<Map<number, number>> {
    if (roleIds.length === 0) return new Map();
    const rows = await this.database.system
      .selectFrom(USER_ROLES_TABLE)
      .select(['role_id', (eb) => eb.fn.countAll<number | string>().as('count')])
      .where('role_id', 'in', roleIds)
      .groupBy('role_id')
      .execute();
    return new Map(rows.map((row) => [row.role_id, Number(row.count)]));
  }

  /** Every role with its number of administrators, oldest first (`GET /admin/roles`). */
  async list(): Promise<AdminRole[]> {
    const rows = await this.database.system.selectFrom(ROLES_TABLE).selectAll().orderBy('id').execute();
    const counts = await this.usersCounts(rows.map((row) => row.id));
    return rows.map((row) => this.role(row, counts.get(row.id) ?? 0));
  }

  /** One role with its number of administrators; a 404 otherwise. */
  async get(id: number): Promise<AdminRole> {
    const row = await this.database.system.selectFrom(ROLES_TABLE).selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw new NotFoundError('role.notFound');
    const counts = await this.usersCounts([id]);
    return this.role(row, counts.get(id) ?? 0);
  }

  /** `audited`: recorded as `role.create` in its transaction (this and the methods below, Strapi's actions). */
  async create(input: { name: string; description?: string | null }, audited?: Audited): Promise<AdminRole> {
    const { dialect } = this.database;
    return this.database.write(async (trx: SystemDb) => {
      const taken = await trx.selectFrom(ROLES_TABLE).select('id').where('name', '=', input.name).executeTakeFirst();
      if (taken)
        throw new ApplicationError(`The name must be unique and a role with name \`${input.name}\` already exists.`);
      const now = dialect.encode('datetime', new Date());
      const id = await dialect.insertReturningId(trx as unknown as Db, ROLES_TABLE, {
        document_id: createDocumentId(),
        name: input.name,
        code: roleCode(input.name),
        description: input.description ?? null,
        created_at: now,
        updated_at: now,
        published_at: now,
      });
      const row = await trx.selectFrom(ROLES_TABLE).selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      await recordAudit(trx, audited, { action: 'role.create', subject: String(id), details: { name: input.name } });
      return this.role(row);
    });
  }

  async update(
    id: number,
    input: { name?: string; description?: string | null },
    audited?: Audited,
  ): Promise<AdminRole> {
    const { dialect } = this.database;
    return this.database.write(async (trx: SystemDb) => {
      const row = await trx.selectFrom(ROLES_TABLE).selectAll().where('id', '=', id).executeTakeFirst();
      if (!row) throw new NotFoundError('role.notFound');
      if (row.code === SUPER_ADMIN_CODE) throw new ApplicationError("Super admin can't be edited.");
      if (input.name !== undefined) {
        const taken = await trx
          .selectFrom(ROLES_TABLE)
          .select('id')
          .where('name', '=', input.name)
          .where('id', '!=', id)
          .executeTakeFirst();
        if (taken)
          throw new ApplicationError(`The name must be unique and a role with name \`${input.name}\` already exists.`);
      }
      const changes: Record<string, unknown> = { updated_at: dialect.encode('datetime', new Date()) };
      if (input.name !== undefined) changes.name = input.name;
      if (input.description !== undefined) changes.description = input.description;
      await trx.updateTable(ROLES_TABLE).set(changes).where('id', '=', id).execute();
      const changed = (['name', 'description'] as const).filter(
        (key) => input[key] !== undefined && input[key] !== row[key],
      );
      if (changed.length)
        await recordAudit(trx, audited, {
          action: 'role.update',
          subject: String(id),
          changed,
          details: { name: row.name },
        });
      return this.role(await trx.selectFrom(ROLES_TABLE).selectAll().where('id', '=', id).executeTakeFirstOrThrow());
    });
  }

  /**
   * Deletes roles no administrator holds (Strapi's checks and words: never the Super Admin role);
   * answers the deleted roles. `path` is where Strapi's validation reports a refusal.
   */
  async delete(ids: number[], path: 'id' | 'ids', audited?: Audited): Promise<AdminRole[]> {
    return this.database.write(async (trx: SystemDb) => {
      const rows = await trx.selectFrom(ROLES_TABLE).selectAll().where('id', 'in', ids).execute();
      // Strapi's yup check: the path's value as the request gave it (`:id` is text).
      const value = path === 'id' ? String(ids[0]) : ids;
      const refuse = (message: string) =>
        ValidationError.fromFieldErrors([{ path: [path], message, name: 'ValidationError', value }]);
      if (rows.some((row) => row.code === SUPER_ADMIN_CODE)) throw refuse('You cannot delete the super admin role');
      const held = await trx.selectFrom(USER_ROLES_TABLE).select('id').where('role_id', 'in', ids).executeTakeFirst();
      if (held) throw refuse('Some roles are still assigned to some users');
      await trx.deleteFrom(PERMISSIONS_TABLE).where('role_id', 'in', ids).execute();
      await trx.deleteFrom(ROLES_TABLE).where('id', 'in', ids).execute();
      for (const row of rows)
        await recordAudit(trx, audited, {
          action: 'role.delete',
          subject: String(row.id),
          details: { name: row.name },
        });
      return rows.map((row) => this.role(row));
    });
  }

  /** A role's permissions (`GET /admin/roles/:id/permissions`). */
  async permissions(id: number): Promise<Permission[]> {
    await this.get(id);
    return this.permissionsIn(this.database.db, [id]);
  }

  /** Sets a role's permissions (`PUT /admin/roles/:id/permissions`), checked as Strapi checks them. */
  async setPermissions(id: number, input: unknown, audited?: Audited): Promise<Permission[]> {
    const row = await this.database.system
      .selectFrom(ROLES_TABLE)
      .select(['id', 'code'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) throw new NotFoundError('role.notFound');
    if (row.code === SUPER_ADMIN_CODE) throw new ApplicationError("Super admin permissions can't be edited.");
    const schema = this.schemaOf();
    const permissions = withDefaultLocale(
      checkPermissions(input, adminActions(schema)),
      schema,
      this.locales.defaultLocale(),
    );
    return this.database.write(async (trx: SystemDb) => {
      const db = trx as unknown as Db;
      const before = audited ? await this.permissionsIn(db, [id]) : [];
      const after = await this.replacePermissions(db, id, permissions);
      if (audited) {
        // The actions whose permissions were added or removed (`changed`), and how many of each.
        const key = (p: Permission) => JSON.stringify({ ...p, id: undefined });
        const had = new Set(before.map(key));
        const has = new Set(after.map(key));
        const added = after.filter((p) => !had.has(key(p)));
        const removed = before.filter((p) => !has.has(key(p)));
        if (added.length || removed.length)
          await recordAudit(trx, audited, {
            action: 'permission.update',
            subject: String(id),
            changed: [...new Set([...added, ...removed].map((p) => p.action))].sort(),
            details: { added: added.length, removed: removed.length },
          });
      }
      return after;
    });
  }

  /** The roles of administrators, by administrator id (in the order they were given). */
  async rolesOf(userIds: number[]): Promise<Map<number, RoleSummary[]>> {
    const found = new Map<number, RoleSummary[]>(userIds.map((id) => [id, []]));
    if (userIds.length === 0) return found;
    const rows = await this.database.system
      .selectFrom(USER_ROLES_TABLE)
      .innerJoin(ROLES_TABLE, `${ROLES_TABLE}.id`, `${USER_ROLES_TABLE}.role_id`)
      .select([
        `${USER_ROLES_TABLE}.user_id as user_id`,
        `${ROLES_TABLE}.id as id`,
        `${ROLES_TABLE}.name as name`,
        `${ROLES_TABLE}.description as description`,
        `${ROLES_TABLE}.code as code`,
      ])
      .where(`${USER_ROLES_TABLE}.user_id`, 'in', userIds)
      .orderBy(`${USER_ROLES_TABLE}.id`)
      .execute();
    for (const row of rows)
      found.get(row.user_id)?.push({ id: row.id, name: row.name, description: row.description, code: row.code });
    return found;
  }

  /** Gives an administrator these roles (replacing theirs), in a write's transaction; unknown ids are a 400. */
  async setUserRoles(db: Db, userId: number, roleIds: number[]): Promise<void> {
    const trx = system(db);
    const unique = [...new Set(roleIds)];
    if (unique.length) {
      const found = await trx.selectFrom(ROLES_TABLE).select('id').where('id', 'in', unique).execute();
      if (found.length !== unique.length)
        throw ValidationError.fromFieldErrors([
          { path: ['roles'], message: 'Some roles do not exist', name: 'ValidationError' },
        ]);
    }
    await trx.deleteFrom(USER_ROLES_TABLE).where('user_id', '=', userId).execute();
    for (const [index, roleId] of unique.entries())
      await trx
        .insertInto(USER_ROLES_TABLE)
        .values({ user_id: userId, role_id: roleId, role_ord: index + 1 })
        .execute();
  }

  /** Gives an administrator the Super Admin role, in a write's transaction (the first administrator). */
  async makeSuperAdmin(db: Db, userId: number): Promise<void> {
    const role = await system(db)
      .selectFrom(ROLES_TABLE)
      .select('id')
      .where('code', '=', SUPER_ADMIN_CODE)
      .executeTakeFirst();
    if (!role)
      throw new ApplicationError("Cannot register the first admin because the super admin role doesn't exist.");
    await this.setUserRoles(db, userId, [role.id]);
  }

  /** Whether these role ids include the Super Admin role. */
  async includesSuperAdmin(db: Db, roleIds: number[]): Promise<boolean> {
    if (roleIds.length === 0) return false;
    const found = await system(db)
      .selectFrom(ROLES_TABLE)
      .select('id')
      .where('id', 'in', roleIds)
      .where('code', '=', SUPER_ADMIN_CODE)
      .executeTakeFirst();
    return found !== undefined;
  }

  /** Removes an administrator's roles, in the transaction that removes them. */
  async forgetUser(db: Db, userId: number): Promise<void> {
    await system(db).deleteFrom(USER_ROLES_TABLE).where('user_id', '=', userId).execute();
  }

  /** The administrators holding the Super Admin role, read on `db` (a write locks them first). */
  async superAdminIds(db: Db): Promise<number[]> {
    const rows = await system(db)
      .selectFrom(USER_ROLES_TABLE)
      .innerJoin(ROLES_TABLE, `${ROLES_TABLE}.id`, `${USER_ROLES_TABLE}.role_id`)
      .select(`${USER_ROLES_TABLE}.user_id as user_id`)
      .where(`${ROLES_TABLE}.code`, '=', SUPER_ADMIN_CODE)
      .execute();
    return rows.map((row) => row.user_id);
  }

  /** The administrators holding one of this administrator's roles, themselves included. */
  async peersOf(userId: number): Promise<number[]> {
    const rows = await this.database.system
      .selectFrom(`${USER_ROLES_TABLE} as mine`)
      .innerJoin(`${USER_ROLES_TABLE} as theirs`, 'theirs.role_id', 'mine.role_id')
      .select('theirs.user_id as user_id')
      .where('mine.user_id', '=', userId)
      .execute();
    return [...new Set([userId, ...rows.map((row) => row.user_id)])];
  }

  /** What an administrator may do: two statements, on every request (roles change on any node). */
  async abilityOf(userId: number): Promise<AdminAbility> {
    const roles = (await this.rolesOf([userId])).get(userId) ?? [];
    if (roles.some((role) => role.code === SUPER_ADMIN_CODE)) return AdminAbility.everything();
    return new AdminAbility(
      false,
      await this.permissionsIn(
        this.database.db,
        roles.map((role) => role.id),
      ),
    );
  }

  /** The permissions an administrator holds (`GET /admin/users/me/permissions`). */
  async permissionsOfUser(userId: number): Promise<Permission[]> {
    const roles = (await this.rolesOf([userId])).get(userId) ?? [];
    return this.permissionsIn(
      this.database.db,
      roles.map((role) => role.id),
    );
  }
}
