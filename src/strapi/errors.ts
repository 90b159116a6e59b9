/**
 * The errors of Strapi's `@strapi/utils` as project code sees them: the same names, constructors
 * `(message?, details?)` and default messages as Strapi's, each a subclass of the Vellum error of
 * that kind (src/core/errors.ts), so Vellum renders what project code throws exactly as its own. And
 * `instanceof` holds both ways: `error instanceof errors.ValidationError` is true for a
 * ValidationError Vellum throws (a bad parameter given to `strapi.documents`), and
 * `errors.ApplicationError` covers every Vellum error, as every Strapi error is an ApplicationError.
 */
import { STATUS_CODES } from 'node:http';
import * as vellum from '../core/errors.js';

type Details = vellum.ErrorDetails;

/** `instanceof facing` also holds for errors of `kind` (for `facing` itself, not its subclasses). */
function sameKind(
  facing: abstract new (...args: never[]) => Error,
  kind: abstract new (...args: never[]) => Error,
): void {
  Object.defineProperty(facing, Symbol.hasInstance, {
    value(this: unknown, value: unknown): boolean {
      return this === facing ? value instanceof kind : Function.prototype[Symbol.hasInstance].call(this, value);
    },
  });
}

class ApplicationError extends vellum.ApplicationError {
  constructor(message = 'An application error occurred', details: Details = {}) {
    super(message, details);
  }
}
sameKind(ApplicationError, vellum.VellumError);

class ValidationError extends vellum.ValidationError {
  constructor(message = 'An application error occurred', details: Details = {}) {
    super(message, details);
  }
}
sameKind(ValidationError, vellum.ValidationError);

/** Strapi's wrapper of a yup error: its message and `details.errors`. */
class YupValidationError extends ValidationError {
  constructor(
    yupError: { message?: string; inner?: { path?: string; message?: string; name?: string }[] },
    message?: string,
  ) {
    const inner = yupError?.inner ?? [];
    const errors = inner.map((e) => ({
      path: (e.path ?? '').split('.').filter(Boolean),
      message: e.message ?? '',
      name: e.name ?? 'ValidationError',
    }));
    super(message ?? yupError?.message ?? 'Validation', { errors });
  }
}

class PaginationError extends vellum.PaginationError {
  constructor(message = 'Invalid pagination', details: Details = {}) {
    super(message, details);
  }
}
sameKind(PaginationError, vellum.PaginationError);

class NotFoundError extends vellum.NotFoundError {
  constructor(message = 'Entity not found', details: Details = {}) {
    super(message, details);
  }
}
sameKind(NotFoundError, vellum.NotFoundError);

class ForbiddenError extends vellum.ForbiddenError {
  constructor(message = 'Forbidden access', details: Details = {}) {
    super(message, details);
  }
}
sameKind(ForbiddenError, vellum.ForbiddenError);

class UnauthorizedError extends vellum.UnauthorizedError {
  constructor(message = 'Unauthorized', details: Details = {}) {
    super(message, details);
  }
}
sameKind(UnauthorizedError, vellum.UnauthorizedError);

class RateLimitError extends vellum.RateLimitError {
  constructor(message = 'Too many requests, please try again later.', details: Details = {}) {
    super(message, details);
  }
}
sameKind(RateLimitError, vellum.RateLimitError);

class PayloadTooLargeError extends vellum.PayloadTooLargeError {
  constructor(message = 'Entity too large', details: Details = {}) {
    super(message, details);
  }
}
sameKind(PayloadTooLargeError, vellum.PayloadTooLargeError);

class PolicyError extends vellum.PolicyError {
  constructor(message = 'Policy Failed', details: Details = {}) {
    super(message, details);
  }
}
sameKind(PolicyError, vellum.PolicyError);

class NotImplementedError extends vellum.NotImplementedError {
  constructor(message = 'This feature is not implemented yet', details: Details = {}) {
    super(message, details);
  }
}
sameKind(NotImplementedError, vellum.NotImplementedError);

/** `Bad Request` -> `BadRequestError`, as the http-errors package names its errors. */
function httpErrorName(status: number): string {
  const words = (STATUS_CODES[status] ?? 'Error')
    .split(' ')
    .map((word) => word.slice(0, 1).toUpperCase() + word.slice(1));
  const name = words.join('').replace(/[^ _0-9a-z]/gi, '');
  return name.endsWith('Error') ? name : `${name}Error`;
}

/**
 * An HTTP error as Koa's `ctx.throw` and the http-errors package make them (Strapi's
 * `errors.HttpError`): answered with its status, name and message, and `details` only when given.
 */
export class HttpError extends Error {
  readonly status: number;
  readonly statusCode: number;
  readonly expose: boolean;
  details?: Details;

  constructor(status = 500, message?: string, properties: Record<string, unknown> = {}) {
    super(message ?? STATUS_CODES[status] ?? 'Error');
    this.status = status;
    this.statusCode = status;
    this.expose = status < 500;
    this.name = httpErrorName(status);
    Object.assign(this, properties);
  }
}

/** `ctx.throw(400, 'message', { details })`, `ctx.throw('message', 400)`, `ctx.throw(error)`. */
export function createHttpError(...args: unknown[]): Error {
  let status = 500;
  let message: string | undefined;
  let properties: Record<string, unknown> = {};
  for (const arg of args) {
    if (arg instanceof Error) return arg;
    if (typeof arg === 'number') status = arg;
    else if (typeof arg === 'string') message = arg;
    else if (arg && typeof arg === 'object') properties = arg as Record<string, unknown>;
  }
  return new HttpError(status, message, properties);
}

export const errors = {
  ApplicationError,
  ValidationError,
  YupValidationError,
  PaginationError,
  NotFoundError,
  ForbiddenError,
  UnauthorizedError,
  RateLimitError,
  PayloadTooLargeError,
  PolicyError,
  NotImplementedError,
  HttpError,
};
