/**
 * `strapi.contentAPI`: Strapi 5's sanitizers and validators of the content API, as a project's
 * controller calls them (`strapi.contentAPI.sanitize.query(ctx.query, schema, { auth:
 * ctx.state.auth })`), the same as the core controller's `sanitizeQuery`, `validateQuery`, ...:
 * a sanitized query reads for the request's caller (what its role or token may read), and answers
 * already leave out what the caller may not see, so output and input come back as given.
 */
import { checkTopLevelParams } from '../core/query/parse/top-level.js';
import { withCaller, type Params } from './documents.js';
import { callerOfAuth } from './pipeline.js';
import type { Runtime } from './runtime.js';

interface ContentApiOptions {
  auth?: unknown;
  strictParams?: boolean;
}

const objectOf = (value: unknown): Params =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Params) : {};

export function createContentApi(runtime: Runtime) {
  return {
    sanitize: {
      async query(query: unknown, _schema?: unknown, options: ContentApiOptions = {}): Promise<Params> {
        return withCaller({ ...objectOf(query) }, callerOfAuth(options.auth) ?? {});
      },
      async output(data: unknown): Promise<unknown> {
        return data;
      },
      async input(data: unknown): Promise<unknown> {
        return data;
      },
    },
    validate: {
      async query(query: unknown, _schema?: unknown, options: ContentApiOptions = {}): Promise<void> {
        checkTopLevelParams(objectOf(query), 'find', options.strictParams ?? runtime.config.api.rest.strictParams);
      },
      async input(): Promise<void> {},
    },
  };
}
