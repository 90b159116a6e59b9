/**
 * API tokens (`read-only`, `full-access`, `custom`): made by administrators (the admin API, the
 * CLI), checked by the access layer of users-and-permissions on every request that carries one.
 */
export { ApiTokens, type CreateTokenInput, type TokenInfo } from './tokens.js';
export { tokenTables, type TokenType } from './model.js';
