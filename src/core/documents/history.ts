/**
 * The history versions of document writes, recorded in the write's own transaction through the log
 * features/history/ implements (history-port.ts): one INSERT per write, whatever the document's
 * size, and nothing read for it. A version holds what the write changed, from what the write
 * already has in hand: the validated body (scalars, components, zones, media, relation changes)
 * and, for an edit, the row before it (which the update reads anyway: its scalar columns too when
 * history is on, by the same statement): scalars the body repeats unchanged are left out, so an editor that sends the whole form
 * stores only what moved. Passwords are never recorded.
 *
 * As Strapi's content history, only the project's own types (`api::`) are recorded, and a version
 * is the content of one locale's draft (the only row without draft and publish) after the write,
 * with its status: `draft` (never published), `published` (as published), `modified` (edited since).
 */
import type { Db } from '../database/dialect.js';
import type { ContentType } from '../schema/model.js';
import type { CallerOptions, DocumentContext } from './context.js';
import type {
  HistoryChange,
  HistoryKind,
  HistoryLog,
  HistoryRef,
  HistoryRelationChange,
  HistoryStatus,
} from './history-port.js';
import type { ModelInput, RelationRef } from './input.js';

export type {
  HistoryChange,
  HistoryKind,
  HistoryLog,
  HistoryRef,
  HistoryRelationChange,
  HistoryStatus,
} from './history-port.js';

/** A scalar as compared with the row before: equal texts, equal values (a false difference only stores a value again). */
function comparable(value: unknown): string {
  if (value === undefined || value === null) return 'null';
  if (value instanceof Date) return value.toISOString();
  if (Buffer.isBuffer(value)) return value.toString('base64');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function refsOf(refs: RelationRef[] | undefined): HistoryRef[] | undefined {
  if (!refs) return undefined;
  return refs
    .filter((ref) => ref.documentId !== '')
    .map((ref) => {
      const out: HistoryRef = { documentId: ref.documentId, locale: ref.locale ?? null };
      const position = ref.position;
      if (position && 'start' in position) out.position = { start: true };
      else if (position && 'before' in position && typeof position.before === 'string')
        out.position = { before: position.before };
      else if (position && 'after' in position && typeof position.after === 'string')
        out.position = { after: position.after };
      return out;
    });
}

/** The versions one facade call records (built per call: who writes). */
export class DocumentHistory {
  private constructor(
    private readonly log: HistoryLog,
    private readonly type: ContentType,
    private readonly actor: number | null,
  ) {}

  /** The history of a write by `caller` to `type`: the project's types only, when a log is configured. */
  static of(ctx: DocumentContext, type: ContentType, caller?: CallerOptions): DocumentHistory | undefined {
    if (!ctx.history || !type.uid.startsWith('api::')) return undefined;
    return new DocumentHistory(ctx.history, type, caller?.actor ?? null);
  }

  /** A status for a write that leaves the draft `published` (as published) or not, with or without a published version. */
  status(publishedNow: boolean, hasPublished: boolean): HistoryStatus {
    if (!this.type.draftAndPublish || publishedNow) return 'published';
    return hasPublished ? 'modified' : 'draft';
  }

  /**
   * A body written: `previous` is the row it edits (all its columns), none for a new version (the
   * type's defaults then count as set, but for the shared attributes a new locale of an existing
   * document takes from the others: `newLocale`). `data` is the body as given (components and
   * zones are recorded as it gave them).
   */
  async wrote(
    db: Db,
    documentId: string,
    locale: string | null,
    status: HistoryStatus,
    input: ModelInput,
    data: Record<string, unknown>,
    previous?: Record<string, unknown>,
    newLocale = false,
  ): Promise<void> {
    const values: Record<string, unknown> = {};
    const given = new Map([...input.scalars].map(([attribute, value]) => [attribute.name, value]));
    for (const attribute of Object.values(this.type.attributes)) {
      if (attribute.kind !== 'scalar' || attribute.type === 'password') continue;
      if (!given.has(attribute.name)) {
        if (!previous && attribute.default !== undefined && !(newLocale && !attribute.localized))
          values[attribute.name] = attribute.default;
        continue;
      }
      const value = given.get(attribute.name);
      if (previous && comparable(previous[attribute.column]) === comparable(value)) continue;
      values[attribute.name] = value ?? null;
    }
    for (const attribute of input.components.keys()) values[attribute.name] = data[attribute.name] ?? null;
    for (const attribute of input.zones.keys()) values[attribute.name] = data[attribute.name] ?? [];
    for (const [attribute, ids] of input.media) values[attribute.name] = ids;
    const relations: Record<string, HistoryRelationChange> = {};
    for (const [attribute, change] of input.relations) {
      const recorded: HistoryRelationChange = {};
      const set = refsOf(change.set);
      const connect = refsOf(change.connect);
      const disconnect = refsOf(change.disconnect);
      if (set) recorded.set = set;
      if (connect?.length) recorded.connect = connect;
      if (disconnect?.length) recorded.disconnect = disconnect;
      if (Object.keys(recorded).length) relations[attribute.name] = recorded;
    }
    await this.record(db, previous ? 'update' : 'create', documentId, locale, status, values, relations);
  }

  /** A publication change or a discarded draft: the status moves, the content stays or becomes the published one. */
  async moved(
    db: Db,
    kind: 'publish' | 'unpublish' | 'discard',
    documentId: string,
    locale: string | null,
  ): Promise<void> {
    const status: HistoryStatus = kind === 'unpublish' ? 'draft' : 'published';
    await this.record(db, kind, documentId, locale, status, {}, {});
  }

  private async record(
    db: Db,
    kind: HistoryKind,
    documentId: string,
    locale: string | null,
    status: HistoryStatus,
    values: Record<string, unknown>,
    relations: Record<string, HistoryRelationChange>,
  ): Promise<void> {
    const change: HistoryChange = {
      contentType: this.type.uid,
      documentId,
      locale: this.type.localized ? locale : null,
      status,
      kind,
      actor: this.actor,
      values,
      relations,
    };
    await this.log.record(db, change);
  }
}
