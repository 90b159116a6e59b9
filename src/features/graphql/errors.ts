/**
 * Errors in GraphQL's conventions with Strapi's codes: a request that fails before execution
 * (syntax, validation, depth or cost limits, bad variables) is HTTP 400 with
 * `GRAPHQL_VALIDATION_FAILED` (`BAD_USER_INPUT` for a variable's value); an error while resolving is HTTP 200 with `extensions.code`
 * (`FORBIDDEN`, `BAD_USER_INPUT`, ...: each error class's `graphqlCode`) and `extensions.error`
 * `{name, message, details}`.
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
  response: { data?: unknown; errors: unknown[] };
}

interface RequestFailure extends Error {
  statusCode?: number;
  code?: string;
  errors?: Error[];
}

function located(error: Error, options: ErrorOptions): { message: string; locations?: unknown; path?: unknown } {
  const message = clientMessage(error.message, options);
  if (error instanceof GraphQLError) return { message, locations: error.locations, path: error.path };
  return { message };
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
  if (!original || original instanceof GraphQLError) {
    // Raised by graphql-js itself (e.g. a null for a non-null field, bad argument value).
    return { ...base, extensions: { code: error.extensions.code ?? 'BAD_USER_INPUT', ...error.extensions } };
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

/** An operation's result with errors: 200 with `data` when it ran, else a request failure. */
export function formatErrors(
  execution: ExecutionResult & { statusCode?: number },
  context: { reply?: { log: FastifyBaseLogger } },
  options: ErrorOptions = { hideSuggestions: false },
): FormattedResult {
  const log = context.reply?.log ?? (console as unknown as FastifyBaseLogger);
  const errors = (execution.errors ?? []) as GraphQLError[];
  if ('data' in execution && execution.data !== undefined) {
    return {
      statusCode: 200,
      response: { data: execution.data, errors: errors.map((e) => formatExecutionError(e, log, options)) },
    };
  }
  const failure = (errors[0]?.originalError ?? errors[0]) as RequestFailure | undefined;
  const inner = failure?.errors?.length ? failure.errors : errors;
  const status =
    failure?.statusCode && failure.statusCode >= 400 && failure.statusCode < 500 ? failure.statusCode : 400;
  return requestFailure(status, inner, options);
}

/** A request that failed before its operation ran (syntax, validation, variables, method): `data: null`. */
export function requestFailure(
  status: number,
  errors: readonly Error[],
  options: ErrorOptions = { hideSuggestions: false },
): FormattedResult {
  const formatted = errors.map((error) => {
    const syntax = error.message.startsWith('Syntax Error');
    const code =
      status === 405
        ? 'METHOD_NOT_ALLOWED'
        : syntax
          ? 'GRAPHQL_PARSE_FAILED'
          : VARIABLE_VALUE.test(error.message)
            ? 'BAD_USER_INPUT'
            : 'GRAPHQL_VALIDATION_FAILED';
    return { ...located(error, options), extensions: { code } };
  });
  return { statusCode: status, response: { data: null, errors: formatted } };
}
