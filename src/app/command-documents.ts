/**
 * The document service of a command that opens a project's database without serving it (`vellum
 * admin ...`, `token`, `user`, `import`, `export`): the schema synchronised first and the locales
 * started, as on a starting node, with no HTTP feature's hooks (webhooks, audit, history).
 */
import type { VellumConfig } from '../core/config/load.js';
import type { Database } from '../core/database/connection.js';
import { synchronizeSchema } from '../core/database/sync.js';
import { DocumentService } from '../core/documents/service.js';
import type { Passwords } from '../core/passwords.js';
import type { Schema } from '../core/schema/model.js';
import { releaseEntryDeletions } from '../features/releases/index.js';
import { contentSyncSteps, systemTables } from './built-ins.js';

export async function commandDocuments(
  database: Database,
  schema: Schema,
  config: VellumConfig,
  passwords: Passwords,
): Promise<DocumentService> {
  const documents = new DocumentService({
    database,
    schema,
    i18n: config.i18n,
    rest: config.api.rest,
    // A deletion (an import's removal of versions included) takes their entries out of releases.
    deletions: releaseEntryDeletions,
    passwords,
  });
  // The locales are read, and a type whose i18n changed has its entries moved, under its lock.
  await synchronizeSchema(database, schema, systemTables, contentSyncSteps(documents, config.i18n));
  return documents;
}
