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
import { openAccess, type AccessControl } from './rest/access.js';
import { registerContentApi } from './rest/content-api.js';
import { ExtensionService, parseGraphqlConfig, registerGraphql, type UsersPermissionsHooks } from './graphql/index.js';
import { loadProjectCode, strapiFacade } from './project/code.js';
import { createHttpServer } from './rest/http.js';
import { registerI18nRoutes } from './rest/i18n.js';
import { loadProjectSchema } from './schema/load.js';
import type { Schema } from './schema/model.js';
import { builtInTypes } from './upload/file-type.js';

export interface Vellum {
  app: FastifyInstance;
  config: VellumConfig;
  schema: Schema;
  database: Database;
  documents: DocumentService;
  sync: SyncReport;
  /** Project code files present but not executed yet. */
  skippedCode: string[];
  /** Starts listening; returns the base URL. */
  listen(): Promise<string>;
  close(): Promise<void>;
}

export interface CreateVellumOptions extends LoadConfigOptions {
  access?: AccessControl;
  /** The users-permissions layer's GraphQL `register`, `login` and `me`. */
  usersPermissions?: UsersPermissionsHooks;
}

export async function createVellum(projectDir: string, options: CreateVellumOptions = {}): Promise<Vellum> {
  const config = await loadConfig(projectDir, options);
  const { schema, skippedCode } = loadProjectSchema(projectDir, builtInTypes);
  // Project code (src/index) registers its extensions before any API is built.
  const graphql = { config: parseGraphqlConfig(config.plugins, config.environment), extension: new ExtensionService() };
  const strapi = strapiFacade({ graphql: { extension: graphql.extension } }, { plugins: config.plugins });
  const projectCode = await loadProjectCode(config.projectDir);
  await projectCode?.register?.({ strapi });
  const database = openDatabase(config.database);
  let sync: SyncReport;
  try {
    sync = await synchronizeSchema(database, schema, config.database.client === 'postgres' ? config.database.schema : undefined);
  } catch (error) {
    await database.close();
    throw error;
  }
  const context: DocumentContext = { database, schema, rest: config.api.rest, i18n: config.i18n };
  const documents = new DocumentService(context);
  const app = createHttpServer(config);
  registerContentApi(app, { service: documents, context, access: options.access ?? openAccess, prefix: config.api.rest.prefix });
  registerI18nRoutes(app, config.api.rest.prefix, config.i18n);
  app.addHook('onClose', async () => database.close());
  try {
    await registerGraphql(app, { ...graphql, service: documents, context, access: options.access ?? openAccess, usersPermissions: options.usersPermissions, strapi });
    await projectCode?.bootstrap?.({ strapi });
  } catch (error) {
    await app.close();
    throw error;
  }

  return {
    app,
    config,
    schema,
    database,
    documents,
    sync,
    skippedCode,
    async listen() {
      const address = await app.listen({ host: config.server.host, port: config.server.port });
      return address.replace('0.0.0.0', '127.0.0.1').replace('[::]', '127.0.0.1');
    },
    close: () => app.close(),
  };
}
