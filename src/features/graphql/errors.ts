/**
 * Errors in GraphQL's conventions with Strapi's codes: a request that fails before execution is
 * answered by request.ts (HTTP 400, `GRAPHQL_PARSE_FAILED`, `GRAPHQL_VALIDATION_FAILED`, ...); a
 * variable's value refused is HTTP 400 `BAD_USER_INPUT`; an error while resolving is HTTP 200 with
 * `extensions.code` (`FORBIDDEN`, `BAD_USER_INPUT`, ...: each error class's `graphqlCode`) and
 * `extensions.error` `{name, message, details}`.
 */
import type { FastifyBaseLogger } from 'fastify';
import { GraphQLError, type ExecutionResult } from 'graphql';
import { ForbiddenError, InternalServerError, VellumError } from '../../core/errors.js';

/** How messages are cleaned before a client sees them. */
export interface ErrorOptions {
  /** Leave out graphql-js' "Did you mean ...?" suggestions (production, GraphqlConfig.hideSuggestions). */
  hideSuggestions: boolean;
}

/** Apollo's own pattern (ApolloServerPluginDisableSuggestions): the suggestion ends the message. */
const SUGGESTION = / ?Did you mean(.+?)\?$/;

const NAME = '[_A-Za-z][_0-9A-Za-z]*';
/** graphql-js' message for a variable its type refuses: `Variable "$input" got invalid value <value>[ at "input.a.b"]; <reason>`. */
const COERCION = new RegExp(`^Variable "\\$(${NAME})" got invalid value `);
/**
 * graphql-js' refusals of variable values (coercion, not validation): Apollo, which Strapi runs,
 * answers them `BAD_USER_INPUT` (HTTP 400), as Strapi 5.54 does.
 */
const VARIABLE_VALUE = new RegExp(
  `^Variable "\\$${NAME}" (got invalid value |of required type "[^"]+" was not provided|of non-null type "[^"]+" must not be null)`,
);
/** The reasons of such a message that repeat no value (the others, a scalar's, may). */
const VALUE_FREE_REASON = new RegExp(
  `; (Field "${NAME}" of required type "[^"]+" was not provided\\.|Field "${NAME}" is not defined by type "${NAME}"\\.(?: Did you mean .+?\\?)?|Expected non-nullable type "[^"]+" not to be null\\.|Expected type "${NAME}" to be an object\\.)$`,
);

/**
 * A variable graphql-js refuses is repeated in its message, the whole input object when one of its
 * fields is missing or unknown: a registration's password with it. When the message names a
 * password anywhere, the value is left out (the path and a reason that repeats no value stay).
 */
function withoutPasswords(message: string): string {
  const head = COERCION.exec(message);
  if (!head || !/password/i.test(message)) return message;
  const rest = message.slice(head[0].length);
  const paths = [...rest.matchAll(new RegExp(` at "(${head[1]}(?:\\.${NAME}|\\[\\d+\\])*)"; `, 'g'))];
  const path = paths.at(-1)?.[1];
  const reason = VALUE_FREE_REASON.exec(rest)?.[1];
  return `Variable "$${head[1]}" got invalid value${path ? ` at "${path}"` : ''} (not repeated: it holds a password)${reason ? `; ${reason}` : '.'}`;
}

/** A graphql-js message as a client may see it. */
function clientMessage(message: string, options: ErrorOptions): string {
  const cleaned = withoutPasswords(message);
  return options.hideSuggestions ? cleaned.replace(SUGGESTION, '') : cleaned;
}

export interface FormattedResult {
  statusCode: number;
  headers?: Readonly<Record<string, string>>;
  response: { errors: unknown[]; data?: unknown };
}

/** A graphql-js message as `options` have a client see it. */
export const messageCleaner =
  (options: ErrorOptions) =>
  (message: string): string =>
    clientMessage(message, options);

/**
 * A plain `Error` with nothing on it but its message: graphql-js's own (a null for a non-null
 * field) or what a project's resolver throws (`throw new Error('Sign in first')`). Strapi 5.54
 * passes such errors through with their message (its formatter masks only an error with
 * properties of its own: lodash's `isEmpty`), and front ends show it; checked on Strapi 5.54 by
 * test/differential/graphql-context.diff.ts. Vellum still masks the other kinds (a `TypeError`,
 * a driver's error carrying a `code`): they name internals.
 */
function isBareError(error: Error): boolean {
  return Object.getPrototypeOf(error) === Error.prototype && Object.keys(error).length === 0;
}

/** One execution error as the client sees it. */
function formatExecutionError(
  error: GraphQLError,
  log: FastifyBaseLogger,
  options: ErrorOptions,
): Record<string, unknown> {
  const original = error.originalError;
  const base = { message: clientMessage(error.message, options), locations: error.locations, path: error.path };
  // Client errors, and a busy database (nothing written, the client may try again), keep their message.
  // Strapi rebuilds these as `new GraphQLError(message, { ...formatted, extensions })`, which keeps
  // `path` but not `locations` (not a constructor option): checked on Strapi 5.54.
  if (original instanceof VellumError && (original.status < 500 || original.status === 503)) {
    // Strapi's GraphQL refuses with @strapi/utils' ForbiddenError, whose words are "Forbidden
    // access" (REST says "Forbidden", Koa's): a front end may match them (checked on Strapi 5.54).
    const message =
      original instanceof ForbiddenError && original.message === 'Forbidden' ? 'Forbidden access' : original.message;
    return {
      message: message === original.message ? base.message : message,
      path: base.path,
      extensions: { code: original.graphqlCode, error: { name: original.name, message, details: original.details } },
    };
  }
  if (!original || original instanceof GraphQLError || isBareError(original)) {
    // Raised by graphql-js itself (a subscription, a null for a non-null field, a scalar it cannot
    // serialize): Apollo gives them no code of its own, INTERNAL_SERVER_ERROR (checked on Strapi 5.54).
    return { ...base, extensions: { code: 'INTERNAL_SERVER_ERROR', ...error.extensions } };
  }
  log.error({ err: original }, 'GraphQL resolver failed');
  const hidden = new InternalServerError();
  // Strapi answers a fresh `GraphQLError('Internal Server Error')`: neither locations nor path.
  return {
    message: hidden.message,
    extensions: {
      code: hidden.graphqlCode,
      error: { name: hidden.name, message: hidden.message, details: hidden.details },
    },
  };
}

/**
 * An operation's result with errors, in Apollo's order (`errors`, then `data`): HTTP 200 when it
 * ran; when it did not (a variable's value refused), HTTP 400 without `data`, each error
 * `BAD_USER_INPUT` when it is about a variable's value (Apollo's `status400ForVariableCoercionErrors`,
 * which Strapi sets).
 */
export function formatErrors(
  execution: ExecutionResult,
  context: { reply?: { log: FastifyBaseLogger } },
  options: ErrorOptions = { hideSuggestions: false },
): FormattedResult {
  const log = context.reply?.log ?? (console as unknown as FastifyBaseLogger);
  const errors = (execution.errors ?? []) as GraphQLError[];
  if (execution.data !== undefined) {
    return {
      statusCode: 200,
      response: { errors: errors.map((e) => formatExecutionError(e, log, options)), data: execution.data },
    };
  }
  return {
    statusCode: 400,
    response: {
      errors: errors.map((error) => ({
        message: clientMessage(error.message, options),
        ...(error.locations ? { locations: error.locations } : {}),
        extensions: { code: VARIABLE_VALUE.test(error.message) ? 'BAD_USER_INPUT' : 'INTERNAL_SERVER_ERROR' },
      })),
    },
  };
}
