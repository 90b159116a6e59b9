/**
 * What the GraphQL differential files share (graphql.diff.ts, graphql-requests.diff.ts): Strapi
 * 5.54 and Vellum on test/fixtures/strapi5-shop, opened before the file's tests and closed after
 * them; names of the run; an error of a GraphQL answer as both servers give it.
 */
import { after, before } from 'node:test';
import { fixture } from '../helpers/server.js';
import { diffName, openDifferential, type Differential } from './harness.js';

/**
 * Registers the file's `before` and `after`: the servers, side by side, answered by the returned
 * function once `before` has run.
 */
export function shopDifferential(file: string): () => Differential {
  let diff: Differential | undefined;
  before(async () => {
    diff = await openDifferential({
      name: diffName(file),
      project: fixture('strapi5-shop'),
      readyPath: '/api/products',
    });
  });
  after(() => diff?.close());
  return () => diff!;
}

/** Names of this run, after `prefix`: a Strapi reused through DIFF_STRAPI_URL keeps the data of earlier runs. */
export const runNames = (prefix: string): string => `${prefix}${Date.now().toString(36)}`;

export interface GraphqlError {
  message?: string;
  path?: unknown[];
  locations?: unknown;
  extensions?: { code?: string; error?: { name?: string } };
}
