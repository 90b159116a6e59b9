/**
 * The document service: the one entry point through which REST, GraphQL, upload, users and roles,
 * the CLI and project code read and write documents. `of(type)` hands out the documents of one
 * content-type (type-documents.ts), which parse raw parameters, run the operation and read the
 * result back; each operation lives in its own module under operations/. `files` is the media
 * library's access to its rows and links. Nothing outside core/documents/ builds a typed query or
 * touches the operations.
 */
import type { RestConfig } from '../config/load.js';
import { moveForLocalization, type LocalizationMoves } from './localization-moves.js';
import { readChangeVersions, type ChangeVersions } from '../database/changes.js';
import type { Database } from '../database/connection.js';
import type { Db } from '../database/dialect.js';
import { NotFoundError } from '../errors.js';
import type { Passwords } from '../passwords.js';
import { FILE_UID, type ContentType, type Schema } from '../schema/model.js';
import { DocumentAudit, type AuditTrail } from './audit.js';
import type { HistoryLog } from './history-port.js';
import type { DeletionListener } from './deletion-port.js';
import type { CallerOptions, DocumentContext } from './context.js';
import {
  assertLinkable,
  deleteFileRow,
  findFileRow,
  linkFiles,
  resolveLinkTarget,
  type LinkPermission,
  type LinkRequest,
  type LinkTarget,
  type StoredFileRow,
} from './operations/files.js';
import { QueryEngine } from './engine/index.js';
import { CORE_STORE_UID, coreStoreModel, tableAdapter } from './engine/table.js';
import { NO_LIFECYCLES, type CallHooks, type LifecycleHooks } from './hooks.js';
import { Locales } from './locales.js';
import { RawRows } from './raw-rows.js';
import { TypeDocuments } from './type-documents.js';
import { WriteEvents, type Outbox } from './outbox.js';

export type { CallerOptions } from './context.js';
export type { DeletedEntry, DeletionListener } from './deletion-port.js';
export { auditCaller, recordAudit, type Audited, type AuditEntry, type AuditTrail } from './audit.js';
export type {
  HistoryChange,
  HistoryKind,
  HistoryLog,
  HistoryRef,
  HistoryRelationChange,
  HistoryStatus,
} from './history-port.js';
export type { Document } from './rows.js';
export type { DocumentParams, FindManyResult, TypeDocuments, WriteParams } from './type-documents.js';
export type { LinkPermission, LinkRequest, LinkTarget, StoredFileRow } from './operations/files.js';
export {
  LIFECYCLE_ACTIONS,
  type CallHooks,
  type LifecycleAction,
  type LifecycleHooks,
  type LifecycleStates,
} from './hooks.js';
export { QueryEngine, type ModelAdapter, type QueryParams, type RowRepository } from './engine/index.js';
export { ReadBudget } from './read/budget.js';
export { WEBHOOK_EVENTS, type Outbox, type RecordedEvent, type Subscribers, type WebhookEvent } from './outbox.js';
export { Locales, localesTable, type LocaleInfo } from './locales.js';
export type {
  DumpedRow,
  MediaLinkInput,
  RawReader,
  RawRows,
  RawVersion,
  RawWriter,
  RelationLinkInput,
  RestoreSink,
} from './raw-rows.js';

export interface DocumentServiceOptions {
  database: Database;
  schema: Schema;
  i18n: { defaultLocale: string; locales: string[] };
  /** `api.rest`: the default page size, the largest, and whether lists count by default. */
  rest: RestConfig;
  /** Called around reads and writes of rows (Strapi's database lifecycles); none when not given (copies of the service share them). */
  lifecycles?: LifecycleHooks;
  /** Wrapped around each call of the facade (Strapi's Document Service middlewares); none when not given. */
  middlewares?: CallHooks;
  /** Where writes record their webhook events (features/events/); none when not given. */
  outbox?: Outbox;
  /** Where administrators' writes (`CallerOptions.actor`) record their audit entries (features/audit/); none when not given. */
  audit?: AuditTrail;
  /** Where writes of the project's types record their history versions (features/history/); none when not given. */
  history?: HistoryLog;
  /** What goes with a deleted document, in its transaction (features/releases/: the entry's release actions); nothing when not given. */
  deletions?: DeletionListener;
  /** The node's password hashing (`password` attributes; users-permissions' accounts and administrators use it too). */
  passwords: Passwords;
}

/** The media library's rows (`plugin::upload.file`) beyond its documents: ids, links, deletion. */
export interface MediaFiles {
  /** The stored row of a file by numeric id (what storage needs to delete it), or null. */
  row(id: number): Promise<StoredFileRow | null>;
  /**
   * Checks where an upload is to be linked (`ref`, `refId`, `field`) before anything is stored;
   * `mayLink` is asked for the content-type of the document linked into.
   */
  linkTarget(request: LinkRequest, mayLink: LinkPermission): Promise<LinkTarget>;
  /** Refuses a file its target attribute's `allowedTypes` do not accept. */
  assertLinkable(target: LinkTarget, fileName: string, mime: string): void;
  link(target: LinkTarget, fileIds: number[]): Promise<void>;
  /** Deletes a file's row and every link to it, in one transaction (audited when `caller` names an administrator). */
  delete(id: number, caller?: CallerOptions): Promise<void>;
}

export class DocumentService {
  readonly schema: Schema;
  readonly i18n: { defaultLocale: string; locales: string[] };
  readonly files: MediaFiles;
  /** The query engine (`strapi.db.query(uid)`): rows, not documents. */
  readonly engine: QueryEngine;
  /** The stored locales (`start` them once the tables exist); they keep `i18n` up to date. */
  readonly locales: Locales;
  /**
   * Rows as stored, for `vellum import` and `vellum export` only (documentIds, timestamps and
   * password hashes kept; no validation, no events). No API reaches it.
   */
  readonly raw: RawRows;
  /** Where administrators' changes are recorded (the services beside the documents record theirs there too); none when not given. */
  readonly audit?: AuditTrail;
  /** The node's password hashing, the one its writes of `password` attributes use. */
  readonly passwords: Passwords;
  private readonly ctx: DocumentContext;
  private readonly types = new Map<ContentType, TypeDocuments>();
  private readonly options: DocumentServiceOptions;

  constructor(options: DocumentServiceOptions) {
    const { database, schema, i18n } = options;
    this.options = options;
    this.locales = new Locales(database, i18n);
    this.ctx = {
      database,
      schema,
      i18n,
      lifecycles: options.lifecycles,
      middlewares: options.middlewares,
      locales: this.locales,
      outbox: options.outbox,
      audit: options.audit,
      history: options.history,
      deletions: options.deletions,
      passwords: options.passwords,
    };
    this.engine = new QueryEngine({ ...this.ctx, lifecycles: options.lifecycles ?? NO_LIFECYCLES });
    this.engine.register(CORE_STORE_UID, tableAdapter(database, schema, coreStoreModel));
    this.raw = new RawRows(this.ctx);
    this.schema = schema;
    this.i18n = i18n;
    this.audit = options.audit;
    this.passwords = options.passwords;
    const ctx = this.ctx;
    this.files = {
      row: (id) => findFileRow(ctx, id),
      linkTarget: (request, mayLink) => resolveLinkTarget(ctx, request, mayLink),
      assertLinkable,
      link: (target, fileIds) => linkFiles(ctx, target, fileIds),
      delete: async (id, caller) => {
        const file = schema.contentTypes.get(FILE_UID);
        const outbox = file ? WriteEvents.of(ctx, file) : undefined;
        await deleteFileRow(ctx, id, outbox, file ? DocumentAudit.of(ctx, file, caller) : undefined);
        if (outbox?.recorded) ctx.outbox?.committed();
      },
    };
  }

  /** The documents of one content-type, by type or uid (an unknown uid is a NotFoundError). */
  of(typeOrUid: ContentType | string): TypeDocuments {
    const type = typeof typeOrUid === 'string' ? this.schema.contentTypes.get(typeOrUid) : typeOrUid;
    if (!type) throw new NotFoundError(`No content-type ${JSON.stringify(typeOrUid)}`, { uid: typeOrUid });
    let documents = this.types.get(type);
    if (!documents) this.types.set(type, (documents = new TypeDocuments(this.ctx, type, this.options.rest)));
    return documents;
  }

  /**
   * The same service with other page limits (GraphQL's `amountLimit`): `pagination` defaults to
   * `defaultLimit` and is capped at `maxLimit`. Build it once, not per request.
   */
  withPageLimits(limits: { defaultLimit: number; maxLimit: number }): DocumentService {
    return new DocumentService({ ...this.options, rest: { ...this.options.rest, ...limits } });
  }

  /**
   * The service on a connection the caller already holds exclusively, for start-up work under the
   * schema lock (`withSchemaLock`): reads and writes run on `db`, writes without a transaction of
   * their own (on SQLite they are inside the lock's transaction). Only for writes of single rows:
   * elsewhere a write needs its own transaction and retry (`Database.write`).
   */
  underLock(db: Db): DocumentService {
    const database: Database = { ...this.options.database, db, write: (fn) => fn(db) };
    return new DocumentService({ ...this.options, database });
  }

  /**
   * Under the schema lock, once the tables exist and the locales are read: moves the entries of
   * the types whose i18n was turned on or off since the last start, as Strapi 5.54 does
   * (localization-moves.ts).
   */
  moveForLocalization(db: Db): Promise<LocalizationMoves> {
    return moveForLocalization(this.ctx, db);
  }

  /**
   * The change counters of every group (core/database/changes.ts), in one statement, from any node's
   * committed writes. Read them before a read and the read shows at least what they count.
   */
  changeVersions(): Promise<ChangeVersions> {
    return readChangeVersions(this.ctx.database.db);
  }
}
