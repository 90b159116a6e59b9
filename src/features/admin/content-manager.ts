/**
 * The content manager's admin API at Strapi 5.54's paths and in its shapes, for scripts written
 * for Strapi (Vellum's panel uses content.ts's `/admin/content-manager/...`): the body of a write is
 * the document's data itself; a document answers with its relations counted, its creator fields
 * (`{ id, firstname, lastname, username, email, isActive }`), `localizations`, `status` (`draft`,
 * `published`, `modified`) and `meta: { availableLocales, availableStatus }`; a list with
 * `{ results, pagination }`. Compared with Strapi: test/differential/content-manager.diff.ts.
 * Roles apply as on Vellum's routes (content-access.ts).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { Database } from '../../core/database/connection.js';
import type { CallerOptions } from '../../core/documents/context.js';
import type { Document } from '../../core/documents/rows.js';
import type { DocumentService, TypeDocuments } from '../../core/documents/service.js';
import { ApplicationError, ForbiddenError, NotFoundError, ValidationError } from '../../core/errors.js';
import { isPlainObject } from '../../core/objects.js';
import type { ContentType, Schema } from '../../core/schema/model.js';
import { EXPLORER } from '../admin-roles/index.js';
import type { Auth } from '../users-permissions/index.js';
import { sendJson } from '../../api/json-body.js';
import { contentAccess } from './content-access.js';
import { managerPopulate } from './content.js';
import { panelBody } from './panel-body.js';
import { adminCaller } from './guard.js';
import { registerDraftRelationRoutes } from './draft-relation-routes.js';
import { registerBulkActions, registerBulkFind } from './bulk-actions.js';
import { registerClone } from './clone-routes.js';
import { registerViewConfiguration, viewConfigurations } from './view-configuration-routes.js';
import { registerRelationRoutes } from './relation-routes.js';
import { statusFilter } from './status-filter.js';
import { previewConfig, registerPreview } from './preview.js';

type Query = Record<string, unknown>;
type Row = Record<string, unknown>;

const notFound = () => new NotFoundError('Not Found');
/**
 * Whether a draft was saved after its published version (Strapi's getStatus compares the times in
 * milliseconds; a Date's string has seconds only).
 */
const later = (draft: unknown, published: unknown): boolean =>
  new Date(draft as string).getTime() > new Date(published as string).getTime();
/** What `meta.availableStatus` and `meta.availableLocales` show of a version. */
const SUMMARY_FIELDS = ['locale', 'createdAt', 'updatedAt', 'publishedAt'];
/** The summary fields a type has (`locale` is no field of a type without i18n). */
const summaryFields = (type: ContentType): string[] => (type.localized ? SUMMARY_FIELDS : SUMMARY_FIELDS.slice(1));

/**
 * The body of a write: the document's data (Strapi's content manager sends it unwrapped), the keys
 * Strapi's permission checker drops left out (panel-body.ts).
 */
function dataOf(schema: Schema, type: ContentType, body: unknown): Record<string, unknown> {
  if (!isPlainObject(body)) throw new ValidationError('The request body must be a JSON object');
  return panelBody(schema, type, body);
}

export function registerStrapiContentManager(
  app: FastifyInstance,
  auth: Auth,
  service: DocumentService,
  database: Database,
  /** `config/admin` as written: its `preview` (preview.ts), checked here, at start-up. */
  admin: Record<string, unknown> = {},
): void {
  const preview = previewConfig(admin);
  const { access, accessTo, allowsLocale, checkOwn, readScope, shown, written } = contentAccess(auth, service);
  const base = '/content-manager';

  const typeOf = (uid: string, kind: ContentType['kind']): ContentType => {
    const type = service.schema.contentTypes.get(uid);
    if (!type || type.kind !== kind || (type.builtIn && uid !== 'plugin::users-permissions.user')) throw notFound();
    return type;
  };

  /** The creator fields of rows, as the content manager shows them, by row id. */
  const creatorsOf = async (type: ContentType, ids: number[]) => {
    const found = new Map<number, { createdBy: unknown; updatedBy: unknown }>();
    if (ids.length === 0) return found;
    const { rows } =
      await sql<Row>`select id, created_by_id, updated_by_id from ${sql.table(type.table)} where id in (${sql.join(ids)})`.execute(
        database.db,
      );
    const adminIds = [
      ...new Set(rows.flatMap((row) => [row.created_by_id, row.updated_by_id]).filter((v) => v != null)),
    ];
    const admins = new Map<number, unknown>();
    for (const id of adminIds) {
      const admin = await auth.admins.find(Number(id));
      if (admin)
        admins.set(Number(id), {
          id: admin.id,
          firstname: admin.firstname,
          lastname: admin.lastname,
          username: admin.username,
          email: admin.email,
          isActive: admin.isActive,
        });
    }
    for (const row of rows)
      found.set(Number(row.id), {
        createdBy: row.created_by_id == null ? null : (admins.get(Number(row.created_by_id)) ?? null),
        updatedBy: row.updated_by_id == null ? null : (admins.get(Number(row.updated_by_id)) ?? null),
      });
    return found;
  };

  const summary = (version: Document, creators?: { createdBy: unknown; updatedBy: unknown }) => ({
    id: version.id,
    documentId: version.documentId,
    locale: version.locale ?? null,
    updatedAt: version.updatedAt,
    createdAt: version.createdAt,
    publishedAt: version.publishedAt,
    ...(creators ?? {}),
  });

  /**
   * A version as Strapi's content manager answers it: relations counted, creator fields, status,
   * and the document's other status and locales in `meta`.
   */
  const present = async (
    type: ContentType,
    documents: TypeDocuments,
    version: Document | null,
    caller: CallerOptions,
  ) => {
    if (!version) throw notFound();
    const { localizations: _others, ...fields } = version as Document & { localizations?: unknown };
    const locale = version.locale ?? undefined;
    const creators = await creatorsOf(type, [Number(version.id)]);
    const data: Record<string, unknown> = {
      ...fields,
      // Strapi's content manager shows `locale: null` on types without i18n.
      ...(type.localized ? {} : { locale: null }),
      ...creators.get(Number(version.id)),
      localizations: [],
    };
    const meta = { availableLocales: [] as unknown[], availableStatus: [] as unknown[] };
    if (type.draftAndPublish) {
      const isDraft = version.publishedAt === null;
      const other = await documents.findOne(
        {
          documentId: String(version.documentId),
          locale,
          status: isDraft ? 'published' : 'draft',
          fields: summaryFields(type),
        },
        caller,
      );
      if (other) {
        const otherCreators = await creatorsOf(type, [Number(other.id)]);
        meta.availableStatus.push(summary(other, otherCreators.get(Number(other.id))));
      }
      const draftTime = isDraft ? version.updatedAt : other?.updatedAt;
      const publishedTime = isDraft ? other?.updatedAt : version.updatedAt;
      // The document's status, whichever version is read (Strapi's getStatus): a published
      // version whose draft was saved since is `modified` too.
      data.status = !other
        ? isDraft
          ? 'draft'
          : 'published'
        : later(draftTime, publishedTime)
          ? 'modified'
          : 'published';
    }
    meta.availableLocales = await availableLocales(
      type,
      documents,
      String(version.documentId),
      version.locale == null ? undefined : String(version.locale),
      caller,
    );
    return { data, meta };
  };

  /**
   * `meta.availableLocales` as Strapi 5.54 lists them (document-metadata.ts): each other locale's
   * draft (a type without draft and publish: its only version), whatever the status read, with
   * its `status`, its creators, and the non-localized scalars and media, from which the panel's
   * form for a new locale takes them; the default locale first.
   */
  const availableLocales = async (
    type: ContentType,
    documents: TypeDocuments,
    documentId: string,
    except: string | undefined,
    caller: CallerOptions,
  ) => {
    if (!type.localized) return [];
    const shared = Object.values(type.attributes).filter(
      (a) => !a.localized && (a.kind === 'scalar' || a.kind === 'media') && !a.private,
    );
    const scalars = shared.filter((a) => a.kind === 'scalar').map((a) => a.name);
    const media = shared.filter((a) => a.kind === 'media').map((a) => a.name);
    const read = (status: 'draft' | 'published' | undefined, fields: string[], populate?: Record<string, true>) =>
      documents.findMany({ filters: { documentId }, locale: '*', status, fields, populate }, caller);
    const { results } = await read(
      type.draftAndPublish ? 'draft' : undefined,
      [...summaryFields(type), ...scalars],
      Object.fromEntries(media.map((name) => [name, true as const])),
    );
    const published = new Map<unknown, unknown>();
    if (type.draftAndPublish)
      for (const version of (await read('published', ['locale', 'updatedAt'])).results)
        published.set(version.locale, version.updatedAt);
    const others = results.filter((version) => version.locale !== except);
    const creators = await creatorsOf(
      type,
      others.map((version) => Number(version.id)),
    );
    const entries = others.map((version) => {
      const publishedAt = published.get(version.locale);
      return {
        ...summary(version, creators.get(Number(version.id))),
        ...Object.fromEntries([...scalars, ...media].map((name) => [name, version[name] ?? null])),
        ...(type.draftAndPublish
          ? {
              status:
                publishedAt === undefined ? 'draft' : later(version.updatedAt, publishedAt) ? 'modified' : 'published',
            }
          : {}),
      };
    });
    const first = service.i18n.defaultLocale;
    return [...entries.filter((e) => e.locale === first), ...entries.filter((e) => e.locale !== first)];
  };

  /**
   * The status of each version of a page (drafts, or published versions under a status filter):
   * the document's other versions read in one statement.
   */
  const listStatuses = async (
    type: ContentType,
    versions: Document[],
    locale: unknown,
    caller: CallerOptions,
    listed: 'draft' | 'published' = 'draft',
  ) => {
    const statuses = new Map<string, string>();
    if (!type.draftAndPublish || versions.length === 0) return statuses;
    const ids = versions.map((version) => String(version.documentId));
    const { results } = await service.of(type).findMany(
      {
        status: listed === 'draft' ? 'published' : 'draft',
        locale,
        filters: { documentId: { $in: ids } },
        fields: ['updatedAt'],
        pagination: { page: 1, pageSize: ids.length },
      },
      caller,
    );
    const others = new Map(results.map((version) => [String(version.documentId), String(version.updatedAt)]));
    for (const version of versions) {
      const other = others.get(String(version.documentId));
      const [draftAt, publishedAt] =
        listed === 'draft' ? [String(version.updatedAt), other] : [other, String(version.updatedAt)];
      statuses.set(
        String(version.documentId),
        publishedAt === undefined ? 'draft' : draftAt !== undefined && draftAt > publishedAt ? 'modified' : 'published',
      );
    }
    return statuses;
  };

  const readVersion = (
    type: ContentType,
    documents: TypeDocuments,
    documentId: string | undefined,
    query: Query,
    status: 'draft' | 'published',
    caller: CallerOptions,
  ) =>
    documents.findOne(
      {
        documentId,
        locale: query.locale,
        status: type.draftAndPublish ? status : undefined,
        populate: managerPopulate(service.schema, type),
      },
      caller,
    );

  const answer = async (
    request: FastifyRequest,
    type: ContentType,
    documentId: string | undefined,
    status: 'draft' | 'published',
    options: {
      /** The version's locale when the body names it (the query's otherwise). */
      locale?: unknown;
      /** A locale or status the document lacks answers `{ data: {}, meta }` (Strapi's edit view then starts a new locale). */
      lacking?: boolean;
    } = {},
  ) => {
    const documents = service.of(type);
    const { caller } = await access(request, EXPLORER.read, type).catch(async () => ({
      caller: { actor: (await adminCaller(auth, request)).id } as CallerOptions,
    }));
    const query =
      options.locale === undefined ? (request.query as Query) : { ...(request.query as Query), locale: options.locale };
    const version = await readVersion(type, documents, documentId, query, status, caller);
    if (!version && options.lacking && documentId !== undefined) {
      const exists = await documents.findMany(
        { filters: { documentId }, locale: '*', status: type.draftAndPublish ? 'draft' : undefined, fields: [] },
        caller,
      );
      if (exists.results.length === 0) throw notFound();
      const { locale } = query;
      return {
        data: {},
        meta: {
          availableLocales: await availableLocales(
            type,
            documents,
            documentId,
            typeof locale === 'string' ? locale : service.i18n.defaultLocale,
            caller,
          ),
          availableStatus: [],
        },
      };
    }
    const presented = await present(type, documents, version, caller);
    return { ...presented, data: shown(type, await readScope(request, type), presented.data as Document) };
  };

  void app.register(async (cm) => {
    cm.addHook('onRequest', async (request) => {
      await adminCaller(auth, request);
    });
    // Strapi's i18n middleware on every write under a localized type's path: a locale (query, else
    // body) that is not configured is its ApplicationError, before anything else is judged.
    cm.addHook('preHandler', async (request) => {
      if (request.method !== 'POST' && request.method !== 'PUT') return;
      const uid = (request.params as { uid?: unknown }).uid;
      const type = typeof uid === 'string' ? service.schema.contentTypes.get(uid) : undefined;
      if (!type?.localized) return;
      const query = request.query as Query;
      const body = isPlainObject(request.body) ? request.body : {};
      const locale = query.locale || body.locale || undefined;
      if (typeof locale === 'string' && locale !== '*' && !service.i18n.locales.includes(locale))
        throw new ApplicationError("This locale doesn't exist");
    });
    const collection = `${base}/collection-types/:uid`;
    type Params = { uid: string; documentId: string; action: string };

    cm.get<{ Params: Params }>(collection, async (request, reply) => {
      const type = typeOf(request.params.uid, 'collectionType');
      const { scope, caller } = await access(request, EXPLORER.read, type);
      const { page, pageSize, ...asked } = request.query as Query;
      // The list's status filter (status-filter.ts): a publication cohort of the drafts listed.
      const { query, status: listed = 'draft', publicationFilter } = statusFilter(asked);
      const { results, pagination } = await service.of(type).findMany(
        {
          ...query,
          ...(publicationFilter && type.draftAndPublish ? { publicationFilter } : {}),
          status: type.draftAndPublish ? listed : undefined,
          populate: managerPopulate(service.schema, type, true),
          pagination: { page: page ?? 1, pageSize: pageSize ?? 10 },
        },
        caller,
      );
      const statuses = await listStatuses(type, results, query.locale, caller, listed);
      const creators = await creatorsOf(
        type,
        results.map((doc) => Number(doc.id)),
      );
      return sendJson(reply, {
        results: results.map((doc) => {
          const { localizations: _l, ...fields } = doc as Document & { localizations?: unknown };
          return shown(type, scope, {
            ...fields,
            ...(type.localized ? {} : { locale: null }),
            ...creators.get(Number(doc.id)),
            localizations: [],
            ...(type.draftAndPublish ? { status: statuses.get(String(doc.documentId)) ?? 'draft' } : {}),
          } as Document);
        }),
        pagination,
      });
    });
    cm.post<{ Params: Params }>(collection, async (request, reply) => {
      const type = typeOf(request.params.uid, 'collectionType');
      const { scope, caller } = await access(request, EXPLORER.create, type);
      const query = request.query as Query;
      const created = await service.of(type).create(
        {
          locale: query.locale,
          status: type.draftAndPublish ? 'draft' : undefined,
          data: written(type, scope, dataOf(service.schema, type, request.body)),
        },
        { actor: caller.actor },
      );
      return sendJson(reply, await answer(request, type, String(created.documentId), 'draft'), 201);
    });
    cm.get<{ Params: Params }>(`${collection}/:documentId`, async (request, reply) => {
      const type = typeOf(request.params.uid, 'collectionType');
      const { caller } = await access(request, EXPLORER.read, type);
      const { locale, status = 'draft' } = request.query as Query;
      await checkOwn(type, caller, request.params.documentId, locale);
      // The edit view's Draft and Published tabs (`?status=`); a version the document lacks is `{ data: {} }`.
      if (status !== 'draft' && status !== 'published') throw new ValidationError('Invalid status');
      return sendJson(reply, await answer(request, type, request.params.documentId, status, { lacking: true }));
    });
    cm.put<{ Params: Params }>(`${collection}/:documentId`, async (request, reply) => {
      const type = typeOf(request.params.uid, 'collectionType');
      const { scope, caller } = await access(request, EXPLORER.update, type);
      const query = request.query as Query;
      await checkOwn(type, caller, request.params.documentId, query.locale);
      await service.of(type).update(
        {
          documentId: request.params.documentId,
          locale: query.locale,
          status: type.draftAndPublish ? 'draft' : undefined,
          data: written(type, scope, dataOf(service.schema, type, request.body)),
        },
        { actor: caller.actor },
      );
      return sendJson(reply, await answer(request, type, request.params.documentId, 'draft'));
    });
    cm.delete<{ Params: Params }>(`${collection}/:documentId`, async (request, reply) => {
      const type = typeOf(request.params.uid, 'collectionType');
      const { caller } = await access(request, EXPLORER.delete, type);
      const { locale } = request.query as Query;
      // `locale=*`: the panel's "delete all locales" (a single document is read in one locale).
      const every = locale === '*';
      if (!every) await checkOwn(type, caller, request.params.documentId, locale);
      const { results } = await service.of(type).findMany(
        {
          filters: { documentId: request.params.documentId },
          locale,
          status: type.draftAndPublish ? 'draft' : undefined,
          fields: [],
        },
        caller,
      );
      if (results.length === 0) throw notFound();
      await service.of(type).delete({ documentId: request.params.documentId, locale }, { actor: caller.actor });
      return sendJson(reply, {});
    });
    // Create and publish at once (Strapi's publish without an id): the publish permission (its
    // route's policy) and the create one; the locale in the body, as Strapi reads it there.
    cm.post<{ Params: Params }>(`${collection}/actions/publish`, async (request, reply) => {
      const type = typeOf(request.params.uid, 'collectionType');
      if (!type.draftAndPublish) throw new ValidationError(`${type.displayName} has no draft and publish`);
      const { caller } = await access(request, EXPLORER.publish, type);
      // The locale in the body, as Strapi reads it there (its i18n middleware copies the query's in);
      // the panel's body keeps only attributes.
      const data = dataOf(service.schema, type, request.body);
      const locale = (request.body as Record<string, unknown>).locale ?? (request.query as Query).locale;
      const { scope, caller: creator } = await accessTo(request, EXPLORER.create, type).catch(() => {
        throw new ForbiddenError('Forbidden');
      });
      if (!allowsLocale(type, scope, locale)) throw new ForbiddenError('Forbidden');
      const created = await service
        .of(type)
        .create(
          { locale: locale ?? undefined, data: written(type, scope, data) },
          { actor: creator.actor ?? caller.actor },
        );
      return sendJson(
        reply,
        await answer(request, type, String(created.documentId), 'published', { locale: locale ?? undefined }),
      );
    });
    cm.post<{ Params: Params }>(`${collection}/:documentId/actions/:action`, async (request, reply) => {
      const type = typeOf(request.params.uid, 'collectionType');
      return sendJson(reply, await publication(request, type, request.params.documentId));
    });

    // Before a publication: how many relations of the drafts point to unpublished documents.
    registerDraftRelationRoutes(cm, base, auth, service, { access });

    // The list's tools: bulk actions and duplicating (bulk-actions.ts, clone-routes.ts).
    const collectionType = (uid: string) => typeOf(uid, 'collectionType');
    registerBulkActions(cm, `${base}/collection-types`, service, collectionType, { accessTo, allowsLocale, shown });
    registerBulkFind(cm, `${base}/collection-types`, service, collectionType, {
      accessTo,
      allowsLocale,
      shown,
      presented: async (type, scope, documents) => {
        const creators = await creatorsOf(
          type,
          documents.map((document) => Number(document.id)),
        );
        return documents.map((document) =>
          shown(type, scope, {
            ...document,
            ...(type.localized ? {} : { locale: null, localizations: [] }),
            ...creators.get(Number(document.id)),
          } as Document),
        );
      },
    });
    registerClone(cm, `${base}/collection-types`, service, collectionType, {
      accessTo,
      allowsLocale,
      shown,
      written,
      answer: (request, type, documentId) => answer(request, type, documentId, 'draft'),
    });
    // "Configure the view" (view-configuration-routes.ts).
    registerViewConfiguration(cm, auth, service.schema, database);
    // The relation pickers' lists (relation-routes.ts).
    registerRelationRoutes(cm, base, auth, service, database, viewConfigurations(service.schema, database));
    registerPreview(cm, auth, service, preview);

    const single = `${base}/single-types/:uid`;
    cm.get<{ Params: Params }>(single, async (request, reply) => {
      const type = typeOf(request.params.uid, 'singleType');
      await access(request, EXPLORER.read, type);
      return sendJson(reply, await answer(request, type, undefined, 'draft'));
    });
    cm.put<{ Params: Params }>(single, async (request, reply) => {
      const type = typeOf(request.params.uid, 'singleType');
      const { scope, caller } = await access(request, EXPLORER.update, type);
      const query = request.query as Query;
      await checkOwn(type, caller, undefined, query.locale);
      await service.of(type).update(
        {
          locale: query.locale,
          status: type.draftAndPublish ? 'draft' : undefined,
          data: written(type, scope, dataOf(service.schema, type, request.body)),
        },
        { actor: caller.actor },
      );
      return sendJson(reply, await answer(request, type, undefined, 'draft'));
    });
    cm.delete<{ Params: Params }>(single, async (request, reply) => {
      const type = typeOf(request.params.uid, 'singleType');
      const { caller } = await access(request, EXPLORER.delete, type);
      const { locale } = request.query as Query;
      await checkOwn(type, caller, undefined, locale);
      await service.of(type).delete({ locale }, { actor: caller.actor });
      return sendJson(reply, {});
    });
    cm.post<{ Params: Params }>(`${single}/actions/:action`, async (request, reply) => {
      const type = typeOf(request.params.uid, 'singleType');
      return sendJson(reply, await publication(request, type, undefined));
    });
  });

  /**
   * Publish (answers the published version), unpublish (the draft), discard (the draft, from the
   * published version). Unpublishing takes the publish permission, discarding the update one.
   */
  async function publication(
    request: FastifyRequest<{ Params: { action: string } }>,
    type: ContentType,
    documentId: string | undefined,
  ) {
    const { action } = request.params;
    if (!['publish', 'unpublish', 'discard'].includes(action)) throw notFound();
    if (!type.draftAndPublish) throw new ValidationError(`${type.displayName} has no draft and publish`);
    const { scope, caller } = await access(request, action === 'discard' ? EXPLORER.update : EXPLORER.publish, type);
    const { locale } = request.query as Query;
    await checkOwn(type, caller, documentId, locale);
    const documents = service.of(type);
    const actor = { actor: caller.actor };
    const draft = await documents.findOne({ documentId, locale, status: 'draft', fields: [] });
    // Publishing a locale the document lacks creates it from the body, as Strapi's panel does when
    // "Publish" is pressed on a new locale's form (its values, then published, or a 400).
    const exists =
      draft ??
      (action === 'publish' && documentId !== undefined
        ? (await documents.findMany({ filters: { documentId }, locale: '*', status: 'draft', fields: [] })).results[0]
        : undefined);
    if (!exists) throw notFound();
    if (action === 'publish') {
      const body = request.body;
      const data =
        isPlainObject(body) && Object.keys(body).length
          ? written(type, scope, panelBody(service.schema, type, body))
          : {};
      await documents.update({ documentId, locale, status: 'published', data }, actor);
      return answer(request, type, documentId, 'published');
    }
    if (action === 'unpublish') {
      // The panel's "Unpublish and discard changes" (`{ discardDraft: true }`): the draft becomes
      // the published version first, then that is unpublished (Strapi's order; discarding takes
      // the update permission, as the discard action does).
      if (isPlainObject(request.body) && request.body.discardDraft === true) {
        await access(request, EXPLORER.update, type);
        await documents.discardDraft({ documentId, locale }, actor);
      }
      await documents.unpublish({ documentId, locale }, actor);
    } else await documents.discardDraft({ documentId, locale }, actor);
    return answer(request, type, documentId, 'draft');
  }
}
