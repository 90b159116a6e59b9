/**
 * Users-and-permissions for one node: on start, under the schema lock, it makes sure the built-in
 * roles, the generated secrets, the grants of `config/permissions` and the advanced settings exist;
 * then it serves the access seam, users, account flows (passwords, email confirmation), API tokens,
 * roles and administrators.
 */
import { AdminRoles } from '../admin-roles/index.js';
import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { VellumConfig } from '../../core/config/load.js';
import type { Database } from '../../core/database/connection.js';
import type { Db } from '../../core/database/dialect.js';
import type { Audited, AuditTrail, DocumentService } from '../../core/documents/service.js';
import { coreStore } from '../../core/database/store.js';
import { shaped } from '../../core/database/system-tables.js';
import type { EmailService } from '../email/index.js';
import { ApplicationError, ForbiddenError, ProjectError, ValidationError } from '../../core/errors.js';
import type { ContentType } from '../../core/schema/model.js';
import { UsersPermissionsAccess } from './access.js';
import { AccountFlows } from './account.js';
import { AdvancedSettings } from './advanced.js';
import { UserCodes } from './codes.js';
import { ADMIN_USER_UID, adminRevokedThrough, adminUserModel, Admins } from './admins.js';
import { tableAdapter } from '../../core/documents/engine/table.js';
import { resolveAuthConfig, type AuthConfig } from './config.js';
import { JwtSigner } from './jwt.js';
import { JWT_REVOCATIONS_TABLE, ROLE_UID, USER_UID, type RoleRow, type UserRow } from './model.js';
import { authAction, DEFAULT_GRANTS, expandActions, knownActions } from './permissions.js';
import { BUILT_IN_ROLES, Roles } from './roles.js';
import { ensureSetting, randomSecret } from './settings.js';
import { Sessions, type SessionAnswer } from './sessions.js';
import { ApiTokens } from '../api-tokens/index.js';
import { PERMISSION_UID, permissionAdapter } from './permission-model.js';
import { Users, type AuthResult } from './users.js';
import { UserManagement } from './user-management.js';
import { RoleApi } from './role-api.js';
import { ProviderSettings } from './providers.js';
import { ProviderLogins } from './oauth.js';
import { routeKey, Throttle } from './throttle.js';
import { deviceName } from './user-agent.js';
import { PreviewTokens } from './preview-tokens.js';

export interface Auth {
  config: AuthConfig;
  /** Where administrators' changes are recorded, in their transactions (the document service's trail; none without one). */
  audit?: AuditTrail;
  access: UsersPermissionsAccess;
  users: Users;
  tokens: ApiTokens;
  roles: Roles;
  admins: Admins;
  /** Administrator roles and permissions (features/admin-roles/). */
  adminRoles: AdminRoles;
  /** Users' JWTs: what the users-permissions `jwt` service issues and verifies for project code. */
  jwt: JwtSigner;
  /** Forgotten, reset and changed passwords; email confirmation. */
  account: AccountFlows;
  /** The advanced settings and email templates, in the core store (read per request). */
  advanced: AdvancedSettings;
  /** Refresh sessions (`jwtManagement: 'refresh'`). */
  sessions: Sessions;
  /** The content manager's preview tokens (preview-tokens.ts). */
  previews: PreviewTokens;
  /** Login providers' settings (core store key `grant`, read per request). */
  providers: ProviderSettings;
  /** `/api/connect/:provider` and its callback (oauth.ts). */
  providerLogins: ProviderLogins;
  /**
   * Counts one request of an account flow (`auth/forgot-password`, `auth/reset-password`,
   * `auth/change-password`, `auth/send-email-confirmation`, `connect/...`) as Strapi's `rateLimit`
   * middleware does: per route and client address, and body `email` where Strapi keys by it
   * (throttle.ts), with the `ratelimit` settings; 429 past the limit. REST and GraphQL share it.
   */
  limitAccountFlow(route: string, body: unknown, clientIp: string): Promise<void>;
  /** `GET /api/auth/:provider/callback`: the user of a provider's token, found or created. */
  providerCallback(provider: string, query: Record<string, unknown>): Promise<AuthResult>;
  /**
   * The answer of a sign-in (`login`: local or provider login, whose refresh token may go in a
   * cookie; `register` and `password`: always in the body, as Strapi): unchanged in
   * `legacy-support` mode; in `refresh` mode a new session's `jwt` and `refreshToken` (a password
   * change or reset ends the user's other sessions first, which `revokeJwts` did).
   */
  signedIn<T extends { jwt?: string; user: { id?: unknown } }>(
    result: T,
    headers: IncomingHttpHeaders,
    body: Record<string, unknown>,
    how: 'login' | 'register' | 'password',
  ): Promise<{ body: T & { refreshToken?: string }; cookie?: string }>;
  /** Every grantable action of this schema. */
  actions: string[];
  /** Users created, updated and deleted through the content API (`POST|PUT|DELETE /api/users`). */
  userManagement: UserManagement;
  /** Strapi's role and permissions routes (`/api/users-permissions/roles`, `/permissions`). */
  roleApi: RoleApi;
  /** Concrete actions for patterns (`api::*.find`); 400 for a pattern that names nothing. */
  expand(patterns: string[], where?: string): string[];
  /**
   * Registration as REST and GraphQL offer it: credentials that are sent must be valid, even here;
   * counted per client address (`clientIp`).
   */
  register(input: Record<string, unknown>, headers: IncomingHttpHeaders, clientIp: string): Promise<AuthResult>;
  /**
   * The user of a request's JWT, for what only a signed-in user may do (`change-password`): a
   * caller without `auth.changePassword` is a 403 (Public lacks it, as in Strapi); an API token
   * allowed it is no user (Strapi's ApplicationError).
   */
  passwordChanger(headers: IncomingHttpHeaders): Promise<number>;
  registrationOpen(): Promise<boolean>;
  setRegistrationOpen(open: boolean, audited?: Audited): Promise<void>;
}

/** What users-permissions uses of the node around it. */
export interface AuthServices {
  /** The node's email service (absent in the CLI, which sends nothing). */
  email?: EmailService;
  /** The server's absolute URL, for links in emails. */
  serverUrl?: () => string;
  /** Where a failure to send an email in the background is told. */
  log?: (message: string) => void;
}

interface Secrets {
  jwt: string;
  adminJwt: string;
  tokenSalt: string;
}

const titleCase = (type: string) =>
  type.replace(/(^|-)(\w)/g, (_m, dash: string, c: string) => (dash ? ' ' : '') + c.toUpperCase());

function configuredGrants(config: VellumConfig): [string, string[]][] {
  return Object.entries(config.permissions).map(([role, actions]) => {
    if (!Array.isArray(actions) || actions.some((a) => typeof a !== 'string')) {
      throw new ProjectError(`"${role}" must list actions such as "api::article.article.find"`, 'config/permissions');
    }
    return [role, actions as string[]];
  });
}

export async function startAuth(
  database: Database,
  documents: DocumentService,
  config: VellumConfig,
  /** `resolveAuthConfig(config, env)`: resolved before the database is opened, so a weak secret stops start-up first. */
  authConfig: AuthConfig = resolveAuthConfig(config),
  /**
   * The project's routes: the actions they name (`api::article.article.bySlug`), grantable too,
   * and whether it has router files. A project with routers has the actions its routes name and no
   * others (Strapi registers the content API's actions from the routes): a content-type without a
   * router has none to grant, and a role's permission naming one is ignored, as in Strapi.
   */
  routes: { actions: string[]; routed: boolean } = { actions: [], routed: false },
  services: AuthServices = {},
): Promise<Auth> {
  const { schema } = documents;
  const userType = schema.contentTypes.get(USER_UID) as ContentType;
  const roleType = schema.contentTypes.get(ROLE_UID) as ContentType;
  const typeActions = knownActions(schema).filter((action) => !routes.routed || !action.startsWith('api::'));
  const actions = [...new Set([...typeActions, ...routes.actions])];
  const expand = (patterns: string[], where = 'permissions') => expandActions(patterns, actions, where);
  const roles = new Roles(database.system, documents, roleType, (fn) => database.write(fn));
  const adminRoles = new AdminRoles(database, () => documents.schema, {
    codes: () => [...documents.i18n.locales],
    list: () => documents.locales.list(),
    defaultLocale: () => documents.i18n.defaultLocale,
  });
  documents.engine.register(PERMISSION_UID, permissionAdapter(database, schema, documents.engine));
  documents.engine.register(ADMIN_USER_UID, tableAdapter(database, schema, adminUserModel));
  const roleExists = (db: Db) => async (type: string) =>
    (await shaped<RoleRow>(db).selectFrom(roleType.table).select('id').where('type', '=', type).executeTakeFirst()) !==
    undefined;

  const bootstrap = async (db: Db) => {
    // Authenticated first, as Strapi's users-permissions bootstrap creates them: on a new database it
    // is role 1 and Public role 2, ids that project code writes as they are (`role: 1` in a user's data).
    const authenticatedRole = await roles.ensure(
      db,
      'authenticated',
      BUILT_IN_ROLES.authenticated.name,
      BUILT_IN_ROLES.authenticated.description,
    );
    const publicRole = await roles.ensure(db, 'public', BUILT_IN_ROLES.public.name, BUILT_IN_ROLES.public.description);
    // Strapi's default grants (auth routes, `user.me`); granted once per database (Roles.seed), so
    // a revocation since is kept, and a database of an earlier Vellum gets them at its next start.
    await roles.seed(authenticatedRole, [...DEFAULT_GRANTS.authenticated], db);
    await roles.seed(publicRole, [...DEFAULT_GRANTS.public], db);
    const secrets: Secrets = {
      jwt: authConfig.jwtSecret ?? (await ensureSetting(db, 'jwt_secret', randomSecret)),
      adminJwt: authConfig.adminJwtSecret ?? (await ensureSetting(db, 'admin_jwt_secret', randomSecret)),
      tokenSalt: authConfig.apiTokenSalt ?? (await ensureSetting(db, 'api_token_salt', randomSecret)),
    };
    // config/permissions seeds each grant once (Roles.seed): run-time grants and revocations are kept.
    for (const [type, patterns] of configuredGrants(config)) {
      let granted: string[];
      try {
        granted = expand(patterns, `config/permissions "${type}"`);
      } catch (error) {
        throw new ProjectError((error as ValidationError).message, 'config/permissions');
      }
      let roleDocumentId: string;
      try {
        roleDocumentId = await roles.ensure(db, type, titleCase(type), null);
      } catch (error) {
        // A new role is a document like others: its name must pass the role type's rules.
        if (error instanceof ValidationError)
          throw new ProjectError(`role "${type}": ${error.message}`, 'config/permissions');
        throw error;
      }
      await roles.seed(roleDocumentId, granted, db);
    }
    // Administrator roles: the three of Strapi on a new database, the Super Admin's permissions
    // set to every action of this schema.
    await adminRoles.seed(db);
    // After the roles: `default_role` must name one.
    const seeds = {
      advanced: authConfig.advanced,
      allowRegister: authConfig.allowRegister,
      email: authConfig.emailTemplates,
    };
    await AdvancedSettings.seed(
      coreStore(
        () => db,
        (fn) => fn(db),
      ),
      db,
      seeds,
      roleExists(db),
    );
    await ProviderSettings.seed(
      coreStore(
        () => db,
        (fn) => fn(db),
      ),
      authConfig.providers,
    );
    return { publicRole, authenticatedRole, secrets };
  };
  const { publicRole, secrets } = await database.dialect.withSchemaLock(database.db, bootstrap);

  const revokedThrough = async (id: number) => {
    const row = await database.system
      .selectFrom(JWT_REVOCATIONS_TABLE)
      .select('revoked_through')
      .where('user_id', '=', id)
      .executeTakeFirst();
    return row ? Number(row.revoked_through) : undefined;
  };
  const userJwt = new JwtSigner(secrets.jwt, authConfig.jwtLifetime, undefined, revokedThrough);
  const sessions: Sessions = new Sessions(database, userJwt, authConfig, async (id) => {
    const row = await shaped<UserRow>(database.db)
      .selectFrom(userType.table)
      .select('blocked')
      .where('id', '=', id)
      .executeTakeFirst();
    if (row && database.dialect.decode('boolean', row.blocked) !== true) return true;
    // A user blocked by any means (the admin API, a user update) loses their sessions here.
    await sessions.revoke(id);
    return false;
  });
  const tokens = new ApiTokens(database, secrets.tokenSalt);
  const resolveRole = async (ref: string) => (await roles.get(ref)).documentId;
  const advanced = new AdvancedSettings(
    coreStore(
      () => database.db,
      (fn) => database.write(fn),
    ),
    roleExists(database.db),
  );
  const account = new AccountFlows({
    database,
    schema,
    userType,
    users: documents.of(userType),
    config: authConfig,
    jwt: userJwt,
    codes: new UserCodes(database),
    advanced,
    passwords: documents.passwords,
    email: services.email,
    serverUrl: services.serverUrl ?? (() => 'http://localhost:1337'),
    apiPrefix: config.api.rest.prefix,
    log: services.log,
    revokeSessions: (id) => sessions.revoke(id),
  });
  const providers = new ProviderSettings(
    coreStore(
      () => database.db,
      (fn) => database.write(fn),
    ),
  );
  const providerLogins = new ProviderLogins({
    settings: providers,
    secret: secrets.jwt,
    serverUrl: services.serverUrl ?? (() => 'http://localhost:1337'),
    apiPrefix: config.api.rest.prefix,
    production: authConfig.production,
  });
  const accountFlows = new Throttle(database, authConfig.loginLimit, 'route');
  const registration = {
    settings: () => advanced.get(),
    sendConfirmationEmail: (id: number) => account.sendConfirmationEmail(id),
    localLoginEnabled: async () => (await providers.get()).email?.enabled !== false,
  };
  const users = new Users(database, documents, userType, authConfig, userJwt, registration, resolveRole, (id) =>
    sessions.revoke(id),
  );
  const previews = new PreviewTokens(secrets.adminJwt);
  const access = new UsersPermissionsAccess(
    userJwt,
    users,
    tokens,
    roles,
    publicRole,
    config.api.rest.draftAccess,
    routes.routed ? new Set(actions) : undefined,
    previews,
  );
  return {
    config: authConfig,
    audit: documents.audit,
    access,
    users,
    tokens,
    roles,
    admins: new Admins(
      database,
      JwtSigner.admin(secrets.adminJwt, undefined, (id) => adminRevokedThrough(database, id)),
      authConfig,
      adminRoles,
      documents.passwords,
      {
        email: services.email,
        adminUrl: () => `${(services.serverUrl ?? (() => 'http://localhost:1337'))()}/admin`,
        log: services.log,
      },
    ),
    adminRoles,
    jwt: userJwt,
    account,
    advanced,
    sessions,
    previews,
    providers,
    providerLogins,
    async limitAccountFlow(route, body, clientIp) {
      await accountFlows.hit(routeKey(route, body, clientIp));
    },
    async providerCallback(provider, query) {
      return users.providerLogin(provider, await providerLogins.profile(provider, query));
    },
    async signedIn(result, headers, body, how) {
      const id = result.user.id;
      if (!sessions.enabled || result.jwt === undefined || typeof id !== 'number') return { body: result };
      const deviceId = typeof body.deviceId === 'string' && body.deviceId.length > 0 ? body.deviceId : undefined;
      // As Strapi: registration and a password change name a device when the body does not; a
      // password change's new session records no sign-in for the sessions list.
      const device = how === 'login' ? deviceId : (deviceId ?? randomUUID());
      const tokens = await sessions.start(
        id,
        device,
        how === 'password' ? undefined : { deviceName: deviceName(headers['user-agent']) },
      );
      const answer: SessionAnswer =
        how === 'login' ? sessions.answer(tokens, headers, authConfig.production) : { body: tokens };
      return { body: { ...answer.body, ...result, jwt: answer.body.jwt }, cookie: answer.cookie };
    },
    actions,
    userManagement: new UserManagement({
      database,
      users: documents.of(userType),
      userType,
      roles,
      settings: () => advanced.get(),
      revokeJwts: (id) => account.revokeJwts(id),
    }),
    roleApi: new RoleApi({
      database,
      roles,
      roleDocuments: documents.of(roleType),
      userDocuments: documents.of(userType),
      roleType,
      userType,
      actions,
    }),
    expand,
    async register(input, headers, clientIp) {
      const caller = await access.resolve(headers);
      const answer = await users.register(input, clientIp);
      // Strapi's registration answers the user with its role populated, and its sanitizer keeps the
      // role for a caller that may read roles (a full-access API token; checked on Strapi 5.54).
      if (caller.grants.allows(`${ROLE_UID}.find`) && typeof answer.user.id === 'number') {
        const withRole = await users.findById(answer.user.id, { populate: ['role'] });
        if (withRole?.role !== undefined) answer.user = { ...answer.user, role: withRole.role };
      }
      return answer;
    },
    async passwordChanger(headers) {
      const caller = await access.resolve(headers);
      // Strapi's route and GraphQL mutation check `auth.changePassword` (Authenticated holds it by default).
      if (!caller.grants.allows(authAction('changePassword'))) throw new ForbiddenError();
      if (caller.kind !== 'user') throw new ApplicationError('You must be authenticated to reset your password');
      return caller.userId;
    },
    registrationOpen: async () => (await advanced.get()).allow_register,
    setRegistrationOpen: async (open, audited) => {
      await advanced.update({ allow_register: open }, audited);
    },
  };
}
