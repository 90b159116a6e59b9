/**
 * What an administrator may do in the content manager, shared by Vellum's routes (content.ts) and
 * Strapi's (content-manager.ts): the action on the type (Strapi's `plugin::content-manager`
 * `hasPermissions` policy: a 403 `PolicyError` without it), the locale the request names checked
 * against the permission's locales (a 403 otherwise), and the caller options that go with it:
 * reads and writes as the administrator, only the documents of the creators its conditions allow.
 * Fields outside the permission are left out of what is read and, silently, of what is written.
 */
import type { FastifyRequest } from 'fastify';
import type { CallerOptions } from '../../core/documents/context.js';
import type { Document } from '../../core/documents/rows.js';
import type { DocumentService } from '../../core/documents/service.js';
import { ForbiddenError } from '../../core/errors.js';
import type { ContentType } from '../../core/schema/model.js';
import { EXPLORER, pickFields, type Scope } from '../admin-roles/index.js';
import type { Auth } from '../users-permissions/index.js';
import { adminCaller, requireAction } from './guard.js';

type Query = Record<string, unknown>;

/**
 * Whose documents an administrator reaches under a permission's creator conditions: their own
 * ("is creator"), those of the administrators sharing a role with them ("has same role as
 * creator", `peers` read only then).
 */
export async function creatorIds(
  id: number,
  creators: NonNullable<Scope['creators']>,
  peers: () => Promise<number[]>,
): Promise<number[]> {
  const ids = new Set<number>(creators.self ? [id] : []);
  if (creators.sameRole) for (const peer of await peers()) ids.add(peer);
  return [...ids];
}

export function contentAccess(auth: Auth, service: DocumentService) {
  /**
   * What the administrator may do with `action` on the type (Strapi's `plugin::content-manager`
   * `hasPermissions` policy: a 403 `PolicyError` without it), the locale the request names
   * checked against the permission's locales (a 403 otherwise), and the caller options that go
   * with it: reads and writes as the administrator, only their own documents under "is creator".
   */
  const access = async (
    request: FastifyRequest,
    action: string,
    type: ContentType,
  ): Promise<{ scope: Scope; caller: CallerOptions }> => {
    const granted = await accessTo(request, action, type);
    if (!allowsLocale(type, granted.scope, (request.query as Query).locale)) throw new ForbiddenError('Forbidden');
    return granted;
  };
  /** As `access`, the locale left for the caller to check (a bulk action names several, in its body). */
  const accessTo = async (
    request: FastifyRequest,
    action: string,
    type: ContentType,
  ): Promise<{ scope: Scope; caller: CallerOptions }> => {
    const { id, ability } = await requireAction(auth, request, action, type.uid);
    const scope = ability.scope(action, type.uid)!;
    const { creators } = scope;
    if (!creators) return { scope, caller: { actor: id } };
    return {
      scope,
      caller: { actor: id, createdBy: await creatorIds(id, creators, () => auth.adminRoles.peersOf(id)) },
    };
  };
  /** Whether the permission covers a locale (none named: the default one). */
  const allowsLocale = (type: ContentType, scope: Scope, locale: unknown): boolean => {
    if (!type.localized || !scope.locales) return true;
    const wanted = typeof locale === 'string' && locale !== '' ? locale : service.i18n.defaultLocale;
    return scope.locales.has(wanted);
  };
  /** A document the administrator may not touch (another's, under "is creator") is a 403; an unknown one a 404. */
  const checkOwn = async (
    type: ContentType,
    caller: CallerOptions,
    documentId: string | undefined,
    locale: unknown,
  ) => {
    if (caller.createdBy === undefined) return;
    const documents = service.of(type);
    const mine = await documents.findOne(
      { documentId, locale, status: type.draftAndPublish ? 'draft' : undefined },
      caller,
    );
    if (mine) return;
    const exists = await documents.findOne({
      documentId,
      locale,
      status: type.draftAndPublish ? 'draft' : undefined,
    });
    if (exists) throw new ForbiddenError('Forbidden');
  };
  /** What a write answers: the document as the administrator may read it. */
  const readScope = async (request: FastifyRequest, type: ContentType): Promise<Scope> => {
    const { ability } = await adminCaller(auth, request);
    return ability.scope(EXPLORER.read, type.uid) ?? { fields: {}, creators: { self: false, sameRole: false } };
  };
  const shown = (type: ContentType, scope: Scope, document: Document | null) =>
    (document && (pickFields(service.schema, type, document, scope.fields) as Document)) ?? null;
  const written = (type: ContentType, scope: Scope, data: Record<string, unknown>) =>
    pickFields(service.schema, type, data, scope.fields) as Record<string, unknown>;

  return { access, accessTo, allowsLocale, checkOwn, readScope, shown, written };
}
