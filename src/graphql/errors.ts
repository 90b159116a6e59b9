/**
 * Errors in GraphQL's conventions with Strapi's codes: a request that fails before execution
 * (syntax, validation, depth or cost limits, bad variables) is HTTP 400 with
 * `GRAPHQL_VALIDATION_FAILED`; an error while resolving is HTTP 200 with `extensions.code`
 * (`FORBIDDEN`, `BAD_USER_INPUT`, ...: each error class's `graphqlCode`) and `extensions.error`
 * `{name, message, details}`.
 */
import type { FastifyBaseLogger } from 'fastify';
import { GraphQLError, type ExecutionResult } from 'graphql';
import { InternalServerError, VellumError } from '../errors.js';

interface FormattedResult {
  statusCode: number;
  response: { data?: unknown; errors: unknown[] };
}

interface RequestFailure extends Error {
  statusCode?: number;
  code?: string;
  errors?: Error[];
}

function located(error: Error): { message: string; locations?: unknown; path?: unknown } {
  if (error instanceof GraphQLError) return { message: error.message, locations: error.locations, path: error.path };
  return { message: error.message };
}

/** One execution error as the client sees it. */
function formatExecutionError(error: GraphQLError, log: FastifyBaseLogger): Record<string, unknown> {
  const original = error.originalError;
  const base = { message: error.message, locations: error.locations, path: error.path };
  // Client errors, and a busy database (nothing written, the client may try again), keep their message.
  if (original instanceof VellumError && (original.status < 500 || original.status === 503)) {
    return {
      ...base,
      extensions: { code: original.graphqlCode, error: { name: original.name, message: original.message, details: original.details } },
    };
  }
  if (!original || original instanceof GraphQLError) {
    // Raised by graphql-js itself (e.g. a null for a non-null field, bad argument value).
    return { ...base, extensions: { code: error.extensions.code ?? 'BAD_USER_INPUT', ...error.extensions } };
  }
  log.error({ err: original }, 'GraphQL resolver failed');
  const hidden = new InternalServerError();
  return {
    ...base,
    message: hidden.message,
    extensions: { code: hidden.graphqlCode, error: { name: hidden.name, message: hidden.message, details: hidden.details } },
  };
}

/** Mercurius' `errorFormatter`: request-level failures carry no `data` key. */
export function formatErrors(execution: ExecutionResult & { statusCode?: number }, context: { reply?: { log: FastifyBaseLogger } }): FormattedResult {
  const log = context.reply?.log ?? (console as unknown as FastifyBaseLogger);
  const errors = (execution.errors ?? []) as GraphQLError[];
  if ('data' in execution && execution.data !== undefined) {
    return { statusCode: 200, response: { data: execution.data, errors: errors.map((e) => formatExecutionError(e, log)) } };
  }
  const failure = (errors[0]?.originalError ?? errors[0]) as RequestFailure | undefined;
  const inner = failure?.errors?.length ? failure.errors : errors;
  const status = failure?.statusCode && failure.statusCode >= 400 && failure.statusCode < 500 ? failure.statusCode : 400;
  const formatted = inner.map((error) => {
    const syntax = error.message.startsWith('Syntax Error');
    const code = status === 405 ? 'METHOD_NOT_ALLOWED' : syntax ? 'GRAPHQL_PARSE_FAILED' : 'GRAPHQL_VALIDATION_FAILED';
    return { ...located(error), extensions: { code } };
  });
  return { statusCode: status, response: { data: null, errors: formatted } };
}
