/**
 * Opens a project for `vellum import` and `vellum export` (features/transfer): what a starting
 * node opens, without HTTP.
 */
import { loadProjectForCommand } from '../strapi/index.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveAuthConfig, startAuth } from '../features/users-permissions/index.js';
import { builtInTypes } from './built-ins.js';
import { commandDocuments } from './command-documents.js';
import { loadConfig, type LoadConfigOptions } from '../core/config/load.js';
import { connectDatabase } from '../core/database/connection.js';
import { createPasswords } from '../core/passwords.js';
import { loadProjectSchema } from '../core/schema/load.js';
import { resolveUploadConfig } from '../features/upload/index.js';
import { loadProvider } from '../features/upload/index.js';
import type { TransferProject } from '../features/transfer/index.js';
import { WebhookStore } from '../features/events/index.js';

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
  const passwords = createPasswords(config.server.passwords);
  const close = async () => {
    await passwords.close();
    await database.close();
  };
  try {
    const documents = await commandDocuments(database, schema, config, passwords);
    const auth = await startAuth(database, documents, config, authConfig);
    const upload = resolveUploadConfig(config);
    const provider = await loadProvider(upload, dir);
    const webhooks = new WebhookStore(database, config.server.webhooks.allowPrivateAddresses);
    return {
      dir,
      config,
      schema,
      database,
      documents,
      auth,
      upload,
      provider,
      webhooks: {
        list: () => webhooks.list(),
        create: async (webhook) => void (await webhooks.create(webhook)),
      },
      configuredLocales,
      rawSchema: rawSchemaOf(dir),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** A project's schema file of a model as written (built-in types: undefined). */
export const rawSchemaOf =
  (dir: string) =>
  (file: string): Record<string, unknown> | undefined =>
    file.startsWith('(built-in)')
      ? undefined
      : (JSON.parse(readFileSync(join(dir, file), 'utf8')) as Record<string, unknown>);
