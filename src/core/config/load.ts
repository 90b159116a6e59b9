import { isAbsolute, resolve } from 'node:path';
import { z } from 'zod';
import { ProjectError } from '../errors.js';
import { parseConfig } from './validate.js';
import { createEnv } from './env.js';
import { configNames, configSource, deepMerge, loadConfigFile, loadConfigList, loadConfigValue } from './files.js';
import { readDotenv, withDotenv } from './dotenv.js';
import { asRecord } from '../objects.js';
import { MAX_ROUNDS, MIN_ROUNDS, STRAPI_ROUNDS, type PasswordsConfig } from '../passwords.js';

export type DatabaseClient = 'sqlite' | 'postgres' | 'mysql';

export interface SqliteConnection {
  client: 'sqlite';
  filename: string;
  /** Milliseconds one statement may run (`settings.statementTimeout`); 0: no limit. */
  statementTimeout: number;
  /** The file the settings come from (`config/database.js`), for errors; none when only variables set them. */
  source?: string;
}

export interface ServerConnection {
  client: 'postgres' | 'mysql';
  connectionString?: string;
  host: string;
  port: number;
  database: string;
  user: string;
  password?: string;
  /** PostgreSQL schema holding Vellum's tables (default `public`). */
  schema?: string;
  ssl?: boolean | Record<string, unknown>;
  /** Knex's `pool`: connections kept open at least, at most, and how long an unused one above `min` stays. */
  pool: { min: number; max: number; idleTimeoutMillis?: number };
  /**
   * PostgreSQL through a transaction-mode pooler (`connection.pgbouncer`, `DATABASE_PGBOUNCER`): no
   * startup options (PgBouncer refuses them); the search path and statement timeout are the server's.
   */
  pgbouncer: boolean;
  /** Milliseconds one statement may run (`settings.statementTimeout`); 0: no limit. */
  statementTimeout: number;
  /** The file the settings come from (`config/database.js`), for errors; none when only variables set them. */
  source?: string;
}

export type DatabaseConfig = SqliteConnection | ServerConnection;

export interface RestConfig {
  prefix: string;
  defaultLimit: number;
  maxLimit: number;
  withCount: boolean;
  /** Strapi's `api.rest.strictParams`: a query parameter the content API does not know is a 400. */
  strictParams: boolean;
  /** The response cache of GET reads (api/response-cache.ts); 0 bytes turns it off. */
  cache: { maxBytes: number; holdAfterWriteMs: number };
  /**
   * The items (documents, components, media files) one read may answer, its page and everything
   * populated below it; counted while reading (core/documents/read/budget.ts).
   */
  costLimit: number;
  /**
   * Who may read drafts (REST `status=draft`, GraphQL `status: DRAFT`, publication cohorts):
   * `editors` (API tokens, and roles that may create or update the type) or `find` (Strapi's rule).
   */
  draftAccess: 'editors' | 'find';
}

/**
 * How long a client may take, in milliseconds (0: no limit). Strapi hands `server.http.serverOptions`
 * to Node's HTTP server: the same names, and Node's defaults, which are Strapi's.
 */
export interface ServerTimeouts {
  /** To receive a whole request, body included (uploads too): Node's `requestTimeout`; 408 after it. */
  requestTimeout: number;
  /** To receive the request line and headers: Node's `headersTimeout`. */
  headersTimeout: number;
  /** An idle kept-alive connection stays open this long: Node's `keepAliveTimeout`. */
  keepAliveTimeout: number;
}

/**
 * `config/server` `webhooks`: Strapi's `defaultHeaders` (sent with every webhook call), and how
 * Vellum delivers (features/events/delivery.ts). Durations in milliseconds.
 */
export interface WebhooksConfig {
  defaultHeaders: Record<string, string>;
  /** One delivery attempt may take this long (Strapi: 10 s). */
  timeout: number;
  /** Attempts of one delivery before it is marked failed. */
  maxAttempts: number;
  /** The pause before the first retry; it doubles with each attempt, up to `maxRetryDelay`. */
  retryDelay: number;
  maxRetryDelay: number;
  /** How often each node looks for deliveries due (a write on the node looks at once). */
  pollInterval: number;
  /** Deliveries one node sends at once. */
  concurrency: number;
  /** Deliveries one node sends at once to one webhook: a receiver that hangs holds no more slots than this. */
  webhookConcurrency: number;
  /** Days the delivery log keeps finished deliveries. */
  logDays: number;
  /** Targets on loopback or private addresses may be called (features/events/targets.ts); unset: outside production only. */
  allowPrivateAddresses: boolean;
}

/** `config/server` `cron`: Strapi's `enabled` and `tasks`, and how often scheduled publications are looked for. */
export interface CronConfig {
  enabled: boolean;
  /** Strapi's task map (`{ name: { task, options } }` or `{ rule: fn }`), checked by features/events/cron.ts. */
  tasks: Record<string, unknown>;
  /** Milliseconds between two looks for scheduled publications due (one node runs each look). */
  scheduleInterval: number;
}

/**
 * Strapi 5's `server.proxy.koa`, `ipHeader` and `maxIpsCount` (Koa's `proxy`, `proxyIpHeader`,
 * `maxIpsCount`): with `koa` the client's address is read from `ipHeader` (lower-cased here), of
 * whose comma-separated addresses only the last `maxIpsCount` are believed (0: all), the first of
 * those being the client's; without it, the socket's peer.
 */
export interface ProxyConfig {
  koa: boolean;
  ipHeader: string;
  maxIpsCount: number;
}

export interface VellumConfig {
  projectDir: string;
  environment: string;
  /** The variables the configuration was read with: the process's (or the embedder's), then the project's `.env`. */
  env: NodeJS.ProcessEnv;
  server: {
    host: string;
    port: number;
    bodyLimit: number;
    /**
     * To receive a body Vellum reads whole before answering (JSON, GraphQL; at most `bodyLimit`),
     * from the end of its headers; 408 after it. Streamed uploads have `requestTimeout`.
     */
    bodyTimeout: number;
    http: { serverOptions: ServerTimeouts };
    /** Where the client's address comes from behind a reverse proxy (Strapi's `server.proxy`, Koa's options). */
    proxy: ProxyConfig;
    logger: boolean;
    /** Strapi's `server.url`: the server's public URL (absolute), or a path below `http://host:port`. */
    url: string;
    dirs: { public: string };
    webhooks: WebhooksConfig;
    cron: CronConfig;
    /** How passwords are hashed (core/passwords.ts): bcrypt's cost, Vellum's setting. */
    passwords: PasswordsConfig;
    /**
     * Processes `vellum start` serves with (`VELLUM_WORKERS`, else `config/server` `workers`): a
     * number, or `auto` (one per core); unset, `vellum start` decides (app/workers.ts).
     */
    workers?: number | 'auto';
  };
  database: DatabaseConfig;
  api: { rest: RestConfig };
  i18n: { defaultLocale: string; locales: string[] };
  /** `config/plugins` as written, for the plugins' own sections (graphql, users-permissions, upload). */
  plugins: Record<string, unknown>;
  /** `config/permissions`: role name -> granted actions, applied at start-up (see features/users-permissions/permissions.ts). */
  permissions: Record<string, unknown>;
  /** `config/middlewares` as written (Strapi's list; `strapi::cors` and `strapi::security` are read). */
  middlewares: unknown[];
  /** `config/admin` as written (`auth.secret`, `apiToken.salt`). */
  admin: Record<string, unknown>;
  /** The project's other files of `config/` by name (`config/custom.js`: `custom`), for `strapi.config.get`. */
  custom: Record<string, unknown>;
}

const CLIENT_ALIASES: Record<string, DatabaseClient> = {
  sqlite: 'sqlite',
  sqlite3: 'sqlite',
  'better-sqlite3': 'sqlite',
  postgres: 'postgres',
  postgresql: 'postgres',
  pg: 'postgres',
  mysql: 'mysql',
  mysql2: 'mysql',
  mariadb: 'mysql',
};

// bcrypt's cost, in what Strapi's bcryptjs accepts and a login can wait for (15: ~2.7 s per hash).
const passwordRounds = z
  .unknown()
  .optional()
  .transform((value, context): number => {
    if (value === undefined) return STRAPI_ROUNDS;
    const rounds = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
    if (typeof rounds === 'number' && Number.isInteger(rounds) && rounds >= MIN_ROUNDS && rounds <= MAX_ROUNDS)
      return rounds;
    context.addIssue({
      code: 'custom',
      message: `must be a whole number from ${MIN_ROUNDS} to ${MAX_ROUNDS} (bcrypt's cost; ${STRAPI_ROUNDS}, Strapi's, by default), not ${JSON.stringify(value)}`,
    });
    return z.NEVER;
  });

const serverSchema = z.object({
  host: z.string().default('0.0.0.0'),
  port: z.coerce.number().int().min(0).max(65535).default(1337),
  bodyLimit: z.coerce
    .number()
    .int()
    .positive()
    .default(1024 * 1024),
  // 1 MB in 30 s is 35 KB/s: any real client; a byte every few seconds is not.
  bodyTimeout: z.coerce.number().int().min(0).default(30_000),
  http: z
    .object({
      serverOptions: z
        .object({
          requestTimeout: z.coerce.number().int().min(0).default(300_000),
          headersTimeout: z.coerce.number().int().min(0).default(60_000),
          keepAliveTimeout: z.coerce.number().int().min(0).default(5_000),
        })
        .default({ requestTimeout: 300_000, headersTimeout: 60_000, keepAliveTimeout: 5_000 }),
    })
    .default({ serverOptions: { requestTimeout: 300_000, headersTimeout: 60_000, keepAliveTimeout: 5_000 } }),
  // Strapi 5 nests Koa's switch as `proxy.koa` (`proxy.global` and `proxy.fetch`, for outgoing
  // requests, are left alone); Strapi 4's `proxy: true` is taken as `{ koa: true }`.
  proxy: z
    .union([
      z.boolean().transform((koa) => ({ koa })),
      z.looseObject({
        koa: z.boolean().default(false),
        ipHeader: z.string().min(1).optional(),
        maxIpsCount: z.coerce.number().int().min(0).optional(),
      }),
    ])
    .default({ koa: false })
    .transform((proxy): ProxyConfig => ({
      koa: proxy.koa,
      ipHeader: ('ipHeader' in proxy && proxy.ipHeader ? proxy.ipHeader : 'X-Forwarded-For').toLowerCase(),
      maxIpsCount: 'maxIpsCount' in proxy ? (proxy.maxIpsCount ?? 0) : 0,
    })),
  logger: z.boolean().default(false),
  // Processes of `vellum start` (app/workers.ts): a whole number from 1, or `auto`.
  workers: z
    .unknown()
    .optional()
    .transform((value, context): number | 'auto' | undefined => {
      if (value === undefined || value === 'auto') return value;
      const count = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
      if (typeof count === 'number' && Number.isInteger(count) && count >= 1 && count <= 1024) return count;
      context.addIssue({
        code: 'custom',
        message: 'must be a number of processes (1 or more) or "auto" (one per core); set VELLUM_WORKERS or workers',
      });
      return z.NEVER;
    }),
  // Strapi's `server.url`: the public URL of the server, absolute or a path (links in emails).
  url: z.string().default(''),
  // Strapi's `dirs.public`: relative paths are resolved against the project folder.
  dirs: z.object({ public: z.string().min(1).default('public') }).default({ public: 'public' }),
  webhooks: z
    .object({
      defaultHeaders: z.record(z.string(), z.string()).default({}),
      timeout: z.coerce.number().int().positive().default(10_000),
      maxAttempts: z.coerce.number().int().min(1).max(100).default(10),
      retryDelay: z.coerce.number().int().positive().default(1_000),
      maxRetryDelay: z.coerce.number().int().positive().default(3_600_000),
      pollInterval: z.coerce.number().int().positive().default(1_000),
      concurrency: z.coerce.number().int().min(1).max(100).default(10),
      webhookConcurrency: z.coerce.number().int().min(1).max(100).default(2),
      logDays: z.coerce.number().positive().default(7),
      allowPrivateAddresses: z.boolean().optional(),
    })
    .prefault({}),
  cron: z
    .object({
      enabled: z.boolean().default(false),
      tasks: z.record(z.string(), z.unknown()).default({}),
      scheduleInterval: z.coerce.number().int().positive().default(1_000),
    })
    .prefault({}),
  passwords: z.object({ rounds: passwordRounds }).prefault({}),
});

/**
 * A real page stays far below it: a list of 100 articles with their author, category, tags,
 * media and components is ~3,000 items, a page of 10 nested component levels a few hundred.
 */
const DEFAULT_REST_COST_LIMIT = 25_000;

const restSchema = z.object({
  prefix: z.string().default('/api'),
  defaultLimit: z.coerce.number().int().positive().default(25),
  maxLimit: z.coerce.number().int().positive().default(100),
  withCount: z.boolean().default(true),
  strictParams: z.boolean().default(false),
  costLimit: z.coerce.number().int().positive().default(DEFAULT_REST_COST_LIMIT),
  draftAccess: z.enum(['editors', 'find']).default('editors'),
  cache: z
    .object({
      enabled: z.boolean().default(true),
      maxBytes: z.coerce
        .number()
        .int()
        .min(0)
        .default(16 * 1024 * 1024),
      holdAfterWriteMs: z.coerce.number().int().min(0).default(1000),
    })
    .default({ enabled: true, maxBytes: 16 * 1024 * 1024, holdAfterWriteMs: 1000 })
    .transform(({ enabled, maxBytes, holdAfterWriteMs }) => ({ maxBytes: enabled ? maxBytes : 0, holdAfterWriteMs })),
});

const localeCode = z.string().regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'a locale code such as en or fr-FR');
const i18nSchema = z.object({
  defaultLocale: localeCode.default('en'),
  locales: z.array(localeCode).default([]),
});

// `config/database` as Strapi 5 reads it: `connection` (Knex's configuration) and `settings`.
const DATABASE_KEYS = ['connection', 'settings'];
const KNEX_KEYS = [
  'client',
  'connection',
  'pool',
  'debug',
  'acquireConnectionTimeout',
  'useNullAsDefault',
  'migrations',
  'seeds',
  'searchPath',
  'version',
  'dialect',
  'jsonbSupport',
  'asyncStackTraces',
  'log',
  'compileSqlOnError',
  'fetchAsString',
  'postProcessResponse',
  'wrapIdentifier',
];
// What Vellum reads of `connection.connection`; the drivers take many more options, which are left alone.
const PARAM_KEYS = [
  'host',
  'port',
  'database',
  'user',
  'password',
  'connectionString',
  'schema',
  'ssl',
  'filename',
  'pgbouncer',
];
// Names a driver ignores that mean one Vellum reads (the driver would connect with its defaults).
const PARAM_MISNAMES: Record<string, string> = {
  username: 'user',
  dbname: 'database',
  db: 'database',
  hostname: 'host',
  pass: 'password',
  pwd: 'password',
  url: 'connectionString',
  uri: 'connectionString',
};

/** Levenshtein distance, to suggest the key a typo meant. */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++)
      next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}

const closest = (key: string, known: string[]) =>
  known
    .filter((candidate) => key.length > 2 && distance(key.toLowerCase(), candidate.toLowerCase()) <= 2)
    .sort((a, b) => distance(key, a) - distance(key, b))[0];

/** Refuses a key of `level` that `known` lacks: a silent default (SQLite, localhost) would follow from a typo. */
function checkKeys(level: Record<string, unknown>, known: string[], path: string, file: string): void {
  for (const key of Object.keys(level)) {
    if (known.includes(key)) continue;
    const meant = closest(key, known);
    throw new ProjectError(
      `unknown key "${path}${key}"${meant ? `: did you mean "${path}${meant}"?` : ` (Strapi reads ${known.map((k) => `"${path}${k}"`).join(', ')})`}`,
      file,
    );
  }
}

/** A key of `connection.connection` that looks like one Vellum reads, misspelled or misnamed. */
function checkParams(params: Record<string, unknown>, file: string): void {
  for (const key of Object.keys(params)) {
    if (PARAM_KEYS.includes(key)) continue;
    const meant = PARAM_MISNAMES[key] ?? closest(key, PARAM_KEYS);
    if (meant)
      throw new ProjectError(
        `unknown key "connection.connection.${key}": did you mean "connection.connection.${meant}"?`,
        file,
      );
  }
}

/**
 * What one statement may take before the database stops it (503): a read no other bound caught
 * (a filter over a large unindexed text column, say) must not hold a connection, or on SQLite the
 * one thread, for as long as it likes. 10 s is far above any read the other limits let through
 * (a count of 100,000 filtered rows takes well under a second) and far below a client's patience.
 */
const DEFAULT_STATEMENT_TIMEOUT = 10_000;

/** `settings.statementTimeout` of `config/database` (Strapi's `settings` holds migration switches, which Vellum ignores). */
function statementTimeoutOf(settings: unknown, where: string): number {
  const value = asRecord(settings).statementTimeout;
  if (value === undefined) return DEFAULT_STATEMENT_TIMEOUT;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new ProjectError(
      `"settings.statementTimeout" must be a number of milliseconds (0: no limit), not ${JSON.stringify(value)}`,
      where,
    );
  }
  return value;
}

/**
 * Database settings: `config/database` as Strapi writes it (`connection.client` and
 * `connection.connection`), falling back to the environment variables of Strapi's default file.
 * `file` names the file for errors (`DATABASE_CLIENT` when there is none).
 */
function resolveDatabase(
  raw: Record<string, unknown>,
  projectDir: string,
  envSource: NodeJS.ProcessEnv,
  file: string | undefined,
): DatabaseConfig {
  const strapiEnv = createEnv(envSource);
  // Vellum's own fallbacks read an empty variable as unset, except the password (see env.ts).
  const env = (name: string, fallback?: string) => strapiEnv(name) || fallback;
  env.int = strapiEnv.int;
  env.bool = strapiEnv.bool;
  const where = file ?? 'config/database';
  checkKeys(raw, DATABASE_KEYS, '', where);
  if (file && raw.connection === undefined) {
    throw new ProjectError(
      'exports no "connection": Strapi stops here too; export { connection: { client, connection: { ... } } } or remove the file to use the DATABASE_* variables',
      where,
    );
  }
  const connection = asRecord(raw.connection);
  checkKeys(connection, KNEX_KEYS, 'connection.', where);
  if (typeof connection.connection === 'function') {
    throw new ProjectError(
      '"connection.connection" is a function (Knex\'s connection provider), which Vellum cannot call: give the settings as an object',
      where,
    );
  }
  // Knex also takes the connection as a URL.
  const params =
    typeof connection.connection === 'string'
      ? { connectionString: connection.connection }
      : asRecord(connection.connection);
  checkParams(params, where);
  const clientName = String(connection.client ?? env('DATABASE_CLIENT', 'sqlite'));
  const client = CLIENT_ALIASES[clientName];
  if (!client) {
    const source = connection.client === undefined ? 'DATABASE_CLIENT' : where;
    throw new ProjectError(
      `unknown database client "${clientName}": Vellum serves sqlite, postgres and mysql (MariaDB too)`,
      source,
    );
  }
  const statementTimeout = statementTimeoutOf(raw.settings, where);
  if (client === 'sqlite') {
    const filename = String(params.filename ?? params.connectionString ?? env('DATABASE_FILENAME', '.tmp/data.db'));
    return {
      client,
      filename: filename === ':memory:' || isAbsolute(filename) ? filename : resolve(projectDir, filename),
      statementTimeout,
      ...(file ? { source: file } : {}),
    };
  }
  const pool = asRecord(connection.pool);
  const pgbouncer = params.pgbouncer ?? env.bool('DATABASE_PGBOUNCER', false);
  if (typeof pgbouncer !== 'boolean')
    throw new ProjectError(
      `"connection.connection.pgbouncer" must be true or false, not ${JSON.stringify(pgbouncer)}`,
      where,
    );
  const url = (params.connectionString as string | undefined) ?? env('DATABASE_URL');
  const defaultPort = client === 'postgres' ? 5432 : 3306;
  return {
    client,
    connectionString: url,
    host: String(params.host ?? env('DATABASE_HOST', '127.0.0.1')),
    port: Number(params.port ?? env.int('DATABASE_PORT', defaultPort)),
    database: String(params.database ?? env('DATABASE_NAME', 'strapi')),
    user: String(params.user ?? env('DATABASE_USERNAME', client === 'postgres' ? 'postgres' : 'root')),
    password: (params.password as string | undefined) ?? strapiEnv('DATABASE_PASSWORD'),
    schema: (params.schema as string | undefined) ?? env('DATABASE_SCHEMA'),
    ssl: (params.ssl as ServerConnection['ssl']) ?? (env.bool('DATABASE_SSL', false) ? {} : undefined),
    pool: {
      min: Number(pool.min ?? env.int('DATABASE_POOL_MIN', 0)),
      max: Number(pool.max ?? env.int('DATABASE_POOL_MAX', 10)),
      ...(pool.idleTimeoutMillis === undefined ? {} : { idleTimeoutMillis: Number(pool.idleTimeoutMillis) }),
    },
    pgbouncer: client === 'postgres' && pgbouncer,
    statementTimeout,
    ...(file ? { source: file } : {}),
  };
}

/** A size as koa-body reads it: bytes, or `'256kb'`, `'2mb'`, `'1gb'`. */
function parseSize(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) return Math.floor(value);
  const match = typeof value === 'string' ? /^\s*(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?\s*$/i.exec(value) : null;
  if (!match) return undefined;
  const unit = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 }[(match[2] ?? 'b').toLowerCase() as 'b'];
  return Math.floor(Number(match[1]) * unit);
}

/** `jsonLimit` of `strapi::body` in `config/middlewares`, where Strapi projects raise the JSON body limit. */
function bodyMiddlewareLimit(middlewares: unknown[]): number | undefined {
  const body = middlewares.find((entry) => asRecord(entry).name === 'strapi::body');
  const limit = asRecord(asRecord(body).config).jsonLimit;
  if (limit === undefined) return undefined;
  const bytes = parseSize(limit);
  if (bytes === undefined)
    throw new ProjectError(
      `strapi::body jsonLimit ${JSON.stringify(limit)} is not a size such as 256kb or 2mb`,
      'config/middlewares',
    );
  return bytes;
}

export interface LoadConfigOptions {
  env?: NodeJS.ProcessEnv;
  /** The current folder, from which a relative `ENV_PATH` is read (default: the process's). */
  cwd?: string;
  /** Applied last, for tests and the CLI (e.g. `{ server: { port: 0 } }`). */
  overrides?: Record<string, unknown>;
}

// The sections Vellum reads itself; any other file of config/ is the project's own (`strapi.config.get('custom.x')`).
const SECTIONS = ['server', 'database', 'api', 'plugins', 'permissions', 'admin', 'middlewares'];
// Names Strapi 5.54 does not load as configuration (`config-loader.js`: root keys of its own, reserved ones).
const RESTRICTED = [
  'uuid',
  'hosting',
  'license',
  'enforce',
  'disable',
  'enable',
  'telemetry',
  'strapi',
  'internal',
  'launchedat',
  'serveadminpanel',
  'autoreload',
  'environment',
  'packagejsonstrapi',
  'info',
  'dirs',
  'middleware',
  'plugin',
];

export async function loadConfig(project: string, options: LoadConfigOptions = {}): Promise<VellumConfig> {
  const projectDir = resolve(project);
  // The project's .env first, as Strapi loads it before any configuration file runs.
  const given = options.env ?? process.env;
  const envSource = withDotenv(given, readDotenv(projectDir, given, options.cwd).values);
  const env = createEnv(envSource);
  const environment = envSource.NODE_ENV ?? 'development';
  const overrides = options.overrides ?? {};
  const section = async (name: string) =>
    deepMerge(await loadConfigFile(projectDir, name, env, environment), asRecord(overrides[name]));
  const [server, database, api, plugins, permissions, admin] = await Promise.all([
    section('server'),
    section('database'),
    section('api'),
    section('plugins'),
    section('permissions'),
    section('admin'),
  ]);
  const middlewares = await loadConfigList(projectDir, 'middlewares', env, environment);
  const custom: Record<string, unknown> = {};
  for (const name of configNames(projectDir, environment)) {
    if (SECTIONS.includes(name) || RESTRICTED.includes(name.toLowerCase())) continue;
    custom[name] = await loadConfigValue(projectDir, name, env, environment);
  }
  server.host ??= env('HOST') || undefined;
  server.port ??= env.int('PORT');
  // Vellum's own variable: the operator's choice wins over the file's (a test harness, a container).
  if (env('VELLUM_WORKERS')) server.workers = env('VELLUM_WORKERS');
  server.bodyLimit ??= bodyMiddlewareLimit(middlewares);
  const i18n = parseConfig(i18nSchema, asRecord(asRecord(plugins.i18n).config), 'config/plugins (i18n)');
  if (!i18n.locales.includes(i18n.defaultLocale)) i18n.locales.unshift(i18n.defaultLocale);
  const rest = parseConfig(restSchema, asRecord(api.rest), 'config/api');
  if (rest.defaultLimit > rest.maxLimit)
    throw new ProjectError('rest.defaultLimit must not exceed rest.maxLimit', 'config/api');
  const serverConfig = parseConfig(serverSchema, server, 'config/server');
  serverConfig.dirs.public = resolve(projectDir, serverConfig.dirs.public);
  // A lower cost makes tests fast (as Devise's `stretches`, Django's test hashers); in production
  // it would make stolen hashes cheap to guess.
  const { rounds } = serverConfig.passwords;
  if (environment === 'production' && rounds < STRAPI_ROUNDS)
    throw new ProjectError(
      `passwords.rounds ${rounds} is too low for production: use ${STRAPI_ROUNDS} or more (Strapi's cost; lower costs are for tests), or leave it out`,
      'config/server',
    );
  return {
    projectDir,
    environment,
    env: envSource,
    // As Strapi, which refuses webhooks to local addresses in production only.
    server: {
      ...serverConfig,
      webhooks: {
        ...serverConfig.webhooks,
        allowPrivateAddresses: serverConfig.webhooks.allowPrivateAddresses ?? environment !== 'production',
      },
    },
    database: resolveDatabase(database, projectDir, envSource, configSource(projectDir, 'database', environment)),
    api: { rest },
    i18n,
    plugins,
    permissions,
    middlewares: (overrides.middlewares as unknown[] | undefined) ?? middlewares,
    admin,
    custom,
  };
}
