/**
 * Strapi's users-permissions `role` and `permissions` controllers for the content API
 * (`/api/users-permissions/roles`, `/api/users-permissions/permissions`), with their answers:
 * `{ roles: [...] }` (by name, each with `nb_users`), `{ role: { ..., permissions } }` where
 * `permissions` is Strapi's tree `{ 'api::article': { controllers: { article: { find: { enabled,
 * policy } } } } }` over every grantable action, and `{ ok: true }` for writes.
 *
 * Roles are documents (roles.ts); a role's grants are rows of `up_permissions`. Updating a role
 * with `permissions` replaces its grants by the enabled actions, as Strapi does. Every action a
 * body names must exist (a 400 before anything is written), and Public cannot be deleted; the
 * users of a deleted role are moved to Public, as in Strapi.
 */
import type { Database } from '../../core/database/connection.js';
import { shaped, table, type LinkRow } from '../../core/database/system-tables.js';
import { auditCaller, type Audited, type Document, type TypeDocuments } from '../../core/documents/service.js';
import { ApplicationError, NotFoundError, ValidationError } from '../../core/errors.js';
import { isPlainObject } from '../../core/objects.js';
import type { ContentType, RelationAttribute } from '../../core/schema/model.js';
import type { RoleRow, UserRow } from './model.js';
import type { Roles } from './roles.js';

type Body = Record<string, unknown>;

export interface ActionState {
  enabled: boolean;
  policy: string;
}

/** `{ 'api::article': { controllers: { article: { find: { enabled, policy } } } } }` */
export type PermissionTree = Record<string, { controllers: Record<string, Record<string, ActionState>> }>;

/** `api::article.article.find` -> `['api::article', 'article', 'find']`. */
function splitAction(action: string): [string, string, string] | undefined {
  const first = action.indexOf('.');
  const second = action.indexOf('.', first + 1);
  if (first < 0 || second < 0) return undefined;
  return [action.slice(0, first), action.slice(first + 1, second), action.slice(second + 1)];
}

/** Strapi's tree of every action, those `enabled` allows switched on. */
function permissionTree(actions: readonly string[], enabled: (action: string) => boolean): PermissionTree {
  const tree: PermissionTree = {};
  for (const action of [...actions].sort()) {
    const parts = splitAction(action);
    if (!parts) continue;
    const [type, controller, name] = parts;
    const controllers = (tree[type] ??= { controllers: {} }).controllers;
    (controllers[controller] ??= {})[name] = { enabled: enabled(action), policy: '' };
  }
  return tree;
}

/** The actions a tree in a body enables; a malformed tree or an unknown action is a 400. */
function enabledActions(value: unknown, known: ReadonlySet<string>): string[] {
  if (value === undefined || value === null) return [];
  const bad = (message: string): never => {
    throw new ValidationError(message, { errors: [{ path: ['permissions'], message, name: 'ValidationError' }] });
  };
  if (!isPlainObject(value))
    bad('permissions must be an object: { "api::article": { controllers: { article: { find: { enabled: true } } } } }');
  const actions: string[] = [];
  for (const [type, entry] of Object.entries(value as Body)) {
    const controllers = isPlainObject(entry) ? entry.controllers : undefined;
    if (!isPlainObject(controllers)) return bad(`permissions.${type} must be { controllers: { ... } }`);
    for (const [controller, names] of Object.entries(controllers)) {
      if (!isPlainObject(names))
        return bad(`permissions.${type}.controllers.${controller} must be an object of actions`);
      for (const [name, state] of Object.entries(names)) {
        if (!isPlainObject(state) || (state.enabled !== undefined && typeof state.enabled !== 'boolean')) {
          return bad(`permissions.${type}.controllers.${controller}.${name} must be { enabled: boolean }`);
        }
        if (state.enabled !== true) continue;
        const action = `${type}.${controller}.${name}`;
        if (!known.has(action)) bad(`Unknown action ${action}`);
        actions.push(action);
      }
    }
  }
  return [...new Set(actions)];
}

/** Strapi's role type for a new role: its name in snake case. */
const snakeCase = (name: string) =>
  name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/([a-z])([A-Z])/g, '$1_$2')
    .replace(/([A-Za-z])(?=[0-9])/g, '$1_')
    .replace(/([0-9])(?=[A-Za-z])/g, '$1_')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');

export interface RoleApiDeps {
  database: Database;
  roles: Roles;
  roleDocuments: TypeDocuments;
  userDocuments: TypeDocuments;
  roleType: ContentType;
  userType: ContentType;
  /** Every grantable action. */
  actions: readonly string[];
}

export class RoleApi {
  private readonly known: Set<string>;

  constructor(private readonly deps: RoleApiDeps) {
    this.known = new Set(deps.actions);
  }

  /** `GET /roles`: every role, by name, with its number of users. */
  async find(): Promise<Document[]> {
    const { roleDocuments } = this.deps;
    const roles = (await roleDocuments.findMany({ sort: ['name:asc', 'id:asc'], pagination: { start: 0, limit: -1 } }))
      .results;
    const counts = await this.userCounts();
    return roles.map((role) => ({ ...role, nb_users: counts.get(String(role.documentId)) ?? 0 }));
  }

  /** `GET /roles/:id`: the role and its permissions tree; 404 for an unknown role. */
  async findOne(ref: string): Promise<Document> {
    const info = await this.role(ref);
    const role = await this.deps.roleDocuments.findOne({ documentId: info.documentId });
    if (!role) throw new NotFoundError('Role not found');
    const granted = new Set(info.permissions);
    return { ...role, permissions: permissionTree(this.deps.actions, (action) => granted.has(action)) };
  }

  /** `POST /roles`: a role with `name`, `description`, `type` (default: the name in snake case) and `permissions`. */
  async create(input: unknown, audited?: Audited): Promise<{ ok: true }> {
    const body = this.body(input);
    const actions = enabledActions(body.permissions, this.known);
    const name = body.name;
    if (typeof name !== 'string')
      throw new ValidationError('name is a required field', {
        errors: [{ path: ['name'], message: 'name is a required field', name: 'ValidationError' }],
      });
    const type = typeof body.type === 'string' && body.type !== '' ? body.type : snakeCase(name);
    const description = typeof body.description === 'string' ? body.description : null;
    if (await this.typeTaken(type)) throw new ApplicationError(`A role with type "${type}" already exists`);
    const caller = auditCaller(audited);
    const created = await this.deps.roleDocuments.create({ data: { name, description, type } }, caller);
    try {
      if (actions.length) await this.deps.roles.grant(String(created.documentId), actions, undefined, audited);
    } catch (error) {
      // The grants are one transaction; the role document is written by the document service in
      // its own: a role whose grants failed is removed again rather than left half made.
      await this.deps.roleDocuments.delete({ documentId: String(created.documentId) }, caller);
      throw error;
    }
    return { ok: true };
  }

  /** `PUT /roles/:role`: name and description; with `permissions`, the grants become exactly the enabled actions. */
  async update(ref: string, input: unknown, audited?: Audited): Promise<{ ok: true }> {
    const body = this.body(input);
    const info = await this.role(ref);
    const actions = body.permissions === undefined ? undefined : enabledActions(body.permissions, this.known);
    const data: Body = {};
    if (body.name !== undefined) data.name = body.name;
    if (body.description !== undefined) data.description = body.description;
    if (Object.keys(data).length)
      await this.deps.roleDocuments.update({ documentId: info.documentId, data }, auditCaller(audited));
    if (actions) await this.deps.roles.replace(info.documentId, actions, audited);
    return { ok: true };
  }

  /** `DELETE /roles/:role`: Public cannot be deleted; the role's users move to Public, its grants go. */
  async delete(ref: string, audited?: Audited): Promise<{ ok: true }> {
    const info = await this.role(ref);
    if (info.type === 'public') throw new ApplicationError('Cannot delete public role');
    const publicRole = await this.deps.roles.get('public');
    const link = this.deps.userType.attributes.role as RelationAttribute;
    const users = await this.deps.database.system
      .selectFrom(table<LinkRow>(link.link.table).as('l'))
      .innerJoin(table<UserRow>(this.deps.userType.table).as('u'), 'u.id', 'l.entity_id')
      .select('u.document_id')
      .where('l.target_document_id', '=', info.documentId)
      .execute();
    const caller = auditCaller(audited);
    for (const user of users)
      await this.deps.userDocuments.update(
        { documentId: user.document_id, data: { role: publicRole.documentId } },
        caller,
      );
    await this.deps.roles.revoke(info.documentId, info.permissions, audited);
    await this.deps.roleDocuments.delete({ documentId: info.documentId }, caller);
    return { ok: true };
  }

  /** `GET /permissions`: the tree of every action, none enabled (Strapi 5.54's `getActions()`, whoever asks). */
  permissions(): { permissions: PermissionTree } {
    return { permissions: permissionTree(this.deps.actions, () => false) };
  }

  /** A role by id or documentId, or Strapi's 404. */
  private async role(ref: string) {
    try {
      return await this.deps.roles.get(ref);
    } catch (error) {
      if (error instanceof NotFoundError) throw new NotFoundError('Role not found');
      throw error;
    }
  }

  /** Strapi refuses an empty body on createRole and updateRole. */
  private body(input: unknown): Body {
    if (!isPlainObject(input) || Object.keys(input).length === 0)
      throw new ValidationError('Request body cannot be empty');
    for (const key of Object.keys(input)) {
      if (!['name', 'description', 'type', 'permissions', 'users', 'role'].includes(key))
        throw new ValidationError(`Invalid parameters: ${key}`);
    }
    return input;
  }

  private async typeTaken(type: string): Promise<boolean> {
    return (
      (await shaped<RoleRow>(this.deps.database.db)
        .selectFrom(this.deps.roleType.table)
        .select('id')
        .where('type', '=', type)
        .executeTakeFirst()) !== undefined
    );
  }

  private async userCounts(): Promise<Map<string, number>> {
    const link = this.deps.userType.attributes.role as RelationAttribute;
    const rows = await this.deps.database.system
      .selectFrom(table<LinkRow>(link.link.table).as('l'))
      .select(['l.target_document_id as role'])
      .select((eb) => eb.fn.countAll<number | string>().as('total'))
      .groupBy('l.target_document_id')
      .execute();
    return new Map(rows.map((row) => [String(row.role), Number(row.total)]));
  }
}
