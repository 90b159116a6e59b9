/**
 * Releases and their actions, as Strapi 5.54's content-releases services keep them
 * (services/release.ts, release-action.ts, validation.ts): a release groups publish and unpublish
 * actions on entries of any draft-and-publish type and locale; its `status` is `empty` without
 * actions, `blocked` when an action's entry would not pass the publish rules, else `ready`, then
 * `done` once published or `failed` when its publication failed.
 *
 * An action's validity is the document service's own verdict (`publishProblem`: the rules
 * `publish` applies), stored with its reason when the action is added or changed, and read again
 * when a page of the release's actions is listed (Strapi's document middleware re-checks it on
 * every entry write instead): one check per action shown.
 *
 * Publishing is publisher.ts.
 */
import type { Selectable } from 'kysely';
import type { Database } from '../../core/database/connection.js';
import type { Db } from '../../core/database/dialect.js';
import { shaped } from '../../core/database/system-tables.js';
import { createDocumentId } from '../../core/documents/document-id.js';
import { recordAudit, type Audited, type Document, type DocumentService } from '../../core/documents/service.js';
import { AlreadyOnReleaseError, NotFoundError, ValidationError } from '../../core/errors.js';
import { isPlainObject } from '../../core/objects.js';
import { isHidden, type ContentType } from '../../core/schema/model.js';
import type {
  EntryProblem,
  ListedReleaseAction,
  Release,
  ReleaseAction,
  ReleaseActionsPage,
  ReleasePage,
  ReleaseWithCount,
} from './contract.js';
import {
  RELEASES_TABLE,
  RELEASE_ACTIONS_TABLE,
  isoTime,
  type ReleaseActionRow,
  type ReleaseActionType,
  type ReleaseRow,
  type ReleaseStatus,
} from './tables.js';
import { pageParam, parseAction, parseActionUpdate, parseRelease, type ActionInput } from './validation.js';

type StoredRelease = Selectable<ReleaseRow>;
type StoredAction = Selectable<ReleaseActionRow>;

/** The largest page of releases or actions one request reads. */
const MAX_PAGE_SIZE = 100;
/** Actions one bulk request adds at most (each is checked against the publish rules). */
const MAX_BULK = 100;

export function presentRelease(row: StoredRelease): Release {
  return {
    id: Number(row.id),
    documentId: row.document_id,
    name: row.name,
    releasedAt: isoTime(row.released_at),
    scheduledAt: isoTime(row.scheduled_at),
    timezone: row.timezone,
    status: row.status,
    createdAt: isoTime(row.created_at)!,
    updatedAt: isoTime(row.updated_at)!,
    publishedAt: null,
    locale: null,
    failureReason: row.status === 'failed' ? row.failure : null,
  };
}

function presentAction(row: StoredAction): ReleaseAction {
  return {
    id: Number(row.id),
    documentId: row.document_id,
    type: row.type,
    contentType: row.content_type,
    entryDocumentId: row.entry_document_id,
    locale: row.locale,
    isEntryValid: Number(row.is_entry_valid) === 1,
    createdAt: isoTime(row.created_at)!,
    updatedAt: isoTime(row.updated_at)!,
    publishedAt: null,
  };
}

/** A refusal's reason as stored (JSON text of EntryProblem). */
function problemText(error: Error & { details?: Record<string, unknown> }): string {
  const errors = Array.isArray(error.details?.errors)
    ? (error.details.errors as { path?: unknown; message?: unknown }[]).map((item) => ({
        path: Array.isArray(item.path) ? (item.path as (string | number)[]) : [],
        message: String(item.message ?? ''),
      }))
    : [];
  const reason = typeof error.details?.reason === 'string' ? error.details.reason : undefined;
  return JSON.stringify({ message: reason ?? error.message, errors } satisfies EntryProblem);
}

function parseProblem(text: string | null): EntryProblem | null {
  if (!text) return null;
  try {
    return JSON.parse(text) as EntryProblem;
  } catch {
    return { message: text, errors: [] };
  }
}

/** The attribute an entry is shown by: the first visible string attribute, else its documentId. */
function mainFieldOf(type: ContentType): string {
  const first = Object.values(type.attributes).find(
    (attribute) => attribute.kind === 'scalar' && attribute.type === 'string' && !isHidden(attribute),
  );
  return first?.name ?? 'documentId';
}

/** Strapi's status of an action after its actions changed: empty, blocked, ready. */
function statusOf(total: number, invalid: number): ReleaseStatus {
  if (total === 0) return 'empty';
  return invalid > 0 ? 'blocked' : 'ready';
}

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

  // Actions.

  /** Strapi's checks of an action's entry: a known type with draft and publish, a documentId for a collection type. */
  private async target(input: ActionInput): Promise<{ type: ContentType; documentId: string; locale: string | null }> {
    const type = this.documents.schema.contentTypes.get(input.contentType);
    if (!type) throw new NotFoundError(`No content type found for uid ${input.contentType}`);
    if (!type.draftAndPublish)
      throw new ValidationError(`Content type with uid ${input.contentType} does not have draftAndPublish enabled`);
    if (type.kind === 'collectionType' && !input.entryDocumentId)
      throw new ValidationError('Document id is required for collection type');
    // A localized type's action names a locale (the default one when none is given), another's none.
    const locale = type.localized ? (input.locale ?? this.documents.i18n.defaultLocale) : null;
    if (locale !== null && !this.documents.i18n.locales.includes(locale))
      throw new ValidationError(`Locale ${locale} is not one of the project's locales`);
    let documentId = input.entryDocumentId;
    if (type.kind === 'singleType') {
      const first = await this.documents
        .of(type)
        .findFirst({ status: 'draft', fields: [], locale: locale ?? undefined });
      if (!first) throw new NotFoundError(`No entry found for contentType ${input.contentType}`);
      documentId = first.documentId as string;
    }
    return { type, documentId: documentId!, locale };
  }

  /** Whether the action can be carried out now: an unpublish always, a publish when its draft passes the publish rules. */
  private async validity(
    type: ContentType,
    kind: ReleaseActionType,
    documentId: string | null,
    locale: string | null,
  ): Promise<{ valid: boolean; problem: string | null }> {
    if (kind === 'unpublish') return { valid: true, problem: null };
    const refusal = await this.documents
      .of(type)
      .publishProblem({ documentId: documentId ?? undefined, locale: locale ?? undefined });
    return refusal ? { valid: false, problem: problemText(refusal) } : { valid: true, problem: null };
  }

  /** Sets the status of a pending release that is not being published from its actions (empty, blocked, ready). */
  private async settleStatus(db: Db, releaseId: number): Promise<void> {
    const [totals] = await this.actionsOf(db)
      .selectFrom(RELEASE_ACTIONS_TABLE)
      .select((eb) => [
        eb.fn.countAll<number | string>().as('total'),
        eb.fn.sum<number | string | null>(eb.case().when('is_entry_valid', '=', 0).then(1).else(0).end()).as('invalid'),
      ])
      .where('release_id', '=', releaseId)
      .execute();
    await this.releases(db)
      .updateTable(RELEASES_TABLE)
      .set({ status: statusOf(Number(totals?.total ?? 0), Number(totals?.invalid ?? 0)), failure: null })
      .where('id', '=', releaseId)
      .where('released_at', 'is', null)
      .execute();
  }

  /** Adds an action; `skipDuplicate`: an entry already in the release answers null (the bulk route) instead of the 400. */
  private async insertAction(
    release: StoredRelease,
    input: ActionInput,
    skipDuplicate: boolean,
    audited: Audited | undefined,
  ): Promise<StoredAction | null> {
    const { type, documentId, locale } = await this.target(input);
    const { valid, problem } = await this.validity(type, input.type, documentId, locale);
    const id = await this.database.write(async (trx) => {
      // The release is read again in the transaction: a release published meanwhile takes no action.
      const current = await this.row(Number(release.id), trx);
      if (current.released_at !== null) throw new ValidationError('Release already published');
      let duplicate = this.actionsOf(trx)
        .selectFrom(RELEASE_ACTIONS_TABLE)
        .select('id')
        .where('release_id', '=', release.id)
        .where('content_type', '=', type.uid)
        .where('entry_document_id', '=', documentId);
      if (locale !== null) duplicate = duplicate.where('locale', '=', locale);
      if (await duplicate.limit(1).executeTakeFirst()) {
        if (skipDuplicate) return null;
        throw new AlreadyOnReleaseError(
          `Entry with documentId ${documentId}${locale ? `( ${locale})` : ''} and contentType ${type.uid} already exists in release with id ${release.id}`,
        );
      }
      const now = Date.now();
      const values: Omit<ReleaseActionRow, 'id'> = {
        document_id: createDocumentId(),
        release_id: Number(release.id),
        type: input.type,
        content_type: type.uid,
        entry_document_id: documentId,
        locale,
        is_entry_valid: valid ? 1 : 0,
        problem,
        created_at: now,
        updated_at: now,
      };
      const inserted = await this.database.dialect.insertReturningId(trx, RELEASE_ACTIONS_TABLE, values);
      await this.settleStatus(trx, Number(release.id));
      await recordAudit(trx, audited, {
        action: 'release.entry.add',
        subject: String(release.id),
        contentType: type.uid,
        documentId,
        locale,
        details: { name: current.name, actionId: inserted, type: input.type },
      });
      return inserted;
    });
    return id === null ? null : this.actionRow(Number(release.id), id);
  }

  private async actionRow(releaseId: number, actionId: number | null): Promise<StoredAction> {
    const row =
      actionId === null
        ? undefined
        : await this.actionsOf()
            .selectFrom(RELEASE_ACTIONS_TABLE)
            .selectAll()
            .where('id', '=', actionId)
            .where('release_id', '=', releaseId)
            .executeTakeFirst();
    if (!row)
      throw new NotFoundError(
        `Action with id ${actionId ?? ''} not found in release with id ${releaseId} or it is already published`,
      );
    return row;
  }

  /** `POST /content-releases/:releaseId/actions`. */
  async addAction(
    releaseId: number | null,
    body: unknown,
    audited?: Audited,
  ): Promise<ReleaseAction & { release: { id: number } }> {
    const input = parseAction(body);
    const release = await this.row(releaseId);
    if (release.released_at !== null) throw new ValidationError('Release already published');
    const row = (await this.insertAction(release, input, false, audited))!;
    return { ...presentAction(row), release: { id: Number(release.id) } };
  }

  /** `POST /content-releases/:releaseId/actions/bulk`: entries already in the release are counted, not added. */
  async addActions(
    releaseId: number | null,
    body: unknown,
    audited?: Audited,
  ): Promise<{ data: ReleaseAction[]; meta: { entriesAlreadyInRelease: number; totalEntries: number } }> {
    if (!Array.isArray(body)) throw new ValidationError('The body must be a list of actions');
    if (body.length > MAX_BULK) throw new ValidationError(`At most ${MAX_BULK} actions can be added at once`);
    const inputs = body.map(parseAction);
    const release = await this.row(releaseId);
    if (release.released_at !== null) throw new ValidationError('Release already published');
    const added: ReleaseAction[] = [];
    for (const input of inputs) {
      const row = await this.insertAction(release, input, true, audited);
      if (row) added.push(presentAction(row));
    }
    return {
      data: added,
      meta: { entriesAlreadyInRelease: inputs.length - added.length, totalEntries: inputs.length },
    };
  }

  /** `PUT /content-releases/:releaseId/actions/:actionId`: publish or unpublish. */
  async updateAction(
    releaseId: number | null,
    actionId: number | null,
    body: unknown,
    audited?: Audited,
  ): Promise<ReleaseAction> {
    const kind = parseActionUpdate(body);
    const release = await this.pendingRelease(releaseId, actionId);
    const action = await this.actionRow(Number(release.id), actionId);
    const type = this.documents.schema.contentTypes.get(action.content_type);
    const { valid, problem } = type
      ? await this.validity(type, kind, action.entry_document_id, action.locale)
      : { valid: false, problem: JSON.stringify({ message: `No content type ${action.content_type}`, errors: [] }) };
    await this.database.write(async (trx) => {
      await this.actionsOf(trx)
        .updateTable(RELEASE_ACTIONS_TABLE)
        .set({ type: kind, is_entry_valid: valid ? 1 : 0, problem, updated_at: Date.now() })
        .where('id', '=', action.id)
        .execute();
      await this.settleStatus(trx, Number(release.id));
      if (action.type !== kind)
        await recordAudit(trx, audited, {
          action: 'release.entry.update',
          subject: String(release.id),
          contentType: action.content_type,
          documentId: action.entry_document_id ?? undefined,
          locale: action.locale,
          details: { name: release.name, actionId: Number(action.id), from: action.type, to: kind },
        });
    });
    return presentAction(await this.actionRow(Number(release.id), Number(action.id)));
  }

  /** `DELETE /content-releases/:releaseId/actions/:actionId`. */
  async deleteAction(releaseId: number | null, actionId: number | null, audited?: Audited): Promise<ReleaseAction> {
    const release = await this.pendingRelease(releaseId, actionId);
    const action = await this.actionRow(Number(release.id), actionId);
    await this.database.write(async (trx) => {
      await this.actionsOf(trx).deleteFrom(RELEASE_ACTIONS_TABLE).where('id', '=', action.id).execute();
      await this.settleStatus(trx, Number(release.id));
      await recordAudit(trx, audited, {
        action: 'release.entry.remove',
        subject: String(release.id),
        contentType: action.content_type,
        documentId: action.entry_document_id ?? undefined,
        locale: action.locale,
        details: { name: release.name, actionId: Number(action.id), type: action.type },
      });
    });
    return presentAction(action);
  }

  /** A pending release, else Strapi's 404 naming the action. */
  private async pendingRelease(releaseId: number | null, actionId: number | null): Promise<StoredRelease> {
    const release =
      releaseId === null
        ? undefined
        : await this.releases().selectFrom(RELEASES_TABLE).selectAll().where('id', '=', releaseId).executeTakeFirst();
    if (!release || release.released_at !== null)
      throw new NotFoundError(
        `Action with id ${actionId ?? ''} not found in release with id ${releaseId ?? ''} or it is already published`,
      );
    return release;
  }

  /**
   * Reads the validity of some of a pending release's actions again (their entries may have been
   * edited since), storing what changed and the status that follows.
   */
  private async recheck(releaseId: number, actions: StoredAction[]): Promise<StoredAction[]> {
    const changed: { id: number; valid: boolean; problem: string | null }[] = [];
    const result: StoredAction[] = [];
    for (const action of actions) {
      const type = this.documents.schema.contentTypes.get(action.content_type);
      const { valid, problem } = type
        ? await this.validity(type, action.type, action.entry_document_id, action.locale)
        : { valid: false, problem: JSON.stringify({ message: `No content type ${action.content_type}`, errors: [] }) };
      if (valid !== (Number(action.is_entry_valid) === 1) || problem !== action.problem)
        changed.push({ id: Number(action.id), valid, problem });
      result.push({ ...action, is_entry_valid: valid ? 1 : 0, problem });
    }
    if (changed.length > 0)
      await this.database.write(async (trx) => {
        for (const change of changed)
          await this.actionsOf(trx)
            .updateTable(RELEASE_ACTIONS_TABLE)
            .set({ is_entry_valid: change.valid ? 1 : 0, problem: change.problem })
            .where('id', '=', change.id)
            .execute();
        await this.settleStatus(trx, releaseId);
      });
    return result;
  }

  /**
   * `GET /content-releases/:releaseId/actions`: a page of actions grouped by content-type (or
   * `groupBy=action|locale`), each with its entry (the draft of a publish, the published version
   * of an unpublish), the entry's status and its validity read again (the release's status
   * follows). About four statements per action listed: a page of 100 at most.
   */
  async listActions(releaseId: number | null, query: Record<string, unknown>): Promise<ReleaseActionsPage> {
    const groupBy = query.groupBy ?? 'contentType';
    if (groupBy !== 'contentType' && groupBy !== 'action' && groupBy !== 'locale')
      throw ValidationError.fromFieldErrors([
        {
          path: ['groupBy'],
          message: 'groupBy must be one of the following values: action, contentType, locale',
          name: 'ValidationError',
          value: groupBy,
        },
      ]);
    const release = await this.row(releaseId);
    const page = pageParam(query.page, 1, Number.MAX_SAFE_INTEGER, 'page');
    const pageSize = pageParam(query.pageSize, 10, MAX_PAGE_SIZE, 'pageSize');
    const sortColumn = groupBy === 'action' ? 'type' : groupBy === 'locale' ? 'locale' : 'content_type';
    const [{ total }] = await Promise.all([
      this.actionsOf()
        .selectFrom(RELEASE_ACTIONS_TABLE)
        .select((eb) => eb.fn.countAll<number | string>().as('total'))
        .where('release_id', '=', release.id)
        .executeTakeFirstOrThrow(),
    ]);
    let rows = await this.actionsOf()
      .selectFrom(RELEASE_ACTIONS_TABLE)
      .selectAll()
      .where('release_id', '=', release.id)
      .orderBy(sortColumn)
      .orderBy('id')
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute();
    if (release.released_at === null) rows = await this.recheck(Number(release.id), rows);
    const locales = await this.documents.locales.list();
    const names = new Map(locales.map((locale) => [locale.code, locale.name]));
    const contentTypes: ReleaseActionsPage['meta']['contentTypes'] = {};
    const listed: ListedReleaseAction[] = [];
    for (const row of rows) {
      const type = this.documents.schema.contentTypes.get(row.content_type);
      const entry = type ? await this.entryOf(type, row) : null;
      if (type)
        contentTypes[type.uid] = {
          uid: type.uid,
          kind: type.kind,
          info: { displayName: type.displayName, singularName: type.singularName, pluralName: type.pluralName },
        };
      const mainField = type ? mainFieldOf(type) : 'documentId';
      listed.push({
        ...presentAction(row),
        contentType: {
          displayName: type?.displayName ?? row.content_type,
          mainFieldValue: entry ? (entry[mainField] ?? null) : null,
          uid: row.content_type,
        },
        locale: row.locale ? { name: names.get(row.locale) ?? row.locale, code: row.locale } : null,
        entry: entry ?? null,
        status: entry && type ? await this.entryStatus(type, entry) : null,
        problem: Number(row.is_entry_valid) === 1 ? null : parseProblem(row.problem),
      });
    }
    const data: Record<string, ListedReleaseAction[]> = {};
    for (const action of listed) {
      const group =
        groupBy === 'action'
          ? action.type
          : groupBy === 'locale'
            ? (action.locale?.name ?? 'No locale')
            : action.contentType.displayName;
      (data[group] ??= []).push(action);
    }
    return {
      data,
      meta: {
        pagination: { page, pageSize, pageCount: Math.ceil(Number(total) / pageSize), total: Number(total) },
        contentTypes,
        components: {},
      },
    };
  }

  /** The entry an action shows: the draft of a publish, the published version of an unpublish (else its draft). */
  private async entryOf(type: ContentType, row: StoredAction): Promise<Document | null> {
    const documents = this.documents.of(type);
    const params = { documentId: row.entry_document_id ?? undefined, locale: row.locale ?? undefined };
    if (row.type === 'unpublish') {
      const published = await documents.findOne({ ...params, status: 'published' });
      if (published) return published;
    }
    return documents.findOne({ ...params, status: 'draft' });
  }

  /** Strapi's entry status: published, draft (never published), modified (a draft newer than the published version). */
  private async entryStatus(type: ContentType, entry: Document): Promise<'draft' | 'published' | 'modified'> {
    if (entry.publishedAt) return 'published';
    const published = await this.documents.of(type).findOne({
      documentId: entry.documentId as string,
      locale: (entry.locale as string | undefined) ?? undefined,
      status: 'published',
      fields: ['updatedAt'],
    });
    if (!published) return 'draft';
    return new Date(String(entry.updatedAt)).getTime() > new Date(String(published.updatedAt)).getTime()
      ? 'modified'
      : 'published';
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
