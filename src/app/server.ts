/**
 * Assembles a Vellum node: configuration, schema, database (synchronised under a lock), the
 * document service, and the HTTP server with its APIs.
 */
import type { FastifyInstance, FastifyServerFactoryHandler } from 'fastify';
import { loadConfig, type LoadConfigOptions, type VellumConfig } from '../core/config/load.js';
import { declaredStrapiMajor } from '../core/config/package.js';
import { connectDatabase, type Database } from '../core/database/connection.js';
import { checkSchemaChange, synchronizeSchema, type SyncReport } from '../core/database/sync.js';
import { DocumentService } from '../core/documents/service.js';
import { createPasswords } from '../core/passwords.js';
import { coreStore } from '../core/database/store.js';
import { pluginServices } from '../strapi/plugin-services.js';
import type { AccessControl } from '../api/access.js';
import { registerContentApi } from '../features/content/index.js';
import { ResponseCache } from '../api/response-cache.js';
import {
  ExtensionService,
  parseGraphqlConfig,
  registerGraphql,
  type NamedHandlers,
} from '../features/graphql/index.js';
import {
  loadProject,
  ProjectDocuments,
  provideStrapiModules,
  type DocumentMiddlewares,
  type Lifecycles,
} from '../strapi/index.js';
import { createHttpServer, registeredRoutes, requestIds, type HttpServerOptions } from '../api/http.js';
import { registerI18nAdminRoutes, registerI18nRoutes } from '../features/i18n/index.js';
import { resolveCustomFields } from '../core/schema/build.js';
import { loadProjectSchema } from '../core/schema/load.js';
import type { Schema } from '../core/schema/model.js';
import {
  resolveAuthConfig,
  startAuth,
  loadUsersPermissionsGraphql,
  type Auth,
} from '../features/users-permissions/index.js';
import { mediaGrantWarning } from '../features/users-permissions/index.js';
import { startEmail, type EmailService } from '../features/email/index.js';
import { builtInTypes, contentSyncSteps, systemTables } from './built-ins.js';
import { loadAdminApi, withPreviewFrames } from '../features/admin/index.js';
import {
  loadContentTypeBuilderRoutes,
  registerContentTypeBuilderContentApi,
} from '../features/content-type-builder/index.js';
import { LazyAdminApi, underAdminApi } from './admin-api.js';
import { openApiDocument, openApiInput, openApiServed, registerOpenApiRoutes } from '../features/openapi/index.js';
import { registerSecurity } from '../api/security.js';
import { registerUsersPermissionsRoutes, usersPathTaken } from '../features/users-permissions/index.js';
import { contentApiActions, registerUsersRolesRoutes } from '../features/users-permissions/index.js';
import { registerUploadRoutes, type UploadRoutes } from '../features/upload/index.js';
import { registerEmailRoutes } from '../features/email/index.js';
import { adminAuthors, adminIdentity } from '../features/users-permissions/index.js';
import {
  createHistory,
  historySettings,
  type History,
  HistoryStore,
  loadHistoryRoutes,
  projectHistoryApi,
} from '../features/history/index.js';
import { historyPermit } from './history-permit.js';
import { createAudit, loadAuditRoutes, retentionDays, type Audit } from '../features/audit/index.js';
import {
  createReleases,
  loadReleaseRoutes,
  releaseEntryDeletions,
  followSchemaChanges,
  type ReleasesFeature,
} from '../features/releases/index.js';
import {
  addConfiguredTasks,
  createEvents,
  CronService,
  WebhookStore,
  type NodeEvents,
} from '../features/events/index.js';

export interface Vellum {
  app: FastifyInstance;
  config: VellumConfig;
  schema: Schema;
  database: Database;
  documents: DocumentService;
  /** Database lifecycles (`strapi.db.lifecycles`), which the document service calls. */
  lifecycles: Lifecycles;
  /** Document Service middlewares (`strapi.documents.use`), around each call of the document service. */
  documentMiddlewares: DocumentMiddlewares;
  auth: Auth;
  /** Webhooks (`/admin/webhooks`), the documents' outbox. */
  webhooks: WebhookStore;
  /** `strapi.cron`: the project's cron jobs. */
  cron: CronService;
  /** This node's webhook delivery, leased jobs and scheduled actions. */
  events: NodeEvents;
  /** `strapi.plugin('email').service('email')`: the configured provider. */
  email: EmailService;
  /** The audit log: administrators' changes, recorded in their transactions (`/admin/audit-logs`). */
  audit: Audit;
  /** Content history: versions of every write (`/content-manager/history-versions`). */
  history: History;
  /** Releases (`/content-releases`): their service, their publisher. */
  releases: ReleasesFeature;
  sync: SyncReport;
  /** Project code files present but not run (each also named in `warnings`). */
  skippedCode: string[];
  /** What the project asks for that Vellum does not honour, one line each (the CLI prints them). */
  warnings: string[];
  /** The project's registered policies and middlewares by name (`vellum policies:list`, `middlewares:list`). */
  registered: { policies(): string[]; middlewares(): string[] };
  /** The GraphQL playground's path when this node serves it (outside production by default), else undefined. */
  playgroundPath?: string;
  /** Starts listening; returns the base URL. */
  listen(): Promise<string>;
  close(): Promise<void>;
}

export interface CreateVellumOptions extends LoadConfigOptions {
  /** Replaces users-and-permissions as the content API's access control (embedding, tests). */
  access?: AccessControl;
  /** Where the admin panel's build is (default dist/admin/ of Vellum's package). */
  adminPanelDir?: string;
  /** Served through another server (`vellum develop`): gets the request handler; `listen` is not used. */
  handlerOf?: HttpServerOptions['handlerOf'];
  /**
   * Under `vellum develop`: serves the project's next version once these files (relative to the
   * project) have changed. Its presence is Strapi's `autoReload`: the Content-Type Builder writes.
   */
  reload?: (files: string[]) => Promise<void>;
  /** Under `vellum develop`: a change of the project's files waits to be served. */
  reloadPending?: () => boolean;
  /**
   * Registers the admin API's routes with the others at start (`vellum routes:list` lists them),
   * instead of with its first request (app/admin-api.ts).
   */
  adminApiAtStart?: boolean;
}

/**
 * Strapi's `server.absoluteUrl`: `server.url` when absolute, else `http://host:port` and that path,
 * with the port the server listens on (an ephemeral port too) and `localhost` for a wildcard host.
 */
function absoluteServerUrl(config: VellumConfig, app?: FastifyInstance): string {
  const { url, host, port } = config.server;
  if (/^https?:\/\//.test(url)) return url.replace(/\/+$/, '');
  const address = app?.server.address();
  const listening = address && typeof address === 'object' ? address.port : port;
  const hostname = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${hostname}:${listening}${url.replace(/\/+$/, '')}`;
}

export async function createVellum(projectDir: string, options: CreateVellumOptions = {}): Promise<Vellum> {
  // Before any project file runs (config files too): `@strapi/strapi` and `@strapi/utils` are Vellum's.
  provideStrapiModules();
  const config = await loadConfig(projectDir, options);
  // The email provider loads at start-up, as Strapi's bootstrap loads it: a missing one stops here.
  const email = await startEmail(config);
  // The locales config/plugins lists (the stored list may grow beyond them at run time).
  const configuredLocales = [...config.i18n.locales];
  const { schema, warnings } = loadProjectSchema(projectDir, builtInTypes(projectDir));
  if (usersPathTaken(schema)) {
    const type = schema.byPluralName.get('users')!;
    warnings.push(
      `${type.file}: ${type.uid} is served at /users, in place of users-permissions' /users, /users/me, /users/count and /users/:id (as in Strapi)`,
    );
  }
  // Project code (src/index) registers its extensions before any API is built.
  const graphql = {
    config: parseGraphqlConfig(config.plugins, config.environment, declaredStrapiMajor(config.projectDir)),
    extension: new ExtensionService(),
  };
  // Plugin services project code asks for: GraphQL's from the start, the others once the node runs.
  const plugins = { graphql: { extension: graphql.extension } };
  const project = await loadProject(config, schema, plugins, warnings);
  // `strapi.cron` from register on; `config/server` `cron.tasks` checked before anything starts.
  const log = (message: string, error?: unknown) =>
    console.error(`[vellum] ${message}`, ...(error === undefined ? [] : [error]));
  const cron = new CronService(log);
  addConfiguredTasks(cron, config);
  project.strapi.cron = cron.api();
  // GraphQL's resolversConfig names the project's policies and middlewares, as its routes do.
  graphql.extension.named = project.named as unknown as NamedHandlers;
  await project.run('register');
  // As Strapi swaps each customField for the type its registration names, once register has run.
  resolveCustomFields(
    schema,
    (uid) => project.customFields.typeOf(uid),
    (message) => warnings.push(message),
  );
  // Secrets are checked before the database is touched: a weak one in production stops start-up here.
  const authConfig = resolveAuthConfig(config);
  warnings.push(...authConfig.warnings);
  const auditDays = retentionDays(config.admin);
  const historyConfig = historySettings(config.admin);
  const database = await connectDatabase(config.database);
  // One per node: every password it stores or checks (its thread starts at the first hash).
  const passwords = createPasswords(config.server.passwords);
  // The lifecycles and Document Service middlewares project code registers (empty without it).
  // Writes record their webhook events in their transaction (the webhook store is the outbox).
  const webhooks = new WebhookStore(database, config.server.webhooks.allowPrivateAddresses);
  // Administrators' writes record their audit entries in their transaction too.
  const audit = createAudit(database, auditDays, adminIdentity);
  const documents = new DocumentService({
    database,
    schema,
    i18n: config.i18n,
    rest: config.api.rest,
    lifecycles: project.lifecycles,
    middlewares: project.middlewares,
    outbox: webhooks,
    audit: audit.log,
    // Every write of the project's types records its history version in its transaction.
    history: new HistoryStore(),
    // A deleted entry leaves the releases it was in, in its transaction.
    deletions: releaseEntryDeletions,
    passwords,
  });
  const history = createHistory(database, documents, historyConfig, (ids) => adminAuthors(database.db, ids));
  const events = createEvents({ database, config, documents, webhooks, cron, log });
  events.scheduler.add(audit.job);
  events.scheduler.add(history.job);
  const releases = createReleases({
    database,
    documents,
    outbox: webhooks,
    interval: config.server.cron.scheduleInterval,
    describeAdmin: (id) => auth.admins.find(id),
    log,
  });
  events.scheduler.add(releases.job);
  let sync: SyncReport;
  let auth: Auth;
  // Links in emails name the server: known once it listens (an ephemeral port in tests).
  let serverUrl = () => absoluteServerUrl(config);
  try {
    // The locales are read, and a type whose i18n changed has its entries moved, under its lock.
    sync = await synchronizeSchema(database, schema, systemTables, contentSyncSteps(documents, config.i18n));
    // Releases follow the schema: actions of a type deleted or without draft and publish leave,
    // locales follow i18n turned on or off, a changed type's actions are checked again.
    await followSchemaChanges(database, documents);
    // Scheduled actions of earlier Vellums become one-entry releases.
    await events.schedules.migrate();
    auth = await startAuth(
      database,
      documents,
      config,
      authConfig,
      { actions: project.actions, routed: project.routed },
      { email, serverUrl: () => serverUrl() },
    );
  } catch (error) {
    await passwords.close();
    await database.close();
    throw error;
  }
  // Project routes fill `ctx.state` themselves; Vellum's own routes through the seam, when project code reads it.
  const projectAccess = options.access ?? auth.access;
  // Users-permissions' content-API actions: Vellum's routes and the plugin project code extends call them.
  const upActions = contentApiActions(auth, documents);
  project.start({
    documents: new ProjectDocuments(documents),
    access: projectAccess,
    auth,
    usersPermissions: upActions,
  });
  const access = project.describingAccess(projectAccess);
  const prefix = config.api.rest.prefix;
  // The admin API's routes are registered with its first request, on an instance of its own
  // (app/admin-api.ts), unless a route of the project's or GraphQL's lies under its paths (they
  // would share a router) or the node listens on 'localhost' (Fastify then binds a second server
  // of its own, which calls its handler directly).
  const adminAtStart =
    options.adminApiAtStart === true ||
    config.server.host === 'localhost' ||
    [...project.routePaths(), graphql.config.endpoint].some(underAdminApi);
  const genReqId = requestIds();
  const allowedMethods = (path: string) => project.allowedMethods(path);
  const lazyAdmin = adminAtStart
    ? undefined
    : new LazyAdminApi(async () => {
        let handler: FastifyServerFactoryHandler | undefined;
        const admin = createHttpServer(config, {
          allowedMethods,
          handlerOf: (h) => (handler = h),
          genReqId,
          logger: app.log,
        });
        try {
          await serverWide(admin);
          await registerAdminApi(admin);
          await admin.ready();
        } catch (error) {
          await admin.close().catch(() => undefined);
          throw error;
        }
        return { app: admin, handler: handler! };
      });
  const app = createHttpServer(config, {
    allowedMethods,
    handlerOf: options.handlerOf,
    genReqId,
    ...(lazyAdmin ? { dispatch: (handler) => lazyAdmin.dispatch(handler) } : {}),
  });
  serverUrl = () => absoluteServerUrl(config, app);
  /** What every request meets before its route, on each instance (the admin API's too). */
  const serverWide = async (target: FastifyInstance) => {
    project.registerRequestContext(target);
    // The preview's allowed origins may be framed by the panel (features/admin/preview.ts).
    await registerSecurity(target, withPreviewFrames(config.middlewares, config.admin));
    await project.registerGlobalMiddlewares(target);
  };
  await serverWide(app);
  // A project with routers is served what they declare: REST answers the core routes nothing of
  // the project changes, the project's pipeline the others.
  const routing = project.routing();
  // One response cache for REST and GraphQL reads (api/response-cache.ts).
  const responseCache = config.api.rest.cache.maxBytes > 0 ? new ResponseCache(config.api.rest.cache) : undefined;
  registerContentApi(app, {
    service: documents,
    rest: config.api.rest,
    access,
    prefix,
    routes: routing?.rest,
    schedules: events.schedules,
    cache: responseCache,
  });
  registerI18nRoutes(app, { prefix, locales: documents.locales });
  registerEmailRoutes(app, { email, access, prefix });
  const usersPermissions = {
    auth,
    service: documents,
    prefix,
    actions: upActions,
    leaveOut: project.usersPermissionsLeftOut,
  };
  registerUsersPermissionsRoutes(app, usersPermissions);
  registerUsersRolesRoutes(app, usersPermissions);
  // The Content-Type Builder's reads on the content API (its admin API waits with the others).
  registerContentTypeBuilderContentApi(app, { projectDir, builtIns: builtInTypes(projectDir), access, prefix });
  // The document describes the routes registered by its first request: all of them, project routes included.
  if (openApiServed(config))
    registerOpenApiRoutes(app, () => openApiDocument(openApiInput(config, schema, registeredRoutes(app))));
  app.addHook('onClose', async () => {
    await lazyAdmin?.close();
    email.close();
    await passwords.close();
    await database.close();
  });
  let upload: UploadRoutes | undefined;
  /** The admin API: its routes, the admin side of the media library and of the locales, the panel. */
  const registerAdminApi = async (target: FastifyInstance) => {
    const [adminApi, registerHistoryRoutes, registerReleaseRoutes, registerAuditRoutes, builder] = await Promise.all([
      loadAdminApi(),
      loadHistoryRoutes(),
      loadReleaseRoutes(),
      loadAuditRoutes(),
      loadContentTypeBuilderRoutes(),
    ]);
    const { requireAction } = adminApi;
    adminApi.registerAdminGuard(target, auth);
    registerI18nAdminRoutes(target, { locales: documents.locales, auth, configured: configuredLocales });
    adminApi.registerAdminRoutes(target, auth, {
      webhooks,
      deliveries: events.deliveries,
      schedules: events.schedules,
      webhooksConfig: config.server.webhooks,
    });
    adminApi.registerAdminContentRoutes(target, { auth, documents });
    adminApi.registerStrapiContentManager(target, auth, documents, database, config.admin);
    // `/content-manager/init`, `/content-types`, `/components`: the schema files as Strapi formats them.
    adminApi.registerManagerModels(target, auth, () =>
      builder.managerModels(projectDir, schema, builtInTypes(projectDir)),
    );
    adminApi.registerHomepage(target, auth, documents, database);
    adminApi.registerKeyStatistics(target, auth, documents, database);
    registerHistoryRoutes(target, {
      service: history.service,
      authenticate: (request) => auth.admins.authenticate(request.headers.authorization),
      permit: historyPermit(auth),
    });
    registerReleaseRoutes(target, {
      releases: releases.releases,
      actions: releases.actions,
      publisher: releases.publisher,
      settings: releases.settings,
      authorize: async (request, action) => (await requireAction(auth, request, action)).id,
      trail: audit.log,
    });
    registerAuditRoutes(target, {
      reads: audit.reads,
      retentionDays: audit.retentionDays,
      authenticate: (authorization) => auth.admins.authenticate(authorization),
    });
    builder.registerContentTypeBuilderRoutes(target, {
      projectDir,
      builtIns: builtInTypes(projectDir),
      authenticate: (authorization) => auth.admins.authenticate(authorization),
      record: async (authorization, entries) => {
        const actor = await auth.admins.authenticate(authorization);
        await database.write(async (trx) => {
          for (const entry of entries) await audit.log.record(trx, { ...entry, actor });
        });
      },
      reload: options.reload,
      reloadPending: options.reloadPending,
      checkDatabase: async (next) => {
        resolveCustomFields(
          next,
          (uid) => project.customFields.typeOf(uid),
          () => undefined,
        );
        await checkSchemaChange(database, next, systemTables);
      },
    });
    await upload!.registerAdmin(target, adminApi.mediaAdministrator(auth));
    await adminApi.registerAdminPanel(target, options.adminPanelDir);
  };
  try {
    upload = await registerUploadRoutes(app, { documents, access, config });
    if (adminAtStart) await registerAdminApi(app);
    // Last: a project route on a path Vellum serves itself is the one left out (with a warning).
    routing?.register(app);
    project.registerPluginRoutes(app);
    await registerGraphql(app, {
      ...graphql,
      service: documents,
      rest: config.api.rest,
      access,
      fieldSource: project.usersPermissionsGraphql(loadUsersPermissionsGraphql(auth)),
      strapi: project.strapi,
      projectContext: (request, reply) => project.graphqlContext(request, reply, access),
      cache: responseCache,
    });
    project.data.start({
      documents,
      store: coreStore(
        () => database.db,
        (fn) => database.write(fn),
      ),
    });
    const strapiDocuments = project.strapi.documents as (uid: string) => never;
    Object.assign(
      plugins,
      pluginServices({ documents, strapiDocuments, auth, email, media: upload.library, i18n: config.i18n }),
    );
    Object.assign(plugins, { 'content-manager': { history: projectHistoryApi(history.service) } });
    await project.run('bootstrap');
    // After bootstrap, which may grant (Strapi's templates grant Public there).
    for (const role of await auth.roles.list()) {
      const warning = mediaGrantWarning(schema, role, new Set(role.permissions));
      if (warning) warnings.push(warning);
    }
    events.start(project.strapi);
  } catch (error) {
    await events.stop();
    await app.close();
    throw error;
  }

  return {
    app,
    config,
    schema,
    database,
    documents,
    lifecycles: project.lifecycles,
    documentMiddlewares: project.middlewares,
    auth,
    webhooks,
    cron,
    events,
    email,
    audit,
    history,
    releases,
    sync,
    skippedCode: project.notRun,
    playgroundPath: graphql.config.playground ? graphql.config.endpoint : undefined,
    warnings,
    registered: { policies: project.named.policies, middlewares: project.named.middlewares },
    async listen() {
      const address = await app.listen({ host: config.server.host, port: config.server.port });
      return address.replace('0.0.0.0', '127.0.0.1').replace('[::]', '127.0.0.1');
    },
    async close() {
      try {
        await project.run('destroy');
      } finally {
        await events.stop();
        await app.close();
      }
    },
  };
}
