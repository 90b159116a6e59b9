/**
 * What API tokens store: the tokens (an HMAC of each key, never the key) and the actions of
 * `custom` tokens, in Strapi's table names.
 */
import type { Encoded, RowId } from '../../core/database/system-tables.js';
import type { TableSpec } from '../../core/database/tables.js';
import { indexName } from '../../core/schema/naming.js';

export const TOKENS_TABLE = 'strapi_api_tokens';
export const TOKEN_PERMISSIONS_TABLE = 'strapi_api_token_permissions';
/** An API token's kinds (tokens.ts). */
export const TOKEN_TYPES = ['read-only', 'full-access', 'custom'] as const;
export type TokenType = (typeof TOKEN_TYPES)[number];

const id = { name: 'id', type: 'id' } as const;

export const tokenTables: TableSpec[] = [
  {
    name: TOKENS_TABLE,
    columns: [
      id,
      { name: 'name', type: 'string', notNull: true },
      { name: 'description', type: 'string' },
      { name: 'type', type: 'string', notNull: true },
      // HMAC-SHA512 of the token: the token itself is shown once, at creation.
      { name: 'access_key', type: 'string', notNull: true },
      { name: 'expires_at', type: 'datetime' },
      { name: 'last_used_at', type: 'datetime' },
      { name: 'created_at', type: 'datetime' },
      { name: 'updated_at', type: 'datetime' },
    ],
    indexes: [
      { name: indexName(TOKENS_TABLE, ['access_key']), columns: ['access_key'], unique: true },
      { name: indexName(TOKENS_TABLE, ['name']), columns: ['name'], unique: true },
    ],
  },
  {
    name: TOKEN_PERMISSIONS_TABLE,
    columns: [
      id,
      { name: 'token_id', type: 'integer', notNull: true },
      { name: 'action', type: 'string', notNull: true },
    ],
    indexes: [
      {
        name: indexName(TOKEN_PERMISSIONS_TABLE, ['token_id', 'action']),
        columns: ['token_id', 'action'],
        unique: true,
      },
    ],
  },
];

export interface TokenRow {
  id: RowId;
  name: string;
  description: string | null;
  type: TokenType;
  access_key: string;
  expires_at: Encoded;
  last_used_at: Encoded;
  created_at: Encoded;
  updated_at: Encoded;
}

export interface TokenPermissionRow {
  id: RowId;
  token_id: number;
  action: string;
}

declare module '../../core/database/system-tables.js' {
  interface SystemTables {
    strapi_api_tokens: TokenRow;
    strapi_api_token_permissions: TokenPermissionRow;
  }
}
