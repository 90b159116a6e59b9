import type { IncomingHttpHeaders } from 'node:http';
import type { CallerOptions } from '../documents/context.js';

/**
 * A permission as Strapi names it: a content-type or plugin uid and an action
 * (`api::article.article` + `find`, `plugin::upload.content-api` + `upload`).
 */
export interface Permission {
  uid: string;
  action: string;
}

/**
 * The single place where access control plugs into the request path: every route asks it before
 * touching the document service (auth/access.ts implements it). It throws UnauthorizedError/ForbiddenError to refuse, and answers
 * what the caller may read below the document (populate, filters through relations).
 */
export interface AccessControl {
  authorize(headers: IncomingHttpHeaders, permission: Permission): Promise<CallerOptions>;
}
