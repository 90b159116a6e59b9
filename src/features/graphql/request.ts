/**
 * A GraphQL request's operation read from its query string (GET) or body (POST), refused with the
 * words Vellum answered under mercurius (its route schemas' messages), before graphql-js loads.
 */
import { parseJsonKeepingIntegers } from '../../core/documents/exact-integers.js';
import { isPlainObject } from '../../core/objects.js';

export interface GraphqlOperation {
  query: string;
  variables?: Record<string, unknown> | null;
  operationName?: string | null;
}

/** A request that fails before its operation runs: answered `{ data: null, errors }` with this status. */
export class GraphqlRequestError extends Error {
  constructor(
    readonly statusCode: number,
    readonly errors: readonly Error[],
  ) {
    super(errors[0]?.message ?? 'GraphQL request refused');
  }
}

const refuse = (message: string): never => {
  throw new GraphqlRequestError(400, [new Error(message)]);
};

/** A query string's value as one string (`?a=x&a=y` gives two: refused as the schema did). */
function single(value: unknown, where: string, nullable: boolean): string | null | undefined {
  const one = Array.isArray(value) && value.length === 1 ? value[0] : value;
  if (one === undefined || typeof one === 'string') return one;
  if (nullable && one === null) return null;
  return refuse(`${where} must be ${nullable ? 'string,null' : 'string'}`);
}

/** A string, as the route schema coerced numbers and booleans; null where allowed. */
function text(value: unknown, where: string): string | null | undefined {
  if (value === undefined || value === null || typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return refuse(`${where} must be string,null`);
}

const withQuery = (query: string | null | undefined): string => {
  if (!query) throw new GraphqlRequestError(400, [new Error('Unknown query')]);
  return query;
};

/** `GET ?query=...&variables=<JSON>&operationName=...`. */
export function operationOfQueryString(query: unknown): GraphqlOperation {
  const params = isPlainObject(query) ? query : {};
  const source = single(params.query, 'querystring/query', false);
  const operationName = single(params.operationName, 'querystring/operationName', true);
  const variablesText = single(params.variables, 'querystring/variables', false);
  let variables: Record<string, unknown> | null | undefined;
  if (variablesText !== undefined && variablesText !== null && variablesText !== '') {
    let parsed: unknown;
    try {
      parsed = parseJsonKeepingIntegers(variablesText);
    } catch (error) {
      return refuse((error as Error).message);
    }
    if (parsed !== null && !isPlainObject(parsed)) return refuse('querystring/variables must be a JSON object');
    variables = parsed as Record<string, unknown> | null;
  }
  return { query: withQuery(source), variables, operationName };
}

/** A JSON body `{ query, variables, operationName }` (or `application/graphql`'s text, as `{ query }`). */
export function operationOfBody(body: unknown): GraphqlOperation {
  if (!isPlainObject(body)) return refuse('body must be object');
  const { variables, extensions } = body;
  if (variables !== undefined && variables !== null && !isPlainObject(variables))
    return refuse('body/variables must be object,null');
  if (extensions !== undefined && !isPlainObject(extensions)) return refuse('body/extensions must be object');
  const operationName = text(body.operationName, 'body/operationName');
  // A non-string query is refused earlier, before authentication (index.ts).
  const query = typeof body.query === 'string' ? body.query : undefined;
  return { query: withQuery(query), variables, operationName };
}
