/**
 * Users-and-permissions for one node: on start, under the schema lock, it makes sure the built-in
 * roles, the generated secrets and the grants of `config/permissions` exist; then it serves the
 * access seam, users, API tokens, roles and administrators.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { VellumConfig } from '../config/load.js';
import type { Database } from '../database/connection.js';
import type { Db } from '../database/dialect.js';
import type { DocumentService } from '../documents/service.js';
import { ProjectError, ValidationError } from '../errors.js';
import type { ContentType } from '../schema/model.js';
import { UsersPermissionsAccess } from './access.js';
import { Admins } from './admins.js';
import { resolveAuthConfig, type AuthConfig } from './config.js';
import { JwtSigner } from './jwt.js';
import { ROLE_UID, USER_UID } from './model.js';
import { expandActions, knownActions } from './permissions.js';
import { BUILT_IN_ROLES, Roles } from './roles.js';
import { ensureSetting, randomSecret, readSetting, writeSetting } from './settings.js';
import { ApiTokens } from './tokens.js';
import { PERMISSION_UID, permissionAdapter } from './permission-model.js';
import { Users, type AuthResult } from './users.js';

export { authTables, roleType, userType } from './model.js';

export interface Auth {
  config: AuthConfig;
  access: UsersPermissionsAccess;
  users: Users;
  tokens: ApiTokens;
  roles: Roles;
  admins: Admins;
  /** Users' JWTs: what the users-permissions `jwt` service issues and verifies for project code. */
  jwt: JwtSigner;
  /** Every grantable action of this schema. */
  actions: string[];
  /** Concrete actions for patterns (`api::*.find`); 400 for a pattern that names nothing. */
  expand(patterns: string[], where?: string): string[];
  /** Registration as REST and GraphQL offer it: credentials that are sent must be valid, even here. */
  register(input: Record<string, unknown>, headers: IncomingHttpHeaders): Promise<AuthResult>;
  registrationOpen(): Promise<boolean>;
  setRegistrationOpen(open: boolean): Promise<void>;
}

interface Secrets {
  jwt: string;
  adminJwt: string;
  tokenSalt: string;
}

const titleCase = (type: string) => type.replace(/(^|-)(\w)/g, (_m, dash: string, c: string) => (dash ? ' ' : '') + c.toUpperCase());

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
  env: NodeJS.ProcessEnv = process.env,
  /** Actions the project's own routes name (`api::article.article.bySlug`): grantable too. */
  routeActions: string[] = [],
): Promise<Auth> {
  const authConfig = resolveAuthConfig(config, env);
  const { schema } = documents;
  const userType = schema.contentTypes.get(USER_UID) as ContentType;
  const roleType = schema.contentTypes.get(ROLE_UID) as ContentType;
  const actions = [...new Set([...knownActions(schema), ...routeActions])];
  const expand = (patterns: string[], where = 'permissions') => expandActions(patterns, actions, where);
  const roles = new Roles(database.system, documents, roleType, (fn) => database.write(fn));
  documents.engine.register(PERMISSION_UID, permissionAdapter(database, schema, documents.engine));

  const bootstrap = async (db: Db) => {
    const publicRole = await roles.ensure(db, 'public', BUILT_IN_ROLES.public.name, BUILT_IN_ROLES.public.description);
    const authenticatedRole = await roles.ensure(db, 'authenticated', BUILT_IN_ROLES.authenticated.name, BUILT_IN_ROLES.authenticated.description);
    const secrets: Secrets = {
      jwt: authConfig.jwtSecret ?? (await ensureSetting(db, 'jwt_secret', randomSecret)),
      adminJwt: authConfig.adminJwtSecret ?? (await ensureSetting(db, 'admin_jwt_secret', randomSecret)),
      tokenSalt: authConfig.apiTokenSalt ?? (await ensureSetting(db, 'api_token_salt', randomSecret)),
    };
    await ensureSetting(db, 'allow_register', () => String(authConfig.allowRegister));
    // Grants from config/permissions are added on every start; run-time grants are kept.
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
        if (error instanceof ValidationError) throw new ProjectError(`role "${type}": ${error.message}`, 'config/permissions');
        throw error;
      }
      await roles.grant(roleDocumentId, granted, db);
    }
    return { publicRole, authenticatedRole, secrets };
  };
  const { publicRole, authenticatedRole, secrets } = await database.dialect.withSchemaLock(database.db, bootstrap);

  const userJwt = new JwtSigner(secrets.jwt, authConfig.jwtLifetime);
  const tokens = new ApiTokens(database, secrets.tokenSalt);
  const resolveRole = async (ref: string) => (await roles.get(ref)).documentId;
  const users = new Users(database, documents, userType, authConfig, userJwt, authenticatedRole, resolveRole);
  const access = new UsersPermissionsAccess(userJwt, users, tokens, roles, publicRole, config.api.rest.draftAccess);
  return {
    config: authConfig,
    access,
    users,
    tokens,
    roles,
    admins: new Admins(database, JwtSigner.admin(secrets.adminJwt), authConfig),
    jwt: userJwt,
    actions,
    expand,
    async register(input, headers) {
      if (headers.authorization !== undefined) await access.resolve(headers);
      return users.register(input);
    },
    registrationOpen: async () => (await readSetting(database.system, 'allow_register')) !== 'false',
    setRegistrationOpen: (open) => writeSetting(database.system, 'allow_register', String(open)),
  };
}
