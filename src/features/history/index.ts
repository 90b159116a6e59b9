/**
 * Content history: every write of a document of the project's types records a version in its own
 * transaction (core/documents/history-port.ts is what this feature implements: one INSERT, holding
 * what changed), listed and restored by Strapi's admin API (`/content-manager/history-versions`),
 * by project code (`strapi.plugin('content-manager').service('history')`), and trimmed by a leased
 * retention job (`config/admin` `history.retentionDays`, `history.maxVersionsPerDocument`).
 */
import type { Database } from '../../core/database/connection.js';
import type { DocumentService } from '../../core/documents/service.js';
import { sharedNames } from './fold.js';
import { HistoryRetention, type HistoryJob, type HistorySettings } from './retention.js';
import { HistoryService, type FindAuthors } from './service.js';

export { historyTables } from './tables.js';
export { HistoryStore } from './store.js';
export { HistoryService, projectHistoryApi, type FindAuthors } from './service.js';
export {
  HistoryRetention,
  historySettings,
  type ChainKey,
  type HistoryJob,
  type HistorySettings,
} from './retention.js';
export type { HistoryPermit } from './routes.js';
/** The history's admin routes, loaded with the admin API's first request (app/admin-api.ts). */
export const loadHistoryRoutes = async () => (await import('./routes.js')).registerHistoryRoutes;
export type { HistoryAuthor, HistoryVersion, HistoryVersionsPage, MissingRelation } from './contract.js';

export interface History {
  service: HistoryService;
  retention: HistoryRetention;
  job: HistoryJob;
}

/** The reads, restore and retention of a node (the store is given to the document service before it exists: `HistoryStore`). */
export function createHistory(
  database: Database,
  documents: DocumentService,
  settings: HistorySettings,
  authors: FindAuthors,
): History {
  const retention = new HistoryRetention(database, settings, {
    shared: (uid) => {
      const type = documents.schema.contentTypes.get(uid);
      return type ? sharedNames(type) : new Set();
    },
  });
  return { service: new HistoryService(database, documents, authors), retention, job: retention.job() };
}
