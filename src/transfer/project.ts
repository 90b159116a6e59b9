/**
 * A project opened for an import or an export, without HTTP: its configuration, schema and
 * database (synchronised as a starting node synchronises it), the document service with the
 * stored locales, users-and-permissions, and the media library's storage provider.
 */
import { loadProjectForCommand } from '../strapi/index.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveAuthConfig, startAuth, type Auth } from '../auth/index.js';
import { builtInTypes, startLocales, systemTables } from '../built-ins.js';
import { loadConfig, type LoadConfigOptions, type VellumConfig } from '../config/load.js';
import { connectDatabase, type Database } from '../database/connection.js';
import { synchronizeSchema } from '../database/sync.js';
import { DocumentService } from '../documents/service.js';
import { loadProjectSchema } from '../schema/load.js';
import type { Schema } from '../schema/model.js';
import { resolveUploadConfig, type UploadConfig } from '../upload/config.js';
import { loadProvider, type UploadProvider } from '../upload/providers/index.js';

export interface TransferProject {
  dir: string;
  config: VellumConfig;
  schema: Schema;
  database: Database;
  documents: DocumentService;
  auth: Auth;
  upload: UploadConfig;
  provider: UploadProvider;
  /** The locales config/plugins lists. */
  configuredLocales: string[];
  /** The project's schema file of a model as written (built-in types: undefined). */
  rawSchema(file: string): Record<string, unknown> | undefined;
  close(): Promise<void>;
}

/** `options`: as `createVellum` takes them (environment, configuration overrides). */
export async function openProject(dir: string, options: LoadConfigOptions = {}): Promise<TransferProject> {
  const config = await loadConfig(dir, options);
  // Resolved before the database is opened, so that a weak secret stops the command first (as at start-up).
  const authConfig = resolveAuthConfig(config);
  const configuredLocales = [...config.i18n.locales];
  const { schema } = loadProjectSchema(dir, builtInTypes(dir));
  // Custom fields take the types the project's register gives them, as on a node.
  await loadProjectForCommand(config, schema, []);
  const database = await connectDatabase(config.database);
  try {
    await synchronizeSchema(database, schema, systemTables);
    const documents = new DocumentService({ database, schema, i18n: config.i18n, rest: config.api.rest });
    await startLocales(database, documents, config.i18n);
    const auth = await startAuth(database, documents, config, authConfig);
    const upload = resolveUploadConfig(config);
    const provider = await loadProvider(upload, dir);
    return {
      dir,
      config,
      schema,
      database,
      documents,
      auth,
      upload,
      provider,
      configuredLocales,
      rawSchema(file) {
        if (file.startsWith('(built-in)')) return undefined;
        return JSON.parse(readFileSync(join(dir, file), 'utf8')) as Record<string, unknown>;
      },
      close: () => database.close(),
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}
