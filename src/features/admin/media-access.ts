/**
 * The media library's administrators (`/admin/upload`, served by features/upload): who they are,
 * and under their role's "is creator" (Strapi's Author holds `plugin::upload.read` and
 * `plugin::upload.assets.update` with it) whose files they see and whose they change. The upload
 * feature applies it; the actions themselves are checked by the guard (guard.ts).
 */
import type { FastifyRequest } from 'fastify';
import type { Auth } from '../users-permissions/index.js';
import { creatorIds } from './content-access.js';
import { adminCaller } from './guard.js';

export function mediaAdministrator(auth: Auth) {
  return async (request: FastifyRequest) => {
    const { id, ability } = await adminCaller(auth, request);
    const whose = async (action: string) => {
      const creators = ability.scope(action, null)?.creators;
      return creators ? creatorIds(id, creators, () => auth.adminRoles.peersOf(id)) : undefined;
    };
    return {
      id,
      readsFilesOf: await whose('plugin::upload.read'),
      changesFilesOf: await whose('plugin::upload.assets.update'),
    };
  };
}
