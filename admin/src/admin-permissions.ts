/**
 * What the administrator using the panel may do, from `GET /admin/users/me/permissions` (their
 * roles' permissions, Strapi's shape) and whether they are a Super Admin (`GET /admin/users/me`):
 * the same reading of permissions as the server's (the very function: src/features/admin-roles/
 * contract.ts), so that the screens hide what the API would refuse. No React here: unit-tested in
 * the unit tier (admin-permissions.test.ts).
 */
import { scopeOf, type FieldTree, type Scope } from '../../src/features/admin-roles/contract.ts';

export { IS_CREATOR, fieldTree, type FieldTree, type Scope } from '../../src/features/admin-roles/contract.ts';

/** A permission as the admin API answers it. */
export interface AdminPermission {
  id?: number;
  action: string;
  actionParameters?: Record<string, unknown>;
  subject: string | null;
  properties: { fields?: string[] | null; locales?: string[] | null };
  conditions: string[];
}

/** The content manager's actions on a content-type (Strapi's `plugin::content-manager.explorer.*`). */
export const EXPLORER = {
  create: 'plugin::content-manager.explorer.create',
  read: 'plugin::content-manager.explorer.read',
  update: 'plugin::content-manager.explorer.update',
  delete: 'plugin::content-manager.explorer.delete',
  publish: 'plugin::content-manager.explorer.publish',
} as const;
export type ExplorerAction = keyof typeof EXPLORER;

export const SUPER_ADMIN_CODE = 'strapi-super-admin';

/**
 * Whether a form path (`title`, `seo.metaTitle`, `links.0.url`, `blocks.1.body`) is inside the
 * tree: list indexes are skipped; a component is inside when any of its fields is.
 */
export function fieldInTree(tree: FieldTree | undefined, path: string): boolean {
  if (tree === undefined) return true;
  let node: FieldTree | true = tree;
  for (const part of path.split('.')) {
    if (/^\d+$/.test(part)) continue;
    if (node === true) return true;
    const next: FieldTree | true | undefined = node[part];
    if (next === undefined) return false;
    node = next;
  }
  return node === true || Object.keys(node).length > 0;
}

export type FieldMode = 'hidden' | 'readonly' | 'editable';

export class AdminAccess {
  constructor(
    readonly superAdmin: boolean,
    readonly permissions: readonly AdminPermission[],
  ) {}

  /** A Super Admin's access: every action. */
  static everything(): AdminAccess {
    return new AdminAccess(true, []);
  }

  /** From `GET /admin/users/me`'s roles and `GET /admin/users/me/permissions`. */
  static of(roles: readonly { code: string }[], permissions: readonly AdminPermission[]): AdminAccess {
    return new AdminAccess(
      roles.some((role) => role.code === SUPER_ADMIN_CODE),
      permissions,
    );
  }

  /** Whether a permission grants the action (on the subject, when given). */
  can(action: string, subject?: string | null): boolean {
    if (this.superAdmin) return true;
    return this.permissions.some(
      (permission) => permission.action === action && (subject === undefined || permission.subject === subject),
    );
  }

  /** Whether any of the actions is granted. */
  canAny(actions: readonly string[]): boolean {
    return actions.some((action) => this.can(action));
  }

  /** What the action on the content-type allows; undefined when it is not granted. */
  scope(action: string, subject: string): Scope | undefined {
    if (this.superAdmin) return {};
    return scopeOf(this.permissions, action, subject);
  }

  /**
   * Whether the explorer action on the content-type is granted in that locale (any locale when
   * `locale` is undefined: a type that is not localized, or a question about the type as a whole).
   */
  canOn(action: ExplorerAction, uid: string, locale?: string): boolean {
    const scope = this.scope(EXPLORER[action], uid);
    if (!scope) return false;
    return locale === undefined || scope.locales === undefined || scope.locales.has(locale);
  }

  /** The locales among `all` in which one of the explorer actions is granted on the type. */
  locales(actions: readonly ExplorerAction[], uid: string, all: readonly string[]): string[] {
    return all.filter((locale) => actions.some((action) => this.canOn(action, uid, locale)));
  }

  /**
   * How the edit view shows a field (a form path: `seo.metaTitle`, `links.0.url`): a new document
   * shows the fields it may create, editable; a stored one hides those it may not read and shows
   * read-only those it may read but not update.
   */
  fieldMode(uid: string, path: string, creating: boolean): FieldMode {
    const inScope = (action: ExplorerAction) => {
      const scope = this.scope(EXPLORER[action], uid);
      return scope !== undefined && fieldInTree(scope.fields, path);
    };
    if (creating) return inScope('create') ? 'editable' : 'hidden';
    if (!inScope('read')) return 'hidden';
    return inScope('update') ? 'editable' : 'readonly';
  }
}

/**
 * The actions each settings screen (and the other screens outside the content manager) needs,
 * any of them, as Strapi's panel shows its menu entries: the key is the screen's client path.
 */
export const SCREEN_ACTIONS: Record<string, readonly string[]> = {
  '/media': ['plugin::upload.read'],
  '/releases': ['plugin::content-releases.read'],
  '/manage/releases': ['plugin::content-releases.settings.read'],
  '/content-type-builder': ['plugin::content-type-builder.read'],
  '/manage/api-tokens': ['admin::api-tokens.read', 'admin::api-tokens.access'],
  '/manage/locales': ['plugin::i18n.locale.read'],
  '/manage/webhooks': ['admin::webhooks.read'],
  '/manage/admin-roles': ['admin::roles.read'],
  '/manage/admin-users': ['admin::users.read'],
  // Strapi's Enterprise action: a Super Admin's (the server refuses others).
  '/manage/audit-logs': ['admin::audit-logs.read'],
  '/manage/roles': ['plugin::users-permissions.roles.read'],
  '/manage/users-permissions/providers': ['plugin::users-permissions.providers.read'],
  '/manage/users-permissions/email-templates': ['plugin::users-permissions.email-templates.read'],
  '/manage/users-permissions/advanced': ['plugin::users-permissions.advanced-settings.read'],
};

/** The content API's users: a settings screen here, the content manager's type in Strapi. */
export const CONTENT_API_USER = 'plugin::users-permissions.user';

/** Whether the administrator may open the screen at this client path (a path without an entry: yes). */
export function mayOpen(access: AdminAccess, path: string): boolean {
  if (path === '/manage/users') return access.can(EXPLORER.read, CONTENT_API_USER);
  const actions = SCREEN_ACTIONS[path];
  return actions === undefined || access.canAny(actions);
}

/** What a screen's buttons and fields change: each needs its own action, as Strapi 5.54's screens ask. */
export type Change = 'create' | 'update' | 'delete' | 'regenerate' | 'download' | 'copyLink';
/** An action, or an action on a subject (the content API's users are a content manager subject). */
type Needed = string | { action: string; subject: string };

const UP = 'plugin::users-permissions';
const ofUsers = (action: ExplorerAction) => ({ action: EXPLORER[action], subject: CONTENT_API_USER });

/**
 * The actions each screen's changes need (Strapi's names: src/features/admin-roles/registry.ts),
 * the key its client path as in SCREEN_ACTIONS: a screen a role may read shows only the buttons
 * and editable fields of the changes it holds. A change a screen lacks is never allowed.
 */
export const SCREEN_CHANGES = {
  // Strapi's "Update (crop, details, replace) + delete": one action for both.
  '/media': {
    create: 'plugin::upload.assets.create',
    update: 'plugin::upload.assets.update',
    delete: 'plugin::upload.assets.update',
    download: 'plugin::upload.assets.download',
    copyLink: 'plugin::upload.assets.copy-link',
  },
  '/manage/api-tokens': {
    create: 'admin::api-tokens.create',
    update: 'admin::api-tokens.update',
    delete: 'admin::api-tokens.delete',
    regenerate: 'admin::api-tokens.regenerate',
  },
  '/manage/locales': {
    create: 'plugin::i18n.locale.create',
    update: 'plugin::i18n.locale.update',
    delete: 'plugin::i18n.locale.delete',
  },
  '/manage/webhooks': {
    create: 'admin::webhooks.create',
    update: 'admin::webhooks.update',
    delete: 'admin::webhooks.delete',
  },
  '/manage/admin-roles': {
    create: 'admin::roles.create',
    update: 'admin::roles.update',
    delete: 'admin::roles.delete',
  },
  '/manage/admin-users': {
    create: 'admin::users.create',
    update: 'admin::users.update',
    delete: 'admin::users.delete',
  },
  '/manage/roles': { create: `${UP}.roles.create`, update: `${UP}.roles.update`, delete: `${UP}.roles.delete` },
  '/manage/users': { create: ofUsers('create'), update: ofUsers('update'), delete: ofUsers('delete') },
  '/manage/users-permissions/providers': { update: `${UP}.providers.update` },
  '/manage/users-permissions/email-templates': { update: `${UP}.email-templates.update` },
  '/manage/users-permissions/advanced': { update: `${UP}.advanced-settings.update` },
  '/manage/releases': { update: 'plugin::content-releases.settings.update' },
} as const satisfies Record<string, Partial<Record<Change, Needed>>>;
export type ChangeScreen = keyof typeof SCREEN_CHANGES;

/** What the administrator may change on a screen; `readOnly`: none of create, update, delete. */
export type Rights = Record<Change, boolean> & { readOnly: boolean };

export function rightsOn(access: AdminAccess, screen: ChangeScreen): Rights {
  const needed: Partial<Record<Change, Needed>> = SCREEN_CHANGES[screen];
  const may = (change: Change): boolean => {
    const action = needed[change];
    if (action === undefined) return false;
    return typeof action === 'string' ? access.can(action) : access.can(action.action, action.subject);
  };
  const rights = {
    create: may('create'),
    update: may('update'),
    delete: may('delete'),
    regenerate: may('regenerate'),
    download: may('download'),
    copyLink: may('copyLink'),
  };
  return { ...rights, readOnly: !rights.create && !rights.update && !rights.delete };
}
