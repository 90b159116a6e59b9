/**
 * The home page's API, at Strapi 5.54's paths (its content manager's homepage routes: any
 * authenticated administrator, what they may read decided inside):
 *
 * - `GET /content-manager/homepage/recent-documents?action=update`: the four drafts (every
 *   locale; a type without draft and publish, its one version) last edited, and with
 *   `action=publish` the four published versions last published, among every type the
 *   administrator may read: `{ data: RecentDocument[] }`, newest first, each with its title (the
 *   type's main field), its type and, on types with draft and publish, its status.
 * - `GET /content-manager/homepage/count-documents`: how many documents are drafts, published or
 *   modified, over the same types.
 *
 * What a role allows applies as in the content manager: a type without `explorer.read` is left
 * out, a role with "is creator" (or "has same role as creator") sees only those documents, a role
 * limited to some locales only those locales, and a role that may not read the main field sees
 * documentIds as titles. Each type costs a bounded number of statements whatever it holds: one
 * read of its last four (a walk of an index from its end: core/database/tables.ts makes them), one
 * read of the other status of those that make the list, one count.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { Database } from '../../core/database/connection.js';
import { CORE_STORE_TABLE } from '../../core/database/store.js';
import type { CallerOptions } from '../../core/documents/context.js';
import type { Document } from '../../core/documents/rows.js';
import type { DocumentService } from '../../core/documents/service.js';
import { ValidationError } from '../../core/errors.js';
import { isHidden, type ContentType } from '../../core/schema/model.js';
import { sendJson } from '../../api/json-body.js';
import { EXPLORER } from '../admin-roles/index.js';
import type { Auth } from '../users-permissions/index.js';
import { creatorIds } from './content-access.js';
import type { DocumentCounts, DocumentStatus, RecentDocument } from './contract.js';
import { adminCaller } from './guard.js';

/** Strapi's MAX_DOCUMENTS: the length of each list, over every type together. */
const MAX_DOCUMENTS = 4;
/** The content manager's configuration of a type in the core store (its `settings.mainField`), as Strapi keeps it. */
const CONFIGURATION_KEY = 'plugin_content_manager_configuration_content_types::';
const USER_TYPE_UID = 'plugin::users-permissions.user';

/** A type the administrator may read, and how: whose documents, which locales, which title. */
interface Readable {
  type: ContentType;
  caller: CallerOptions;
  /** A localized type's locales the role allows; undefined: every locale. */
  locales?: string[];
  /** The attribute the title is read from (`documentId` when the role may not read the main field). */
  titleField: string;
}

type Action = 'update' | 'publish';

/** Strapi's answer to a missing or unknown `action` (its zod enum's message). */
function actionOf(query: unknown): Action {
  const action = (query as Record<string, unknown>).action;
  if (action === 'update' || action === 'publish') return action;
  throw new ValidationError('Invalid option: expected one of "update"|"publish"');
}

/**
 * The main field Strapi's content manager shows a type's documents by: the one its stored
 * configuration names (a Strapi project's, imported), else the first `string` attribute. Strapi's
 * default without one, `id`, is no field a permission reads, so its home page shows the
 * documentId then, as for a stored name that is no readable scalar attribute.
 */
function mainFieldOf(type: ContentType, configured: unknown): string {
  const named = typeof configured === 'string' ? type.attributes[configured] : undefined;
  if (named && named.kind === 'scalar' && !isHidden(named)) return named.name;
  const first = Object.values(type.attributes).find(
    (attribute) => attribute.kind === 'scalar' && attribute.type === 'string' && !isHidden(attribute),
  );
  return first?.name ?? 'documentId';
}

const isoOf = (value: unknown): string | null => {
  if (value === null || value === undefined || value === '') return null;
  const date = value instanceof Date ? value : new Date(String(value));
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
};

export function registerHomepage(app: FastifyInstance, auth: Auth, service: DocumentService, database: Database): void {
  /** The types the content manager shows: the project's, and the content API's users. */
  const managed = () =>
    [...service.schema.contentTypes.values()].filter((type) => !type.builtIn || type.uid === USER_TYPE_UID);

  /** Each stored main field, by type uid: one statement for every type. */
  const configuredMainFields = async (uids: string[]): Promise<Map<string, unknown>> => {
    const found = new Map<string, unknown>();
    if (uids.length === 0) return found;
    const rows = await database.system
      .selectFrom(CORE_STORE_TABLE)
      .select(['key', 'value'])
      .where(
        'key',
        'in',
        uids.map((uid) => `${CONFIGURATION_KEY}${uid}`),
      )
      .execute();
    for (const row of rows) {
      try {
        const value = JSON.parse(row.value ?? 'null') as { settings?: { mainField?: unknown } } | null;
        found.set(String(row.key).slice(CONFIGURATION_KEY.length), value?.settings?.mainField);
      } catch {
        // A value that is not JSON configures nothing.
      }
    }
    return found;
  };

  /**
   * What the administrator behind the request may read, type by type (in the schema's order), and
   * with `titles` the field each type's titles are read from.
   */
  const readableTypes = async (request: FastifyRequest, titles: boolean): Promise<Readable[]> => {
    const { id, ability } = await adminCaller(auth, request);
    const types = managed().filter((type) => ability.can(EXPLORER.read, type.uid));
    const mainFields = titles ? await configuredMainFields(types.map((type) => type.uid)) : new Map<string, unknown>();
    let peers: Promise<number[]> | undefined;
    const readable: Readable[] = [];
    for (const type of types) {
      const scope = ability.scope(EXPLORER.read, type.uid)!;
      let locales: string[] | undefined;
      if (type.localized && scope.locales) {
        locales = service.i18n.locales.filter((code) => scope.locales!.has(code));
        if (locales.length === 0) continue;
      }
      const caller: CallerOptions = {};
      if (scope.creators) {
        peers ??= auth.adminRoles.peersOf(id);
        caller.createdBy = await creatorIds(id, scope.creators, () => peers!);
      }
      const main = mainFieldOf(type, mainFields.get(type.uid));
      readable.push({
        type,
        caller,
        locales,
        titleField: main !== 'documentId' && ability.canField(EXPLORER.read, type.uid, main) ? main : 'documentId',
      });
    }
    return readable;
  };

  /** The last four versions of one type: its drafts last edited, or its versions last published. */
  const lastOf = async (readable: Readable, action: Action): Promise<RecentDocument[]> => {
    const { type, caller, locales, titleField } = readable;
    const fields = ['updatedAt'];
    if (type.draftAndPublish) fields.push('publishedAt');
    if (titleField !== 'documentId') fields.push(titleField);
    if (type.localized) fields.push('locale');
    const { results } = await service.of(type).findMany(
      {
        fields,
        status: type.draftAndPublish ? (action === 'publish' ? 'published' : 'draft') : undefined,
        locale: type.localized ? (locales ?? '*') : undefined,
        // Strapi sorts by the time alone; the ties go newest row first, in the order of the index
        // each walk takes (tables.ts), so that no database sorts every match (MariaDB would).
        sort:
          action === 'publish'
            ? ['publishedAt:desc', 'updatedAt:desc', 'id:desc']
            : type.draftAndPublish
              ? ['updatedAt:desc', 'id:desc']
              : ['updatedAt:desc', 'publishedAt:desc', 'id:desc'],
        pagination: { start: 0, limit: MAX_DOCUMENTS, withCount: false },
      },
      caller,
    );
    return results.map((document) => ({
      documentId: String(document.documentId),
      locale: type.localized ? ((document.locale as string | undefined) ?? null) : null,
      title: (document as Record<string, unknown>)[titleField] ?? null,
      contentTypeUid: type.uid,
      contentTypeDisplayName: type.displayName,
      kind: type.kind,
      updatedAt: isoOf(document.updatedAt) ?? '',
      publishedAt: type.draftAndPublish ? isoOf(document.publishedAt) : null,
    }));
  };

  /**
   * The status of each listed version of a draft-and-publish type (Strapi's content manager's
   * `getStatus`): its other version in the same locale, read for all of them in one statement. A
   * draft without a published version is a draft; a draft edited after its published version was
   * (or a published version whose draft was) is modified; else published.
   */
  const withStatus = async (type: ContentType, listed: RecentDocument[], action: Action) => {
    const ids = [...new Set(listed.map((document) => document.documentId))];
    const locales = [...new Set(listed.map((document) => document.locale).filter((code) => code !== null))];
    const { results } = await service.of(type).findMany({
      filters: { documentId: { $in: ids } },
      fields: type.localized ? ['updatedAt', 'locale'] : ['updatedAt'],
      status: action === 'publish' ? 'draft' : 'published',
      locale: type.localized ? locales : undefined,
      pagination: { start: 0, limit: ids.length * Math.max(1, locales.length), withCount: false },
    });
    const other = new Map(
      results.map((version: Document) => [
        `${String(version.documentId)}\u0000${type.localized ? String(version.locale) : ''}`,
        isoOf(version.updatedAt) ?? '',
      ]),
    );
    for (const document of listed) {
      const counterpart = other.get(`${document.documentId}\u0000${type.localized ? String(document.locale) : ''}`);
      let status: DocumentStatus;
      if (counterpart === undefined) status = action === 'publish' ? 'published' : 'draft';
      else {
        const [draft, published] =
          action === 'publish' ? [counterpart, document.updatedAt] : [document.updatedAt, counterpart];
        status = draft > published ? 'modified' : 'published';
      }
      document.status = status;
    }
  };

  const recentDocuments = async (request: FastifyRequest, action: Action): Promise<RecentDocument[]> => {
    let readable = await readableTypes(request, true);
    if (action === 'publish') readable = readable.filter(({ type }) => type.draftAndPublish);
    const lists = await Promise.all(readable.map((one) => lastOf(one, action)));
    const key = action === 'publish' ? 'publishedAt' : 'updatedAt';
    // Newest first; a stable sort keeps equal times in the order of the types and of each list.
    const recent = lists
      .flat()
      .sort((a, b) => {
        const [left, right] = [a[key] ?? '', b[key] ?? ''];
        return left < right ? 1 : left > right ? -1 : 0;
      })
      .slice(0, MAX_DOCUMENTS);
    await Promise.all(
      readable
        .filter(({ type }) => type.draftAndPublish)
        .map(async ({ type }) => {
          const listed = recent.filter((document) => document.contentTypeUid === type.uid);
          if (listed.length) await withStatus(type, listed, action);
        }),
    );
    return recent;
  };

  /**
   * One type's documents by status, in one statement (Strapi's query): a document is a draft when
   * none of its versions is published, modified when its latest draft was edited after its latest
   * published version, published otherwise; a type without draft and publish has published
   * documents only. Only the versions the administrator may read count.
   */
  const countOf = async ({ type, caller, locales }: Readable): Promise<DocumentCounts> => {
    const conditions = [sql<boolean>`1 = 1`];
    if (caller.createdBy !== undefined)
      conditions.push(
        caller.createdBy.length ? sql<boolean>`created_by_id in (${sql.join(caller.createdBy)})` : sql<boolean>`1 = 0`,
      );
    if (locales !== undefined) conditions.push(sql<boolean>`locale in (${sql.join(locales)})`);
    const where = sql.join(conditions, sql` and `);
    const table = sql.table(type.table);
    if (!type.draftAndPublish) {
      const { rows } = await sql<{
        total: number | string;
      }>`select count(distinct document_id) as total from ${table} where ${where}`.execute(database.db);
      return { draft: 0, published: Number(rows[0]?.total ?? 0), modified: 0 };
    }
    const { rows } = await sql<{ draft: number | string; published: number | string; modified: number | string }>`
      select
        count(case when bucket = 'draft' then 1 end) as draft,
        count(case when bucket = 'published' then 1 end) as published,
        count(case when bucket = 'modified' then 1 end) as modified
      from (
        select document_id,
          case
            when max(case when published_at is not null then 1 else 0 end) = 0 then 'draft'
            when max(case when published_at is null then updated_at end) >
                 max(case when published_at is not null then updated_at end) then 'modified'
            else 'published'
          end as bucket
        from ${table}
        where ${where}
        group by document_id
      ) classified`.execute(database.db);
    const row = rows[0];
    return {
      draft: Number(row?.draft ?? 0),
      published: Number(row?.published ?? 0),
      modified: Number(row?.modified ?? 0),
    };
  };

  void app.register(async (homepage) => {
    homepage.addHook('onRequest', async (request) => {
      await adminCaller(auth, request);
    });
    homepage.get('/content-manager/homepage/recent-documents', async (request, reply) => {
      const action = actionOf(request.query);
      return sendJson(reply, { data: await recentDocuments(request, action) });
    });
    homepage.get('/content-manager/homepage/count-documents', async (request, reply) => {
      const counts = await Promise.all((await readableTypes(request, false)).map(countOf));
      const data: DocumentCounts = { draft: 0, published: 0, modified: 0 };
      for (const count of counts) {
        data.draft += count.draft;
        data.published += count.published;
        data.modified += count.modified;
      }
      return sendJson(reply, { data });
    });
  });
}
