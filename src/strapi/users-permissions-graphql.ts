/**
 * Users-permissions' GraphQL account mutations as Strapi 5.54 runs them: each calls its controller
 * action (`strapi.plugin('users-permissions').controller('auth').register(ctx)`) on the request's
 * Koa context, the mutation's input as the request's body, inside the plugin's `rateLimit`
 * middleware with the path of its REST route, then answers `{ user: output.user || output, jwt }`.
 *
 * Vellum answers them with its own code (features/users-permissions/graphql) while the action is
 * still users-permissions' own; once project code has replaced it (a plugin extension wrapping
 * `auth.register` to check a field, say), the mutation runs the project's action this way, so
 * that GraphQL sign-ups go through the same code as REST's. Checked at each call, as Strapi looks
 * the controller up at each call.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GraphQLFieldConfig } from 'graphql';
import type { GraphqlContext, GraphqlFieldSource } from '../features/graphql/index.js';
import { ApplicationError } from '../core/errors.js';
import type { Context } from './context.js';
import { originalActions } from './plugin-actions.js';
import { contextOf } from './routes.js';
import type { Middleware, Runtime } from './runtime.js';

const NAMESPACE = 'plugin::users-permissions';

interface Mutation {
  /** The controller action, `controller.action`. */
  handler: string;
  /** Its REST route under the prefix, whose rate limit applies (none: Strapi runs it without). */
  route?: string;
  /** The answer from the controller's body. */
  answer(output: Record<string, unknown>): unknown;
  /** Puts the arguments where the action reads them. */
  place(ctx: Context, args: Record<string, unknown>): void;
}

const signedIn = (output: Record<string, unknown>) => ({ user: output.user || output, jwt: output.jwt });
const asBody = (field?: string) => (ctx: Context, args: Record<string, unknown>) => {
  ctx.request.body = { ...((field ? args[field] : args) as Record<string, unknown>) };
};

/** Strapi 5.54's mutations (plugin-users-permissions/server/graphql/mutations/auth). */
const MUTATIONS: Record<string, Mutation> = {
  login: {
    handler: 'auth.callback',
    route: '/auth/local',
    answer: signedIn,
    place(ctx, args) {
      asBody('input')(ctx, args);
      ctx.params = { provider: String((args.input as { provider?: unknown }).provider) };
    },
  },
  register: { handler: 'auth.register', route: '/auth/local/register', answer: signedIn, place: asBody('input') },
  forgotPassword: {
    handler: 'auth.forgotPassword',
    route: '/auth/forgot-password',
    answer: (output) => ({ ok: output.ok || output }),
    place: asBody(),
  },
  resetPassword: { handler: 'auth.resetPassword', route: '/auth/reset-password', answer: signedIn, place: asBody() },
  changePassword: { handler: 'auth.changePassword', route: '/auth/change-password', answer: signedIn, place: asBody() },
  emailConfirmation: {
    handler: 'auth.emailConfirmation',
    answer: signedIn,
    place(ctx, args) {
      ctx.query = { ...args };
    },
  },
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
 * wrapped action's `ctx.badRequest()` makes it a 400, as on Strapi 5.54).
 */
async function runOn(
  runtime: Runtime,
  ctx: Context,
  mutation: Mutation,
  args: Record<string, unknown>,
  action: Middleware,
): Promise<{ output: unknown; status: number }> {
  const saved = { body: ctx.request.body, query: ctx.request.query, params: ctx.params, path: ctx.request.path };
  const answer = { body: ctx.body, status: ctx.response.explicitStatus ? ctx.status : undefined };
  try {
    mutation.place(ctx, args);
    if (mutation.route) {
      ctx.request.path = `${runtime.config.api.rest.prefix}${mutation.route}`;
      const limit = runtime.registry.middlewares.get(`${NAMESPACE}.rateLimit`);
      const middleware = limit?.({}, { strapi: runtime.strapi });
      if (middleware) await middleware(ctx, async () => action(ctx, async () => undefined));
      else await action(ctx, async () => undefined);
    } else await action(ctx, async () => undefined);
    return { output: ctx.body, status: ctx.status };
  } finally {
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
          if (described) wrapped[name] = runningReplaced(runtime, described, field);
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
): GraphQLFieldConfig<unknown, GraphqlContext> {
  const own = field.resolve!;
  return {
    ...field,
    async resolve(source, args: Record<string, unknown>, context, info) {
      const action = replacedAction(runtime, mutation.handler);
      if (!action) return own(source, args, context, info);
      const ctx = contextOf(context.request as FastifyRequest, context.reply as FastifyReply);
      const { output, status } = await runOn(runtime, ctx, mutation, args, action);
      context.reply.code(status);
      checkBadRequest(output);
      return mutation.answer((output ?? {}) as Record<string, unknown>);
    },
  };
}
