/**
 * Assembles a Vellum node: configuration, schema, database (synchronised under a lock), the
 * document service, and the HTTP server with its APIs.
 */
import type { FastifyInstance } from 'fastify';
import { loadConfig, type LoadConfigOptions, type VellumConfig } from './config/load.js';
import { openDatabase, type Database } from './database/connection.js';
import { synchronizeSchema, type SyncReport } from './database/sync.js';
import type { DocumentContext } from './documents/context.js';
import { DocumentService } from './documents/service.js';
import type { AccessControl } from './rest/access.js';
import { registerContentApi } from './rest/content-api.js';
import { createHttpServer } from './rest/http.js';
import { registerI18nRoutes } from './rest/i18n.js';
import { loadProjectSchema } from './schema/load.js';
import type { Schema } from './schema/model.js';
import { startAuth, type Auth } from './auth/index.js';
import { builtInTypes, systemTables } from './built-ins.js';
import { registerAdminRoutes } from './rest/admin.js';
import { registerSecurity } from './rest/security.js';
import { registerUsersPermissionsRoutes } from './rest/users-permissions.js';
import { registerUploadRoutes } from './upload/routes.js';

export interface Vellum {
  app: FastifyInstance;
  config: VellumConfig;
  schema: Schema;
  database: Database;
  documents: DocumentService;
  auth: Auth;
  sync: SyncReport;
  /** Project code files present but not executed yet. */
  skippedCode: string[];
  /** Starts listening; returns the base URL. */
  listen(): Promise<string>;
  close(): Promise<void>;
}

export interface CreateVellumOptions extends LoadConfigOptions {
  /** Replaces users-and-permissions as the content API's access control (embedding, tests). */
  access?: AccessControl;
}

export async function createVellum(projectDir: string, options: CreateVellumOptions = {}): Promise<Vellum> {
  const config = await loadConfig(projectDir, options);
  const { schema, skippedCode } = loadProjectSchema(projectDir, builtInTypes(projectDir));
  const database = openDatabase(config.database);
  const context: DocumentContext = { database, schema, rest: config.api.rest, i18n: config.i18n };
  const documents = new DocumentService(context);
  let sync: SyncReport;
  let auth: Auth;
  try {
    sync = await synchronizeSchema(database, schema, config.database.client === 'postgres' ? config.database.schema : undefined, systemTables);
    auth = await startAuth(context, documents, config);
  } catch (error) {
    await database.close();
    throw error;
  }
  const access = options.access ?? auth.access;
  const prefix = config.api.rest.prefix;
  const app = createHttpServer(config);
  await registerSecurity(app, config.middlewares);
  registerContentApi(app, { service: documents, context, access, prefix });
  registerI18nRoutes(app, prefix, config.i18n);
  registerUsersPermissionsRoutes(app, { auth, service: documents, context, prefix });
  registerAdminRoutes(app, auth);
  app.addHook('onClose', async () => database.close());
  await registerUploadRoutes(app, { documents, access, config }).catch(async (error: unknown) => {
    await app.close();
    throw error;
  });

  return {
    app,
    config,
    schema,
    database,
    documents,
    auth,
    sync,
    skippedCode,
    async listen() {
      const address = await app.listen({ host: config.server.host, port: config.server.port });
      return address.replace('0.0.0.0', '127.0.0.1').replace('[::]', '127.0.0.1');
    },
    close: () => app.close(),
  };
}
