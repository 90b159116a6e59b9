import qs from 'qs';
import { QueryValidationError } from '../../errors.js';

/** Longer query strings are refused before parsing: no real client needs more. */
const MAX_QUERY_LENGTH = 16 * 1024;

/**
 * Parses a Strapi-style query string (`qs` syntax, raw or fully percent-encoded) with limits that
 * make hostile input fail fast: bracket depth, parameter count and array size are bounded.
 */
export function parseQueryString(raw: string): Record<string, unknown> {
  if (raw.length > MAX_QUERY_LENGTH) {
    throw new QueryValidationError(`Query string too long (over ${MAX_QUERY_LENGTH} characters)`, {
      param: 'query',
      key: '',
      path: '',
    });
  }
  try {
    return qs.parse(raw, {
      depth: 20,
      strictDepth: true,
      parameterLimit: 1000,
      arrayLimit: 100,
      throwOnLimitExceeded: true,
      allowPrototypes: false,
      ignoreQueryPrefix: true,
    }) as Record<string, unknown>;
  } catch (error) {
    throw new QueryValidationError(`Invalid query string: ${(error as Error).message}`, {
      param: 'query',
      key: '',
      path: '',
    });
  }
}
