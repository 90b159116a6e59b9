/**
 * Content history as the document service sees it: every write of a document version records one
 * version of history, inside the write's own transaction (features/history/ implements where). A
 * version holds what the write changed, not the whole document: `HistoryChange` below; the feature
 * folds a document's changes back into whole versions when it reads them.
 */
import type { Db } from '../database/dialect.js';

/** Strapi's statuses of a history version: the draft never published, equal to the published version, or edited since. */
export type HistoryStatus = 'draft' | 'published' | 'modified';

/**
 * What the write did to the content of one locale's draft (its only row without draft and publish):
 * `create` starts it again from `values` and `relations` (a new locale, a new document);
 * `update` changes the attributes `values` names and applies `relations`' changes; `publish` and
 * `unpublish` change nothing but the status; `discard` makes it the content last published.
 */
export type HistoryKind = 'create' | 'update' | 'publish' | 'unpublish' | 'discard';

/** A document a relation names: its documentId and, for a localized target, the locale asked (null: the writer's or the default). */
export interface HistoryRef {
  documentId: string;
  locale: string | null;
  /** `connect`'s position, by documentId: `start`, `end` (the default), or before/after another. */
  position?: { before: string } | { after: string } | { start: true };
}

/** A relation's change: `set` replaces the list; `connect` and `disconnect` edit it. */
export interface HistoryRelationChange {
  set?: HistoryRef[];
  connect?: HistoryRef[];
  disconnect?: HistoryRef[];
}

export interface HistoryChange {
  contentType: string;
  documentId: string;
  /** The version's locale (null for a type without i18n). */
  locale: string | null;
  status: HistoryStatus;
  kind: HistoryKind;
  /** The administrator writing (their `admin_users` id); null for project code, the content API and commands. */
  actor: number | null;
  /** Scalars, components, dynamic zones and media the write set, by attribute name, as the body gave them (validated). */
  values: Record<string, unknown>;
  /** The relations the write changed, by attribute name. */
  relations: Record<string, HistoryRelationChange>;
}

/** Where versions are recorded: called inside the write's own transaction, one INSERT. */
export interface HistoryLog {
  record(db: Db, change: HistoryChange): Promise<void>;
}
