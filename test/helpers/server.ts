import { randomUUID } from 'node:crypto';
/**
 * Starts a real Vellum server on an ephemeral port, on a fresh database of the given dialect, and
 * tears both down. Tests talk to it over HTTP only (plus `vellum` for statement counts).
 */
import { createVellum, type CreateVellumOptions, type Vellum } from '../../src/app/server.js';
import { createTestDatabase, type DialectName, type TestDatabase } from './databases.js';
import { HttpClient } from './http.js';

export { DIALECTS, type DialectName } from './databases.js';

import { BLOG } from './paths.js';

export { BLOG, fixture } from './paths.js';

export interface TestServer {
  url: string;
  /** A client with full access to the content API (the headers of `authHeaders`). */
  api: HttpClient;
  /** A client without credentials: what the Public role sees. */
  publicApi: HttpClient;
  /** Headers granting full access to the content API, for clients other than `api` (GraphQL). */
  authHeaders: Record<string, string>;
  vellum: Vellum;
  dialect: DialectName;
  /** `config/database` overrides of its fresh database (see `nodeOf`). */
  databaseConfig: Record<string, unknown>;
  close(): Promise<void>;
}

export interface StartOptions extends Omit<CreateVellumOptions, 'overrides'> {
  project?: string;
  /** Configuration overrides by section (`api`, `plugins`, ...). */
  config?: Record<string, Record<string, unknown>>;
  /** Another node on this server's database (not dropped when the node closes). */
  nodeOf?: TestServer;
  /** A database of the test's own (`config/database` overrides, and its drop), instead of a fresh one. */
  database?: TestDatabase;
}

/** Headers of a new full-access API token on that node. */
export async function fullAccessHeaders(vellum: Vellum): Promise<Record<string, string>> {
  const { accessKey } = await vellum.auth.tokens.create({ name: `test ${randomUUID()}`, type: 'full-access' });
  return { authorization: `Bearer ${accessKey}` };
}

type Section = Record<string, unknown>;
/**
 * Strapi's default rate limit (10 logins per minute and address, as Vellum's) would refuse a test
 * file's later logins, all from 127.0.0.1: test servers allow 10,000 unless the test sets
 * `ratelimit` itself (the tests of the limits do; `ratelimit: {}` for the defaults).
 */
function withRoomyRateLimit(plugins: Section | undefined): Section {
  const up = (plugins?.['users-permissions'] ?? {}) as Section;
  const upConfig = (up.config ?? {}) as Section;
  // A test that names `ratelimit` (even `{}`: the defaults) gets what it names.
  const ratelimit = upConfig.ratelimit ?? { max: 10_000 };
  return { ...plugins, 'users-permissions': { ...up, config: { ...upConfig, ratelimit } } };
}

/**
 * bcrypt's cost on test servers: 4, bcrypt's least (~1.5 ms a hash, not ~85 ms at Strapi's 10),
 * unless the test names `passwords` itself; 10 in production, which refuses less.
 */
const testPasswordRounds = (env: NodeJS.ProcessEnv | undefined) => (env?.NODE_ENV === 'production' ? 10 : 4);

export async function startServer(dialect: DialectName, options: StartOptions = {}): Promise<TestServer> {
  const { project = BLOG, config = {}, nodeOf, database: own, ...rest } = options;
  const database: TestDatabase = nodeOf
    ? { config: nodeOf.databaseConfig, drop: async () => undefined }
    : (own ?? (await createTestDatabase(dialect)));
  let vellum: Vellum;
  try {
    vellum = await createVellum(project, {
      env: { NODE_ENV: 'test' },
      ...rest,
      overrides: {
        ...config,
        plugins: withRoomyRateLimit(config.plugins),
        server: { host: '127.0.0.1', port: 0, passwords: { rounds: testPasswordRounds(rest.env) }, ...config.server },
        database: { ...database.config, ...(config.database?.settings ? { settings: config.database.settings } : {}) },
      },
    });
  } catch (error) {
    await database.drop();
    throw error;
  }
  const url = await vellum.listen();
  const authHeaders = await fullAccessHeaders(vellum);
  return {
    url,
    api: new HttpClient(url, authHeaders),
    publicApi: new HttpClient(url),
    authHeaders,
    vellum,
    dialect,
    databaseConfig: database.config,
    async close() {
      await vellum.close();
      await database.drop();
    },
  };
}
