/**
 * The one registry of errors. Every failure a client can see is one of these classes; each carries
 * its HTTP status, Strapi's error name, a stable Vellum code and its GraphQL code. The REST layer
 * renders it as the envelope `{ data: null, error: { status, name, message, details } }`, GraphQL
 * with `extensions.code`. The table of docs/errors.md lists them all (test/errors-registry.test.ts).
 *
 * GraphQL codes are those Strapi 5.54's `formatGraphqlError` gives: `FORBIDDEN` for forbidden and
 * unauthorized, `BAD_USER_INPUT` for validation, `STRAPI_<NAME>` (the name in snake case) for its
 * other errors (`STRAPI_NOT_FOUND_ERROR`, `STRAPI_RATE_LIMIT_ERROR`); Vellum's own errors keep
 * the Apollo code that fits (`BAD_USER_INPUT` for a cost limit).
 */

export type ErrorDetails = Record<string, unknown>;

export interface FieldError {
  path: (string | number)[];
  message: string;
  name: string;
  value?: unknown;
}

/**
 * The base of every error a client can see. A subclass declares, once, its HTTP status, the error
 * name clients see (Strapi's), a stable Vellum code (logs, docs) and the GraphQL `extensions.code`;
 * each instance reads them from its class. Abstract: name a class, never a status inline.
 */
export abstract class VellumError extends Error {
  static readonly status: number;
  static readonly errorName: string;
  static readonly code: string;
  static readonly graphqlCode: string;

  readonly status: number;
  readonly details: ErrorDetails;

  constructor(message: string, details: ErrorDetails = {}, status?: number) {
    super(message);
    const kind = new.target as unknown as typeof VellumError;
    this.name = kind.errorName;
    this.status = status ?? kind.status;
    this.details = details;
  }

  /** Stable Vellum code of the class (not part of the REST envelope). */
  get code(): string {
    return (this.constructor as typeof VellumError).code;
  }

  /** GraphQL's `extensions.code` for this error. */
  get graphqlCode(): string {
    return (this.constructor as typeof VellumError).graphqlCode;
  }
}

export class ValidationError extends VellumError {
  static override readonly status: number = 400;
  static override readonly errorName: string = 'ValidationError';
  static override readonly code: string = 'VELLUM_VALIDATION';
  static override readonly graphqlCode: string = 'BAD_USER_INPUT';

  constructor(message: string, details: ErrorDetails = {}) {
    super(message, details);
  }

  /** Attribute validation: one error per problem, each with the path of the offending value. */
  static fromFieldErrors(errors: FieldError[]): ValidationError {
    const message = errors.length === 1 ? errors[0]!.message : `${errors.length} errors occurred`;
    return new ValidationError(message, { errors });
  }
}

/** A bad query parameter: `details` names where it was (`source`, `param`, `key`, `path`). */
export class QueryValidationError extends ValidationError {
  static override readonly code: string = 'VELLUM_QUERY_VALIDATION';

  constructor(message: string, where: { param: string; key: string; path: string | null; source?: 'query' | 'body' }) {
    super(message, { source: where.source ?? 'query', ...where });
  }
}

/** A body that is not valid JSON: Strapi 5 names it `SyntaxError` (its JSON parser's error). */
export class BodySyntaxError extends VellumError {
  static override readonly status: number = 400;
  static override readonly errorName: string = 'SyntaxError';
  static override readonly code: string = 'VELLUM_BODY_SYNTAX';
  static override readonly graphqlCode: string = 'BAD_REQUEST';

  constructor(message: string) {
    super(message);
  }
}

export class PaginationError extends VellumError {
  static override readonly status: number = 400;
  static override readonly errorName: string = 'PaginationError';
  static override readonly code: string = 'VELLUM_PAGINATION';
  // Strapi 5.54's code for it over GraphQL.
  static override readonly graphqlCode: string = 'STRAPI_PAGINATION_ERROR';

  constructor(message: string, details: ErrorDetails = {}) {
    super(message, details);
  }
}

/**
 * A read that would return more items (documents, components, media files) than its budget:
 * REST's `api.rest.costLimit`, GraphQL's `costLimit`. Decided before or while reading, never after
 * the answer is built; `details` name the limit and the setting that raises it.
 */
export class CostLimitError extends VellumError {
  static override readonly status: number = 400;
  static override readonly errorName: string = 'CostLimitError';
  static override readonly code: string = 'VELLUM_COST_LIMIT';
  static override readonly graphqlCode: string = 'BAD_USER_INPUT';

  constructor(message: string, details: ErrorDetails = {}) {
    super(message, details);
  }
}

/** An entry added to a release that already holds it (Strapi's content releases' error of that name). */
export class AlreadyOnReleaseError extends ValidationError {
  static override readonly errorName: string = 'AlreadyOnReleaseError';
  static override readonly code: string = 'VELLUM_ALREADY_ON_RELEASE';

  constructor(message: string, details: ErrorDetails = {}) {
    super(message, details);
  }
}

/** Koa's `ctx.badRequest(message)` in Strapi (a refresh without a refresh token): http-errors' name. */
export class BadRequestError extends VellumError {
  static override readonly status: number = 400;
  static override readonly errorName: string = 'BadRequestError';
  static override readonly code: string = 'VELLUM_BAD_REQUEST';
  static override readonly graphqlCode: string = 'STRAPI_BAD_REQUEST_ERROR';

  constructor(message = 'Bad Request', details: ErrorDetails = {}) {
    super(message, details);
  }
}

export class UnauthorizedError extends VellumError {
  static override readonly status: number = 401;
  static override readonly errorName: string = 'UnauthorizedError';
  static override readonly code: string = 'VELLUM_UNAUTHORIZED';
  static override readonly graphqlCode: string = 'FORBIDDEN';

  constructor(message = 'Missing or invalid credentials', details: ErrorDetails = {}) {
    super(message, details);
  }
}

export class ForbiddenError extends VellumError {
  static override readonly status: number = 403;
  static override readonly errorName: string = 'ForbiddenError';
  static override readonly code: string = 'VELLUM_FORBIDDEN';
  static override readonly graphqlCode: string = 'FORBIDDEN';

  constructor(message = 'Forbidden', details: ErrorDetails = {}) {
    super(message, details);
  }
}

/**
 * A route policy of the project refused the request (it answered neither true nor undefined), or
 * project code threw Strapi's `PolicyError`: unlike a plain ForbiddenError, its message is shown.
 */
export class PolicyError extends ForbiddenError {
  static override readonly errorName: string = 'PolicyError';
  static override readonly code: string = 'VELLUM_POLICY';

  constructor(message = 'Policy Failed', details: ErrorDetails = {}) {
    super(message, details);
  }
}

export class NotFoundError extends VellumError {
  static override readonly status: number = 404;
  static override readonly errorName: string = 'NotFoundError';
  static override readonly code: string = 'VELLUM_NOT_FOUND';
  static override readonly graphqlCode: string = 'STRAPI_NOT_FOUND_ERROR';

  constructor(message = 'Not Found', details: ErrorDetails = {}) {
    super(message, details);
  }

  /**
   * Strapi's words, "Not Found", which front ends show and match; what was missing goes into
   * `details.reason` (a document, a locale, a route).
   */
  static missing(reason: string, details: ErrorDetails = {}): NotFoundError {
    return new NotFoundError('Not Found', { ...details, reason });
  }
}

/** A client too slow to send its request (`server.bodyTimeout`): the connection is closed after this. */
export class RequestTimeoutError extends VellumError {
  static override readonly status: number = 408;
  static override readonly errorName: string = 'RequestTimeoutError';
  static override readonly code: string = 'VELLUM_REQUEST_TIMEOUT';
  static override readonly graphqlCode: string = 'BAD_REQUEST';

  constructor(message = 'Request Timeout', details: ErrorDetails = {}) {
    super(message, details);
  }
}

export class PayloadTooLargeError extends VellumError {
  static override readonly status: number = 413;
  static override readonly errorName: string = 'PayloadTooLargeError';
  static override readonly code: string = 'VELLUM_PAYLOAD_TOO_LARGE';
  static override readonly graphqlCode: string = 'STRAPI_PAYLOAD_TOO_LARGE_ERROR';

  constructor(message = 'Request entity too large', details: ErrorDetails = {}) {
    super(message, details);
  }
}

/** A request body in a content type no parser accepts (Fastify's message is kept). */
export class UnsupportedMediaTypeError extends VellumError {
  static override readonly status: number = 415;
  static override readonly errorName: string = 'UnsupportedMediaTypeError';
  static override readonly code: string = 'VELLUM_UNSUPPORTED_MEDIA_TYPE';
  static override readonly graphqlCode: string = 'BAD_REQUEST';

  constructor(message = 'Unsupported Media Type', details: ErrorDetails = {}) {
    super(message, details);
  }
}

export class RateLimitError extends VellumError {
  static override readonly status: number = 429;
  static override readonly errorName: string = 'RateLimitError';
  static override readonly code: string = 'VELLUM_RATE_LIMITED';
  static override readonly graphqlCode: string = 'STRAPI_RATE_LIMIT_ERROR';

  constructor(message = 'Too many requests, please try again later.', details: ErrorDetails = {}) {
    super(message, details);
  }
}

/**
 * Project code threw Strapi's `NotImplementedError`. A 5xx: GraphQL answers it hidden, as
 * `INTERNAL_SERVER_ERROR` (Strapi shows it as `STRAPI_NOT_IMPLEMENTED_ERROR` with its message).
 */
export class NotImplementedError extends VellumError {
  static override readonly status: number = 501;
  static override readonly errorName: string = 'NotImplementedError';
  static override readonly code: string = 'VELLUM_NOT_IMPLEMENTED';
  static override readonly graphqlCode: string = 'INTERNAL_SERVER_ERROR';

  constructor(message = 'This feature is not implemented yet', details: ErrorDetails = {}) {
    super(message, details);
  }
}

/**
 * Anything unexpected while serving a request: the client sees only this name and message, the
 * cause goes to the log.
 */
export class InternalServerError extends VellumError {
  static override readonly status: number = 500;
  static override readonly errorName: string = 'InternalServerError';
  static override readonly code: string = 'VELLUM_INTERNAL';
  static override readonly graphqlCode: string = 'INTERNAL_SERVER_ERROR';

  constructor(message = 'Internal Server Error', details: ErrorDetails = {}) {
    super(message, details);
  }
}

/**
 * The database could not take the write now (locked or busy past its timeout, or conflicts kept
 * aborting it): nothing was written, and the same request may be sent again.
 */
export class ServiceUnavailableError extends VellumError {
  static override readonly status: number = 503;
  static override readonly errorName: string = 'ServiceUnavailableError';
  static override readonly code: string = 'VELLUM_SERVICE_UNAVAILABLE';
  static override readonly graphqlCode: string = 'SERVICE_UNAVAILABLE';

  constructor(message = 'The database is busy; nothing was written, try again', details: ErrorDetails = {}) {
    super(message, details);
  }
}

/**
 * A request Strapi refuses with its generic `ApplicationError` (registration closed, a blocked
 * account, ...), and Fastify's other 4xx errors, which keep their own status.
 */
export class ApplicationError extends VellumError {
  static override readonly status: number = 400;
  static override readonly errorName: string = 'ApplicationError';
  static override readonly code: string = 'VELLUM_APPLICATION';
  static override readonly graphqlCode: string = 'STRAPI_APPLICATION_ERROR';

  constructor(message: string, details: ErrorDetails = {}, status = ApplicationError.status) {
    super(message, details, status);
  }
}

/** A project that cannot be served: wrong schema, bad configuration. Stops start-up. */
export class ProjectError extends Error {
  /** Never reaches a client while serving; listed so the registry stays complete. */
  static readonly status: number = 500;
  static readonly errorName: string = 'ProjectError';
  static readonly code: string = 'VELLUM_PROJECT';
  static readonly graphqlCode: string = 'INTERNAL_SERVER_ERROR';

  constructor(
    message: string,
    readonly file?: string,
  ) {
    super(file ? `${file}: ${message}` : message);
    this.name = ProjectError.errorName;
  }
}

/**
 * An import or export that cannot go on (`vellum import`, `vellum export`): an unreadable archive, a
 * Strapi that refuses the token, a document the database refuses. Printed by the CLI, with what to
 * do; never sent to a client.
 */
export class TransferError extends Error {
  /** Never reaches a client; listed so the registry stays complete. */
  static readonly status: number = 500;
  static readonly errorName: string = 'TransferError';
  static readonly code: string = 'VELLUM_TRANSFER';
  static readonly graphqlCode: string = 'INTERNAL_SERVER_ERROR';

  constructor(message: string) {
    super(message);
    this.name = TransferError.errorName;
  }
}
