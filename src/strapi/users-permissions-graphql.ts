/**
 * Users-permissions' GraphQL mutations as Strapi 5.54 runs them: each calls its controller action
 * (`strapi.plugin('users-permissions').controller('auth').register(ctx)`) on the request's Koa
 * context, the mutation's input as the request's body. The account mutations run inside the
 * plugin's `rateLimit` middleware with the path of their REST route and answer
 * `{ user: output.user || output, jwt }`; the users' mutations (`createUsersPermissionsUser`, ...)
 * first ask the permission of their `resolversConfig` scope (`plugin::users-permissions.user.create`)
 * and answer the controller's body as the user, its relations read from the database (so a deleted
 * user's are empty); the roles' answer `{ ok: true }` (plugin-users-permissions/server/src/graphql).
 *
 * Vellum answers them with its own code (features/users-permissions/graphql) while the action is
 * still users-permissions' own; once project code has replaced it (a plugin extension wrapping
 * `auth.register` to check a field, say), the mutation runs the project's action this way, so
 * that GraphQL sign-ups go through the same code as REST's. Checked at each call, as Strapi looks
 * the controller up at each call.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GraphQLFieldConfig, GraphQLResolveInfo } from 'graphql';
import type { Permission } from '../api/access.js';
import type { Document } from '../core/documents/service.js';
import type { ContentType } from '../core/schema/model.js';
import type { GraphqlContext, GraphqlFieldSource, ModelTypes, Operations } from '../features/graphql/index.js';
import { ApplicationError } from '../core/errors.js';
import type { Context } from './context.js';
import { originalActions } from './plugin-actions.js';
import { authenticate, callerOf } from './pipeline.js';
import { contextOf } from './routes.js';
import type { Middleware, Runtime } from './runtime.js';

const NAMESPACE = 'plugin::users-permissions';
const USER_UID = `${NAMESPACE}.user`;
const ROLE_UID = `${NAMESPACE}.role`;

/** What a mutation's answer may read: the user as the selection asks for it. */
interface Answering {
  /** The user of that documentId, its relations as the selection asks (null once deleted). */
  readUser(documentId: string): Promise<Document | null>;
  userType: ContentType;
}

interface Mutation {
  /** The controller action, `controller.action`. */
  handler: string;
  /** Its REST route under the prefix, whose rate limit applies (none: Strapi runs it without). */
  route?: string;
  /** The permission Strapi's `resolversConfig` asks for before the resolver runs. */
  scope?: Permission;
  /** Strapi's `checkBadRequest` on the body (not for the roles' mutations). */
  checked: boolean;
  /** The answer from the controller's body. */
  answer(output: Record<string, unknown>, answering: Answering): unknown;
  /** Puts the arguments where the action reads them. */
  place(ctx: Context, args: Record<string, unknown>): void;
}

const signedIn = (output: Record<string, unknown>) => ({ user: output.user || output, jwt: output.jwt });
const asBody = (field?: string) => (ctx: Context, args: Record<string, unknown>) => {
  ctx.request.body = { ...((field ? args[field] : args) as Record<string, unknown>) };
};
/** Input objects arrive with a null prototype: plain objects, as lodash's `toPlainObject` makes them. */
const plainData = (args: Record<string, unknown>): Record<string, unknown> => ({
  ...(args.data as Record<string, unknown>),
});

/**
 * Strapi's `{ value: ctx.body }`: the user's own fields are the body's (what the action left in
 * it), its relations, media and components are loaded from the database by its id, as the GraphQL
 * plugin's association resolvers do: none once the user is deleted.
 */
async function userAnswer(output: Record<string, unknown>, { readUser, userType }: Answering) {
  const own: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(output)) {
    const kind = userType.attributes[key]?.kind;
    if (kind === undefined || kind === 'scalar') own[key] = value;
  }
  const stored = typeof output.documentId === 'string' ? await readUser(output.documentId) : null;
  return { data: { ...stored, ...own } };
}
const asUserParams = (ctx: Context, args: Record<string, unknown>) => {
  ctx.params = args.id === undefined ? {} : { id: String(args.id) };
};
const userMutation = (action: 'create' | 'update' | 'destroy'): Mutation => ({
  handler: `user.${action}`,
  scope: { uid: USER_UID, action },
  checked: true,
  answer: userAnswer,
  place(ctx, args) {
    asUserParams(ctx, args);
    if (action !== 'destroy') ctx.request.body = plainData(args);
  },
});
const roleMutation = (action: 'createRole' | 'updateRole' | 'deleteRole'): Mutation => ({
  handler: `role.${action}`,
  scope: { uid: ROLE_UID, action },
  checked: false,
  answer: () => ({ ok: true }),
  place(ctx, args) {
    if (action !== 'createRole') ctx.params = { role: String(args.id) };
    if (action === 'createRole') ctx.request.body = plainData(args);
    if (action === 'updateRole') ctx.request.body = { ...plainData(args), role: args.id };
  },
});

/** Strapi 5.54's mutations (plugin-users-permissions/server/src/graphql/mutations/auth and crud). */
const MUTATIONS: Record<string, Mutation> = {
  login: {
    handler: 'auth.callback',
    route: '/auth/local',
    checked: true,
    answer: signedIn,
    place(ctx, args) {
      asBody('input')(ctx, args);
      ctx.params = { provider: String((args.input as { provider?: unknown }).provider) };
    },
  },
  register: {
    handler: 'auth.register',
    route: '/auth/local/register',
    checked: true,
    answer: signedIn,
    place: asBody('input'),
  },
  forgotPassword: {
    handler: 'auth.forgotPassword',
    route: '/auth/forgot-password',
    checked: true,
    answer: (output) => ({ ok: output.ok || output }),
    place: asBody(),
  },
  resetPassword: {
    handler: 'auth.resetPassword',
    route: '/auth/reset-password',
    checked: true,
    answer: signedIn,
    place: asBody(),
  },
  changePassword: {
    handler: 'auth.changePassword',
    route: '/auth/change-password',
    checked: true,
    answer: signedIn,
    place: asBody(),
  },
  emailConfirmation: {
    handler: 'auth.emailConfirmation',
    checked: true,
    answer: signedIn,
    place(ctx, args) {
      ctx.query = { ...args };
    },
  },
  createUsersPermissionsUser: userMutation('create'),
  updateUsersPermissionsUser: userMutation('update'),
  deleteUsersPermissionsUser: userMutation('destroy'),
  createUsersPermissionsRole: roleMutation('createRole'),
  updateUsersPermissionsRole: roleMutation('updateRole'),
  deleteUsersPermissionsRole: roleMutation('deleteRole'),
};

/** Strapi's `checkBadRequest`: a body carrying another `statusCode` than 200 is an error. */
function checkBadRequest(output: unknown): void {
  const statusCode = (output as { statusCode?: unknown } | null)?.statusCode ?? 200;
  if (statusCode !== 200) {
    const message = (output as { error?: unknown }).error;
    throw new ApplicationError(typeof message === 'string' ? message : 'Bad Request');
  }
}

/** The action project code put in place of users-permissions' own, if any. */
function replacedAction(runtime: Runtime, handler: string): Middleware | undefined {
  const [controller, action] = handler.split('.') as [string, string];
  const current = runtime.registry.controller(`${NAMESPACE}.${controller}`)?.[action];
  const original = originalActions(runtime)[controller]?.[action];
  return typeof current === 'function' && current !== original ? (current as Middleware) : undefined;
}

/**
 * Runs `action` as Strapi's rate-limit runner does: the request's body, params, path and answer
 * set for the call and put back after it, so that the operation's other fields see the request,
 * but for the status the action left, which becomes the HTTP status of the whole answer (a
 * wrapped action's `ctx.badRequest()` makes it a 400, as on Strapi 5.54), given to `answered`
 * even when the action then throws (Strapi's Koa context keeps it: a wrapper failing after the
 * original's 204 answers an empty 204).
 */
async function runOn(
  runtime: Runtime,
  ctx: Context,
  mutation: Mutation,
  args: Record<string, unknown>,
  action: Middleware,
  answered: (status: number) => void,
): Promise<unknown> {
  const saved = { body: ctx.request.body, query: ctx.request.query, params: ctx.params, path: ctx.request.path };
  const answer = { body: ctx.body, status: ctx.response.explicitStatus ? ctx.status : undefined };
  let ran = false;
  try {
    mutation.place(ctx, args);
    if (mutation.route) {
      ctx.request.path = `${runtime.config.api.rest.prefix}${mutation.route}`;
      const limit = runtime.registry.middlewares.get(`${NAMESPACE}.rateLimit`);
      const middleware = limit?.({}, { strapi: runtime.strapi });
      if (middleware) await middleware(ctx, async () => action(ctx, async () => undefined));
      else await action(ctx, async () => undefined);
    } else await action(ctx, async () => undefined);
    ran = true;
    return ctx.body;
  } finally {
    if (ran || ctx.response.explicitStatus) answered(ctx.status);
    ctx.request.body = saved.body;
    ctx.request.query = saved.query;
    ctx.params = saved.params;
    ctx.request.path = saved.path;
    ctx.body = answer.body;
    if (answer.status !== undefined) ctx.status = answer.status;
  }
}

/** The users-permissions fields, each account mutation running a replaced action as Strapi does. */
export function usersPermissionsGraphql(
  runtime: Runtime,
  source: () => Promise<GraphqlFieldSource>,
): () => Promise<GraphqlFieldSource> {
  return async () => {
    const loaded = await source();
    return {
      exposedBuiltIns: (schema) => loaded.exposedBuiltIns(schema),
      fields(context) {
        const { query, mutation } = loaded.fields(context);
        const wrapped = { ...mutation };
        for (const [name, field] of Object.entries(mutation)) {
          const described = MUTATIONS[name];
          if (described) wrapped[name] = runningReplaced(runtime, described, field, context);
        }
        return { query, mutation: wrapped };
      },
    };
  };
}

function runningReplaced(
  runtime: Runtime,
  mutation: Mutation,
  field: GraphQLFieldConfig<unknown, GraphqlContext>,
  schema: { types: ModelTypes; operations: Operations },
): GraphQLFieldConfig<unknown, GraphqlContext> {
  const own = field.resolve!;
  const userType = runtime.schema.contentTypes.get(USER_UID)!;
  const path = schema.types.shape === 'v4' ? ['data', 'attributes'] : ['data'];
  return {
    ...field,
    async resolve(source, args: Record<string, unknown>, context, info: GraphQLResolveInfo) {
      const action = replacedAction(runtime, mutation.handler);
      if (!action) return own(source, args, context, info);
      const ctx = contextOf(context.request as FastifyRequest, context.reply as FastifyReply);
      // The resolver's `auth.scope`, asked before it runs: the caller fills `ctx.state` for the action.
      if (mutation.scope)
        await authenticate(runtime, { auth: { scope: [mutation.scope] } })(ctx, async () => undefined);
      const caller = callerOf(ctx);
      const output = await runOn(runtime, ctx, mutation, args, action, (status) => context.reply.code(status));
      if (mutation.checked) checkBadRequest(output);
      return mutation.answer((output ?? {}) as Record<string, unknown>, {
        userType,
        readUser: (documentId) => schema.operations.read(userType, documentId, info, path, caller),
      });
    },
  };
}
