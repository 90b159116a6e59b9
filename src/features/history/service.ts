/**
 * The history versions of a document, as Strapi 5.54's content manager answers them
 * (`findVersionsPage`, `restoreVersion` of its `history` service), for the admin API and for project
 * code (`strapi.plugin('content-manager').service('history')`).
 *
 * A page costs a bounded number of statements whatever the document holds: one read of the
 * document's chain of rows (bounded by retention: `history.maxVersionsPerDocument`), folded in
 * memory (fold.ts); one read per type the page's relations name and one of the media they name
 * (whether each still exists); one of their authors; the locales' names for a localized type.
 */
import type { Database } from '../../core/database/connection.js';
import type { SystemDb } from '../../core/database/system-tables.js';
import type { CallerOptions } from '../../core/documents/context.js';
import type { DocumentService, HistoryRef } from '../../core/documents/service.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../../core/errors.js';
import { FILE_UID, isHidden, type Attribute, type ContentType } from '../../core/schema/model.js';
import type { HistoryAuthor, HistoryVersion, HistoryVersionsPage, MissingRelation } from './contract.js';
import { foldDocument, sharedNames, type ChainRow, type FoldedState } from './fold.js';
import { HISTORY_TABLE } from './tables.js';

/** Reads the authors of versions by their administrators' ids (features/users-permissions/ owns that table). */
export type FindAuthors = (ids: number[]) => Promise<Map<number, HistoryAuthor>>;

/** Strapi's FIELDS_TO_IGNORE: what a version neither shows nor restores. */
const IGNORED = new Set(['createdAt', 'updatedAt', 'publishedAt', 'createdBy', 'updatedBy']);
/** Strapi's: a relation or media field lists at most 25 entries. */
const RELATION_LIMIT = 25;

export interface VersionsQuery {
  contentType: string;
  documentId?: string;
  locale?: string;
  page?: number;
  pageSize?: number;
}

/** Strapi's getValidPagination: page from 1, pageSize 1..100, defaults 1 and 20. */
function validPagination(page: unknown, pageSize: unknown): { page: number; pageSize: number } {
  const parsed = (value: unknown) => (value === undefined || value === null ? NaN : parseInt(String(value), 10));
  const p = parsed(page);
  const s = parsed(pageSize);
  return {
    page: !Number.isNaN(p) && p >= 1 ? p : 1,
    pageSize: !Number.isNaN(s) && s >= 1 && s <= 100 ? s : 20,
  };
}

interface TargetRow {
  id: number;
  document_id: string;
  locale: string | null;
  published_at: unknown;
  updated_at: unknown;
  [column: string]: unknown;
}

/** The first visible string attribute: what a relation's entry is shown by. */
const mainField = (type: ContentType) =>
  Object.values(type.attributes).find(
    (attribute) => attribute.kind === 'scalar' && attribute.type === 'string' && !isHidden(attribute),
  );

const shownAttributes = (type: ContentType): Attribute[] =>
  Object.values(type.attributes).filter((attribute) => !IGNORED.has(attribute.name) && !isHidden(attribute));

/** Strips components' ids (Strapi's restore: ids would name another version's rows). */
function withoutIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutIds);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([key]) => key !== 'id')
        .map(([key, item]) => [key, withoutIds(item)]),
    );
  return value;
}

export class HistoryService {
  constructor(
    private readonly database: Database,
    private readonly documents: DocumentService,
    private readonly authors: FindAuthors,
  ) {}

  private get system(): SystemDb {
    return this.database.system;
  }

  /** The project's type of history (404 for another uid, as the content manager answers an unknown model). */
  typeOf(uid: unknown): ContentType {
    const type = typeof uid === 'string' ? this.documents.schema.contentTypes.get(uid) : undefined;
    if (!type || !type.uid.startsWith('api::')) throw new NotFoundError(`No content type ${String(uid)}`);
    return type;
  }

  isSingleType(uid: string): boolean {
    return this.documents.schema.contentTypes.get(uid)?.kind === 'singleType';
  }

  /** A version's type and locale (404 for an unknown id). */
  async versionOf(versionId: number): Promise<{ contentType: string; locale: string | null }> {
    const row = await this.system
      .selectFrom(HISTORY_TABLE)
      .select(['content_type', 'locale'])
      .where('id', '=', versionId)
      .executeTakeFirst();
    if (!row) throw new NotFoundError('History version not found');
    return { contentType: row.content_type, locale: row.locale };
  }

  /** A localized type's locale: the one asked, else the default; null without i18n. */
  localeOf(type: ContentType, asked: unknown): string | null {
    if (!type.localized) return null;
    return typeof asked === 'string' && asked !== '' ? asked : this.documents.i18n.defaultLocale;
  }

  /**
   * The document's rows of every locale, oldest first, folded (one statement on the index that
   * starts with the documentId): the locales share their non-localized attributes (fold.ts).
   */
  private async document(type: ContentType, documentId: string) {
    const rows = (
      await this.system
        .selectFrom(HISTORY_TABLE)
        .selectAll()
        .where('related_document_id', '=', documentId)
        .where('content_type', '=', type.uid)
        .orderBy('id')
        .execute()
    ).map((row) => ({ ...row, id: Number(row.id), data: String(row.data) }));
    return { rows, states: foldDocument(rows, sharedNames(type)).states };
  }

  /** The documentId of a single type's document (history lists need none for it, as in Strapi). */
  private async singleDocumentId(type: ContentType): Promise<string | undefined> {
    const row = await this.database.db.selectFrom(type.table).select('document_id').limit(1).executeTakeFirst();
    return row ? String(row.document_id) : undefined;
  }

  /** A page of a document's versions, newest first, in Strapi's shape. */
  async findVersionsPage(query: VersionsQuery): Promise<HistoryVersionsPage> {
    const type = this.typeOf(query.contentType);
    const { page, pageSize } = validPagination(query.page, query.pageSize);
    const locale = this.localeOf(type, query.locale);
    const documentId = query.documentId ?? (type.kind === 'singleType' ? await this.singleDocumentId(type) : undefined);
    if (documentId === undefined) {
      if (type.kind === 'singleType') return { results: [], pagination: { page, pageSize, pageCount: 0, total: 0 } };
      throw new ForbiddenError('contentType and documentId are required');
    }
    const folded = await this.document(type, documentId);
    const rows = folded.rows.filter((row) => row.locale === locale);
    const { states } = folded;
    const total = rows.length;
    const newestFirst = [...rows].reverse().slice((page - 1) * pageSize, page * pageSize);
    const results = await this.describe(type, newestFirst, states);
    return { results, pagination: { page, pageSize, pageCount: Math.ceil(total / pageSize), total } };
  }

  /** Versions in Strapi's shape: relations and media as `{ results, meta: { missingCount } }`. */
  private async describe(
    type: ContentType,
    rows: (ChainRow & {
      related_document_id: string;
      locale: string | null;
      created_at: unknown;
      created_by_id: number | null;
    })[],
    states: Map<number, FoldedState>,
  ): Promise<HistoryVersion[]> {
    const targets = await this.targetRows(
      type,
      rows.map((row) => ({ state: states.get(row.id)!, locale: row.locale })),
    );
    const files = await this.fileRows(
      type,
      rows.map((row) => states.get(row.id)!),
    );
    const authorIds = [...new Set(rows.map((row) => row.created_by_id).filter((id): id is number => id !== null))];
    const authors = authorIds.length ? await this.authors(authorIds) : new Map<number, HistoryAuthor>();
    const names = type.localized
      ? new Map((await this.documents.locales.list()).map((info) => [info.code, info.name]))
      : new Map<string, string>();
    const attributes = shownAttributes(type);
    return rows.map((row) => {
      const state = states.get(row.id)!;
      const data: Record<string, unknown> = {};
      for (const attribute of attributes) {
        const name = attribute.name;
        if (attribute.kind === 'relation') {
          const target = this.documents.schema.contentTypes.get(attribute.target);
          const refs = (state.relations[name] ?? []).slice(0, RELATION_LIMIT);
          const found = target
            ? refs.map((ref) => targets.find(target, this.targetLocale(target, ref, row.locale), ref))
            : [];
          data[name] = {
            results: found.filter((entry) => entry !== undefined),
            meta: { missingCount: refs.length - found.filter((entry) => entry !== undefined).length },
          };
        } else if (attribute.kind === 'media') {
          const ids = this.mediaIds(state.values[name]).slice(0, RELATION_LIMIT);
          const found = ids.map((id) => files.get(id)).filter((file) => file !== undefined);
          data[name] = { results: found, meta: { missingCount: ids.length - found.length } };
        } else data[name] = state.values[name] ?? null;
      }
      const removed = Object.keys(state.values).filter((name) => !(name in type.attributes));
      const createdAt = new Date(Number(row.created_at)).toISOString();
      const author = row.created_by_id === null ? undefined : authors.get(row.created_by_id);
      return {
        id: row.id,
        contentType: type.uid,
        relatedDocumentId: row.related_document_id,
        locale: row.locale === null ? null : { code: row.locale, name: names.get(row.locale) ?? row.locale },
        status: row.status as HistoryVersion['status'],
        data,
        schema: Object.fromEntries(attributes.map((attribute) => [attribute.name, schemaOf(attribute)])),
        createdAt,
        createdBy: author,
        meta: { unknownAttributes: { added: {}, removed: Object.fromEntries(removed.map((name) => [name, {}])) } },
      };
    });
  }

  /** The target version a ref names: between localized types the writer's locale (as writes link), else the ref's or the default. */
  private targetLocale(target: ContentType, ref: HistoryRef, versionLocale: string | null): string | null {
    if (!target.localized) return null;
    return versionLocale ?? ref.locale ?? this.documents.i18n.defaultLocale;
  }

  private mediaIds(value: unknown): number[] {
    if (value === null || value === undefined) return [];
    return (Array.isArray(value) ? value : [value]).map(Number).filter((id) => Number.isInteger(id));
  }

  /** Which documents the states' relations name still exist: one read per target type. */
  private async targetRows(type: ContentType, versions: { state: FoldedState; locale: string | null }[]) {
    const wanted = new Map<ContentType, Set<string>>();
    for (const attribute of Object.values(type.attributes)) {
      if (attribute.kind !== 'relation') continue;
      const target = this.documents.schema.contentTypes.get(attribute.target);
      if (!target) continue;
      const ids = wanted.get(target) ?? new Set<string>();
      for (const { state } of versions)
        for (const ref of (state.relations[attribute.name] ?? []).slice(0, RELATION_LIMIT)) ids.add(ref.documentId);
      wanted.set(target, ids);
    }
    const found = new Map<ContentType, TargetRow[]>();
    for (const [target, ids] of wanted) {
      if (ids.size === 0) continue;
      const main = mainField(target);
      const columns = ['id', 'document_id', 'locale', 'published_at', 'updated_at'];
      if (main && main.kind === 'scalar') columns.push(main.column);
      const rows = (await this.database.db
        .selectFrom(target.table)
        .select(columns)
        .where('document_id', 'in', [...ids])
        .orderBy('id')
        .execute()) as TargetRow[];
      found.set(target, rows);
    }
    return {
      find: (target: ContentType, locale: string | null, ref: HistoryRef) => {
        const rows = (found.get(target) ?? []).filter(
          (row) => row.document_id === ref.documentId && (!target.localized || row.locale === locale),
        );
        if (rows.length === 0) return undefined;
        const draft = rows.find((row) => row.published_at === null) ?? rows[0]!;
        const published = rows.find((row) => row.published_at !== null);
        const status = !target.draftAndPublish
          ? 'published'
          : !published
            ? 'draft'
            : String(published.updated_at) === String(draft.updated_at) || draft === published
              ? 'published'
              : 'modified';
        const main = mainField(target);
        return {
          id: Number(draft.id),
          documentId: ref.documentId,
          locale: target.localized ? locale : null,
          status,
          ...(main && main.kind === 'scalar' ? { [main.name]: draft[main.column] ?? null } : {}),
        };
      },
    };
  }

  /** The media files the states name that still exist: one read. */
  private async fileRows(type: ContentType, states: FoldedState[]): Promise<Map<number, Record<string, unknown>>> {
    const fileType = this.documents.schema.contentTypes.get(FILE_UID);
    const media = Object.values(type.attributes).filter((attribute) => attribute.kind === 'media');
    const ids = new Set<number>();
    for (const state of states)
      for (const attribute of media)
        for (const id of this.mediaIds(state.values[attribute.name]).slice(0, RELATION_LIMIT)) ids.add(id);
    if (!fileType || ids.size === 0) return new Map();
    const files = await this.documents
      .of(FILE_UID)
      .findMany({ filters: { id: { $in: [...ids] } }, pagination: { pageSize: 100 } });
    return new Map(files.results.map((file) => [Number(file.id), file as Record<string, unknown>]));
  }

  /**
   * Restores a version as the document's new draft (Strapi's restoreVersion: an update of the
   * draft of its locale, which records a version itself). Relations to documents that no longer
   * exist are left out and named in the answer (`missing`), media likewise; attributes added since
   * the version are emptied, attributes removed since are dropped.
   */
  async restoreVersion(
    versionId: number,
    caller?: CallerOptions,
  ): Promise<{ documentId: string; document: Record<string, unknown>; missing: MissingRelation[] }> {
    const version = await this.system
      .selectFrom(HISTORY_TABLE)
      .selectAll()
      .where('id', '=', versionId)
      .executeTakeFirst();
    if (!version) throw new NotFoundError('History version not found');
    const type = this.typeOf(version.content_type);
    const locale = type.localized ? version.locale : null;
    const state = (await this.document(type, version.related_document_id)).states.get(versionId)!;
    const data: Record<string, unknown> = {};
    const missing: MissingRelation[] = [];
    const checks: Promise<void>[] = [];
    for (const attribute of shownAttributes(type)) {
      const name = attribute.name;
      const value = state.values[name];
      switch (attribute.kind) {
        case 'scalar':
          if (attribute.type !== 'uid' || value !== undefined) data[name] = value ?? null;
          break;
        case 'component':
          data[name] = value === undefined || value === null ? (attribute.repeatable ? [] : null) : withoutIds(value);
          break;
        case 'dynamiczone':
          data[name] = value === undefined || value === null ? [] : withoutIds(value);
          break;
        case 'media':
          checks.push(
            (async () => {
              const ids = this.mediaIds(value);
              const existing = ids.length
                ? new Set(
                    (
                      await this.documents
                        .of(FILE_UID)
                        .findMany({ filters: { id: { $in: ids } }, fields: ['id'], pagination: { pageSize: 100 } })
                    ).results.map((file) => Number(file.id)),
                  )
                : new Set<number>();
              for (const id of ids)
                if (!existing.has(id)) missing.push({ attribute: name, documentId: String(id), locale: null });
              const kept = ids.filter((id) => existing.has(id));
              data[name] = attribute.multiple ? kept : (kept[0] ?? null);
            })(),
          );
          break;
        case 'relation': {
          const target = this.documents.schema.contentTypes.get(attribute.target);
          if (!target) break;
          const refs = state.relations[name] ?? [];
          checks.push(
            (async () => {
              const ids = [...new Set(refs.map((ref) => ref.documentId))];
              const rows = ids.length
                ? await this.database.db
                    .selectFrom(target.table)
                    .select(['document_id', 'locale'])
                    .where('document_id', 'in', ids)
                    .execute()
                : [];
              const exists = (ref: HistoryRef, at: string | null) =>
                rows.some((row) => row.document_id === ref.documentId && (!target.localized || row.locale === at));
              const kept: { documentId: string; locale?: string }[] = [];
              for (const ref of refs) {
                const at = this.targetLocale(target, ref, locale);
                if (exists(ref, at))
                  kept.push(at === null ? { documentId: ref.documentId } : { documentId: ref.documentId, locale: at });
                else missing.push({ attribute: name, documentId: ref.documentId, locale: at });
              }
              data[name] = { set: kept };
            })(),
          );
          break;
        }
        default:
          break;
      }
    }
    await Promise.all(checks);
    const documentId = version.related_document_id;
    const document = await this.documents
      .of(type.uid)
      .update({ documentId, ...(locale === null ? {} : { locale }), status: 'draft', data }, caller);
    return { documentId, document, missing };
  }
}

/** An attribute as a version's `schema` names it (Strapi keeps the attributes' definitions: their type here). */
function schemaOf(attribute: Attribute): Record<string, unknown> {
  switch (attribute.kind) {
    case 'scalar':
      return { type: attribute.type };
    case 'relation':
      return { type: 'relation', relation: attribute.relation, target: attribute.target };
    case 'component':
      return { type: 'component', component: attribute.component, repeatable: attribute.repeatable };
    case 'dynamiczone':
      return { type: 'dynamiczone', components: attribute.components };
    case 'media':
      return { type: 'media', multiple: attribute.multiple };
    default:
      return {};
  }
}

/** A version's id from a route parameter (a 404 for anything else). */
export function versionIdOf(value: unknown): number {
  const text = String(value);
  if (!/^\d{1,15}$/.test(text)) throw new NotFoundError('History version not found');
  return Number(text);
}

/**
 * `strapi.plugin('content-manager').service('history')` for project code and scripts, as Strapi
 * names its methods: `findVersionsPage({ query })` and `restoreVersion(versionId)` (the restored
 * draft, with `missingRelations`). Neither checks an administrator's permissions: project code is trusted.
 */
export function projectHistoryApi(service: HistoryService) {
  return {
    findVersionsPage: (params: { query: VersionsQuery }) => service.findVersionsPage(params.query),
    restoreVersion: async (versionId: number | string) => {
      const { document, missing } = await service.restoreVersion(versionIdOf(versionId));
      return { ...document, missingRelations: missing };
    },
  };
}

/** Strapi's restore body check: `contentType`, a string. */
export function restoreContentType(body: unknown): string {
  const contentType = body && typeof body === 'object' ? (body as Record<string, unknown>).contentType : undefined;
  if (typeof contentType !== 'string') throw new ValidationError('contentType is required');
  return contentType.trim();
}
