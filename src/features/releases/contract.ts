/**
 * The releases' answers as the admin panel reads them (`/content-releases/...`, Strapi 5.54's
 * shapes; Vellum's additions are marked).
 */
export type ReleaseStatus = 'ready' | 'blocked' | 'failed' | 'done' | 'empty';
export type ReleaseActionType = 'publish' | 'unpublish';

export interface Release {
  id: number;
  documentId: string;
  name: string;
  releasedAt: string | null;
  scheduledAt: string | null;
  timezone: string | null;
  status: ReleaseStatus;
  createdAt: string;
  updatedAt: string;
  publishedAt: null;
  locale: null;
  /** Vellum: why the last publication failed (null unless `status` is failed). */
  failureReason: string | null;
}

/** `GET /content-releases`' items and `GET /content-releases/:id`'s `data`. */
export interface ReleaseWithCount extends Release {
  actions: { meta: { count: number } };
  createdBy?: Record<string, unknown> | null;
}

export interface ReleasePage {
  data: ReleaseWithCount[];
  meta: {
    pagination: { page: number; pageSize: number; pageCount: number; total: number };
    pendingReleasesCount: number;
  };
}

/** Vellum: why an entry may not be published, as the document service's publish would refuse it. */
export interface EntryProblem {
  message: string;
  errors: { path: (string | number)[]; message: string }[];
}

export interface ReleaseAction {
  id: number;
  documentId: string;
  type: ReleaseActionType;
  contentType: string;
  entryDocumentId: string | null;
  locale: string | null;
  isEntryValid: boolean;
  createdAt: string;
  updatedAt: string;
  publishedAt: null;
}

/** An action as `GET /content-releases/:id/actions` lists it. */
export interface ListedReleaseAction extends Omit<ReleaseAction, 'contentType' | 'locale'> {
  contentType: { displayName: string; mainFieldValue: unknown; uid: string };
  locale: { name: string; code: string } | null;
  entry: Record<string, unknown> | null;
  status: 'draft' | 'published' | 'modified' | null;
  /** Vellum: why the entry is not valid (null when it is). */
  problem: EntryProblem | null;
}

export interface ReleaseActionsPage {
  data: Record<string, ListedReleaseAction[]>;
  meta: {
    pagination: { page: number; pageSize: number; pageCount: number; total: number };
    contentTypes: Record<
      string,
      { uid: string; kind: string; info: { displayName: string; singularName: string; pluralName: string } }
    >;
    components: Record<string, never>;
  };
}

export interface PublishAnswer {
  data: Release;
  meta: { totalEntries: number; totalPublishedEntries: number; totalUnpublishedEntries: number };
}

/** `GET /content-releases/settings`' `data`: the time zone the create dialog starts with (null: the browser's). */
export interface ReleaseSettings {
  defaultTimezone: string | null;
}
