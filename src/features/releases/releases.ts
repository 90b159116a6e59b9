/**
 * Releases, as Strapi 5.54's content-releases services keep them (services/release.ts,
 * validation.ts): a release groups publish and unpublish actions on entries of any
 * draft-and-publish type and locale; its `status` is `empty` without actions, `blocked` when an
 * action's entry would not pass the publish rules, else `ready`, then `done` once published or
 * `failed` when its publication failed. Their actions are actions.ts; publishing is publisher.ts.
 */
import type { Selectable } from 'kysely';
import type { Database } from '../../core/database/connection.js';
import type { Db } from '../../core/database/dialect.js';
import { shaped } from '../../core/database/system-tables.js';
import { createDocumentId } from '../../core/documents/document-id.js';
import { recordAudit, type Audited, type DocumentService } from '../../core/documents/service.js';
import { NotFoundError, ValidationError } from '../../core/errors.js';
import { isPlainObject } from '../../core/objects.js';
import type { Release, ReleasePage, ReleaseWithCount } from './contract.js';
import { presentRelease } from './present.js';
import { settleReleaseStatus } from './status.js';
import { RELEASES_TABLE, RELEASE_ACTIONS_TABLE, isoTime, type ReleaseActionRow, type ReleaseRow } from './tables.js';
import { pageParam, parseRelease } from './validation.js';

/** The largest page of releases one request reads. */
const MAX_PAGE_SIZE = 100;

type StoredRelease = Selectable<ReleaseRow>;

export interface ReleasesOptions {
  database: Database;
  documents: DocumentService;
  /** The administrator as Strapi's `admin::user` service sanitizes them (`createdBy`), or undefined. */
  describeAdmin?: (id: number) => Promise<object | undefined>;
}

export class Releases {
  private readonly database: Database;
  private readonly documents: DocumentService;

  constructor(private readonly options: ReleasesOptions) {
    this.database = options.database;
    this.documents = options.documents;
  }

  private releases(db: Db = this.database.db) {
    return shaped<ReleaseRow>(db);
  }

  private actionsOf(db: Db = this.database.db) {
    return shaped<ReleaseActionRow>(db);
  }

  /** The release, or Strapi's 404. */
  async row(id: number | null, db: Db = this.database.db): Promise<StoredRelease> {
    const row =
      id === null
        ? undefined
        : await this.releases(db).selectFrom(RELEASES_TABLE).selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw new NotFoundError(`No release found for id ${id ?? ''}`);
    return row;
  }

  private async assertUniquePendingName(name: string, except?: number): Promise<void> {
    let query = this.releases()
      .selectFrom(RELEASES_TABLE)
      .select('id')
      .where('released_at', 'is', null)
      .where('name', '=', name);
    if (except !== undefined) query = query.where('id', '<>', except);
    if (await query.limit(1).executeTakeFirst()) throw new ValidationError(`Release with name ${name} already exists`);
  }

  /** `POST /content-releases`: a new release, `empty`. */
  async create(body: unknown, audited?: Audited): Promise<Release> {
    const input = parseRelease(body);
    await this.assertUniquePendingName(input.name);
    const now = Date.now();
    if (input.scheduledAt !== null && input.scheduledAt <= now)
      throw new ValidationError('Scheduled at must be later than now');
    const values: Omit<ReleaseRow, 'id'> = {
      document_id: createDocumentId(),
      name: input.name,
      status: 'empty',
      scheduled_at: input.scheduledAt,
      timezone: input.timezone,
      released_at: null,
      failure: null,
      created_at: now,
      updated_at: now,
      created_by_id: audited?.actor ?? null,
      origin: null,
      cancelled_at: null,
    };
    const id = await this.database.write(async (trx) => {
      const inserted = await this.database.dialect.insertReturningId(trx, RELEASES_TABLE, values);
      await recordAudit(trx, audited, {
        action: 'release.create',
        subject: String(inserted),
        details: { name: input.name, scheduledAt: isoTime(input.scheduledAt), timezone: input.timezone },
      });
      return inserted;
    });
    return presentRelease(await this.row(id));
  }

  /** `PUT /content-releases/:id`: name and schedule (no `scheduledAt`: not scheduled any more). */
  async update(id: number | null, body: unknown, audited?: Audited): Promise<Release> {
    const input = parseRelease(body);
    const current = await this.row(id);
    await this.assertUniquePendingName(input.name, Number(current.id));
    if (input.scheduledAt !== null && input.scheduledAt <= Date.now())
      throw new ValidationError('Scheduled at must be later than now');
    if (current.released_at !== null) throw new ValidationError('Release already published');
    await this.database.write(async (trx) => {
      await this.releases(trx)
        .updateTable(RELEASES_TABLE)
        .set({ name: input.name, scheduled_at: input.scheduledAt, timezone: input.timezone, updated_at: Date.now() })
        .where('id', '=', current.id)
        .where('released_at', 'is', null)
        .execute();
      await this.settleStatus(trx, Number(current.id));
      const changed = [
        ['name', current.name !== input.name],
        ['scheduledAt', (current.scheduled_at === null ? null : Number(current.scheduled_at)) !== input.scheduledAt],
        ['timezone', current.timezone !== input.timezone],
      ]
        .filter(([, differs]) => differs)
        .map(([name]) => name as string);
      if (changed.length > 0)
        await recordAudit(trx, audited, {
          action: 'release.update',
          subject: String(current.id),
          changed,
          details: { name: input.name },
        });
    });
    return presentRelease(await this.row(Number(current.id)));
  }

  /** `DELETE /content-releases/:id`: a pending release and its actions, in one transaction. */
  async delete(id: number | null, audited?: Audited): Promise<Release> {
    const current = await this.row(id);
    if (current.released_at !== null) throw new ValidationError('Release already published');
    await this.database.write(async (trx) => {
      await this.actionsOf(trx).deleteFrom(RELEASE_ACTIONS_TABLE).where('release_id', '=', current.id).execute();
      await this.releases(trx).deleteFrom(RELEASES_TABLE).where('id', '=', current.id).execute();
      await recordAudit(trx, audited, {
        action: 'release.delete',
        subject: String(current.id),
        details: { name: current.name },
      });
    });
    return presentRelease(current);
  }

  /** How many actions each release holds: one grouped statement. */
  private async counts(ids: number[]): Promise<Map<number, number>> {
    const counts = new Map<number, number>();
    if (ids.length === 0) return counts;
    const rows = await this.actionsOf()
      .selectFrom(RELEASE_ACTIONS_TABLE)
      .select((eb) => ['release_id', eb.fn.countAll<number | string>().as('count')])
      .where('release_id', 'in', ids)
      .groupBy('release_id')
      .execute();
    for (const row of rows) counts.set(Number(row.release_id), Number(row.count));
    return counts;
  }

  /**
   * `GET /content-releases`: a page of releases (Strapi's query: `page`, `pageSize`,
   * `filters[releasedAt][$notNull]` for the done tab, `false` or `$null` for the pending one),
   * each with its count of actions, and how many are pending.
   */
  async page(query: Record<string, unknown>): Promise<ReleasePage> {
    const pagination = isPlainObject(query.pagination) ? query.pagination : {};
    const page = pageParam(query.page ?? pagination.page, 1, Number.MAX_SAFE_INTEGER, 'page');
    const pageSize = pageParam(query.pageSize ?? pagination.pageSize, 10, MAX_PAGE_SIZE, 'pageSize');
    const released = releasedFilter(query.filters);
    const base = () => {
      // A cancelled scheduled publication is history of /admin/scheduled-actions only.
      let q = this.releases().selectFrom(RELEASES_TABLE).where('cancelled_at', 'is', null);
      if (released === true) q = q.where('released_at', 'is not', null);
      if (released === false) q = q.where('released_at', 'is', null);
      return q;
    };
    const [{ total }, { pending }] = await Promise.all([
      base()
        .select((eb) => eb.fn.countAll<number | string>().as('total'))
        .executeTakeFirstOrThrow(),
      this.releases()
        .selectFrom(RELEASES_TABLE)
        .select((eb) => eb.fn.countAll<number | string>().as('pending'))
        .where('released_at', 'is', null)
        .where('cancelled_at', 'is', null)
        .executeTakeFirstOrThrow(),
    ]);
    const rows = await base()
      .selectAll()
      .orderBy('id')
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute();
    const counts = await this.counts(rows.map((row) => Number(row.id)));
    return {
      data: rows.map((row) => ({
        ...presentRelease(row),
        actions: { meta: { count: counts.get(Number(row.id)) ?? 0 } },
      })),
      meta: {
        pagination: { page, pageSize, pageCount: Math.ceil(Number(total) / pageSize), total: Number(total) },
        pendingReleasesCount: Number(pending),
      },
    };
  }

  /**
   * `GET /content-releases/:id`: the release as stored (its status as of its actions' last check:
   * listing them checks them again), its creator, its count of actions. Three statements.
   */
  async get(id: number | null): Promise<ReleaseWithCount> {
    const row = await this.row(id);
    const count = (await this.counts([Number(row.id)])).get(Number(row.id)) ?? 0;
    const creator =
      row.created_by_id !== null ? ((await this.options.describeAdmin?.(Number(row.created_by_id))) ?? null) : null;
    return {
      ...presentRelease(row),
      createdBy: creator as Record<string, unknown> | null,
      actions: { meta: { count } },
    };
  }

  /** Pending releases holding (or not) an entry: `GET /content-releases/getByDocumentAttached`. */
  async byDocumentAttached(query: Record<string, unknown>): Promise<(Release & { actions?: unknown[] })[]> {
    const contentType = query.contentType;
    if (typeof contentType !== 'string' || contentType === '')
      throw ValidationError.fromFieldErrors([
        { path: ['contentType'], message: 'contentType is a required field', name: 'ValidationError' },
      ]);
    const type = this.documents.schema.contentTypes.get(contentType);
    let documentId = typeof query.entryDocumentId === 'string' ? query.entryDocumentId : null;
    if (type?.kind === 'singleType') {
      const first = await this.documents.of(type).findFirst({ status: 'draft', fields: [] });
      if (!first) throw new NotFoundError(`No entry found for contentType ${contentType}`);
      documentId = first.documentId as string;
    }
    const locale = typeof query.locale === 'string' && query.locale !== '' ? query.locale : null;
    const attached = typeof query.hasEntryAttached === 'string' && query.hasEntryAttached === 'true';
    let matching = this.actionsOf()
      .selectFrom(RELEASE_ACTIONS_TABLE)
      .select(['release_id', 'id', 'document_id', 'type'])
      .where('content_type', '=', contentType);
    matching =
      documentId === null
        ? matching.where('entry_document_id', 'is', null)
        : matching.where('entry_document_id', '=', documentId);
    matching = locale === null ? matching.where('locale', 'is', null) : matching.where('locale', '=', locale);
    const found = await matching.limit(1000).execute();
    const ids = [...new Set(found.map((row) => Number(row.release_id)))];
    let releases = this.releases()
      .selectFrom(RELEASES_TABLE)
      .selectAll()
      .where('released_at', 'is', null)
      .where('cancelled_at', 'is', null);
    if (attached) {
      if (ids.length === 0) return [];
      releases = releases.where('id', 'in', ids);
    } else if (ids.length > 0) releases = releases.where('id', 'not in', ids);
    const rows = await releases.orderBy('id').limit(1000).execute();
    return rows.map((row) => ({
      ...presentRelease(row),
      ...(attached
        ? {
            actions: found
              .filter((action) => Number(action.release_id) === Number(row.id))
              .map((action) => ({ id: Number(action.id), documentId: action.document_id, type: action.type })),
          }
        : {}),
    }));
  }

  /** `GET /content-releases/mapEntriesToReleases`: the pending releases of each listed entry. */
  async mapEntries(query: Record<string, unknown>): Promise<Record<string, { id: number; name: string }[]>> {
    const uid = query.contentTypeUid;
    const raw = query.documentIds;
    const documentIds = Array.isArray(raw) ? raw : typeof raw === 'string' ? [raw] : undefined;
    if (typeof uid !== 'string' || !documentIds) throw new ValidationError('Missing required query parameters');
    const ids = documentIds.filter((id): id is string => typeof id === 'string').slice(0, 1000);
    if (ids.length === 0) return {};
    const locale = typeof query.locale === 'string' && query.locale !== '' ? query.locale : undefined;
    let select = this.database.system
      .selectFrom('vellum_release_actions as a')
      .innerJoin('vellum_releases as r', 'r.id', 'a.release_id')
      .select(['a.entry_document_id as entry', 'r.id as id', 'r.name as name'])
      .where('a.content_type', '=', uid)
      .where('a.entry_document_id', 'in', ids)
      .where('r.released_at', 'is', null)
      .where('r.cancelled_at', 'is', null);
    if (locale) select = select.where('a.locale', '=', locale);
    const rows = await select.orderBy('r.id').execute();
    const map: Record<string, { id: number; name: string }[]> = {};
    for (const row of rows) if (row.entry) (map[row.entry] ??= []).push({ id: Number(row.id), name: row.name });
    return map;
  }

  /** Sets a pending release's status from its actions (empty, blocked, ready), on `db` (the change's transaction). */
  settleStatus(db: Db, releaseId: number): Promise<void> {
    return settleReleaseStatus(db, releaseId);
  }
}

/** `filters[releasedAt]`: `{ $notNull: true }` (done) or `{ $notNull: false }` / `{ $null: true }` (pending); undefined: all. */
function releasedFilter(filters: unknown): boolean | undefined {
  if (filters === undefined) return undefined;
  const released = isPlainObject(filters) ? filters.releasedAt : undefined;
  if (isPlainObject(filters) && Object.keys(filters).every((key) => key === 'releasedAt') && isPlainObject(released)) {
    const keys = Object.keys(released);
    const flag = (value: unknown) =>
      value === true || value === 'true' ? true : value === false || value === 'false' ? false : undefined;
    if (keys.length === 1 && keys[0] === '$notNull' && flag(released.$notNull) !== undefined)
      return flag(released.$notNull);
    if (keys.length === 1 && keys[0] === '$null' && flag(released.$null) !== undefined) return !flag(released.$null);
  }
  throw new ValidationError('filters: only filters[releasedAt][$notNull] or filters[releasedAt][$null] are supported', {
    key: 'filters',
  });
}
