/**
 * The document service: the one entry point through which REST, GraphQL and project code read and
 * write documents. Each operation lives in its own module under operations/.
 */
import type { FindOneQuery, FindQuery, Status } from '../query/types.js';
import type { ContentType } from '../schema/model.js';
import type { CallerOptions, DocumentContext } from './context.js';
import { create } from './operations/create.js';
import { deleteDocument, deletionLocale } from './operations/delete.js';
import { findMany, type FindManyResult } from './operations/find-many.js';
import { findOne } from './operations/find-one.js';
import { discardDraft, publish, unpublish } from './operations/publication.js';
import { update } from './operations/update.js';
import type { Document } from './rows.js';

export interface ReadBack {
  /** What to show of the written document. */
  query: FindOneQuery;
  caller?: CallerOptions;
}

export class DocumentService {
  constructor(readonly ctx: DocumentContext) {}

  private localeOf(type: ContentType, locale: string): string | null {
    return type.localized ? locale : null;
  }

  /**
   * A text that changes with every committed write to the database, from any node; undefined when
   * the dialect has no such signal. Read it before a read and the read shows at least that state.
   */
  changeSignal(): Promise<string | undefined> {
    const { database } = this.ctx;
    return database.dialect.changeSignal ? database.dialect.changeSignal(database.db) : Promise.resolve(undefined);
  }

  findMany(type: ContentType, query: FindQuery, caller?: CallerOptions): Promise<FindManyResult> {
    return findMany(this.ctx, type, query, caller);
  }

  findOne(type: ContentType, documentId: string, query: FindOneQuery, caller?: CallerOptions): Promise<Document | null> {
    return findOne(this.ctx, type, documentId, query, caller);
  }

  /** The document of a single type. */
  findSingle(type: ContentType, query: FindOneQuery, caller?: CallerOptions): Promise<Document | null> {
    return findOne(this.ctx, type, null, query, caller);
  }

  /** Creates a document and reads it back in the version written. */
  async create(type: ContentType, data: Record<string, unknown>, back: ReadBack): Promise<Document> {
    const { status, locale } = back.query;
    const documentId = await create(this.ctx, type, data, { status, locale: this.localeOf(type, locale) });
    return (await this.findOne(type, documentId, back.query, back.caller))!;
  }

  async update(type: ContentType, documentId: string, data: Record<string, unknown>, back: ReadBack): Promise<Document> {
    const { status, locale } = back.query;
    await update(this.ctx, type, documentId, data, { status, locale: this.localeOf(type, locale) });
    return (await this.findOne(type, documentId, back.query, back.caller))!;
  }

  /** PUT on a single type: updates its document, or creates it the first time. */
  async upsertSingle(type: ContentType, data: Record<string, unknown>, back: ReadBack): Promise<Document> {
    const existing = await this.ctx.database.db.selectFrom(type.table).select('document_id').limit(1).executeTakeFirst();
    if (!existing) return this.create(type, data, back);
    return this.update(type, existing.document_id as string, data, back);
  }

  /**
   * Deletes the versions (draft and published) of one locale of a document, as Strapi 5: the
   * default locale when none is named, every locale with `*`. `status` draft is refused: a
   * draft alone cannot be deleted (discard it, or unpublish the published version).
   */
  delete(type: ContentType, documentId: string, locale?: unknown, status?: unknown): Promise<void> {
    return deleteDocument(this.ctx, type, documentId, deletionLocale(this.ctx, type, locale, status));
  }

  async deleteSingle(type: ContentType, locale?: unknown, status?: unknown): Promise<boolean> {
    const scope = deletionLocale(this.ctx, type, locale, status);
    const existing = await this.ctx.database.db.selectFrom(type.table).select('document_id').limit(1).executeTakeFirst();
    if (!existing) return false;
    await deleteDocument(this.ctx, type, existing.document_id as string, scope);
    return true;
  }

  async publish(type: ContentType, documentId: string, locale: string, back: ReadBack): Promise<Document | null> {
    await publish(this.ctx, type, documentId, this.localeOf(type, locale));
    return this.findOne(type, documentId, { ...back.query, status: 'published' as Status }, back.caller);
  }

  async unpublish(type: ContentType, documentId: string, locale: string, back: ReadBack): Promise<Document | null> {
    await unpublish(this.ctx, type, documentId, this.localeOf(type, locale));
    return this.findOne(type, documentId, { ...back.query, status: 'draft' }, back.caller);
  }

  async discardDraft(type: ContentType, documentId: string, locale: string, back: ReadBack): Promise<Document | null> {
    await discardDraft(this.ctx, type, documentId, this.localeOf(type, locale));
    return this.findOne(type, documentId, { ...back.query, status: 'draft' }, back.caller);
  }
}
