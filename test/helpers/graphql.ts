/** Plain GraphQL-over-HTTP calls for tests that look at status codes and raw error bodies. */
import type { TestServer } from './server.js';

export interface GraphqlResponse<T = any> {
  status: number;
  body: { data?: T; errors?: any[] };
}

export async function graphql<T = any>(
  server: TestServer,
  query: string,
  variables?: Record<string, unknown>,
  /** `anonymous`: without the server's full-access credentials (what Public sees). */
  options: { headers?: Record<string, string>; path?: string; anonymous?: boolean } = {},
): Promise<GraphqlResponse<T>> {
  const response = await fetch(server.url + (options.path ?? '/graphql'), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(options.anonymous ? {} : server.authHeaders),
      ...options.headers,
    },
    body: JSON.stringify({ query, variables }),
  });
  const text = await response.text();
  let body: GraphqlResponse<T>['body'];
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`not JSON (HTTP ${response.status}): ${text.slice(0, 300)}`);
  }
  return { status: response.status, body };
}

/** The data of a successful operation; anything else fails the test with the errors. */
export async function graphqlData<T = any>(
  server: TestServer,
  query: string,
  variables?: Record<string, unknown>,
): Promise<T> {
  const { status, body } = await graphql<T>(server, query, variables);
  if (status !== 200 || body.errors) throw new Error(`HTTP ${status}: ${JSON.stringify(body.errors ?? body)}`);
  return body.data as T;
}
