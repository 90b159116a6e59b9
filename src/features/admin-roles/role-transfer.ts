/**
 * Administrator roles in and out of an archive (features/transfer/ reads and writes the archive):
 * every role and permission as rows, for an export; an archive's roles checked against this
 * project (the admin API's rules on permissions, names no other role holds), then written in one
 * transaction with their audit entries, for an import.
 *
 * An import matches roles by `code` (Strapi's stable name of a role: `strapi-editor`, or the
 * `<name>-<time>` a custom role was given at its creation, never changed after): a role of the
 * archive found here keeps its row, id and documentId and takes the archive's name, description
 * and permissions (and, when one of them changes, its update time); one not found is created with
 * the archive's documentId and times. Roles the archive does not have are left as they are, as an
 * import leaves the content API's roles it does not name; no role is deleted and no
 * administrator's roles change, so the Super Admins stay. The Super Admin role's permissions are
 * every action of the project (Strapi resets them at each start), never the archive's.
 */
import type { Database } from '../../core/database/connection.js';
import type { Db } from '../../core/database/dialect.js';
import type { SystemDb } from '../../core/database/system-tables.js';
import { createDocumentId } from '../../core/documents/document-id.js';
import { recordAudit, type Audited } from '../../core/documents/service.js';
import { TransferError, ValidationError, type FieldError } from '../../core/errors.js';
import type { Schema } from '../../core/schema/model.js';
import type { Permission } from './ability.js';
import { adminActions } from './registry.js';
import { SUPER_ADMIN_CODE, type AdminRoles, type Stamps } from './roles.js';
import { PERMISSIONS_TABLE, ROLES_TABLE } from './tables.js';
import { checkPermissions } from './validation.js';

/** A permission as an archive holds it (Strapi's `admin::permission` entity), not yet checked. */
export interface ArchivedPermission {
  /** Where the archive has it, for messages: `admin::permission 12`. */
  ref: string;
  documentId: string | null;
  action: string;
  actionParameters: unknown;
  subject: unknown;
  properties: unknown;
  conditions: unknown;
  createdAt: Date | null;
  updatedAt: Date | null;
}

/** A role as an archive holds it (Strapi's `admin::role` entity), with the permissions linked to it. */
export interface ArchivedRole {
  /** Where the archive has it, for messages: `admin::role 4`. */
  ref: string;
  /** null: a new one is made. */
  documentId: string | null;
  name: string;
  code: string;
  description: string | null;
  createdAt: Date | null;
  updatedAt: Date | null;
  publishedAt: Date | null;
  permissions: ArchivedPermission[];
}

/** A role's row as an export writes it. */
export interface RoleRecord {
  id: number;
  documentId: string;
  name: string;
  code: string;
  description: string | null;
  createdAt: string | null;
  updatedAt: string | null;
  publishedAt: string | null;
}

/** A permission's row as an export writes it (`roleId`: its role's row). */
export interface PermissionRecord extends Permission {
  id: number;
  documentId: string;
  roleId: number;
  createdAt: string | null;
  updatedAt: string | null;
}

/** An archive's roles, checked: what an import writes, and what it leaves out (with why). */
export interface RoleImportPlan {
  roles: { role: ArchivedRole; permissions: (Permission & Stamps)[] }[];
  /** Permissions naming an action this project does not have: action -> count. */
  unknownActions: Map<string, number>;
  /** Permissions naming a content-type this project does not have: uid -> count. */
  unknownSubjects: Map<string, number>;
  /** The archive's permissions of the Super Admin role (not read: it holds every action here). */
  superAdminPermissions: number;
}

export interface RoleImportResult {
  created: number;
  updated: number;
  unchanged: number;
  /** The permissions the imported roles hold now (the Super Admin's aside). */
  permissions: number;
}

/** A yup path as the admin API's checks give it (`['permissions', '3', 'subject']`), as text. */
const pathText = (path: FieldError['path']) => path.join('.').replace(/^permissions\.(\d+)/, 'permissions[$1]');

export class RoleTransfer {
  constructor(
    private readonly database: Database,
    private readonly roles: AdminRoles,
    private readonly schemaOf: () => Schema,
  ) {}

  /** Every role and every permission, in the order they were made (row ids). */
  async dump(): Promise<{ roles: RoleRecord[]; permissions: PermissionRecord[] }> {
    const { dialect } = this.database;
    const time = (value: unknown) => dialect.decode('datetime', value) as string | null;
    const db = this.database.system;
    const roles = await db.selectFrom(ROLES_TABLE).selectAll().orderBy('id').execute();
    const permissions = await db.selectFrom(PERMISSIONS_TABLE).selectAll().orderBy('id').execute();
    return {
      roles: roles.map((row) => ({
        id: Number(row.id),
        documentId: row.document_id,
        name: row.name,
        code: row.code,
        description: row.description,
        createdAt: time(row.created_at),
        updatedAt: time(row.updated_at),
        publishedAt: time(row.published_at),
      })),
      permissions: permissions.map((row) => ({
        id: Number(row.id),
        documentId: row.document_id,
        roleId: Number(row.role_id),
        action: row.action,
        actionParameters: JSON.parse(row.action_parameters ?? '{}') as Record<string, unknown>,
        subject: row.subject,
        properties: JSON.parse(row.properties ?? '{}') as Permission['properties'],
        conditions: JSON.parse(row.conditions ?? '[]') as string[],
        createdAt: time(row.created_at),
        updatedAt: time(row.updated_at),
      })),
    };
  }

  /**
   * Checks an archive's roles before anything is written: each permission as the admin API checks
   * it (a permission naming an action or a content-type this project does not have is left out,
   * counted), and, once the archive's roles are matched by code, no two roles with one name.
   * Refusals are TransferErrors naming the role, the permission and what to do.
   */
  async plan(archived: ArchivedRole[]): Promise<RoleImportPlan> {
    const actions = adminActions(this.schemaOf());
    const byId = new Map(actions.map((action) => [action.actionId, action]));
    const plan: RoleImportPlan = {
      roles: [],
      unknownActions: new Map(),
      unknownSubjects: new Map(),
      superAdminPermissions: 0,
    };
    const count = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);
    for (const role of archived) {
      if (role.code === SUPER_ADMIN_CODE) {
        plan.superAdminPermissions += role.permissions.length;
        plan.roles.push({ role, permissions: [] });
        continue;
      }
      const kept: ArchivedPermission[] = [];
      for (const permission of role.permissions) {
        const action = byId.get(permission.action);
        if (!action) count(plan.unknownActions, permission.action);
        else if (
          action.subjects &&
          typeof permission.subject === 'string' &&
          !action.subjects.includes(permission.subject)
        )
          count(plan.unknownSubjects, permission.subject);
        else kept.push(permission);
      }
      let checked: Permission[];
      try {
        checked = checkPermissions(
          {
            permissions: kept.map(({ action, actionParameters, subject, properties, conditions }) => ({
              action,
              actionParameters,
              subject,
              properties,
              conditions,
            })),
          },
          actions,
        );
      } catch (error) {
        if (!(error instanceof ValidationError)) throw error;
        const first = ((error.details.errors as FieldError[] | undefined) ?? [])[0];
        const index = first ? Number(first.path[1]) : NaN;
        const where = Number.isInteger(index) && kept[index] ? ` (${kept[index].ref}, ${kept[index].action})` : '';
        throw new TransferError(
          `${role.ref} "${role.name}": a permission the admin API would refuse${where}: ` +
            `${first ? `${pathText(first.path)}: ${first.message}` : error.message}. Nothing was imported`,
        );
      }
      plan.roles.push({
        role,
        permissions: checked.map((permission, i) => ({
          ...permission,
          documentId: kept[i]!.documentId ?? undefined,
          createdAt: kept[i]!.createdAt,
          updatedAt: kept[i]!.updatedAt,
        })),
      });
    }
    // The names once the import is done: the archive's for the roles it has, the others' as they are.
    const rows = await this.database.system.selectFrom(ROLES_TABLE).select(['id', 'name', 'code']).execute();
    const incoming = new Map(archived.map((role) => [role.code, role]));
    const holders = new Map<string, string>();
    for (const row of rows)
      if (!incoming.has(row.code) || row.code === SUPER_ADMIN_CODE) holders.set(row.name, row.code);
    for (const role of archived) {
      if (role.code === SUPER_ADMIN_CODE) continue;
      const holder = holders.get(role.name);
      if (holder !== undefined)
        throw new TransferError(
          `${role.ref}: the role "${role.name}" (code ${role.code}) of the archive has the name of another role of ` +
            `this project (code ${holder}): rename one of them, then import again. Nothing was imported`,
        );
      holders.set(role.name, role.code);
    }
    return plan;
  }

  /**
   * Writes a checked plan in one transaction: roles created or updated (matched by code), their
   * permissions set to the archive's (those equal to one kept, as the admin API keeps them), and an
   * audit entry for each change (`role.create`, `role.update`, `permission.update`, as the admin
   * API records them) as `audited`'s.
   */
  async apply(plan: RoleImportPlan, audited?: Audited): Promise<RoleImportResult> {
    const { dialect } = this.database;
    const result: RoleImportResult = { created: 0, updated: 0, unchanged: 0, permissions: 0 };
    const stamp = (value: Date | null) => dialect.encode('datetime', value ?? new Date());
    await this.database.write(async (trx: SystemDb) => {
      const db = trx as unknown as Db;
      const rows = await trx.selectFrom(ROLES_TABLE).selectAll().execute();
      const byCode = new Map(rows.map((row) => [row.code, row]));
      // Names first set aside, so that two roles may swap theirs (names are unique at every step;
      // U+0001 is in no name a person typed, and PostgreSQL's text takes it, not U+0000).
      for (const { role } of plan.roles) {
        const row = byCode.get(role.code);
        if (row && row.code !== SUPER_ADMIN_CODE && row.name !== role.name)
          await trx
            .updateTable(ROLES_TABLE)
            .set({ name: `\u0001import ${row.id}` })
            .where('id', '=', row.id)
            .execute();
      }
      const key = (p: Permission) =>
        JSON.stringify([p.action, p.subject ?? null, p.properties ?? {}, p.conditions ?? [], p.actionParameters ?? {}]);
      for (const { role, permissions } of plan.roles) {
        const row = byCode.get(role.code);
        if (row?.code === SUPER_ADMIN_CODE) {
          result.unchanged++;
          continue;
        }
        let id: number;
        const before = row ? await this.roles.permissionsIn(db, [Number(row.id)]) : [];
        const had = new Set(before.map(key));
        const wanted = new Set(permissions.map(key));
        const added = permissions.filter((p) => !had.has(key(p)));
        const removed = before.filter((p) => !wanted.has(key(p)));
        const changed = row ? (['name', 'description'] as const).filter((k) => row[k] !== role[k]) : [];
        if (row) {
          // A role found here keeps its row, documentId and creation time; a change takes the archive's update time.
          id = Number(row.id);
          if (changed.length || added.length || removed.length) {
            await trx
              .updateTable(ROLES_TABLE)
              .set({ name: role.name, description: role.description, updated_at: stamp(role.updatedAt) })
              .where('id', '=', id)
              .execute();
            result.updated++;
          } else result.unchanged++;
        } else {
          id = await dialect.insertReturningId(db, ROLES_TABLE, {
            document_id: role.documentId ?? createDocumentId(),
            name: role.name,
            code: role.code,
            description: role.description,
            created_at: stamp(role.createdAt),
            updated_at: stamp(role.updatedAt ?? role.createdAt),
            published_at: stamp(role.publishedAt ?? role.createdAt),
          });
          result.created++;
          await recordAudit(trx, audited, {
            action: 'role.create',
            subject: String(id),
            details: { name: role.name, import: true },
          });
        }
        if (added.length || removed.length) await this.roles.replacePermissions(db, id, permissions);
        result.permissions += permissions.length;
        if (changed.length)
          await recordAudit(trx, audited, {
            action: 'role.update',
            subject: String(id),
            changed,
            details: { name: role.name, import: true },
          });
        if (added.length || removed.length)
          await recordAudit(trx, audited, {
            action: 'permission.update',
            subject: String(id),
            changed: [...new Set([...added, ...removed].map((p) => p.action))].sort(),
            details: { added: added.length, removed: removed.length, import: true },
          });
      }
    });
    return result;
  }
}
