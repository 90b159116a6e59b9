/**
 * The users-permissions part of the schema (docs/graphql.md "Operations per content-type"): `register`, `login` and `me`, and the
 * account mutations of account-mutations.ts, generated only when the users-permissions layer hands
 * over its hooks; this module does no auth itself.
 */
import type { IncomingHttpHeaders } from 'node:http';
import {
  GraphQLBoolean,
  GraphQLID,
  GraphQLInputObjectType,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLString,
} from 'graphql';
import { accountMutations, type AccountHooks } from './account-mutations.js';
import type { GraphqlContext, RootFields } from '../../graphql/index.js';
import type { UserRoleHooks } from './users-roles.js';

export interface UsersPermissionsHooks extends Partial<AccountHooks> {
  register(
    input: { username: string; email: string; password: string },
    request: { ip: string; headers: IncomingHttpHeaders },
  ): Promise<{ jwt?: string; user: Record<string, unknown> }>;
  login(
    input: { identifier: string; password: string },
    request: { ip: string; headers: IncomingHttpHeaders },
  ): Promise<{ jwt: string; user: Record<string, unknown> }>;
  me(headers: IncomingHttpHeaders): Promise<Record<string, unknown> | null>;
  /** Users' and roles' queries and mutations (users-roles.ts). */
  usersAndRoles?: UserRoleHooks;
}

const nonNull = <T extends GraphQLObjectType | typeof GraphQLString | typeof GraphQLID>(type: T) =>
  new GraphQLNonNull(type);

const Role = new GraphQLObjectType({
  name: 'UsersPermissionsMeRole',
  fields: {
    id: { type: nonNull(GraphQLID) },
    name: { type: nonNull(GraphQLString) },
    description: { type: GraphQLString },
    type: { type: GraphQLString },
  },
});

const Me = new GraphQLObjectType<Record<string, unknown>>({
  name: 'UsersPermissionsMe',
  fields: {
    id: { type: nonNull(GraphQLID) },
    documentId: { type: nonNull(GraphQLID) },
    username: { type: nonNull(GraphQLString) },
    email: { type: GraphQLString },
    confirmed: { type: GraphQLBoolean },
    blocked: { type: GraphQLBoolean },
    role: { type: Role },
  },
});

const Payload = new GraphQLObjectType({
  name: 'UsersPermissionsLoginPayload',
  fields: { jwt: { type: GraphQLString }, user: { type: nonNull(Me) } },
});

const RegisterInput = new GraphQLInputObjectType({
  name: 'UsersPermissionsRegisterInput',
  fields: {
    username: { type: nonNull(GraphQLString) },
    email: { type: nonNull(GraphQLString) },
    password: { type: nonNull(GraphQLString) },
  },
});

const LoginInput = new GraphQLInputObjectType({
  name: 'UsersPermissionsLoginInput',
  fields: {
    identifier: { type: nonNull(GraphQLString) },
    password: { type: nonNull(GraphQLString) },
    provider: { type: nonNull(GraphQLString), defaultValue: 'local' },
  },
});

const requestOf = (context: GraphqlContext) => ({ ip: context.request.clientIp, headers: context.request.headers });

export function usersPermissionsFields(hooks: UsersPermissionsHooks): { query: RootFields; mutation: RootFields } {
  return {
    query: {
      me: { type: Me, resolve: (_source, _args, context: GraphqlContext) => hooks.me(context.request.headers) },
    },
    mutation: {
      register: {
        type: nonNull(Payload),
        args: { input: { type: new GraphQLNonNull(RegisterInput) } },
        resolve: (_source, args, context: GraphqlContext) => {
          const { username, email, password } = args.input as { username: string; email: string; password: string };
          return hooks.register({ username, email, password }, requestOf(context));
        },
      },
      login: {
        type: nonNull(Payload),
        args: { input: { type: new GraphQLNonNull(LoginInput) } },
        resolve: (_source, args, context: GraphqlContext) => {
          const { identifier, password } = args.input as { identifier: string; password: string };
          return hooks.login({ identifier, password }, requestOf(context));
        },
      },
      ...accountMutations(hooks, Payload),
    },
  };
}
