/**
 * How the permissions of a role combine for one action on one subject: which fields, which
 * locales, whose documents. The server enforces it (ability.ts) and the admin panel hides what the
 * server would refuse (admin/src/admin-permissions.ts) with this one reading. No imports: the
 * panel bundles this file as it is.
 */

export const IS_CREATOR = 'admin::is-creator';
export const SAME_ROLE_AS_CREATOR = 'admin::has-same-role-as-creator';

/** What of a permission decides its reach (the admin API's permission has more). */
export interface PermissionReach {
  action: string;
  subject: string | null;
  properties: { fields?: string[] | null; locales?: string[] | null };
  conditions: readonly string[];
}

/** Which fields (nested: a component's own fields below its name), `true` for the whole value. */
export type FieldTree = { [name: string]: FieldTree | true };

/** What the permissions of one action on one subject allow together. */
export interface Scope {
  /** undefined: every field (a permission names none). */
  fields?: FieldTree;
  /** undefined: every locale. */
  locales?: ReadonlySet<string>;
  /**
   * Whose documents, when every matching permission has a creator condition: the administrator's
   * own ("is creator"), those of administrators sharing a role with them ("has same role as
   * creator"), or both. undefined: everybody's.
   */
  creators?: { self: boolean; sameRole: boolean };
}

/** `seo.metaTitle`, `title` -> { seo: { metaTitle: true }, title: true }. */
export function fieldTree(paths: readonly string[]): FieldTree {
  const tree: FieldTree = {};
  for (const path of paths) {
    const parts = path.split('.');
    let node = tree;
    for (const [index, part] of parts.entries()) {
      if (index === parts.length - 1) {
        node[part] = true;
        break;
      }
      const next = node[part];
      if (next === true) break;
      node = next ?? (node[part] = {});
    }
  }
  return tree;
}

/**
 * Whose documents the permissions reach together: everybody's as soon as one has no creator
 * condition (Strapi's conditions of one permission are alternatives, its permissions too).
 */
function creatorsOf(permissions: readonly PermissionReach[]): Scope['creators'] {
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

/**
 * What the permissions grant for the action on the subject (null: an action without one, as the
 * media library's; a Super Admin's are not read: they may do everything); undefined when none
 * grants it. Fields: a permission without `fields` (or
 * with `null`) reaches every field. Locales, as Strapi 5.54's i18n engine reads them: `null` is
 * every locale, a missing `locales` none (`$in: []`); the admin API stores a permission that names
 * none with the default locale (roles.ts), as Strapi does.
 */
export function scopeOf(
  permissions: readonly PermissionReach[],
  action: string,
  subject: string | null,
): Scope | undefined {
  const matching = permissions.filter((permission) => permission.action === action && permission.subject === subject);
  if (matching.length === 0) return undefined;
  let everyField = false;
  let everyLocale = false;
  const paths: string[] = [];
  const locales = new Set<string>();
  for (const { properties } of matching) {
    if (properties.fields === undefined || properties.fields === null) everyField = true;
    else paths.push(...properties.fields);
    if (properties.locales === null) everyLocale = true;
    else for (const locale of properties.locales ?? []) locales.add(locale);
  }
  return {
    fields: everyField ? undefined : fieldTree(paths),
    locales: everyLocale ? undefined : locales,
    creators: creatorsOf(matching),
  };
}
