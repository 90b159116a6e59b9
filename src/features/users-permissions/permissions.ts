/**
 * Permissions are Strapi's action strings, `<uid>.<action>`: `api::article.article.find`,
 * `plugin::upload.content-api.upload`, `plugin::users-permissions.user.findOne`. This module knows
 * which actions exist, expands the wildcards of `config/permissions`, and answers whether a set of
 * grants allows an action.
 */
import { ValidationError } from '../../core/errors.js';
import { FILE_UID, type ContentType, type Schema } from '../../core/schema/model.js';
import { ME_ACTION, ROLE_UID, USER_UID } from './model.js';

const UPLOAD_PERMISSION_UID = 'plugin::upload.content-api';
const USER_ACTIONS = ['find', 'findOne', 'count', 'me', 'create', 'update', 'destroy'];
const ROLE_ACTIONS = ['find', 'findOne', 'createRole', 'updateRole', 'deleteRole'];
/** Strapi's users-permissions `auth` controller: sign-in, registration, account flows, sessions. */
const AUTH_UID = 'plugin::users-permissions.auth';
const AUTH_ACTIONS = [
  'callback',
  'changePassword',
  'connect',
  'emailConfirmation',
  'forgotPassword',
  'getSessions',
  'logout',
  'refresh',
  'register',
  'resetPassword',
  'revokeSession',
  'sendEmailConfirmation',
] as const;
export type AuthActionName = (typeof AUTH_ACTIONS)[number];
/** `plugin::users-permissions.auth.<name>`: what a role needs to call that auth route. */
export const authAction = (name: AuthActionName): string => `${AUTH_UID}.${name}`;

/**
 * What Strapi 5.54 grants the built-in roles on a new database (users-permissions'
 * DEFAULT_PERMISSIONS): Public may sign in and register, Authenticated may not (a signed-in user's
 * `POST /api/auth/local` is a 403 there) but may read itself and change its password.
 */
export const DEFAULT_GRANTS: Readonly<Record<'public' | 'authenticated', readonly string[]>> = {
  public: (
    [
      'callback',
      'connect',
      'forgotPassword',
      'resetPassword',
      'register',
      'emailConfirmation',
      'sendEmailConfirmation',
      'refresh',
    ] as const
  ).map(authAction),
  authenticated: [
    ...(['logout', 'getSessions', 'revokeSession', 'changePassword'] as const).map(authAction),
    ME_ACTION,
  ],
};

/** `GET /api/users-permissions/permissions`. */
export const PERMISSIONS_ACTION = 'plugin::users-permissions.permissions.getPermissions';

/** Every action a role or a custom API token can be granted, for this schema. */
export function knownActions(schema: Schema): string[] {
  const actions: string[] = [];
  for (const type of schema.contentTypes.values()) {
    if (type.builtIn) continue;
    const names =
      type.kind === 'collectionType' ? ['find', 'findOne', 'create', 'update', 'delete'] : ['find', 'update', 'delete'];
    for (const name of names) actions.push(`${type.uid}.${name}`);
  }
  // `update` (replacing a file's bytes or info) is Vellum's: Strapi lets `upload` do it.
  for (const name of ['upload', 'update', 'find', 'findOne', 'destroy'])
    actions.push(`${UPLOAD_PERMISSION_UID}.${name}`);
  // Strapi's users-permissions controllers: users, roles, auth and the permissions catalogue.
  for (const name of USER_ACTIONS) actions.push(`${USER_UID}.${name}`);
  for (const name of ROLE_ACTIONS) actions.push(`${ROLE_UID}.${name}`);
  for (const name of AUTH_ACTIONS) actions.push(authAction(name));
  actions.push(PERMISSIONS_ACTION);
  // The email plugin's `POST /api/email` (features/email/routes.ts).
  actions.push('plugin::email.email.send');
  // The Content-Type Builder's reads on the content API (features/content-type-builder/routes.ts).
  for (const name of ['getContentTypes', 'getContentType'])
    actions.push(`plugin::content-type-builder.content-types.${name}`);
  for (const name of ['getComponents', 'getComponent']) actions.push(`plugin::content-type-builder.components.${name}`);
  return actions;
}

const globToRegExp = (pattern: string): RegExp =>
  new RegExp(
    `^${pattern
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );

/**
 * Concrete actions for patterns such as `api::*.find` or `api::article.article.*`. A pattern that
 * matches nothing is refused: it is a typo, and silently granting nothing would hide it.
 */
export function expandActions(patterns: string[], known: string[], where: string): string[] {
  const result = new Set<string>();
  for (const pattern of patterns) {
    if (typeof pattern !== 'string' || pattern === '')
      throw new ValidationError(`${where}: an action must be a non-empty string`);
    const regexp = globToRegExp(pattern);
    const matched = known.filter((action) => regexp.test(action));
    if (matched.length === 0) {
      throw new ValidationError(`${where}: "${pattern}" names no known action (e.g. api::article.article.find)`, {
        action: pattern,
      });
    }
    for (const action of matched) result.add(action);
  }
  return [...result];
}

/** The action that lets a caller read a type through populate, filters and sort. */
export function readAction(type: ContentType): string {
  if (type.uid === FILE_UID) return `${UPLOAD_PERMISSION_UID}.find`;
  if (type.uid === ROLE_UID) return `${ROLE_UID}.find`;
  return `${type.uid}.find`;
}
