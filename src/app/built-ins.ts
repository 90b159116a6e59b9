/**
 * What Vellum adds to every project's schema: the media library's file type and the
 * users-and-permissions types (a project may replace the user type as Strapi allows, with
 * `src/extensions/users-permissions/content-types/user/schema.json`), plus their system tables.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { authTables, roleType, userType } from '../features/users-permissions/index.js';
import { coreStoreTable } from '../core/database/store.js';
import { localesTable } from '../core/documents/service.js';
import type { TableSpec } from '../core/database/tables.js';
import { eventTables } from '../features/events/index.js';
import { tokenTables } from '../features/api-tokens/index.js';
import { auditTables } from '../features/audit/index.js';
import { historyTables } from '../features/history/index.js';
import { releaseTables } from '../features/releases/index.js';
import type { SyncSteps } from '../core/database/sync.js';
import type { DocumentService } from '../core/documents/service.js';
import { ProjectError } from '../core/errors.js';
import type { RawSchemaFile } from '../core/schema/build.js';
import { uploadFileType } from '../features/upload/index.js';

const USER_EXTENSION = 'src/extensions/users-permissions/content-types/user/schema.json';

export function builtInTypes(projectDir: string): RawSchemaFile[] {
  let user = userType;
  const extension = join(projectDir, USER_EXTENSION);
  if (existsSync(extension)) {
    try {
      user = { file: USER_EXTENSION, uid: userType.uid, json: JSON.parse(readFileSync(extension, 'utf8')) };
    } catch (error) {
      throw new ProjectError(`is not valid JSON: ${(error as Error).message}`, USER_EXTENSION);
    }
  }
  return [uploadFileType, uniqueEmail(user), roleType];
}

/**
 * Users' emails are unique, whatever the project's user schema says: registration and login
 * address users by email, and only a unique index keeps two concurrent registrations from both
 * taking one.
 */
function uniqueEmail(user: RawSchemaFile): RawSchemaFile {
  const json = user.json as { attributes?: Record<string, Record<string, unknown>> };
  const email = json.attributes?.email;
  if (!email || email.type !== 'email' || email.unique === true) return user;
  return { ...user, json: { ...json, attributes: { ...json.attributes, email: { ...email, unique: true } } } };
}

/** Tables that are not content-types: users-and-permissions', API tokens', Strapi's core store (`strapi.store`), the locales, webhooks, cron and schedules, the audit log, content history, releases. */
export const systemTables: TableSpec[] = [
  ...authTables,
  ...tokenTables,
  coreStoreTable,
  localesTable,
  ...eventTables,
  ...auditTables,
  ...historyTables,
  ...releaseTables,
];

/**
 * What the schema's synchronisation does for the documents, under its lock: reads the stored
 * locales, adding the configured ones, then moves the entries of types whose i18n was turned on
 * or off since the last start (before the unique indexes follow the schema).
 */
export function contentSyncSteps(
  documents: DocumentService,
  initial: { defaultLocale: string; locales: string[] },
): SyncSteps {
  const first = { defaultLocale: initial.defaultLocale, locales: [...initial.locales] };
  return {
    beforeUniques: async (db) => {
      await documents.locales.start(first, db);
      return documents.moveForLocalization(db);
    },
  };
}
