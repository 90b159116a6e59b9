/**
 * Releases (Strapi's content-releases, free): groups of publish and unpublish actions across
 * documents, types and locales, published all or nothing, once, by hand or at a time; their admin
 * API at `/content-releases`, their tables, and the leased job that publishes scheduled ones.
 */
import type { Database } from '../../core/database/connection.js';
import type { DocumentService, Outbox } from '../../core/documents/service.js';
import { ReleasePublisher, type ReleaseJob } from './publisher.js';
import { ReleaseActions } from './actions.js';
import { Releases } from './releases.js';
import { ReleaseSettingsStore } from './settings.js';

export { releaseTables } from './tables.js';
export {
  cancelSingleEntry,
  insertSingleEntry,
  listSingleEntries,
  readSingleEntry,
  type NewSingleEntry,
  type SingleEntry,
} from './single-entry.js';
/** The releases' admin routes, loaded with the admin API's first request (app/admin-api.ts). */
export const loadReleaseRoutes = async () => (await import('./routes.js')).registerReleaseRoutes;
export { releaseEntryDeletions } from './entry-deleted.js';
export { followSchemaChanges } from './schema-followed.js';
export type { Releases } from './releases.js';
export type { ReleaseSettingsStore } from './settings.js';
export type { ReleaseActions } from './actions.js';
export type { ReleasePublisher, ReleaseJob } from './publisher.js';

export interface ReleasesFeature {
  releases: Releases;
  actions: ReleaseActions;
  publisher: ReleasePublisher;
  /** `/content-releases/settings`: the default time zone of new releases. */
  settings: ReleaseSettingsStore;
  /** The leased job publishing scheduled releases, for the node's scheduler. */
  job: ReleaseJob;
}

export interface ReleasesFeatureOptions {
  database: Database;
  documents: DocumentService;
  /** Where `releases.publish` is recorded (the webhooks' store). */
  outbox?: Outbox;
  /** How often the scheduler looks for releases due (ms): `server.cron.scheduleInterval`. */
  interval: number;
  describeAdmin?: (id: number) => Promise<object | undefined>;
  log: (message: string, error?: unknown) => void;
}

export function createReleases(options: ReleasesFeatureOptions): ReleasesFeature {
  const releases = new Releases(options);
  const publisher = new ReleasePublisher(options.database, options.documents, releases, options.outbox, options.log);
  return {
    releases,
    actions: new ReleaseActions(options, releases),
    publisher,
    settings: new ReleaseSettingsStore(options.database),
    job: publisher.job(options.interval),
  };
}
