/**
 * Who may list and restore content history: as Strapi 5.54's history controller, the content
 * manager's permissions on the type (`explorer.read` to list, `explorer.update` to restore), read
 * per request from the administrator's roles; a role limited to some locales, those locales only;
 * the fields it may read (`explorer.read`'s), what a version shows.
 */
import type { FastifyRequest } from 'fastify';
import { ForbiddenError } from '../core/errors.js';
import { EXPLORER } from '../features/admin-roles/index.js';
import type { HistoryPermit } from '../features/history/index.js';
import type { Auth } from '../features/users-permissions/index.js';

export function historyPermit(auth: Auth): HistoryPermit {
  return async (request: FastifyRequest, action, uid, locale) => {
    const id = await auth.admins.authenticate(request.headers.authorization);
    const ability = await auth.adminRoles.abilityOf(id);
    const scope = ability.scope(EXPLORER[action], uid);
    if (!scope || (locale !== null && scope.locales !== undefined && !scope.locales.has(locale)))
      throw new ForbiddenError();
    return { actor: id, mayRead: (field) => ability.canField(EXPLORER.read, uid, field) };
  };
}
