/**
 * Users-and-permissions in GraphQL: `register`, `login`, `me`, the account mutations and the
 * users' and roles' mutations, answered by the code of their REST routes, as root fields the
 * GraphQL feature adds to its schema (GraphqlFieldSource).
 */
import type { Caller } from '../../../api/access.js';
import { ForbiddenError } from '../../../core/errors.js';
import type { GraphqlFieldSource, ModelTypes, Operations, RootFields } from '../../graphql/index.js';
import type { Auth } from '../service.js';
import { ME_ACTION, ROLE_UID, USER_UID } from '../model.js';
import type { Schema } from '../../../core/schema/model.js';
import { usersPermissionsFields, type UsersPermissionsHooks } from './fields.js';
import { userRoleMutations, type UserRoleHooks } from './users-roles.js';

/** GraphQL's `register`, `login`, `me` and account mutations, answered by users-and-permissions as REST's are. */
const accountHooks = (auth: Auth): UsersPermissionsHooks => ({
  register: async (input, request) =>
    (await auth.signedIn(await auth.register(input, request.headers, request.ip), request.headers, input, 'register'))
      .body,
  login: async (input, request) =>
    (await auth.signedIn(await auth.users.login(input, request.ip), request.headers, input, 'register')).body,
  async me(headers) {
    const caller = await auth.access.resolve(headers);
    if (caller.kind !== 'user') return null;
    // Strapi's `me` needs `plugin::users-permissions.user.me`, as the REST route.
    if (!caller.grants.allows(ME_ACTION)) throw new ForbiddenError();
    return auth.users.findById(caller.userId, { populate: ['role'] });
  },
  // Counted as their REST routes are (Strapi's GraphQL mutations share the routes' counts).
  forgotPassword: async (input, request) => {
    await auth.limitAccountFlow('auth/forgot-password', input, request.ip);
    return auth.account.forgotPassword(input);
  },
  resetPassword: async (input, request) => {
    await auth.limitAccountFlow('auth/reset-password', input, request.ip);
    return (await auth.signedIn(await auth.account.resetPassword(input), request.headers, input, 'password')).body;
  },
  changePassword: async (input, request) => {
    await auth.limitAccountFlow('auth/change-password', input, request.ip);
    return (
      await auth.signedIn(
        await auth.account.changePassword(await auth.passwordChanger(request.headers), input),
        request.headers,
        input,
        'password',
      )
    ).body;
  },
  emailConfirmation: async (input, request) =>
    (await auth.signedIn(await auth.account.confirmEmailAndSignIn(input), request.headers, input, 'register')).body,
  usersAndRoles: userRoleHooks(auth),
});

/** GraphQL's users and roles mutations, answered by the code of their REST routes. */
const userRoleHooks = (auth: Auth): UserRoleHooks => {
  const { userManagement: users, roleApi: roles } = auth;
  const actor = (caller: Caller) => (caller.principal?.kind === 'user' ? { userId: caller.principal.id } : {});
  return {
    authorize: (headers, uid, action) => auth.access.authorize(headers, { uid, action }),
    userDocumentId: async (ref) => users.documentIdOf(await users.idOf(ref)),
    createUser: (data) => users.create(data),
    updateUser: async (ref, data, caller) => users.update(await users.idOf(ref), data, actor(caller)),
    deleteUser: async (ref) => users.destroy(await users.idOf(ref)),
    createRole: (data) => roles.create(data),
    updateRole: (ref, data) => roles.update(ref, data),
    deleteRole: (ref) => roles.delete(ref),
  };
};

/** Users' and roles' mutations, when their types are in the schema (Shadow CRUD on). */
function withUserRoles(
  fields: { query: RootFields; mutation: RootFields },
  hooks: UserRoleHooks | undefined,
  types: ModelTypes,
  operations: Operations,
  schema: Schema,
) {
  const userType = schema.contentTypes.get(USER_UID);
  const roleType = schema.contentTypes.get(ROLE_UID);
  if (!hooks || !userType || !roleType || !types.isExposed(USER_UID) || !types.isExposed(ROLE_UID)) return fields;
  return {
    query: fields.query,
    mutation: { ...fields.mutation, ...userRoleMutations(hooks, { types, operations, userType, roleType }) },
  };
}

/** What the GraphQL feature adds for users-and-permissions. */
export function usersPermissionsGraphql(auth: Auth): GraphqlFieldSource {
  const hooks = accountHooks(auth);
  return {
    exposedBuiltIns: (schema) => [USER_UID, ROLE_UID].filter((uid) => schema.contentTypes.has(uid)),
    fields: ({ types, operations, schema }) =>
      withUserRoles(usersPermissionsFields(hooks), hooks.usersAndRoles, types, operations, schema),
  };
}
