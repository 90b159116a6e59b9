/**
 * The content manager's relation lists at Strapi 5.54's paths, in its shapes (its
 * `controllers/relations.ts`): `GET /content-manager/relations/:model/:targetField`, the documents
 * one may add to a relation (`_q` searched on the target's main field, `idsToOmit`,
 * `idsToInclude`, `id` of the source to leave out what it links already, `locale`, `status`,
 * `page`, `pageSize`), and `GET /content-manager/relations/:model/:id/:targetField`, what a
 * document (or a component, by its id) links, the last linked first. Both answer
 * `{ results, pagination }`, each result `{ id, documentId, <main field>, publishedAt, updatedAt,
 * locale?, status? }`.
 *
 * Strapi's checks in its order: the query (its zod 400s), the model and the field (400s), the
 * source's read permission on the field (not for a component), the source document (404; 403
 * outside the permission's conditions). The targets are those the administrator's read
 * permission on the target reaches (its creator conditions and locales); a target it does not
 * reach is listed by a document's relation without its main field, as Strapi lists it. The main
 * field is the source's view configuration's, `documentId` when the administrator may not read it.
 *
 * Statements: the available list is one document-service page (the "linked already" part an
 * EXISTS on the link table), the linked list a page of link rows (relation-links.ts) and the
 * page's documents by id; the status of a page's targets one read of their other versions.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { Database } from '../../core/database/connection.js';
import type { CallerOptions } from '../../core/documents/context.js';
import { linkedPage } from '../../core/documents/read/relation-links.js';
import type { RelationOf } from '../../core/query/types.js';
import type { Document } from '../../core/documents/rows.js';
import type { DocumentService } from '../../core/documents/service.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../../core/errors.js';
import type { ContentType, Model, RelationAttribute } from '../../core/schema/model.js';
import { EXPLORER, type AdminAbility, type Scope } from '../admin-roles/index.js';
import type { Auth } from '../users-permissions/index.js';
import { sendJson } from '../../api/json-body.js';
import { creatorIds } from './content-access.js';
import { adminCaller } from './guard.js';
import { cmAttributes, isListable } from './view-configuration.js';
import type { ViewConfigurations } from './view-configuration-routes.js';

type Query = Record<string, unknown>;
type Status = 'draft' | 'published';

/** Strapi's zod refusal of a query parameter: its first problem, as `{ errors: [{ path, message }] }`. */
const zodError = (key: string, message: string) =>
  new ValidationError(message, { errors: [{ path: [key], message, name: 'ValidationError' }] });

const received = (value: unknown) =>
  Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value === 'object' ? 'object' : typeof value;

/** `z.coerce.number().int().min(1)` (`.max(100)` for a page size). */
function positiveInteger(query: Query, key: string, max?: number): number | undefined {
  const raw = query[key];
  if (raw === undefined) return undefined;
  const value = typeof raw === 'string' ? (raw.trim() === '' ? 0 : Number(raw)) : Number.NaN;
  if (Number.isNaN(value)) throw zodError(key, 'Invalid input: expected number, received NaN');
  if (!Number.isInteger(value)) throw zodError(key, 'Invalid input: expected int, received number');
  if (value < 1) throw zodError(key, 'Too small: expected number to be >=1');
  if (max !== undefined && value > max) throw zodError(key, `Too big: expected number to be <=${max}`);
  return value;
}

const optionalString = (query: Query, key: string) => {
  const value = query[key];
  if (value !== undefined && typeof value !== 'string')
    throw zodError(key, `Invalid input: expected string, received ${received(value)}`);
  return value as string | undefined;
};

/** Strapi's `validateFindExisting` (and the part `validateFindAvailable` shares). */
function pageQuery(query: Query) {
  const page = positiveInteger(query, 'page');
  const pageSize = positiveInteger(query, 'pageSize', 100);
  const locale = optionalString(query, 'locale');
  const status = query.status;
  if (status !== undefined && status !== 'draft' && status !== 'published')
    throw zodError('status', 'Invalid option: expected one of "published"|"draft"');
  return { page, pageSize, locale: locale || undefined, status: status as Status | undefined };
}

/** An id list (`idsToOmit[0]=1`): strings, or Strapi's 400. */
function idList(query: Query, key: string): string[] | undefined {
  const value = query[key];
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) throw zodError(key, `Invalid input: expected array, received ${received(value)}`);
  const index = value.findIndex((item) => typeof item !== 'string');
  if (index >= 0) throw zodError(key, 'Invalid input');
  return value as string[];
}

/** Strapi's `validateFindAvailable`. */
function availableQuery(query: Query) {
  optionalString(query, 'component');
  const id = query.id;
  if (id !== undefined && typeof id !== 'string') throw zodError('id', 'Invalid input');
  const search = optionalString(query, '_q');
  const idsToOmit = idList(query, 'idsToOmit');
  const idsToInclude = idList(query, 'idsToInclude');
  return { ...pageQuery(query), id: id as string | undefined, search, idsToOmit, idsToInclude };
}

/** The operators `_filter` may name for the search (Strapi's "where" operators on a string). */
const SEARCH_OPERATORS = new Set([
  '$eq',
  '$eqi',
  '$ne',
  '$nei',
  '$contains',
  '$notContains',
  '$containsi',
  '$notContainsi',
  '$startsWith',
  '$startsWithi',
  '$endsWith',
  '$endsWithi',
]);

/** A target's status beside its other version (Strapi's `getStatus`). */
function statusOf(version: Document, other: Document | undefined): string {
  const [draft, published] = version.publishedAt
    ? [other && !other.publishedAt ? other : undefined, version]
    : [version, other?.publishedAt ? other : undefined];
  if (!draft) return 'published';
  if (!published) return 'draft';
  return String(draft.updatedAt) > String(published.updatedAt) ? 'modified' : 'published';
}

export function registerRelationRoutes(
  cm: FastifyInstance,
  base: string,
  auth: Auth,
  service: DocumentService,
  database: Database,
  configurations: ViewConfigurations,
): void {
  const { schema } = service;

  /** What both routes check and read first: Strapi's `extractAndValidateRequestInfo`. */
  const requestInfo = async (
    request: FastifyRequest,
    params: { model: string; targetField: string },
    asked: { locale?: string; status?: Status },
    id: string | undefined,
  ) => {
    const { ability, id: adminId } = await adminCaller(auth, request);
    const source: Model | undefined = schema.contentTypes.get(params.model) ?? schema.components.get(params.model);
    if (!source) throw new ValidationError(`The model ${params.model} doesn't exist`);
    const attribute = source.attributes[params.targetField];
    const target = attribute?.kind === 'relation' ? schema.contentTypes.get(attribute.target) : undefined;
    if (!attribute || attribute.kind !== 'relation' || !target)
      throw new ValidationError(`The relational field ${params.targetField} doesn't exist on ${params.model}`);
    const isComponent = source.modelType === 'component';
    const sourceType = source as ContentType;
    // Strapi's `validateStatus`: none for a content-type without draft and publish, draft unless published.
    const status: Status | undefined =
      !isComponent && !sourceType.draftAndPublish ? undefined : asked.status === 'published' ? 'published' : 'draft';
    // Strapi's route has no permission policy: the field's read permission, checked here (Strapi
    // sets its 403 and then fails on it with a 500: Vellum answers the 403).
    if (!isComponent && !ability.canField(EXPLORER.read, source.uid, params.targetField))
      throw new ForbiddenError('Forbidden');

    let relation: RelationOf | undefined;
    if (id !== undefined) relation = await sourceRow(source, attribute, asked.locale, status, id, ability, adminId);
    const configuration = (await configurations.of([source])).get(source.uid);
    const configured = configuration?.metadatas[params.targetField]?.edit.mainField ?? 'id';
    return {
      ability,
      source,
      attribute,
      target,
      status,
      relation,
      mainField: mainFieldOf(target, configured, ability),
    };
  };

  /** The source's row the relation is read from: 404 when there is none, 403 outside the permission's conditions. */
  const sourceRow = async (
    source: Model,
    attribute: RelationAttribute,
    locale: string | undefined,
    status: Status | undefined,
    id: string,
    ability: AdminAbility,
    adminId: number,
  ): Promise<RelationOf> => {
    if (source.modelType === 'component') {
      const row = /^\d+$/.test(id)
        ? (
            await sql<{ id: number }>`select id from ${sql.table(source.table)} where id = ${Number(id)}`.execute(
              database.db,
            )
          ).rows[0]
        : undefined;
      if (!row) throw new NotFoundError('Entity not found');
      return { model: source, attribute, rowId: Number(row.id) };
    }
    const type = source as ContentType;
    // A locale no document is in finds none (Strapi's query): not the document service's 400.
    if (type.localized && locale !== undefined && !(await known(locale))) throw new NotFoundError('Entity not found');
    const documents = service.of(type);
    const params = {
      documentId: id,
      locale: type.localized ? locale : undefined,
      status: type.draftAndPublish ? status : undefined,
      fields: ['locale'].filter(() => type.localized),
    };
    const found = await documents.findOne(params);
    if (!found) throw new NotFoundError('Entity not found');
    const scope = ability.scope(EXPLORER.read, type.uid);
    const inLocale = !type.localized || !scope?.locales || scope.locales.has(String(found.locale));
    const mine =
      !scope?.creators ||
      (await documents.findOne(params, { createdBy: await reachable(scope.creators, adminId) })) !== null;
    if (!inLocale || !mine) throw new ForbiddenError('Forbidden');
    return {
      model: source,
      attribute,
      rowId: Number(found.id),
      documentId: String(found.documentId),
      locale: (found.locale as string | null | undefined) ?? null,
    };
  };

  /** Whether a locale is configured (on this node, or another that added it). */
  const known = async (locale: string) => {
    await service.locales.refreshFor({ locale });
    return service.i18n.locales.includes(locale);
  };

  const reachable = (creators: NonNullable<Scope['creators']>, adminId: number) =>
    creatorIds(adminId, creators, () => auth.adminRoles.peersOf(adminId));

  /** Strapi's `sanitizeMainField`: the configured one when listable and readable, else `documentId`. */
  const mainFieldOf = (target: ContentType, configured: string, ability: AdminAbility): string => {
    const attribute = new Map(cmAttributes(target)).get(configured);
    // Strapi's permissions name the schema's fields: `id` is never among them.
    const readable = configured !== 'id' && ability.canField(EXPLORER.read, target.uid, configured);
    if (!isListable(attribute) || !readable) return 'documentId';
    if (target.uid === 'plugin::users-permissions.role') return 'name';
    return configured;
  };

  /** What the administrator's read permission on the target lets a list reach. */
  const targetCaller = async (ability: AdminAbility, adminId: number, target: ContentType) => {
    const scope = ability.scope(EXPLORER.read, target.uid);
    const caller: CallerOptions = scope?.creators ? { createdBy: await reachable(scope.creators, adminId) } : {};
    return { scope, caller };
  };

  /** Each result as Strapi selects it: id, its fields, and its status beside its other version. */
  const presented = async (target: ContentType, mainField: string, fields: string[], rows: Document[]) => {
    const others = new Map<string, Document>();
    if (target.draftAndPublish && rows.length > 0) {
      const first = rows[0]!;
      const { results } = await service.of(target).findMany({
        status: first.publishedAt ? 'draft' : 'published',
        locale: target.localized ? '*' : undefined,
        filters: { documentId: { $in: [...new Set(rows.map((row) => String(row.documentId)))] } },
        fields: ['updatedAt', 'publishedAt', ...(target.localized ? ['locale'] : [])],
        pagination: { page: 1, pageSize: rows.length * Math.max(service.i18n.locales.length, 1) },
      });
      for (const other of results) {
        const key = `${String(other.documentId)}\u0000${target.localized ? String(other.locale) : ''}`;
        if (!others.has(key)) others.set(key, other);
      }
    }
    return rows.map((row) => {
      const result: Document = { id: row.id };
      for (const field of fields) result[field] = field === mainField ? row[field] : (row[field] ?? null);
      if (target.draftAndPublish)
        result.status = statusOf(
          row,
          others.get(`${String(row.documentId)}\u0000${target.localized ? String(row.locale) : ''}`),
        );
      return result;
    });
  };

  const fieldsOf = (target: ContentType, mainField: string) => [
    ...new Set([mainField, 'publishedAt', 'updatedAt', 'documentId', ...(target.localized ? ['locale'] : [])]),
  ];
  /** What the document service reads of them (`id` and `documentId` come with every document). */
  const readFields = (fields: string[]) => fields.filter((field) => field !== 'id' && field !== 'documentId');

  /** What a linked target the permission does not reach is listed with (Strapi's first read). */
  const NAMING = ['documentId', 'locale', 'publishedAt', 'updatedAt'];

  type Params = { model: string; id: string; targetField: string };

  cm.get<{ Params: Params }>(`${base}/relations/:model/:targetField`, async (request, reply) => {
    const query = availableQuery(request.query as Query);
    const { ability, target, status, relation, mainField } = await requestInfo(
      request,
      request.params,
      query,
      query.id,
    );
    const { id: adminId } = await adminCaller(auth, request);
    const { scope, caller } = await targetCaller(ability, adminId, target);
    const fields = fieldsOf(target, mainField);
    const page = query.page ?? 1;
    const pageSize = query.pageSize ?? 10;
    // The target's locale when it is localized and one is named; every locale otherwise (Strapi's),
    // within those the permission covers.
    let locale: unknown = target.localized ? (query.locale ?? '*') : undefined;
    const permitted = target.localized && scope?.locales ? [...scope.locales] : undefined;
    if (target.localized && query.locale !== undefined && !(await known(query.locale))) locale = [];
    else if (permitted) locale = locale === '*' ? permitted : permitted.includes(String(locale)) ? locale : [];
    const and: Record<string, unknown>[] = [];
    if (query.search) {
      const operator = SEARCH_OPERATORS.has(String((request.query as Query)._filter))
        ? String((request.query as Query)._filter)
        : '$containsi';
      and.push({ [mainField]: { [operator]: query.search } });
    }
    // Ids that are no row id (`abc`) leave out nothing, as in Strapi's query.
    const omitted = [...new Set(query.idsToOmit ?? [])].filter((id) => /^\d+$/.test(id));
    if (omitted.length) and.push({ id: { $notIn: omitted } });
    const empty = Array.isArray(locale) && locale.length === 0;
    const { results, pagination } = empty
      ? { results: [], pagination: { page, pageSize, pageCount: 0, total: 0 } }
      : await service.of(target).findMany(
          {
            // Strapi reads the drafts unless the published versions are asked (and the source has them).
            status: target.draftAndPublish ? (status ?? 'draft') : undefined,
            locale,
            filters: and.length ? { $and: and } : undefined,
            fields: readFields(fields),
            sort: mainField,
            pagination: { page, pageSize, withCount: true },
          },
          {
            ...caller,
            ...(relation
              ? {
                  unlinkedFrom: {
                    relation,
                    except: query.idsToInclude?.map(Number).filter((value) => Number.isInteger(value)),
                  },
                }
              : {}),
          },
        );
    return sendJson(reply, { results: await presented(target, mainField, fields, results), pagination });
  });

  cm.get<{ Params: Params }>(`${base}/relations/:model/:id/:targetField`, async (request, reply) => {
    const query = pageQuery(request.query as Query);
    const { ability, source, attribute, target, status, relation, mainField } = await requestInfo(
      request,
      request.params,
      query,
      request.params.id,
    );
    const { id: adminId } = await adminCaller(auth, request);
    // Strapi's publication filter on the targets: the source's status when it has draft and
    // publish (or is a component), the drafts otherwise; none on a target without it.
    const sourceHasStatus = source.modelType === 'component' || (source as ContentType).draftAndPublish;
    const targetStatus: Status = sourceHasStatus && status === 'published' ? 'published' : 'draft';
    const toMany = attribute.toMany;
    const page = toMany ? (query.page ?? 1) : 1;
    const pageSize = toMany ? (query.pageSize ?? 10) : 1;
    const { ids, total } = await linkedPage(database.db, relation!, target, targetStatus, {
      offset: (page - 1) * pageSize,
      limit: pageSize,
    });
    const fields = fieldsOf(target, mainField);
    const byIds = (caller: CallerOptions, wanted: string[]) =>
      service.of(target).findMany(
        {
          status: target.draftAndPublish ? targetStatus : undefined,
          locale: target.localized ? '*' : undefined,
          filters: { id: { $in: ids } },
          fields: readFields(wanted),
          pagination: { page: 1, pageSize: Math.max(ids.length, 1) },
        },
        caller,
      );
    const rows = ids.length ? (await byIds({}, fields)).results : [];
    const { scope, caller } = await targetCaller(ability, adminId, target);
    // Those the permission reaches show their main field; the others only what names them.
    const reached =
      ids.length && scope?.creators
        ? new Set((await byIds(caller, [])).results.map((row) => Number(row.id)))
        : undefined;
    const byId = new Map(rows.map((row) => [Number(row.id), row]));
    const ordered = ids.map((id) => byId.get(id)).filter((row): row is Document => row !== undefined);
    const allowed = ordered.filter((row) => !reached || reached.has(Number(row.id)));
    const denied = ordered.filter((row) => reached && !reached.has(Number(row.id)));
    const results = [
      ...(await presented(target, mainField, fields, allowed)),
      ...(await presented(target, 'documentId', NAMING, denied)),
    ];
    const pagination = toMany
      ? { page, pageSize, pageCount: Math.ceil(total / pageSize), total }
      : { page: 1, pageCount: 1, pageSize: 10, total: results.length };
    return sendJson(reply, { pagination, results });
  });
}
