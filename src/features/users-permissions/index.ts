/**
 * Users and permissions: the content API's users, roles and grants, their JWTs and sessions, the
 * account flows, login providers, API tokens and administrators; the access seam's implementation;
 * their REST routes and GraphQL fields.
 */
import type { Auth } from './service.js';
export { startAuth, type Auth, type AuthServices } from './service.js';
export { authTables, ME_ACTION, ROLE_UID, roleType, USER_UID, userType } from './model.js';
export { registerUsersPermissionsRoutes, usersPathTaken } from './routes.js';
export { registerUsersRolesRoutes } from './roles-routes.js';
export { mediaGrantWarning } from './media-grant-notice.js';
export { resolveAuthConfig } from './config.js';
export {
  contentApiActions,
  CONTENT_API_ROUTES,
  routeKey,
  type ActionAnswer,
  type ActionRequest,
  type ContentApiAction,
  type ContentApiRoute,
} from './content-api.js';
export { adminAuthors, adminIdentity, type AdminIdentity } from './admin-identity.js';
export { ADMIN_REFRESH_COOKIE, type AdminSessionTokens } from './admin-sessions.js';
export { cookieValue } from './sessions.js';
export type { SignInOptions } from './admins.js';
export { deviceName } from './user-agent.js';

/** Users-and-permissions' GraphQL root fields, loaded with the GraphQL schema (graphql-js with them). */
export const loadUsersPermissionsGraphql = (auth: Auth) => async () =>
  (await import('./graphql/index.js')).usersPermissionsGraphql(auth);
