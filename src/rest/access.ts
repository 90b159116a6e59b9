import type { IncomingHttpHeaders } from 'node:http';
import type { CallerOptions } from '../documents/context.js';
import type { ContentType } from '../schema/model.js';

/** What a request wants to do to a content-type (Strapi's permission actions). */
export type ContentAction = 'find' | 'findOne' | 'create' | 'update' | 'delete' | 'publish';

/**
 * The single place where access control plugs into the request path: every content route asks it
 * before touching the document service. It throws UnauthorizedError/ForbiddenError to refuse, and
 * answers what the caller may read below the document (populate, filters through relations).
 */
export interface AccessControl {
  authorize(headers: IncomingHttpHeaders, type: ContentType, action: ContentAction): Promise<CallerOptions>;
}

/** Everything allowed: the default until users-and-permissions is configured. */
export const openAccess: AccessControl = {
  authorize: async () => ({}),
};
