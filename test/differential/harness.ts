/**
 * Differential testing against the real Strapi 5.54: the same requests go to Strapi and to
 * Vellum, serving the same project, and their answers are compared (status, error name, body
 * with identifiers and timestamps normalised). It needs Strapi installed (see
 * ../shared/bench/strapi/README.md; the first install takes minutes), so it runs on demand only:
 * `npm run test:strapi [filter]`, never in CI. What it finds is pinned as ordinary tests against
 * Vellum alone.
 *
 * Each `*.diff.ts` file opens one pair of servers on one project. Strapi runs from its own folder
 * (`/tmp/vellum-diff-<name>`, sharing the reference install's node_modules) on a free port with a
 * fresh database; Vellum runs on SQLite (`DIFF_DIALECT` picks another dialect).
 * `DIFF_STRAPI_URL` + `DIFF_STRAPI_TOKEN` reuse a Strapi that is already running on the project.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { AssertionError } from 'node:assert';
import { HttpClient, type Response } from '../helpers/http.js';
import { ROOT } from '../helpers/paths.js';
import { createTestDatabase } from '../helpers/databases.js';
import { BLOG, startServer, type DialectName, type TestServer } from '../helpers/server.js';

const run = promisify(execFile);
// ../shared beside the checkout; from a worktree under /work/wt/<name>, two levels up.
const SHARED =
  [resolve(ROOT, '../shared'), resolve(ROOT, '../../shared')].find((dir) => existsSync(join(dir, 'bench'))) ??
  resolve(ROOT, '../shared');
const STRAPI_TOOLS = join(SHARED, 'bench/strapi');
const REFERENCE_DIR = process.env.STRAPI_DIR ?? join(homedir(), 'strapi-reference');

export type Side = 'strapi' | 'vellum';
/** What a scenario returns: one answer, several, or named ones. */
export type Answers = Response | Response[] | Record<string, Response>;
export type Scenario = (api: HttpClient, side: Side) => Promise<Answers>;

export interface SameOptions {
  /** Keys whose values are not compared (e.g. `hash`, `url` of media), anywhere in a body. */
  ignoreKeys?: string[];
  /** Compare error messages too (by default only status, name and the shape of details). */
  messages?: boolean;
  /**
   * A difference Vellum makes on purpose (docs/coming-from-strapi.md says why): the comparison still runs and
   * prints what differs, but does not fail.
   */
  deliberate?: string;
  /** Compare the bodies of error answers that are not Strapi's envelope (GraphQL's `{ errors, data }` with a 400). */
  errorBodies?: boolean;
}

/** Strapi's project folder, with commands run in it while its server is stopped. */
export interface StrapiOffline {
  dir: string;
  /** The project copy whose `src/` and `config/` the next start copies in (absent for the blog). */
  project?: string;
  /** `node <args>` in the project (`node_modules/@strapi/strapi/bin/strapi.js import ...`, a script). */
  node(args: string[]): Promise<{ code: number; stdout: string; stderr: string }>;
}

export interface Differential {
  strapi: HttpClient;
  /** Vellum's full-access client (another one after `restart`). */
  readonly vellum: HttpClient;
  readonly vellumServer: TestServer;
  /**
   * Stops Strapi, runs `fn` on its project (its CLI on the stopped database: `strapi import`), and
   * starts it again on the same port and database. Only for a Strapi the harness started.
   */
  offline<T>(fn: (strapi: StrapiOffline) => Promise<T>): Promise<T>;
  /**
   * Stops both servers, runs `edit` on each side's copy of the project (its schema files, say),
   * and starts both again on their databases (opened with `restartable`).
   */
  restart(edit: (project: string, side: Side) => void | Promise<void>): Promise<void>;
  /** Runs the scenario on both servers (Strapi first) and fails on any difference. */
  same(scenario: Scenario, options?: SameOptions): Promise<{ strapi: Answers; vellum: Answers }>;
  /** Runs the scenario on both and returns both answers, for assertions of one's own. */
  both(scenario: Scenario): Promise<{ strapi: Answers; vellum: Answers }>;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** Names the Strapi folder and log lines; one per diff file. */
  name: string;
  /** A project folder (src/ and config/); default the blog example. */
  project?: string;
  /** Polled until Strapi answers; default the first collection type's list. */
  readyPath?: string;
  /**
   * Variables both servers' environments set (Strapi's process, Vellum's `env`). A project's
   * `.env` reaches both too: Vellum reads it from the project, Strapi's folder gets it after the
   * template's.
   */
  env?: Record<string, string>;
  /** Configuration overrides of Vellum's side by section (e.g. `server` for its public folder). */
  vellumConfig?: Record<string, Record<string, unknown>>;
  /**
   * Both sides run from copies of the project and Vellum's database outlives its server, so that
   * `restart` can edit the project between starts (the project folder itself is never written).
   */
  restartable?: boolean;
}

async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePort(port));
    });
  });
}

/** `/api/<pluralName>` of the project's first collection type. */
function firstCollectionPath(project: string): string {
  const api = join(project, 'src/api');
  for (const name of readdirSync(api).sort()) {
    const types = join(api, name, 'content-types');
    if (!existsSync(types)) continue;
    for (const type of readdirSync(types).sort()) {
      const file = join(types, type, 'schema.json');
      if (!existsSync(file)) continue;
      const schema = JSON.parse(readFileSync(file, 'utf8'));
      if (schema.kind === 'collectionType') return `/api/${schema.info.pluralName}`;
    }
  }
  throw new Error(`${project} has no collection type`);
}

interface StartedStrapi {
  url: string;
  token: string;
  stop(): Promise<void>;
  offline<T>(fn: (strapi: StrapiOffline) => Promise<T>): Promise<T>;
}

async function startStrapi(options: OpenOptions, project: string, stripped: Set<string>): Promise<StartedStrapi> {
  if (process.env.DIFF_STRAPI_URL && process.env.DIFF_STRAPI_TOKEN) {
    return {
      url: process.env.DIFF_STRAPI_URL,
      token: process.env.DIFF_STRAPI_TOKEN,
      stop: async () => undefined,
      offline: async () => {
        throw new Error('DIFF_STRAPI_URL: this Strapi was not started here, it cannot be stopped and started again');
      },
    };
  }
  const dir = `/tmp/vellum-diff-${options.name}`;
  mkdirSync(dir, { recursive: true });
  const modules = join(REFERENCE_DIR, 'node_modules');
  if (existsSync(join(modules, '@strapi/strapi/package.json')) && !existsSync(join(dir, 'node_modules'))) {
    symlinkSync(modules, join(dir, 'node_modules'));
    if (existsSync(join(REFERENCE_DIR, 'package-lock.json')))
      cpSync(join(REFERENCE_DIR, 'package-lock.json'), join(dir, 'package-lock.json'));
  }
  const port = await freePort();
  const isBlog = resolve(project) === resolve(BLOG) && !options.restartable;
  const strapiProject = isBlog ? project : strapiCopy(project, dir, stripped);
  if (existsSync(join(project, '.env'))) {
    writeFileSync(
      join(dir, '.env'),
      `${readFileSync(join(STRAPI_TOOLS, 'template/env'), 'utf8')}\n${readFileSync(join(project, '.env'), 'utf8')}`,
    );
  }
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...options.env,
    STRAPI_DIR: dir,
    PORT: String(port),
    RESET_DB: '1',
    READY_PATH: options.readyPath ?? firstCollectionPath(isBlog ? join(SHARED, 'fixtures/blog') : project),
  };
  if (!isBlog) env.PROJECT = strapiProject;
  // Strapi's install (first run only) and start can take minutes.
  await run(join(STRAPI_TOOLS, 'start.sh'), [], { env, timeout: 20 * 60_000, maxBuffer: 64 << 20 });
  const url = `http://127.0.0.1:${port}`;
  const { stdout } = await run(join(STRAPI_TOOLS, 'token.sh'), [url], { env: process.env, timeout: 60_000 });
  // The pid of the server running now (a restart writes another).
  const pid = () => Number(readFileSync(join(dir, 'strapi.pid'), 'utf8'));
  const stop = async () => {
    const running = pid();
    try {
      process.kill(running, 'SIGTERM');
    } catch {
      return; // already gone
    }
    for (let i = 0; i < 300; i++) {
      try {
        process.kill(running, 0);
      } catch {
        return;
      }
      await new Promise((resolveWait) => setTimeout(resolveWait, 100));
    }
  };
  return {
    url,
    token: stdout.trim(),
    stop,
    async offline(fn) {
      await stop();
      try {
        return await fn({
          dir,
          project: isBlog ? undefined : strapiProject,
          async node(args) {
            try {
              const done = await run(process.execPath, args, {
                cwd: dir,
                env: { ...process.env, ...options.env, NODE_ENV: 'production', STRAPI_TELEMETRY_DISABLED: 'true' },
                timeout: 10 * 60_000,
                maxBuffer: 64 << 20,
              });
              return { code: 0, stdout: done.stdout, stderr: done.stderr };
            } catch (error) {
              const failed = error as { code?: number; stdout?: string; stderr?: string };
              return { code: failed.code ?? 1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
            }
          },
        });
      } finally {
        // The same folder, port and database (no RESET_DB).
        const { RESET_DB: _reset, ...again } = env;
        await run(join(STRAPI_TOOLS, 'start.sh'), [], { env: again, timeout: 5 * 60_000, maxBuffer: 64 << 20 });
      }
    },
  };
}

/** Vellum's copy of the project (`/tmp/vellum-diff-<name>/vellum-project`), fresh at each open. */
function vellumCopy(project: string, name: string): string {
  const copy = `/tmp/vellum-diff-${name}/vellum-project`;
  rmSync(copy, { recursive: true, force: true });
  mkdirSync(copy, { recursive: true });
  cpSync(project, copy, { recursive: true });
  return copy;
}

/** Relation kinds Vellum accepts and Strapi 5 refuses at start-up ("Unknown relation"). */
const STRAPI_UNKNOWN_RELATIONS = new Set(['oneWay', 'manyWay']);

/**
 * A copy of the project for Strapi, without the attributes Strapi 5 refuses (Vellum still reads
 * the v3/v4 names `oneWay`/`manyWay`); scenarios must not rely on those attributes.
 */
function strapiCopy(project: string, dir: string, stripped: Set<string>): string {
  const copy = join(dir, 'project');
  rmSync(copy, { recursive: true, force: true });
  cpSync(project, copy, { recursive: true });
  const strip = (file: string) => {
    const schema = JSON.parse(readFileSync(file, 'utf8'));
    let changed = false;
    for (const [name, attribute] of Object.entries(schema.attributes ?? {}) as [
      string,
      { type?: string; relation?: string },
    ][]) {
      if (attribute.type === 'relation' && STRAPI_UNKNOWN_RELATIONS.has(attribute.relation ?? '')) {
        delete schema.attributes[name];
        stripped.add(name);
        changed = true;
      }
    }
    if (changed) writeFileSync(file, JSON.stringify(schema, null, 2));
  };
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.json')) strip(path);
    }
  };
  if (existsSync(join(copy, 'src'))) walk(join(copy, 'src'));
  addCoreFiles(join(copy, 'src/api'));
  return copy;
}

/**
 * Strapi serves a content-type over REST only when its API folder has a router (Vellum serves
 * every type): give each type without one Strapi's core router, controller and service.
 */
function addCoreFiles(api: string): void {
  if (!existsSync(api)) return;
  for (const name of readdirSync(api)) {
    const types = join(api, name, 'content-types');
    if (!existsSync(types)) continue;
    for (const type of readdirSync(types)) {
      const uid = `api::${name}.${type}`;
      for (const [folder, factory] of [
        ['routes', 'createCoreRouter'],
        ['controllers', 'createCoreController'],
        ['services', 'createCoreService'],
      ]) {
        const file = join(api, name, folder!, `${type}.js`);
        if (existsSync(file)) continue;
        mkdirSync(join(api, name, folder!), { recursive: true });
        writeFileSync(
          file,
          `'use strict';\nconst { factories } = require('@strapi/strapi');\nmodule.exports = factories.${factory}('${uid}');\n`,
        );
      }
    }
  }
}

const TIMESTAMP_KEYS = new Set(['createdAt', 'updatedAt', 'publishedAt', 'created_at', 'updated_at', 'published_at']);

/** Replaces what legitimately differs between two servers with stable placeholders. */
class Normaliser {
  private readonly labels = new Map<string, string>();
  constructor(
    private readonly ignoreKeys: Set<string>,
    private readonly omitKeys: Set<string>,
  ) {}

  private label(kind: string, value: unknown): string {
    const key = `${kind}:${String(value)}`;
    let label = this.labels.get(key);
    if (!label) {
      label = `<${kind}${[...this.labels.keys()].filter((k) => k.startsWith(`${kind}:`)).length + 1}>`;
      this.labels.set(key, label);
    }
    return label;
  }

  normalise(value: unknown, key?: string): unknown {
    if (key !== undefined && this.ignoreKeys.has(key)) return '<ignored>';
    if (Array.isArray(value)) return value.map((item) => this.normalise(item));
    if (value && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(value).sort())
        if (!this.omitKeys.has(k)) out[k] = this.normalise((value as Record<string, unknown>)[k], k);
      return out;
    }
    if (key === 'documentId' && typeof value === 'string') return this.label('doc', value);
    if (key === 'id' && (typeof value === 'number' || typeof value === 'string')) return this.label('id', value);
    if (key !== undefined && TIMESTAMP_KEYS.has(key) && typeof value === 'string') return '<timestamp>';
    return value;
  }
}

/** Leaves replaced by their type: what is compared of error details. */
function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shapeOf);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, shapeOf((value as Record<string, unknown>)[k])]),
    );
  }
  return value === null ? 'null' : typeof value;
}

interface Comparable {
  status: number;
  body: unknown;
}

function comparable(response: Response, normaliser: Normaliser, options: SameOptions): Comparable {
  const body = response.body as { error?: { name?: string; message?: string; details?: unknown } } | null;
  if (response.status >= 400 && body && typeof body === 'object' && body.error) {
    // Vellum's `details.reason` (what a 401 or 404 was missing) is added on purpose: docs/errors.md.
    const { reason: _reason, ...details } = (body.error.details ?? {}) as Record<string, unknown>;
    const error: Record<string, unknown> = {
      name: body.error.name,
      details: shapeOf(
        body.error.details && typeof body.error.details === 'object' && !Array.isArray(body.error.details)
          ? details
          : body.error.details,
      ),
    };
    if (options.messages) error.message = body.error.message;
    return { status: response.status, body: { error } };
  }
  if (response.status >= 400 && !options.errorBodies)
    return { status: response.status, body: '<non-envelope error body>' };
  return { status: response.status, body: normaliser.normalise(response.body) };
}

function toComparable(answers: Answers, options: SameOptions, omitKeys: Set<string>): unknown {
  const normaliser = new Normaliser(new Set(options.ignoreKeys ?? []), omitKeys);
  if (answers instanceof Array) return answers.map((answer) => comparable(answer, normaliser, options));
  if ('status' in answers && 'headers' in answers) return comparable(answers as Response, normaliser, options);
  return Object.fromEntries(
    Object.entries(answers).map(([name, answer]) => [name, comparable(answer as Response, normaliser, options)]),
  );
}

/** Paths where two normalised values differ, at most `limit`. */
export function differences(
  a: unknown,
  b: unknown,
  path = '$',
  out: string[] = [],
  limit = Number(process.env.DIFF_LIMIT ?? 25),
): string[] {
  if (out.length >= limit) return out;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) out.push(`${path}: length strapi ${a.length}, vellum ${b.length}`);
    for (let i = 0; i < Math.min(a.length, b.length); i++) differences(a[i], b[i], `${path}[${i}]`, out, limit);
    return out;
  }
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const key of keys) {
      const inA = key in a;
      const inB = key in b;
      if (!inA)
        out.push(
          `${path}.${key}: only vellum has it (${JSON.stringify((b as Record<string, unknown>)[key])?.slice(0, 120)})`,
        );
      else if (!inB)
        out.push(
          `${path}.${key}: only strapi has it (${JSON.stringify((a as Record<string, unknown>)[key])?.slice(0, 120)})`,
        );
      else
        differences(
          (a as Record<string, unknown>)[key],
          (b as Record<string, unknown>)[key],
          `${path}.${key}`,
          out,
          limit,
        );
    }
    return out;
  }
  if (JSON.stringify(a) !== JSON.stringify(b))
    out.push(`${path}: strapi ${JSON.stringify(a)?.slice(0, 160)}, vellum ${JSON.stringify(b)?.slice(0, 160)}`);
  return out;
}

export async function openDifferential(options: OpenOptions): Promise<Differential> {
  const project = resolve(options.project ?? BLOG);
  const dialect = (process.env.DIFF_DIALECT ?? 'sqlite') as DialectName;
  // Attributes left out of Strapi's copy of the project are left out of both answers too.
  const stripped = new Set<string>();
  // Both at their defaults: Vellum counts as Strapi does (per route, address and, for sign-ups, email).
  // (`ratelimit: {}`: the test helper's roomy limit is not used.)
  const config = {
    ...options.vellumConfig,
    plugins: { ...options.vellumConfig?.plugins, 'users-permissions': { config: { ratelimit: {} } } },
  };
  // Restartable: Vellum reads a copy of the project, on a database kept across its restarts.
  const vellumProject = options.restartable ? vellumCopy(project, options.name) : project;
  const kept = options.restartable ? await createTestDatabase(dialect) : undefined;
  const startVellum = () =>
    startServer(dialect, {
      project: vellumProject,
      config,
      env: { NODE_ENV: 'test', ...options.env },
      ...(kept ? { database: { config: kept.config, drop: async () => undefined } } : {}),
    });
  const started = await Promise.allSettled([startStrapi(options, project, stripped), startVellum()]);
  if (started[0].status === 'rejected' || started[1].status === 'rejected') {
    // One failed to start: stop the other, or the run would hang on its open server.
    await Promise.allSettled(
      started.map((s) =>
        s.status === 'fulfilled'
          ? ((s.value as { close?: () => Promise<void>; stop?: () => Promise<void> }).close?.() ??
            (s.value as { stop: () => Promise<void> }).stop())
          : undefined,
      ),
    );
    await kept?.drop();
    throw started[0].status === 'rejected' ? started[0].reason : (started[1] as PromiseRejectedResult).reason;
  }
  const strapiServer = started[0].value;
  let vellumServer = started[1].value;
  const strapi = new HttpClient(strapiServer.url, { authorization: `Bearer ${strapiServer.token}` });

  const both = async (scenario: Scenario) => {
    const fromStrapi = await scenario(strapi, 'strapi');
    const fromVellum = await scenario(vellumServer.api, 'vellum');
    return { strapi: fromStrapi, vellum: fromVellum };
  };

  return {
    strapi,
    get vellum() {
      return vellumServer.api;
    },
    get vellumServer() {
      return vellumServer;
    },
    both,
    offline: (fn) => strapiServer.offline(fn),
    async restart(edit) {
      if (!kept) throw new Error('restart needs openDifferential({ restartable: true })');
      await strapiServer.offline(async ({ project: copy }) => edit(copy!, 'strapi'));
      await vellumServer.close();
      await edit(vellumProject, 'vellum');
      vellumServer = await startVellum();
    },
    async same(scenario, sameOptions = {}) {
      const answers = await both(scenario);
      const a = toComparable(answers.strapi, sameOptions, stripped);
      const b = toComparable(answers.vellum, sameOptions, stripped);
      const found = differences(a, b);
      if (found.length > 0) {
        const report = `${found.length} difference(s):\n  ${found.join('\n  ')}`;
        if (sameOptions.deliberate) {
          console.log(`# deliberate difference (${sameOptions.deliberate}): ${report}`);
        } else {
          throw new AssertionError({ message: `Strapi and Vellum differ, ${report}` });
        }
      }
      return answers;
    },
    async close() {
      await Promise.allSettled([strapiServer.stop(), vellumServer.close()]);
      await kept?.drop();
    },
  };
}

/** The name a diff file passes to `openDifferential`: its own base name. */
export const diffName = (file: string): string => basename(file).replace(/\.diff\.ts$/, '');

/** The administrator both sides sign in as (token.sh makes Strapi's; Vellum's is registered here). */
export const DIFF_ADMIN = { email: 'admin@example.com', password: 'Admin-Passw0rd!' };

/**
 * An administrator's client on each side: Vellum's first administrator registered (Ada Admin),
 * then both signed in with the same credentials.
 */
export async function adminSessions(diff: Differential): Promise<Record<Side, HttpClient>> {
  const sessions: Partial<Record<Side, HttpClient>> = {};
  for (const [side, api] of [
    ['strapi', diff.strapi],
    ['vellum', diff.vellum],
  ] as const) {
    const anonymous = new HttpClient(api.baseUrl);
    if (side === 'vellum')
      await anonymous.post('/admin/register-admin', { ...DIFF_ADMIN, firstname: 'Ada', lastname: 'Admin' });
    const login = await anonymous.post('/admin/login', DIFF_ADMIN);
    if (login.status !== 200) throw new Error(`${side}: ${JSON.stringify(login.body)}`);
    sessions[side] = new HttpClient(api.baseUrl, { authorization: `Bearer ${login.body.data.token}` });
  }
  return sessions as Record<Side, HttpClient>;
}
