/**
 * A release's actions, as Strapi 5.54's release-action service keeps them: added (one, or many at
 * once), changed between publish and unpublish, removed, listed with their entries.
 *
 * An action's validity is the document service's own verdict (`publishProblem`: the rules
 * `publish` applies), stored with its reason when the action is added or changed, and read again
 * when a page of the release's actions is listed (Strapi's document middleware re-checks it on
 * every entry write instead): one check per action shown.
 */
import type { Selectable } from 'kysely';
import type { Database } from '../../core/database/connection.js';
import type { Db } from '../../core/database/dialect.js';
import { shaped } from '../../core/database/system-tables.js';
import { createDocumentId } from '../../core/documents/document-id.js';
import { recordAudit, type Audited, type Document, type DocumentService } from '../../core/documents/service.js';
import { AlreadyOnReleaseError, NotFoundError, ValidationError } from '../../core/errors.js';
import type { ContentType } from '../../core/schema/model.js';
import type { ListedReleaseAction, ReleaseAction, ReleaseActionsPage } from './contract.js';
import { mainFieldOf, parseProblem, presentAction } from './present.js';
import type { Releases, ReleasesOptions } from './releases.js';
import {
  RELEASES_TABLE,
  RELEASE_ACTIONS_TABLE,
  type ReleaseActionRow,
  type ReleaseActionType,
  type ReleaseRow,
} from './tables.js';
import { pageParam, parseAction, parseActionUpdate, type ActionInput } from './validation.js';
import { actionValidity, type ActionValidity } from './validity.js';

type StoredRelease = Selectable<ReleaseRow>;
type StoredAction = Selectable<ReleaseActionRow>;

/** The validity of an action whose type the schema no longer has (removed at the next start). */
const missingType = (uid: string): ActionValidity => ({
  valid: false,
  problem: JSON.stringify({ message: `No content type ${uid}`, errors: [] }),
  checkedSchema: null,
});

/** Actions one bulk request adds at most (each is checked against the publish rules). */
const MAX_BULK = 100;
/** The largest page of actions one request reads. */
const MAX_PAGE_SIZE = 100;

export class ReleaseActions {
  private readonly database: Database;
  private readonly documents: DocumentService;

  constructor(
    options: ReleasesOptions,
    private readonly store: Releases,
  ) {
    this.database = options.database;
    this.documents = options.documents;
  }

  private releases(db: Db = this.database.db) {
    return shaped<ReleaseRow>(db);
  }

  private actionsOf(db: Db = this.database.db) {
    return shaped<ReleaseActionRow>(db);
  }

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

  private validity(type: ContentType, kind: ReleaseActionType, documentId: string | null, locale: string | null) {
    return actionValidity(this.documents, type, kind, documentId, locale);
  }

  /** Adds an action; `skipDuplicate`: an entry already in the release answers null (the bulk route) instead of the 400. */
  private async insertAction(
    release: StoredRelease,
    input: ActionInput,
    skipDuplicate: boolean,
    audited: Audited | undefined,
  ): Promise<StoredAction | null> {
    const { type, documentId, locale } = await this.target(input);
    const { valid, problem, checkedSchema } = await this.validity(type, input.type, documentId, locale);
    const id = await this.database.write(async (trx) => {
      // The release is read again in the transaction: a release published meanwhile takes no action.
      const current = await this.store.row(Number(release.id), trx);
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
        checked_schema: checkedSchema,
        created_at: now,
        updated_at: now,
      };
      const inserted = await this.database.dialect.insertReturningId(trx, RELEASE_ACTIONS_TABLE, values);
      await this.store.settleStatus(trx, Number(release.id));
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
    const release = await this.store.row(releaseId);
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
    const release = await this.store.row(releaseId);
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
    const { valid, problem, checkedSchema } = type
      ? await this.validity(type, kind, action.entry_document_id, action.locale)
      : missingType(action.content_type);
    await this.database.write(async (trx) => {
      await this.actionsOf(trx)
        .updateTable(RELEASE_ACTIONS_TABLE)
        .set({
          type: kind,
          is_entry_valid: valid ? 1 : 0,
          problem,
          checked_schema: checkedSchema,
          updated_at: Date.now(),
        })
        .where('id', '=', action.id)
        .execute();
      await this.store.settleStatus(trx, Number(release.id));
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
      await this.store.settleStatus(trx, Number(release.id));
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
    const changed: ({ id: number } & ActionValidity)[] = [];
    const result: StoredAction[] = [];
    for (const action of actions) {
      const type = this.documents.schema.contentTypes.get(action.content_type);
      const validity = type
        ? await this.validity(type, action.type, action.entry_document_id, action.locale)
        : missingType(action.content_type);
      const { valid, problem, checkedSchema } = validity;
      if (
        valid !== (Number(action.is_entry_valid) === 1) ||
        problem !== action.problem ||
        checkedSchema !== action.checked_schema
      )
        changed.push({ id: Number(action.id), ...validity });
      result.push({ ...action, is_entry_valid: valid ? 1 : 0, problem, checked_schema: checkedSchema });
    }
    if (changed.length > 0)
      await this.database.write(async (trx) => {
        for (const change of changed)
          await this.actionsOf(trx)
            .updateTable(RELEASE_ACTIONS_TABLE)
            .set({
              is_entry_valid: change.valid ? 1 : 0,
              problem: change.problem,
              checked_schema: change.checkedSchema,
            })
            .where('id', '=', change.id)
            .execute();
        await this.store.settleStatus(trx, releaseId);
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
    const release = await this.store.row(releaseId);
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
