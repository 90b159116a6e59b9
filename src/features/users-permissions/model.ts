/**
 * What users-and-permissions stores: the user and role content-types (built in, as Strapi's
 * `plugin::users-permissions.*`, so project types can relate to users and `/api/users` reuses the
 * query engine) and the system tables for permissions, admins, rate limits, the
 * single-use codes of password resets and email confirmations, and JWT revocations.
 */
import type { Encoded, RowId } from '../../core/database/system-tables.js';
import type { TableSpec } from '../../core/database/tables.js';
import type { RawSchemaFile } from '../../core/schema/build.js';
import { indexName } from '../../core/schema/naming.js';

export const USER_UID = 'plugin::users-permissions.user';
/** What `GET /api/users/me` needs (Strapi's; Authenticated holds it by default). */
export const ME_ACTION = `${USER_UID}.me`;
export const ROLE_UID = 'plugin::users-permissions.role';

export const PERMISSIONS_TABLE = 'up_permissions';
/** The grants of `config/permissions` applied so far, per role: each is applied once (see Roles.seed). */
export const SEEDED_PERMISSIONS_TABLE = 'up_permissions_seeded';
export const ADMINS_TABLE = 'admin_users';
/** Replaces `up_login_failures` (one row per failure) of earlier versions: `vellum db prune` drops that one. */
export const RATE_LIMITS_TABLE = 'up_rate_limits';
export const USER_CODES_TABLE = 'up_user_codes';
export const JWT_REVOCATIONS_TABLE = 'up_jwt_revocations';
export const SESSIONS_TABLE = 'up_sessions';
export const ADMIN_SESSIONS_TABLE = 'admin_sessions';

export const userType: RawSchemaFile = {
  file: '(built-in) plugin::users-permissions.user',
  uid: USER_UID,
  json: {
    kind: 'collectionType',
    collectionName: 'up_users',
    info: { singularName: 'user', pluralName: 'users', displayName: 'User' },
    options: { draftAndPublish: false },
    attributes: {
      username: { type: 'string', minLength: 3, unique: true, required: true, configurable: false },
      // Unique in Vellum's database (Strapi checks it at registration only): see built-ins.ts.
      email: { type: 'email', minLength: 6, required: true, unique: true, configurable: false },
      provider: { type: 'string', configurable: false },
      password: { type: 'password', minLength: 6, private: true, configurable: false },
      resetPasswordToken: { type: 'string', private: true, configurable: false },
      confirmationToken: { type: 'string', private: true, configurable: false },
      confirmed: { type: 'boolean', default: false, configurable: false },
      blocked: { type: 'boolean', default: false, configurable: false },
      role: { type: 'relation', relation: 'manyToOne', target: ROLE_UID, inversedBy: 'users', configurable: false },
    },
  },
};

export const roleType: RawSchemaFile = {
  file: '(built-in) plugin::users-permissions.role',
  uid: ROLE_UID,
  json: {
    kind: 'collectionType',
    collectionName: 'up_roles',
    info: { singularName: 'role', pluralName: 'roles', displayName: 'Role' },
    options: { draftAndPublish: false },
    attributes: {
      name: { type: 'string', minLength: 3, required: true, configurable: false },
      description: { type: 'string', configurable: false },
      type: { type: 'string', unique: true, configurable: false },
      users: { type: 'relation', relation: 'oneToMany', target: USER_UID, mappedBy: 'role', configurable: false },
    },
  },
};

const id = { name: 'id', type: 'id' } as const;

/** Tables that are not content-types; created and migrated with the rest of the schema. */
import { adminRoleTables } from '../admin-roles/index.js';

export const authTables: TableSpec[] = [
  ...adminRoleTables,
  {
    // A role's granted actions (`api::article.article.find`); roles are addressed by documentId.
    name: PERMISSIONS_TABLE,
    columns: [
      id,
      { name: 'role_document_id', type: 'string', notNull: true },
      { name: 'action', type: 'string', notNull: true },
    ],
    indexes: [
      {
        name: indexName(PERMISSIONS_TABLE, ['role_document_id', 'action']),
        columns: ['role_document_id', 'action'],
        unique: true,
      },
    ],
  },
  {
    // What config/permissions granted, once per role and action: a grant revoked later is not
    // granted again at the next start; an action the file names for the first time is.
    name: SEEDED_PERMISSIONS_TABLE,
    columns: [
      id,
      { name: 'role_document_id', type: 'string', notNull: true },
      { name: 'action', type: 'string', notNull: true },
    ],
    indexes: [
      {
        name: indexName(SEEDED_PERMISSIONS_TABLE, ['role_document_id', 'action']),
        columns: ['role_document_id', 'action'],
        unique: true,
      },
    ],
  },
  {
    name: ADMINS_TABLE,
    // Answers that show, filter or sort on creator fields read administrators' names: the response
    // cache keeps them while this group's counter stays put (core/documents/dependencies.ts).
    changeGroup: ADMINS_TABLE,
    columns: [
      id,
      { name: 'email', type: 'string', notNull: true },
      { name: 'password', type: 'string', notNull: true },
      { name: 'created_at', type: 'datetime' },
      // The second (epoch) through which the administrator's tokens are refused: a password change.
      { name: 'revoked_through', type: 'bigint' },
      // Strapi's admin user's columns (added to databases of earlier Vellums, null there).
      { name: 'document_id', type: 'string' },
      { name: 'firstname', type: 'string' },
      { name: 'lastname', type: 'string' },
      { name: 'username', type: 'string' },
      { name: 'is_active', type: 'boolean' },
      { name: 'blocked', type: 'boolean' },
      { name: 'prefered_language', type: 'string' },
      // An invited administrator's single-use code (hashed), until they register.
      { name: 'registration_token', type: 'string' },
      { name: 'updated_at', type: 'datetime' },
      // Strapi's too; what the creator fields read of an administrator (core/schema/creators.ts).
      { name: 'published_at', type: 'datetime' },
      { name: 'locale', type: 'string' },
      // A forgotten password's single-use code (SHA-256) and when it stops working (Strapi's
      // `resetPasswordToken`, kept in clear there).
      { name: 'reset_password_token', type: 'string' },
      { name: 'reset_password_expires_at', type: 'datetime' },
    ],
    indexes: [{ name: indexName(ADMINS_TABLE, ['email']), columns: ['email'], unique: true }],
  },
  {
    // Administrators' sign-ins (admin-sessions.ts): one row per signed-in browser, holding the
    // SHA-256 of its current refresh token only (rotated on every `POST /admin/access-token`).
    // `family`: `session` (ends with the browser, Strapi's default) or `refresh` ("remember me").
    name: ADMIN_SESSIONS_TABLE,
    columns: [
      id,
      { name: 'session_id', type: 'string', notNull: true },
      { name: 'admin_id', type: 'integer', notNull: true },
      { name: 'device_id', type: 'string' },
      { name: 'family', type: 'string', notNull: true },
      { name: 'device_name', type: 'string' },
      { name: 'token_hash', type: 'string', notNull: true },
      // The token the last rotation replaced: two tabs renewing at once send it (refused, the
      // session goes on); an older one sent again means it leaked (the session ends).
      { name: 'previous_hash', type: 'string' },
      { name: 'expires_at', type: 'datetime', notNull: true },
      { name: 'absolute_expires_at', type: 'datetime', notNull: true },
      { name: 'created_at', type: 'datetime' },
      { name: 'updated_at', type: 'datetime' },
    ],
    indexes: [
      { name: indexName(ADMIN_SESSIONS_TABLE, ['session_id']), columns: ['session_id'], unique: true },
      { name: indexName(ADMIN_SESSIONS_TABLE, ['admin_id']), columns: ['admin_id'] },
    ],
  },
  {
    // Attempts per key in the window that opened at the key's first (throttle.ts), shared by every node.
    name: RATE_LIMITS_TABLE,
    columns: [
      id,
      { name: 'key', type: 'string', notNull: true },
      { name: 'hits', type: 'integer', notNull: true },
      { name: 'window_end', type: 'datetime', notNull: true },
    ],
    indexes: [
      { name: indexName(RATE_LIMITS_TABLE, ['key']), columns: ['key'], unique: true },
      { name: indexName(RATE_LIMITS_TABLE, ['window_end']), columns: ['window_end'] },
    ],
  },
  {
    // Single-use codes sent by email (password reset, email confirmation): only their SHA-256 is kept.
    name: USER_CODES_TABLE,
    columns: [
      id,
      { name: 'user_id', type: 'integer', notNull: true },
      { name: 'purpose', type: 'string', notNull: true },
      { name: 'code_hash', type: 'string', notNull: true },
      { name: 'expires_at', type: 'datetime', notNull: true },
      { name: 'created_at', type: 'datetime' },
    ],
    indexes: [
      { name: indexName(USER_CODES_TABLE, ['code_hash']), columns: ['code_hash'], unique: true },
      { name: indexName(USER_CODES_TABLE, ['user_id', 'purpose']), columns: ['user_id', 'purpose'] },
    ],
  },
  {
    // A user's JWTs issued at or before `revoked_through` (epoch seconds) are refused: written when
    // the password changes or is reset.
    name: JWT_REVOCATIONS_TABLE,
    columns: [
      id,
      { name: 'user_id', type: 'integer', notNull: true },
      { name: 'revoked_through', type: 'bigint', notNull: true },
    ],
    indexes: [{ name: indexName(JWT_REVOCATIONS_TABLE, ['user_id']), columns: ['user_id'], unique: true }],
  },
  {
    // Refresh sessions (`jwtManagement: 'refresh'`, sessions.ts): one row per signed-in device,
    // holding the SHA-256 of its current refresh token only (rotated on every refresh).
    name: SESSIONS_TABLE,
    columns: [
      id,
      { name: 'session_id', type: 'string', notNull: true },
      { name: 'user_id', type: 'integer', notNull: true },
      { name: 'device_id', type: 'string' },
      // What the sessions list shows (Strapi's session metadata): set when signing in, not when a
      // password change re-issues a session.
      { name: 'device_name', type: 'string' },
      { name: 'login_at', type: 'datetime' },
      { name: 'token_hash', type: 'string', notNull: true },
      { name: 'expires_at', type: 'datetime', notNull: true },
      { name: 'absolute_expires_at', type: 'datetime', notNull: true },
      { name: 'created_at', type: 'datetime' },
      { name: 'updated_at', type: 'datetime' },
    ],
    indexes: [
      { name: indexName(SESSIONS_TABLE, ['session_id']), columns: ['session_id'], unique: true },
      { name: indexName(SESSIONS_TABLE, ['user_id']), columns: ['user_id'] },
    ],
  },
];

/** Rows of the tables above, typed for the query builder (`Database.system`). */
export interface PermissionRow {
  id: RowId;
  role_document_id: string;
  action: string;
}

export interface AdminRow {
  id: RowId;
  email: string;
  /** '' for an invited administrator who has not registered yet. */
  password: string;
  created_at: Encoded;
  revoked_through: number | string | null;
  document_id: string | null;
  firstname: string | null;
  lastname: string | null;
  username: string | null;
  is_active: Encoded | null;
  blocked: Encoded | null;
  prefered_language: string | null;
  registration_token: string | null;
  updated_at: Encoded | null;
  published_at: Encoded | null;
  locale: string | null;
  reset_password_token: string | null;
  reset_password_expires_at: Encoded | null;
}

export interface AdminSessionRow {
  id: RowId;
  session_id: string;
  admin_id: number;
  device_id: string | null;
  family: string;
  device_name: string | null;
  token_hash: string;
  previous_hash: string | null;
  expires_at: Encoded;
  absolute_expires_at: Encoded;
  created_at: Encoded;
  updated_at: Encoded;
}

export interface RateLimitRow {
  id: RowId;
  key: string;
  hits: number;
  window_end: Encoded;
}

export interface UserCodeRow {
  id: RowId;
  user_id: number;
  purpose: string;
  code_hash: string;
  expires_at: Encoded;
  created_at: Encoded;
}

export interface JwtRevocationRow {
  id: RowId;
  user_id: number;
  /** A bigint: a string on PostgreSQL, a number elsewhere. */
  revoked_through: number | string;
}

export interface SessionRow {
  id: RowId;
  session_id: string;
  user_id: number;
  device_id: string | null;
  device_name: string | null;
  login_at: Encoded | null;
  token_hash: string;
  expires_at: Encoded;
  absolute_expires_at: Encoded;
  created_at: Encoded;
  updated_at: Encoded;
}

declare module '../../core/database/system-tables.js' {
  interface SystemTables {
    up_sessions: SessionRow;
    admin_sessions: AdminSessionRow;
    up_user_codes: UserCodeRow;
    up_jwt_revocations: JwtRevocationRow;
    up_permissions: PermissionRow;
    up_permissions_seeded: PermissionRow;
    admin_users: AdminRow;
    up_rate_limits: RateLimitRow;
  }
}

/**
 * The columns Vellum reads of the user and role content-types' tables (a project may add
 * attributes to users, and name its table: `shaped` and `table` of system-tables.ts type it by the
 * model's table name).
 */
export interface UserRow {
  id: RowId;
  document_id: string;
  username: string;
  email: string;
  provider: string | null;
  password: string | null;
  blocked: Encoded;
  confirmed: Encoded;
}

export interface RoleRow {
  id: RowId;
  document_id: string;
  locale: string | null;
  published_at: Encoded;
  created_at: Encoded;
  updated_at: Encoded;
  name: string;
  description: string | null;
  type: string;
}
