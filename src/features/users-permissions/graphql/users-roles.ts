/**
 * Strapi's users-permissions mutations for users and roles: `createUsersPermissionsUser`,
 * `updateUsersPermissionsUser`, `deleteUsersPermissionsUser` (answering
 * `UsersPermissionsUserEntityResponse`), `createUsersPermissionsRole`,
 * `updateUsersPermissionsRole`, `deleteUsersPermissionsRole` (`{ ok }` payloads). The queries
 * (`usersPermissionsUser(s)`, `usersPermissionsRole(s)`) are Shadow CRUD's (schema/build.ts).
 * Each asks the action its REST route asks, then the users-permissions layer does the work as REST
 * does it (hooks); users are read back with the selection, for the caller: never a password or a
 * code, since those attributes are private.
 */
import type { IncomingHttpHeaders } from 'node:http';
import {
  GraphQLBoolean,
  GraphQLID,
  GraphQLInputObjectType,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLString,
  type GraphQLResolveInfo,
} from 'graphql';
import type { Caller } from '../../../api/access.js';
import type { ContentType } from '../../../core/schema/model.js';
import type { GraphqlContext, Operations, RootFields, ModelTypes } from '../../graphql/index.js';

type Data = Record<string, unknown>;

export interface UserRoleHooks {
  /** The caller, when it holds `<uid>.<action>`; a 403 (401 for bad credentials) otherwise. */
  authorize(headers: IncomingHttpHeaders, uid: string, action: string): Promise<Caller>;
  /** A user's documentId from its id or documentId (a 404 otherwise). */
  userDocumentId(ref: string): Promise<string>;
  createUser(data: Data): Promise<{ documentId?: unknown }>;
  updateUser(ref: string, data: Data, caller: Caller): Promise<{ documentId?: unknown }>;
  deleteUser(ref: string): Promise<unknown>;
  createRole(data: Data): Promise<{ ok: true }>;
  updateRole(ref: string, data: Data): Promise<{ ok: true }>;
  deleteRole(ref: string): Promise<{ ok: true }>;
}

const payload = (name: string) =>
  new GraphQLObjectType({ name, fields: { ok: { type: new GraphQLNonNull(GraphQLBoolean) } } });

/** Roles' input: its permissions are Strapi's tree (`{ "api::article": { controllers: { ... } } }`), as REST takes it. */
const roleInput = (types: ModelTypes) =>
  new GraphQLInputObjectType({
    name: 'UsersPermissionsRoleInput',
    fields: {
      name: { type: GraphQLString },
      description: { type: GraphQLString },
      type: { type: GraphQLString },
      permissions: { type: types.json },
    },
  });

/** A user without what Strapi loads from the database by its id (relations, media, components). */
function ownFields(document: Data, type: ContentType): Data {
  return Object.fromEntries(
    Object.entries(document).filter(([key]) => (type.attributes[key]?.kind ?? 'scalar') === 'scalar'),
  );
}

/** Input objects arrive with a null prototype: plain objects for the users-permissions layer. */
const plain = (value: unknown): Data => JSON.parse(JSON.stringify(value ?? {})) as Data;

export function userRoleMutations(
  hooks: UserRoleHooks,
  context: { types: ModelTypes; operations: Operations; userType: ContentType; roleType: ContentType },
): RootFields {
  const { types, operations, userType, roleType } = context;
  const v4 = types.shape === 'v4';
  const path = v4 ? ['data', 'attributes'] : ['data'];
  const response = v4
    ? types.entityResponse(userType)
    : new GraphQLObjectType({
        name: 'UsersPermissionsUserEntityResponse',
        fields: { data: { type: types.modelType(userType) } },
      });
  const id = { type: new GraphQLNonNull(GraphQLID) };
  const userData = { type: new GraphQLNonNull(types.dataInput(userType)) };
  const roleData = { type: new GraphQLNonNull(roleInput(types)) };
  const read = async (documentId: unknown, info: GraphQLResolveInfo, caller: Caller) => ({
    data: await operations.read(userType, String(documentId), info, path, caller),
  });
  const headersOf = (ctx: GraphqlContext) => ctx.request.headers;

  return {
    createUsersPermissionsUser: {
      type: new GraphQLNonNull(response),
      description: 'Create a new user',
      args: { data: userData },
      resolve: async (_source, args: { data: unknown }, ctx: GraphqlContext, info) => {
        const caller = await hooks.authorize(headersOf(ctx), userType.uid, 'create');
        const created = await hooks.createUser(plain(args.data));
        // Strapi 5.54 runs its REST controller, whose `ctx.created` makes the whole answer a 201.
        ctx.reply.code(201);
        return read(created.documentId, info, caller);
      },
    },
    updateUsersPermissionsUser: {
      type: new GraphQLNonNull(response),
      description: 'Update an existing user',
      args: { id, data: userData },
      resolve: async (_source, args: { id: string; data: unknown }, ctx: GraphqlContext, info) => {
        const caller = await hooks.authorize(headersOf(ctx), userType.uid, 'update');
        const updated = await hooks.updateUser(args.id, plain(args.data), caller);
        return read(updated.documentId, info, caller);
      },
    },
    deleteUsersPermissionsUser: {
      type: new GraphQLNonNull(response),
      description: 'Delete an existing user',
      args: { id },
      resolve: async (_source, args: { id: string }, ctx: GraphqlContext, info) => {
        const caller = await hooks.authorize(headersOf(ctx), userType.uid, 'destroy');
        const before = await read(await hooks.userDocumentId(args.id), info, caller);
        await hooks.deleteUser(args.id);
        // Strapi 5.54 answers the controller's body, its relations loaded by id once the user is
        // gone: its own fields as they were, no role (nor other relation, media or component).
        return { data: before.data && ownFields(before.data, userType) };
      },
    },
    createUsersPermissionsRole: {
      type: payload('UsersPermissionsCreateRolePayload'),
      description: 'Create a new role',
      args: { data: roleData },
      resolve: async (_source, args: { data: unknown }, ctx: GraphqlContext) => {
        await hooks.authorize(headersOf(ctx), roleType.uid, 'createRole');
        return hooks.createRole(plain(args.data));
      },
    },
    updateUsersPermissionsRole: {
      type: payload('UsersPermissionsUpdateRolePayload'),
      description: 'Update an existing role',
      args: { id, data: roleData },
      resolve: async (_source, args: { id: string; data: unknown }, ctx: GraphqlContext) => {
        await hooks.authorize(headersOf(ctx), roleType.uid, 'updateRole');
        return hooks.updateRole(args.id, plain(args.data));
      },
    },
    deleteUsersPermissionsRole: {
      type: payload('UsersPermissionsDeleteRolePayload'),
      description: 'Delete an existing role',
      args: { id },
      resolve: async (_source, args: { id: string }, ctx: GraphqlContext) => {
        await hooks.authorize(headersOf(ctx), roleType.uid, 'deleteRole');
        return hooks.deleteRole(args.id);
      },
    },
  };
}
