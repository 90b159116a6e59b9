/**
 * What administrator roles store, in Strapi's tables and columns where it has them: the roles
 * (`admin_roles`), their permissions (`admin_permissions`: action, subject, properties and
 * conditions as JSON text; the role as a column, where Strapi has a link table) and which
 * administrators hold which roles (`admin_users_roles_lnk`, Strapi's link table).
 */
import type { Encoded, RowId } from '../../core/database/system-tables.js';
import type { TableSpec } from '../../core/database/tables.js';
import { indexName } from '../../core/schema/naming.js';

export const ROLES_TABLE = 'admin_roles';
export const PERMISSIONS_TABLE = 'admin_permissions';
export const USER_ROLES_TABLE = 'admin_users_roles_lnk';

const id = { name: 'id', type: 'id' } as const;

export const adminRoleTables: TableSpec[] = [
  {
    name: ROLES_TABLE,
    columns: [
      id,
      { name: 'document_id', type: 'string', notNull: true },
      { name: 'name', type: 'string', notNull: true },
      { name: 'code', type: 'string', notNull: true },
      { name: 'description', type: 'string' },
      { name: 'created_at', type: 'datetime' },
      { name: 'updated_at', type: 'datetime' },
      { name: 'published_at', type: 'datetime' },
    ],
    indexes: [
      { name: indexName(ROLES_TABLE, ['code']), columns: ['code'], unique: true },
      { name: indexName(ROLES_TABLE, ['name']), columns: ['name'], unique: true },
    ],
  },
  {
    name: PERMISSIONS_TABLE,
    columns: [
      id,
      { name: 'document_id', type: 'string', notNull: true },
      { name: 'role_id', type: 'integer', notNull: true },
      { name: 'action', type: 'string', notNull: true },
      { name: 'action_parameters', type: 'text' },
      { name: 'subject', type: 'string' },
      { name: 'properties', type: 'text' },
      { name: 'conditions', type: 'text' },
      { name: 'created_at', type: 'datetime' },
      { name: 'updated_at', type: 'datetime' },
    ],
    indexes: [{ name: indexName(PERMISSIONS_TABLE, ['role_id']), columns: ['role_id'] }],
  },
  {
    name: USER_ROLES_TABLE,
    columns: [
      id,
      { name: 'user_id', type: 'integer', notNull: true },
      { name: 'role_id', type: 'integer', notNull: true },
      { name: 'role_ord', type: 'integer' },
    ],
    indexes: [
      { name: indexName(USER_ROLES_TABLE, ['user_id', 'role_id']), columns: ['user_id', 'role_id'], unique: true },
      { name: indexName(USER_ROLES_TABLE, ['role_id']), columns: ['role_id'] },
    ],
  },
];

export interface AdminRoleRow {
  id: RowId;
  document_id: string;
  name: string;
  code: string;
  description: string | null;
  created_at: Encoded;
  updated_at: Encoded;
  published_at: Encoded;
}

export interface AdminPermissionRow {
  id: RowId;
  document_id: string;
  role_id: number;
  action: string;
  action_parameters: string | null;
  subject: string | null;
  properties: string | null;
  conditions: string | null;
  created_at: Encoded;
  updated_at: Encoded;
}

export interface AdminUserRoleRow {
  id: RowId;
  user_id: number;
  role_id: number;
  role_ord: number | null;
}

declare module '../../core/database/system-tables.js' {
  interface SystemTables {
    admin_roles: AdminRoleRow;
    admin_permissions: AdminPermissionRow;
    admin_users_roles_lnk: AdminUserRoleRow;
  }
}
