/**
 * What an administrator may do, from the permissions of their roles: an action (on a subject, a
 * content-type), with the fields and locales its permissions name and whether only the documents
 * they created. A Super Admin may do everything, whatever the stored permissions say (Strapi
 * resets them to every action at each start).
 */
import { IS_CREATOR } from './registry.js';

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
  /** Only documents the administrator created (every matching permission has "is creator"). */
  creatorOnly: boolean;
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
    if (this.superAdmin) return { creatorOnly: false };
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
      creatorOnly: matching.every((permission) => permission.conditions.includes(IS_CREATOR)),
    };
  }

  /** The permissions as `GET /admin/users/me/permissions` lists them. */
  list(): Permission[] {
    return this.permissions;
  }
}
