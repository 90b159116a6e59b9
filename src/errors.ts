/**
 * The one registry of errors. Every failure a client can see is one of these classes; each carries
 * its HTTP status and Strapi's error name, and the REST layer renders it as the envelope
 * `{ data: null, error: { status, name, message, details } }`.
 */

export type ErrorDetails = Record<string, unknown>;

export interface FieldError {
  path: (string | number)[];
  message: string;
  name: string;
  value?: unknown;
}

export class VellumError extends Error {
  readonly status: number;
  readonly details: ErrorDetails;

  constructor(status: number, name: string, message: string, details: ErrorDetails = {}) {
    super(message);
    this.name = name;
    this.status = status;
    this.details = details;
  }
}

export class ValidationError extends VellumError {
  constructor(message: string, details: ErrorDetails = {}) {
    super(400, 'ValidationError', message, details);
  }

  /** Attribute validation: one error per problem, each with the path of the offending value. */
  static fromFieldErrors(errors: FieldError[]): ValidationError {
    const message =
      errors.length === 1 ? errors[0]!.message : `${errors.length} errors occurred`;
    return new ValidationError(message, { errors });
  }
}

/** A bad query parameter: `details` names where it was (`source`, `param`, `key`, `path`). */
export class QueryValidationError extends ValidationError {
  constructor(
    message: string,
    where: { param: string; key: string; path: string | null; source?: 'query' | 'body' },
  ) {
    super(message, { source: where.source ?? 'query', ...where });
  }
}

/** A body that is not valid JSON: Strapi 5 names it `SyntaxError` (its JSON parser's error). */
export class BodySyntaxError extends VellumError {
  constructor(message: string) {
    super(400, 'SyntaxError', message);
  }
}

export class PaginationError extends VellumError {
  constructor(message: string, details: ErrorDetails = {}) {
    super(400, 'PaginationError', message, details);
  }
}

export class UnauthorizedError extends VellumError {
  constructor(message = 'Missing or invalid credentials', details: ErrorDetails = {}) {
    super(401, 'UnauthorizedError', message, details);
  }
}

export class ForbiddenError extends VellumError {
  constructor(message = 'Forbidden', details: ErrorDetails = {}) {
    super(403, 'ForbiddenError', message, details);
  }
}

export class NotFoundError extends VellumError {
  constructor(message = 'Not Found', details: ErrorDetails = {}) {
    super(404, 'NotFoundError', message, details);
  }
}

export class PayloadTooLargeError extends VellumError {
  constructor(message = 'Request entity too large', details: ErrorDetails = {}) {
    super(413, 'PayloadTooLargeError', message, details);
  }
}

export class RateLimitError extends VellumError {
  constructor(message = 'Too many requests, please try again later.', details: ErrorDetails = {}) {
    super(429, 'RateLimitError', message, details);
  }
}

/**
 * The database could not take the write now (locked or busy past its timeout, or conflicts kept
 * aborting it): nothing was written, and the same request may be sent again.
 */
export class ServiceUnavailableError extends VellumError {
  constructor(message = 'The database is busy; nothing was written, try again', details: ErrorDetails = {}) {
    super(503, 'ServiceUnavailableError', message, details);
  }
}

/** A failure that is not the client's input: start-up problems, broken invariants. */
export class ApplicationError extends VellumError {
  constructor(message: string, details: ErrorDetails = {}, status = 400) {
    super(status, 'ApplicationError', message, details);
  }
}

/** A project that cannot be served: wrong schema, bad configuration. Stops start-up. */
export class ProjectError extends Error {
  constructor(
    message: string,
    readonly file?: string,
  ) {
    super(file ? `${file}: ${message}` : message);
    this.name = 'ProjectError';
  }
}
