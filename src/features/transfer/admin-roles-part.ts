/**
 * Administrator roles in an archive, as Strapi's transfer engine writes them when it is not told
 * to leave them out (Strapi 5.54's `strapi export` is: it filters every `admin::` type): one
 * `admin::role` entity per role and one `admin::permission` entity per permission in
 * `entities/*.jsonl`, and a `relation.basic` `manyToOne` link from each permission (`field: role`)
 * to its role (`field: permissions`, `pos`: its place in the role's list) in `links/*.jsonl`.
 * `strapi import` leaves all three out (its own filter again) and keeps the roles it has.
 *
 * An import collects them during its first read of the archive (roles are few: kept in memory) and
 * checks their shape there, so a damaged roles part stops the import before anything is written.
 */
import { TransferError } from '../../core/errors.js';
import type { ArchivedPermission, ArchivedRole, PermissionRecord, RoleRecord } from '../admin-roles/index.js';
import { ADMIN_PERMISSION_UID, ADMIN_ROLE_UID, type Entity, type Link } from './import-state.js';

/** A role's text columns hold 255 characters on every dialect (MySQL refuses more). */
const TEXT_LIMIT = 255;

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => !!value && typeof value === 'object' && !Array.isArray(value);

/** An archive's time (ISO 8601, as Strapi writes it), or null; undefined when it is not one. */
function time(value: unknown): Date | null | undefined {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** The archive's `admin::role` and `admin::permission` entities and the links between them, checked as they come. */
export class AdminRolesPart {
  private readonly roles = new Map<string, { ref: string; role: Omit<ArchivedRole, 'permissions'> }>();
  private readonly permissions = new Map<string, ArchivedPermission>();
  /** Permission -> role (archive ids), with the permission's place in the role's list. */
  private readonly owners = new Map<string, { role: string; pos: number; at: string }>();
  /** Lines met in the order they came: a permission's place when its link gives none. */
  private order = 0;
  private readonly seen = new Map<string, number>();

  /** Whether the archive holds any role. */
  get empty(): boolean {
    return this.roles.size === 0 && this.permissions.size === 0;
  }

  /** A line of `entities/*.jsonl` of type `admin::role` or `admin::permission` (`at`: file and line). */
  entity(line: unknown, at: string): void {
    const entity = line as Entity;
    const bad = (what: string): never => {
      throw new TransferError(`${at}: ${entity.type} ${String(entity.id)}: ${what}. Nothing was imported`);
    };
    if (!isObject(entity) || (typeof entity.id !== 'number' && typeof entity.id !== 'string') || !isObject(entity.data))
      throw new TransferError(`${at}: a line that is not an entity ({ type, id, data }). Nothing was imported`);
    const id = String(entity.id);
    const data = entity.data;
    const ref = `${entity.type} ${id}`;
    const documentId = data.documentId;
    if (documentId !== undefined && documentId !== null && typeof documentId !== 'string')
      bad('documentId is not text');
    const createdAt = time(data.createdAt);
    const updatedAt = time(data.updatedAt);
    const publishedAt = time(data.publishedAt);
    if (createdAt === undefined || updatedAt === undefined || publishedAt === undefined)
      bad('createdAt, updatedAt and publishedAt must be dates (ISO 8601) or null');
    if (entity.type === ADMIN_ROLE_UID) {
      if (this.roles.has(id)) bad('a second role with this id');
      const text = (key: string, required: boolean): string | null => {
        const value = data[key];
        if ((value === undefined || value === null) && !required) return null;
        if (typeof value !== 'string' || (required && value.trim() === ''))
          return bad(`${key} must be ${required ? 'a non-empty text' : 'text or null'}`);
        if (value.length > TEXT_LIMIT) return bad(`${key} is longer than ${TEXT_LIMIT} characters`);
        return value;
      };
      const name = text('name', true)!;
      const code = text('code', true)!;
      for (const other of this.roles.values()) {
        if (other.role.code === code) bad(`its code "${code}" is the code of ${other.ref} too`);
        if (other.role.name === name) bad(`its name "${name}" is the name of ${other.ref} too`);
      }
      this.roles.set(id, {
        ref,
        role: {
          ref,
          documentId: typeof documentId === 'string' && documentId !== '' ? documentId : null,
          name,
          code,
          description: text('description', false),
          createdAt: createdAt!,
          updatedAt: updatedAt!,
          publishedAt: publishedAt!,
        },
      });
      return;
    }
    if (this.permissions.has(id)) bad('a second permission with this id');
    const { action, actionParameters, subject, properties, conditions } = data;
    if (typeof action !== 'string' || action === '') bad('action must be a non-empty text');
    if (subject !== undefined && subject !== null && typeof subject !== 'string') bad('subject must be text or null');
    if (properties !== undefined && properties !== null && !isObject(properties)) bad('properties must be an object');
    if (conditions !== undefined && conditions !== null && !Array.isArray(conditions)) bad('conditions must be a list');
    if (actionParameters !== undefined && actionParameters !== null && !isObject(actionParameters))
      bad('actionParameters must be an object');
    this.permissions.set(id, {
      ref,
      documentId: typeof documentId === 'string' && documentId !== '' ? documentId : null,
      action: action as string,
      actionParameters: actionParameters ?? {},
      subject: subject ?? null,
      properties: properties ?? {},
      conditions: conditions ?? [],
      createdAt: createdAt!,
      updatedAt: updatedAt!,
    });
    this.seen.set(id, this.order++);
  }

  /** A line of `links/*.jsonl` whose left side is an `admin::permission`'s role. */
  link(line: unknown, at: string): void {
    const link = line as Link;
    if (!isObject(link) || !isObject(link.left) || !isObject(link.right)) return;
    if (link.left.type !== ADMIN_PERMISSION_UID || link.left.field !== 'role') return;
    const bad = (what: string): never => {
      throw new TransferError(
        `${at}: the link of admin::permission ${String(link.left.ref)} to its role: ${what}. Nothing was imported`,
      );
    };
    if (link.right.type !== ADMIN_ROLE_UID) bad(`it names a ${String(link.right.type)}, not an admin::role`);
    if (typeof link.left.ref !== 'number' && typeof link.left.ref !== 'string') bad('no permission id');
    if (typeof link.right.ref !== 'number' && typeof link.right.ref !== 'string') bad('no role id');
    const permission = String(link.left.ref);
    if (this.owners.has(permission)) bad(`a second role (${String(link.right.ref)}) for one permission`);
    const pos = link.right.pos;
    if (pos !== undefined && pos !== null && typeof pos !== 'number') bad('pos is not a number');
    this.owners.set(permission, { role: String(link.right.ref), pos: typeof pos === 'number' ? pos : Infinity, at });
  }

  /**
   * The roles with their permissions (each role's in its list's order), once the whole archive is
   * read: a link naming a role or a permission the archive does not have is refused; a permission
   * linked to no role (Strapi's admin API tokens have some) is counted in `orphans`.
   */
  result(): { roles: ArchivedRole[]; orphans: number } {
    const lists = new Map<string, { pos: number; order: number; permission: ArchivedPermission }[]>();
    for (const [permissionRef, owner] of this.owners) {
      const permission = this.permissions.get(permissionRef);
      const where = `${owner.at}: the link of admin::permission ${permissionRef} to admin::role ${owner.role}`;
      if (!permission) throw new TransferError(`${where}: the archive has no such permission. Nothing was imported`);
      if (!this.roles.has(owner.role))
        throw new TransferError(`${where}: the archive has no such role. Nothing was imported`);
      const list = lists.get(owner.role) ?? [];
      lists.set(owner.role, list);
      list.push({ pos: owner.pos, order: this.seen.get(permissionRef)!, permission });
    }
    const roles = [...this.roles].map(([id, { role }]) => ({
      ...role,
      permissions: (lists.get(id) ?? [])
        .sort((a, b) => a.pos - b.pos || a.order - b.order)
        .map((item) => item.permission),
    }));
    return { roles, orphans: [...this.permissions.keys()].filter((ref) => !this.owners.has(ref)).length };
  }
}

/** The entities and links of an export: roles after permissions, in Strapi's order of types. */
export function roleEntities(dump: { roles: RoleRecord[]; permissions: PermissionRecord[] }): {
  entities: Entity[];
  links: Link[];
} {
  const entities: Entity[] = [];
  const links: Link[] = [];
  const places = new Map<number, number>();
  const roleIds = new Set(dump.roles.map((role) => role.id));
  for (const permission of dump.permissions) {
    if (!roleIds.has(permission.roleId)) continue;
    entities.push({
      type: ADMIN_PERMISSION_UID,
      id: permission.id,
      data: {
        documentId: permission.documentId,
        action: permission.action,
        actionParameters: permission.actionParameters,
        subject: permission.subject,
        properties: permission.properties,
        conditions: permission.conditions,
        createdAt: permission.createdAt,
        updatedAt: permission.updatedAt,
        // Vellum keeps no publication time for a permission: Strapi sets it when it creates one.
        publishedAt: permission.createdAt,
        locale: null,
      },
    });
    const pos = (places.get(permission.roleId) ?? 0) + 1;
    places.set(permission.roleId, pos);
    links.push({
      kind: 'relation.basic',
      relation: 'manyToOne',
      left: { type: ADMIN_PERMISSION_UID, field: 'role', ref: permission.id },
      right: { type: ADMIN_ROLE_UID, field: 'permissions', ref: permission.roleId, pos },
    });
  }
  for (const role of dump.roles) {
    entities.push({
      type: ADMIN_ROLE_UID,
      id: role.id,
      data: {
        documentId: role.documentId,
        name: role.name,
        code: role.code,
        description: role.description,
        createdAt: role.createdAt,
        updatedAt: role.updatedAt,
        publishedAt: role.publishedAt,
        locale: null,
      },
    });
  }
  return { entities, links };
}
