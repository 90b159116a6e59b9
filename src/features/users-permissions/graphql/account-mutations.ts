/**
 * Strapi's users-permissions account mutations: `forgotPassword`, `resetPassword`,
 * `changePassword` and `emailConfirmation`, with Strapi's arguments, payloads and descriptions.
 * They answer what the REST routes answer (`{ ok }`, `{ jwt, user }`): never a password, a reset
 * code or a confirmation code. Generated only when the users-permissions layer hands over its hooks.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { GraphQLBoolean, GraphQLNonNull, GraphQLObjectType, GraphQLString, type GraphQLOutputType } from 'graphql';
import type { GraphqlContext, RootFields } from '../../graphql/index.js';

type Signed = { jwt?: string; user: Record<string, unknown> };
type Request = { ip: string; headers: IncomingHttpHeaders };

export interface AccountHooks {
  forgotPassword(input: { email: string }, request: Request): Promise<{ ok: boolean }>;
  resetPassword(
    input: { password: string; passwordConfirmation: string; code: string },
    request: Request,
  ): Promise<Signed>;
  /** For the user of the request's JWT (others are refused as Strapi refuses them). */
  changePassword(
    input: { currentPassword: string; password: string; passwordConfirmation: string },
    request: Request,
  ): Promise<Signed>;
  emailConfirmation(input: { confirmation: string }, request: Request): Promise<Signed>;
}

const PasswordPayload = new GraphQLObjectType({
  name: 'UsersPermissionsPasswordPayload',
  fields: { ok: { type: new GraphQLNonNull(GraphQLBoolean) } },
});

const string = { type: new GraphQLNonNull(GraphQLString) };
const requestOf = (context: GraphqlContext): Request => ({
  ip: context.request.clientIp,
  headers: context.request.headers,
});

/** The four mutations; `loginPayload` is the schema's `UsersPermissionsLoginPayload`. */
export function accountMutations(hooks: Partial<AccountHooks>, loginPayload: GraphQLOutputType): RootFields {
  const fields: RootFields = {};
  if (hooks.forgotPassword) {
    const forgot = hooks.forgotPassword;
    fields.forgotPassword = {
      type: PasswordPayload,
      description: 'Request a reset password token',
      args: { email: string },
      resolve: (_source, args: { email: string }, context: GraphqlContext) =>
        forgot({ email: args.email }, requestOf(context)),
    };
  }
  if (hooks.resetPassword) {
    const reset = hooks.resetPassword;
    fields.resetPassword = {
      type: loginPayload,
      description: 'Reset user password. Confirm with a code (resetToken from forgotPassword)',
      args: { password: string, passwordConfirmation: string, code: string },
      resolve: (
        _source,
        args: { password: string; passwordConfirmation: string; code: string },
        context: GraphqlContext,
      ) =>
        reset(
          { password: args.password, passwordConfirmation: args.passwordConfirmation, code: args.code },
          requestOf(context),
        ),
    };
  }
  if (hooks.changePassword) {
    const change = hooks.changePassword;
    fields.changePassword = {
      type: loginPayload,
      description: 'Change user password. Confirm with the current password.',
      args: { currentPassword: string, password: string, passwordConfirmation: string },
      resolve: (
        _source,
        args: { currentPassword: string; password: string; passwordConfirmation: string },
        context: GraphqlContext,
      ) =>
        change(
          {
            currentPassword: args.currentPassword,
            password: args.password,
            passwordConfirmation: args.passwordConfirmation,
          },
          requestOf(context),
        ),
    };
  }
  if (hooks.emailConfirmation) {
    const confirm = hooks.emailConfirmation;
    fields.emailConfirmation = {
      type: loginPayload,
      description: 'Confirm an email users email address',
      args: { confirmation: string },
      resolve: (_source, args: { confirmation: string }, context: GraphqlContext) =>
        confirm({ confirmation: args.confirmation }, requestOf(context)),
    };
  }
  return fields;
}
