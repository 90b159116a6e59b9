/**
 * What an administrator may do, from the permissions of their roles: an action (on a subject, a
 * content-type), with the fields and locales its permissions name and whether only the documents
 * they created. A Super Admin may do everything, whatever the stored permissions say (Strapi
 * resets them to every action at each start).
 */
import { IS_CREATOR, SAME_ROLE_AS_CREATOR } from './registry.js';

/**
 * Whose documents the permissions reach together: everybody's as soon as one has no creator
 * condition (Strapi's conditions of one permission are alternatives, its permissions too).
 */
function creatorsOf(permissions: Permission[]): Scope['creators'] {
  let self = false;
  let sameRole = false;
  for (const { conditions } of permissions) {
    const mine = conditions.includes(IS_CREATOR);
    const peers = conditions.includes(SAME_ROLE_AS_CREATOR);
    if (!mine && !peers) return undefined;
    self ||= mine;
    sameRole ||= peers;
  }
  return { self, sameRole };
}

export interface Permission {
  id?: number;
  action: string;
  actionParameters: Record<string, unknown>;
  subject: string | null;
  properties: { fields?: string[] | null; locales?: string[] | null; [key: string]: unknown };
  conditions: string[];
}

/** Which fields (nested: a component's own fields below its name), `true` for the whole value. */
export type FieldTree = { [name: string]: FieldTree | true };

/** What the permissions of one action on one subject allow together. */
export interface Scope {
  /** undefined: every field (no permission names them). */
  fields?: FieldTree;
  /** undefined: every locale. */
  locales?: Set<string>;
  /**
   * Whose documents, when every matching permission has a creator condition: the administrator's
   * own ("is creator"), those of administrators sharing a role with them ("has same role as
   * creator"), or both. undefined: everybody's.
   */
  creators?: { self: boolean; sameRole: boolean };
}

/** `seo.metaTitle`, `title` -> { seo: { metaTitle: true }, title: true }. */
export function fieldTree(paths: string[]): FieldTree {
  const tree: FieldTree = {};
  for (const path of paths) {
    const parts = path.split('.');
    let node = tree;
    parts.forEach((part, index) => {
      if (index === parts.length - 1) {
        node[part] = true;
        return;
      }
      const next = node[part];
      if (next === true) return;
      node = next ?? (node[part] = {});
    });
  }
  return tree;
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
  scope(action: string, subject: string): Scope | undefined {
    if (this.superAdmin) return {};
    const matching = this.permissions.filter(
      (permission) => permission.action === action && permission.subject === subject,
    );
    if (matching.length === 0) return undefined;
    let everyField = false;
    let everyLocale = false;
    const paths: string[] = [];
    const locales = new Set<string>();
    for (const { properties } of matching) {
      if (properties.fields === undefined || properties.fields === null) everyField = true;
      else paths.push(...properties.fields);
      if (properties.locales === undefined || properties.locales === null) everyLocale = true;
      else for (const locale of properties.locales) locales.add(locale);
    }
    return {
      fields: everyField ? undefined : fieldTree(paths),
      locales: everyLocale ? undefined : locales,
      creators: creatorsOf(matching),
    };
  }

  /** The permissions as `GET /admin/users/me/permissions` lists them. */
  list(): Permission[] {
    return this.permissions;
  }
}
