/**
 * A GraphQL request read as Strapi 5.54 reads it: Apollo Server 4's HTTP layer (CSRF prevention,
 * batching refused, the GET and POST parameters, automatic persisted queries), with Apollo's
 * statuses, words and codes, checked side by side in test/differential/graphql-requests.diff.ts.
 * It runs after authentication (Strapi authenticates before Apollo sees the request) and before
 * graphql-js loads.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { parseJsonKeepingIntegers } from '../../core/documents/exact-integers.js';
import { sha256, type PersistedQueries } from './persisted-queries.js';

export interface GraphqlOperation {
  query: string;
  variables?: Record<string, unknown>;
  operationName?: string;
  /** Called once the document is valid and its operation about to run (a persisted query is kept then). */
  onValid?: () => void;
}

/** One error of a refused request: graphql-js' errors carry their locations. */
export interface RequestProblem {
  message: string;
  locations?: readonly { line: number; column: number }[];
}

/** How a refused request is answered: Apollo's body has `errors` and no `data`. */
export interface RequestAnswer {
  statusCode: number;
  headers: Readonly<Record<string, string>>;
  response: { errors: { message: string; locations?: RequestProblem['locations']; extensions: { code: string } }[] };
}

/** A request that fails before its operation runs. */
export class GraphqlRequestError extends Error {
  constructor(
    readonly statusCode: number,
    readonly errors: readonly RequestProblem[],
    /** `extensions.code` of every error. */
    readonly code: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(errors[0]?.message ?? 'GraphQL request refused');
  }

  /**
   * Refused by Apollo's request pipeline (the operation's own checks), not by its HTTP layer: it is
   * answered as an operation's result is, a 406 when the `Accept` allows no media type of Apollo's
   * (accept.ts). The executor's refusals are too.
   */
  asResult = false;

  /** The answer, each message as `clientMessage` gives it (graphql-js' words cleaned: errors.ts). */
  answer(clientMessage: (message: string) => string = (message) => message): RequestAnswer {
    const errors = this.errors.map(({ message, locations }) => ({
      message: clientMessage(message),
      ...(locations?.length ? { locations } : {}),
      extensions: { code: this.code },
    }));
    return { statusCode: this.statusCode, headers: this.headers, response: { errors } };
  }
}

export const badRequest = (message: string, status = 400, headers: Record<string, string> = {}): GraphqlRequestError =>
  new GraphqlRequestError(status, [{ message }], 'BAD_REQUEST', headers);

/** What Apollo checks for (`!!o && typeof o === 'object' && !Array.isArray(o)`). */
const isRecord = (value: unknown): value is Record<string, unknown> =>
  !!value && typeof value === 'object' && !Array.isArray(value);

/** Content types a browser sends across origins without a preflight. */
const SIMPLE_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'];
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** A content type's `type/subtype`, lower case; null when it is not one (whatwg-mimetype's parse, which Apollo uses). */
export function mediaType(contentType: string): string | null {
  const text = contentType.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '');
  const slash = text.indexOf('/');
  if (slash < 0) return null;
  const type = text.slice(0, slash);
  const subtype = text
    .slice(slash + 1)
    .split(';')[0]!
    .replace(/[\t\n\r ]+$/, '');
  return TOKEN.test(type) && TOKEN.test(subtype) ? `${type}/${subtype}`.toLowerCase() : null;
}

const header = (headers: IncomingHttpHeaders, name: string): string | undefined => {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
};

/**
 * Apollo's CSRF prevention, on in Strapi 5.54 (Apollo Server 4's default): a request a browser
 * could send from another site without a preflight (any method without a content type, or with a
 * simple one) needs one of `requestHeaders`, which such a request cannot carry. GET included: a
 * client reading over GET sends `apollo-require-preflight: true` (or a JSON content type).
 */
function preventCsrf(headers: IncomingHttpHeaders, requestHeaders: readonly string[]): void {
  const contentType = header(headers, 'content-type');
  if (contentType !== undefined) {
    const type = mediaType(contentType);
    if (type === null || !SIMPLE_TYPES.includes(type)) return;
  }
  if (requestHeaders.some((name) => (header(headers, name.toLowerCase()) ?? '').length > 0)) return;
  throw badRequest(
    'This operation has been blocked as a potential Cross-Site Request Forgery (CSRF). Please either specify a ' +
      `'content-type' header (with a type that is not one of ${SIMPLE_TYPES.join(', ')}) or provide a non-empty ` +
      `value for one of the following headers: ${requestHeaders.join(', ')}\n`,
  );
}

/** The parameters of a request, before its query is known to be there. */
interface Parameters {
  query?: string;
  operationName?: string;
  variables?: Record<string, unknown>;
  extensions?: Record<string, unknown>;
}

/** A parameter of the query string, given once at most. */
function once(search: URLSearchParams, name: string): string | undefined {
  const values = search.getAll(name);
  if (values.length > 1) throw badRequest(`The '${name}' search parameter may only be specified once.`);
  return values[0];
}

/** A JSON object in the query string (`variables`, `extensions`). */
function jsonOnce(search: URLSearchParams, name: string): Record<string, unknown> | undefined {
  const text = once(search, name);
  if (text === undefined) return undefined;
  let value: unknown;
  try {
    value = parseJsonKeepingIntegers(text);
  } catch {
    throw badRequest(`The ${name} search parameter contains invalid JSON.`);
  }
  if (!isRecord(value)) throw badRequest(`The ${name} search parameter should contain a JSON-encoded object.`);
  return value;
}

/** `GET ?query=...&variables=<JSON>&operationName=...&extensions=<JSON>`, read from the URL itself. */
function ofQueryString(url: string): Parameters {
  const start = url.indexOf('?');
  const search = new URLSearchParams(start < 0 ? '' : url.slice(start));
  return {
    query: once(search, 'query'),
    operationName: once(search, 'operationName'),
    variables: jsonOnce(search, 'variables'),
    extensions: jsonOnce(search, 'extensions'),
  };
}

const NOT_A_STRING_DOCUMENT =
  "GraphQL queries must be strings. It looks like you're sending the internal graphql-js representation of a " +
  'parsed query in your request instead of a request in the GraphQL query language. You can convert an AST to ' +
  'a string using the `print` function from `graphql`, or use a client like `apollo-client` which converts the ' +
  'internal representation to a string for you.';

/** A POST body `{ query, variables, operationName, extensions }` (JSON or a form). */
function ofBody(body: unknown): Parameters {
  if (!isRecord(body) || Object.keys(body).length === 0)
    throw badRequest('POST body missing, invalid Content-Type, or JSON object has no keys.');
  const { query, variables, extensions, operationName } = body;
  if (query && typeof query !== 'string')
    throw badRequest(
      isRecord(query) && query.kind === 'Document' ? NOT_A_STRING_DOCUMENT : 'GraphQL queries must be strings.',
    );
  if (typeof variables === 'string')
    throw badRequest(
      '`variables` in a POST body should be provided as an object, not a recursively JSON-encoded string.',
    );
  if (typeof extensions === 'string')
    throw badRequest(
      '`extensions` in a POST body should be provided as an object, not a recursively JSON-encoded string.',
    );
  if ('extensions' in body && extensions !== null && !isRecord(extensions))
    throw badRequest('`extensions` in a POST body must be an object if provided.');
  if ('variables' in body && variables !== null && !isRecord(variables))
    throw badRequest('`variables` in a POST body must be an object if provided.');
  if ('operationName' in body && operationName !== null && typeof operationName !== 'string')
    throw badRequest('`operationName` in a POST body must be a string if provided.');
  return {
    query: typeof query === 'string' ? query : undefined,
    operationName: typeof operationName === 'string' ? operationName : undefined,
    variables: isRecord(variables) ? variables : undefined,
    extensions: isRecord(extensions) ? extensions : undefined,
  };
}

/** The query itself, or the one an automatic persisted query's hash names. */
function withQuery(parameters: Parameters, persisted: PersistedQueries): GraphqlOperation {
  const { query, operationName, variables } = parameters;
  const extension = parameters.extensions?.persistedQuery;
  if (!extension) {
    if (!query)
      throw badRequest('GraphQL operations must contain a non-empty `query` or a `persistedQuery` extension.');
    return { query, operationName, variables };
  }
  // Apollo answers these two with no code of their own (INTERNAL_SERVER_ERROR), HTTP 400.
  const fails = (message: string) => new GraphqlRequestError(400, [{ message }], 'INTERNAL_SERVER_ERROR');
  const { version, sha256Hash: hash } = isRecord(extension) ? extension : {};
  if (version !== 1) throw fails('Unsupported persisted query version');
  if (query === undefined) {
    const kept = typeof hash === 'string' ? persisted.get(hash) : undefined;
    if (kept === undefined)
      // HTTP 200: the client sends the query with its hash next.
      throw new GraphqlRequestError(200, [{ message: 'PersistedQueryNotFound' }], 'PERSISTED_QUERY_NOT_FOUND', {
        'cache-control': 'private, no-cache, must-revalidate',
      });
    return { query: kept, operationName, variables };
  }
  if (hash !== sha256(query)) throw fails('provided sha does not match query');
  return { query, operationName, variables, onValid: () => persisted.keep(hash, query) };
}

export interface RequestReading {
  /** Headers one of which lets a request a browser could forge through; null: no CSRF prevention. */
  csrfHeaders: readonly string[] | null;
  persisted: PersistedQueries;
}

/** The operation a request asks for, in Apollo's order of checks; refused with a GraphqlRequestError. */
export function readGraphqlRequest(
  request: { method: string; url: string; headers: IncomingHttpHeaders; body: unknown },
  reading: RequestReading,
): GraphqlOperation {
  if (reading.csrfHeaders) preventCsrf(request.headers, reading.csrfHeaders);
  if (request.method === 'POST' && Array.isArray(request.body)) throw badRequest('Operation batching disabled.');
  let parameters: Parameters;
  // A body of a type koa-bodyparser does not read (none, text, multipart, application/graphql) is `{}` there.
  if (request.method === 'POST') parameters = ofBody(request.body ?? {});
  else if (request.method === 'GET') parameters = ofQueryString(request.url);
  else throw badRequest('Apollo Server supports only GET/POST requests.', 405, { allow: 'GET, POST' });
  // The query and persisted queries are the pipeline's checks, past the HTTP layer.
  try {
    return withQuery(parameters, reading.persisted);
  } catch (error) {
    if (error instanceof GraphqlRequestError) error.asResult = true;
    throw error;
  }
}
