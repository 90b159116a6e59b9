/**
 * What an administrator may do, from the permissions of their roles: an action (on a subject, a
 * content-type), with the fields and locales its permissions name and whether only the documents
 * they created. A Super Admin may do everything, whatever the stored permissions say (Strapi
 * resets them to every action at each start).
 */
import { scopeOf, type FieldTree, type Scope } from './contract.js';

export type { FieldTree, Scope } from './contract.js';
export { fieldTree } from './contract.js';

export interface Permission {
  id?: number;
  action: string;
  actionParameters: Record<string, unknown>;
  subject: string | null;
  properties: { fields?: string[] | null; locales?: string[] | null; [key: string]: unknown };
  conditions: string[];
}

export class AdminAbility {
  constructor(
    readonly superAdmin: boolean,
    private readonly permissions: Permission[],
  ) {}

  static everything(): AdminAbility {
    return new AdminAbility(true, []);
  }

  /** Whether any permission grants the action (on the subject, when given). */
  can(action: string, subject?: string | null): boolean {
    if (this.superAdmin) return true;
    return this.permissions.some(
      (permission) => permission.action === action && (subject === undefined || permission.subject === subject),
    );
  }

  /**
   * Strapi's `ability.can(action, subject, field)` (`POST /admin/permissions/check`): the action on
   * the subject, and the field (a dot path) among the permission's fields when it names some.
   */
  canField(action: string, subject?: string | null, field?: string): boolean {
    if (this.superAdmin) return true;
    if (!subject) return this.permissions.some((p) => p.action === action && !p.subject);
    const scope = this.scope(action, subject);
    if (!scope) return false;
    if (field === undefined || scope.fields === undefined) return true;
    let node: FieldTree | true | undefined = scope.fields;
    for (const part of field.split('.')) {
      if (node === true) return true;
      node = node?.[part];
      if (node === undefined) return false;
    }
    return true;
  }

  /** The subjects an action is granted on. */
  subjects(action: string): Set<string> {
    return new Set(
      this.permissions
        .filter((permission) => permission.action === action && permission.subject)
        .map((permission) => permission.subject!),
    );
  }

  /** What the action on the subject allows; undefined when it is not granted. */
  scope(action: string, subject: string | null): Scope | undefined {
    if (this.superAdmin) return {};
    return scopeOf(this.permissions, action, subject);
  }

  /** The permissions as `GET /admin/users/me/permissions` lists them. */
  list(): Permission[] {
    return this.permissions;
  }
}
