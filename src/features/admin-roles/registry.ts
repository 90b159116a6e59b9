/**
 * The administrator actions a role may be granted, as Strapi 5.54 registers them (its admin
 * `admin-actions`, the content manager's `explorer.*` per content-type, and each plugin's), and
 * `GET /admin/permissions`'s answer built from them (Strapi's sections builder). The answers of
 * Strapi 5.54 for the blog fixture are in test/fixtures/admin-roles/.
 */
import { type ContentType, type Model, type Schema } from '../../core/schema/model.js';
import { IS_CREATOR, SAME_ROLE_AS_CREATOR } from './contract.js';

/** The content API's users (features/users-permissions/ owns the type): a content manager subject. */
const USER_TYPE_UID = 'plugin::users-permissions.user';

export type Property = 'fields' | 'locales';
export type Section = 'contentTypes' | 'plugins' | 'settings';

export interface AdminAction {
  actionId: string;
  section: Section;
  displayName: string;
  /** Settings: the group on the settings tab. */
  category?: string;
  subCategory?: string;
  /** Plugins: the plugin's name. */
  plugin?: string;
  /** Content-type actions: the content-types they apply to (a permission names one as its subject). */
  subjects?: string[];
  /** Content-type actions: the properties a permission may narrow (fields, locales). */
  applyToProperties?: Property[];
}

export const EXPLORER = {
  create: 'plugin::content-manager.explorer.create',
  read: 'plugin::content-manager.explorer.read',
  update: 'plugin::content-manager.explorer.update',
  delete: 'plugin::content-manager.explorer.delete',
  publish: 'plugin::content-manager.explorer.publish',
} as const;

const EXPLORER_ACTIONS: { label: string; actionId: string; applyToProperties: Property[] }[] = [
  { label: 'Create', actionId: EXPLORER.create, applyToProperties: ['fields', 'locales'] },
  { label: 'Read', actionId: EXPLORER.read, applyToProperties: ['fields', 'locales'] },
  { label: 'Update', actionId: EXPLORER.update, applyToProperties: ['fields', 'locales'] },
  { label: 'Delete', actionId: EXPLORER.delete, applyToProperties: ['locales'] },
  { label: 'Publish', actionId: EXPLORER.publish, applyToProperties: ['locales'] },
];

/** [action, displayName, plugin, subCategory], in Strapi 5.54's order. */
const PLUGIN_ACTIONS: [string, string, string, string][] = [
  ['plugin::content-manager.single-types.configure-view', 'Configure view', 'content-manager', 'single types'],
  ['plugin::content-manager.collection-types.configure-view', 'Configure view', 'content-manager', 'collection types'],
  ['plugin::content-manager.components.configure-layout', 'Configure Layout', 'content-manager', 'components'],
  // Releases: Strapi's paid plugin, free here (features/releases/).
  ['plugin::content-releases.read', 'Read', 'content-releases', 'general'],
  ['plugin::content-releases.create', 'Create', 'content-releases', 'general'],
  ['plugin::content-releases.update', 'Edit', 'content-releases', 'general'],
  ['plugin::content-releases.delete', 'Delete', 'content-releases', 'general'],
  ['plugin::content-releases.publish', 'Publish', 'content-releases', 'general'],
  ['plugin::content-releases.delete-action', 'Remove an entry from a release', 'content-releases', 'general'],
  ['plugin::content-releases.create-action', 'Add an entry to a release', 'content-releases', 'general'],
  ['plugin::content-type-builder.read', 'Read', 'content-type-builder', 'general'],
  ['plugin::upload.read', 'Access the Media Library', 'upload', 'general'],
  ['plugin::upload.assets.create', 'Create (upload)', 'upload', 'assets'],
  ['plugin::upload.assets.update', 'Update (crop, details, replace) + delete', 'upload', 'assets'],
  ['plugin::upload.assets.download', 'Download', 'upload', 'assets'],
  ['plugin::upload.assets.copy-link', 'Copy link', 'upload', 'assets'],
  ['plugin::upload.configure-view', 'Configure view', 'upload', 'general'],
  ['plugin::users-permissions.roles.create', 'Create', 'users-permissions', 'roles'],
  ['plugin::users-permissions.roles.read', 'Read', 'users-permissions', 'roles'],
  ['plugin::users-permissions.roles.update', 'Update', 'users-permissions', 'roles'],
  ['plugin::users-permissions.roles.delete', 'Delete', 'users-permissions', 'roles'],
  ['plugin::users-permissions.providers.read', 'Read', 'users-permissions', 'providers'],
  ['plugin::users-permissions.providers.update', 'Edit', 'users-permissions', 'providers'],
  ['plugin::users-permissions.email-templates.read', 'Read', 'users-permissions', 'emailTemplates'],
  ['plugin::users-permissions.email-templates.update', 'Edit', 'users-permissions', 'emailTemplates'],
  ['plugin::users-permissions.advanced-settings.read', 'Read', 'users-permissions', 'advancedSettings'],
  ['plugin::users-permissions.advanced-settings.update', 'Edit', 'users-permissions', 'advancedSettings'],
];

/** [action, displayName, category, subCategory], in Strapi 5.54's order. */
const SETTINGS_ACTIONS: [string, string, string, string][] = [
  ['plugin::email.settings.read', 'Access the Email Settings page', 'email', 'general'],
  ['plugin::upload.settings.read', 'Access the Media Library settings page', 'media library', 'general'],
  ['plugin::i18n.locale.create', 'Create', 'Internationalization', 'Locales'],
  ['plugin::i18n.locale.read', 'Read', 'Internationalization', 'Locales'],
  ['plugin::i18n.locale.update', 'Update', 'Internationalization', 'Locales'],
  ['plugin::i18n.locale.delete', 'Delete', 'Internationalization', 'Locales'],
  // Releases' settings (a default time zone): Strapi's paid plugin registers them after the
  // free plugins' settings; free here (features/releases/).
  ['plugin::content-releases.settings.read', 'Read', 'content releases', 'options'],
  ['plugin::content-releases.settings.update', 'Edit', 'content releases', 'options'],
  ['admin::marketplace.read', 'Access the marketplace', 'plugins and marketplace', 'marketplace'],
  ['admin::webhooks.create', 'Create', 'webhooks', 'general'],
  ['admin::webhooks.read', 'Read', 'webhooks', 'general'],
  ['admin::webhooks.update', 'Update', 'webhooks', 'general'],
  ['admin::webhooks.delete', 'Delete', 'webhooks', 'general'],
  ['admin::users.create', 'Create (invite)', 'users and roles', 'users'],
  ['admin::users.read', 'Read', 'users and roles', 'users'],
  ['admin::users.update', 'Update', 'users and roles', 'users'],
  ['admin::users.delete', 'Delete', 'users and roles', 'users'],
  ['admin::roles.create', 'Create', 'users and roles', 'roles'],
  ['admin::roles.read', 'Read', 'users and roles', 'roles'],
  ['admin::roles.update', 'Update', 'users and roles', 'roles'],
  ['admin::roles.delete', 'Delete', 'users and roles', 'roles'],
  ['admin::api-tokens.access', 'Access the API tokens settings page', 'api tokens', 'api Tokens'],
  ['admin::admin-tokens.access', 'Access the Admin tokens settings page', 'admin tokens', 'admin tokens'],
  ['admin::admin-tokens.create', 'Create (generate)', 'admin tokens', 'general'],
  ['admin::admin-tokens.read', 'Read', 'admin tokens', 'general'],
  ['admin::admin-tokens.update', 'Update', 'admin tokens', 'general'],
  ['admin::admin-tokens.regenerate', 'Regenerate', 'admin tokens', 'general'],
  ['admin::admin-tokens.delete', 'Delete (revoke)', 'admin tokens', 'general'],
  ['admin::api-tokens.create', 'Create (generate)', 'api tokens', 'general'],
  ['admin::api-tokens.read', 'Read', 'api tokens', 'general'],
  ['admin::api-tokens.update', 'Update', 'api tokens', 'general'],
  ['admin::api-tokens.regenerate', 'Regenerate', 'api tokens', 'general'],
  ['admin::api-tokens.delete', 'Delete (revoke)', 'api tokens', 'general'],
  ['admin::project-settings.update', 'Update the project level settings', 'project', 'general'],
  ['admin::project-settings.read', 'Read the project level settings', 'project', 'general'],
  ['admin::transfer.tokens.access', 'Access the transfer tokens settings page', 'transfer tokens', 'transfer tokens'],
  ['admin::transfer.tokens.create', 'Create (generate)', 'transfer tokens', 'general'],
  ['admin::transfer.tokens.read', 'Read', 'transfer tokens', 'general'],
  ['admin::transfer.tokens.update', 'Update', 'transfer tokens', 'general'],
  ['admin::transfer.tokens.regenerate', 'Regenerate', 'transfer tokens', 'general'],
  ['admin::transfer.tokens.delete', 'Delete (revoke)', 'transfer tokens', 'general'],
  // Strapi's Enterprise action (its EE admin-actions), free here: who may read the audit log. Its
  // free edition's list ends above.
  ['admin::audit-logs.read', 'Read', 'audit logs', 'options'],
];

export { IS_CREATOR, SAME_ROLE_AS_CREATOR };
export const CONDITIONS = [
  { id: IS_CREATOR, displayName: 'Is creator', category: 'default' },
  { id: SAME_ROLE_AS_CREATOR, displayName: 'Has same role as creator', category: 'default' },
];

/**
 * The content-types the content manager edits, as Strapi orders its subjects: the users of the
 * content API, then the project's types. Other built-in types (files, roles) are not subjects.
 */
export function managedTypes(schema: Schema): ContentType[] {
  const project = [...schema.contentTypes.values()]
    .filter((type) => !type.builtIn)
    .sort((a, b) => (a.uid < b.uid ? -1 : a.uid > b.uid ? 1 : 0));
  const users = schema.contentTypes.get(USER_TYPE_UID);
  return users ? [users, ...project] : project;
}

/** Every action, for a schema. */
export function adminActions(schema: Schema): AdminAction[] {
  const subjects = managedTypes(schema).map((type) => type.uid);
  return [
    ...EXPLORER_ACTIONS.map(({ label, actionId, applyToProperties }): AdminAction => ({
      actionId,
      section: 'contentTypes',
      displayName: label,
      subjects,
      applyToProperties,
    })),
    ...PLUGIN_ACTIONS.map(([actionId, displayName, plugin, subCategory]): AdminAction => ({
      actionId,
      section: 'plugins',
      displayName,
      plugin,
      subCategory,
    })),
    ...SETTINGS_ACTIONS.map(([actionId, displayName, category, subCategory]): AdminAction => ({
      actionId,
      section: 'settings',
      displayName,
      category,
      subCategory,
    })),
  ];
}

interface FieldNode {
  label: string;
  value: string;
  required?: true;
  children?: FieldNode[];
}

/** A model's fields as the permissions screen nests them: components open into their own fields. */
function fieldTree(schema: Schema, model: Model, depth = 0): FieldNode[] {
  const nodes: FieldNode[] = [];
  // Private attributes too (a user's password): Strapi lists every visible attribute.
  for (const attribute of Object.values(model.attributes)) {
    const node: FieldNode = { label: attribute.name, value: attribute.name };
    if (attribute.required) node.required = true;
    if (attribute.kind === 'component' && depth < 10) {
      const component = schema.components.get(attribute.component);
      if (component) node.children = fieldTree(schema, component, depth + 1);
    }
    nodes.push(node);
  }
  return nodes;
}

/** The field paths of a content-type as permissions list them (`seo.metaTitle` for a component's). */
export function fieldPaths(schema: Schema, type: ContentType): string[] {
  const paths: string[] = [];
  const walk = (nodes: FieldNode[], prefix: string) => {
    for (const node of nodes) {
      if (node.children?.length) walk(node.children, `${prefix}${node.value}.`);
      else paths.push(`${prefix}${node.value}`);
    }
  };
  walk(fieldTree(schema, type), '');
  return paths;
}

export interface LocaleChoice {
  code: string;
  name: string;
}

/** `GET /admin/permissions`'s `data`: conditions and the four sections, as Strapi 5.54 builds them (a locale's name is Strapi's stored one, "English (en)"). */
export function permissionSections(schema: Schema, locales: LocaleChoice[], defaultLocale: string) {
  const actions = adminActions(schema);
  const typeSection = (kind: ContentType['kind']) => {
    const types = managedTypes(schema).filter((type) => type.kind === kind);
    return {
      actions: actions
        .filter((action) => action.section === 'contentTypes')
        .map((action) => ({
          label: action.displayName,
          actionId: action.actionId,
          subjects: action.subjects,
          applyToProperties: action.applyToProperties,
        })),
      subjects: types.map((type) => ({
        uid: type.uid,
        label: type.singularName,
        properties: [
          { label: 'Fields', value: 'fields', children: fieldTree(schema, type) },
          ...(type.localized
            ? [
                {
                  label: 'Locales',
                  value: 'locales',
                  children: locales.map((locale) => ({
                    label: locale.name,
                    value: locale.code,
                    isDefault: locale.code === defaultLocale,
                  })),
                },
              ]
            : []),
        ],
      })),
    };
  };
  return {
    conditions: CONDITIONS,
    sections: {
      plugins: actions
        .filter((action) => action.section === 'plugins')
        .map(({ displayName, plugin, subCategory, actionId }) => ({
          displayName,
          plugin,
          subCategory,
          action: actionId,
        })),
      settings: actions
        .filter((action) => action.section === 'settings')
        .map(({ displayName, category, subCategory, actionId }) => ({
          displayName,
          category,
          subCategory,
          action: actionId,
        })),
      singleTypes: typeSection('singleType'),
      collectionTypes: typeSection('collectionType'),
    },
  };
}
