import {
  ApplicationError,
  BodySyntaxError,
  InternalServerError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
  VellumError,
} from '../core/errors.js';

export interface ErrorBody {
  data: null;
  error: { status: number; name: string; message: string; details: Record<string, unknown> };
}

interface FastifyLikeError {
  code?: string;
  statusCode?: number;
  message: string;
}

/** Maps anything thrown while serving a request to a Vellum error (unknown errors are 500). */
export function toVellumError(error: unknown): VellumError {
  if (error instanceof VellumError) return error;
  const e = error as FastifyLikeError;
  if (e && typeof e === 'object') {
    if (e.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || e.statusCode === 413) return new PayloadTooLargeError();
    if (e.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return new UnsupportedMediaTypeError(e.message);
    if (error instanceof SyntaxError || e.code === 'FST_ERR_CTP_INVALID_JSON_BODY')
      return new BodySyntaxError(`Malformed JSON body: ${e.message}`);
    if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500)
      return new ApplicationError(e.message, {}, e.statusCode);
  }
  return new InternalServerError();
}

export function errorBody(error: VellumError): ErrorBody {
  return {
    data: null,
    error: { status: error.status, name: error.name, message: error.message, details: error.details },
  };
}
