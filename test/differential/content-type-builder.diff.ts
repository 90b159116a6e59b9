/**
 * The Content-Type Builder against Strapi 5.54's, each under its development server (`strapi
 * develop`, which restarts after each change; `vellum develop`, which does not): the same reads,
 * the same refusals, and the same files after each batch of test/fixtures/content-type-builder/
 * batches.json, plus the time from the request to the next version serving. On demand:
 * `npm run test:strapi -- content-type-builder` (about a minute: Strapi restarts four times).
 * What it found is pinned for Vellum alone in test/content-type-builder/ (the fixtures are
 * Strapi's answers and files).
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { startDevelop, type DevelopServer } from '../../src/app/develop.js';
import { HttpClient } from '../helpers/http.js';
import { ROOT } from '../helpers/paths.js';
import { projectFiles } from '../helpers/projects.js';
import { BLOG } from '../helpers/server.js';

const REFERENCE = process.env.STRAPI_DIR ?? join(homedir(), 'strapi-reference');
const SHARED = [resolve(ROOT, '../shared'), resolve(ROOT, '../../shared')].find((dir) =>
  existsSync(join(dir, 'bench')),
)!;
const TEMPLATE = join(SHARED, 'bench/strapi/template');
const FIXTURES = join(ROOT, 'test/fixtures/content-type-builder');
const batches = JSON.parse(readFileSync(join(FIXTURES, 'batches.json'), 'utf8')) as { name: string; body: unknown }[];
const refusals = JSON.parse(readFileSync(join(FIXTURES, 'strapi-refusals.json'), 'utf8')) as {
  name: string;
  body: unknown;
}[];
const legacySteps = JSON.parse(readFileSync(join(FIXTURES, 'strapi-legacy.json'), 'utf8')) as {
  method: string;
  path: string;
  body?: unknown;
}[];
const PORT = 1417;
const ADMIN = { firstname: 'Ada', lastname: 'Admin', email: 'admin@example.com', password: 'Admin-Passw0rd!' };

async function until<T>(probe: () => Promise<T | undefined>, what: string, ms = 120_000): Promise<T> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${what}: not within ${ms} ms`);
}

/**
 * Once an accepted batch's next version serves (Strapi: after its restart). Each probe has its own
 * connection and a deadline: a keep-alive socket to the process Strapi shut down hangs otherwise.
 */
const applied = (client: HttpClient) =>
  until(async () => {
    const answer = await fetch(`${client.baseUrl}/content-type-builder/update-schema-status`, {
      headers: { ...client.defaultHeaders, connection: 'close' },
      signal: AbortSignal.timeout(2_000),
    });
    const body = (await answer.json()) as { data?: { isUpdating?: boolean } };
    return answer.status === 200 && body.data?.isUpdating === false ? true : undefined;
  }, 'the next version');

let strapiDir: string;
let strapiProcess: ChildProcess;
let strapi: HttpClient;
let vellumDir: string;
let dev: DevelopServer;
let vellum: HttpClient;

before(async () => {
  strapiDir = mkdtempSync(join(tmpdir(), 'vellum-diff-ctb-strapi-'));
  mkdirSync(join(strapiDir, 'src'));
  mkdirSync(join(strapiDir, '.tmp'));
  symlinkSync(join(REFERENCE, 'node_modules'), join(strapiDir, 'node_modules'));
  cpSync(join(TEMPLATE, 'package.json'), join(strapiDir, 'package.json'));
  cpSync(join(TEMPLATE, 'config'), join(strapiDir, 'config'), { recursive: true });
  cpSync(join(TEMPLATE, 'public'), join(strapiDir, 'public'), { recursive: true });
  cpSync(join(TEMPLATE, 'src/index.js'), join(strapiDir, 'src/index.js'));
  cpSync(join(TEMPLATE, 'env'), join(strapiDir, '.env'));
  for (const folder of ['api', 'components'])
    cpSync(join(BLOG, 'src', folder), join(strapiDir, 'src', folder), { recursive: true });
  strapiProcess = spawn(
    process.execPath,
    ['node_modules/@strapi/strapi/bin/strapi.js', 'develop', '--no-watch-admin', '--no-build-admin'],
    {
      cwd: strapiDir,
      env: { ...process.env, NODE_ENV: 'development', PORT: String(PORT), STRAPI_TELEMETRY_DISABLED: 'true' },
      // Its log, for a restart that does not come back.
      stdio: ['ignore', openSync(join(strapiDir, 'strapi.log'), 'w'), openSync(join(strapiDir, 'strapi.log'), 'a')],
    },
  );
  const url = `http://127.0.0.1:${PORT}`;
  await until(async () => ((await fetch(`${url}/api/articles`)).status === 200 ? true : undefined), 'Strapi');
  const registered = await new HttpClient(url).post('/admin/register-admin', ADMIN);
  strapi = new HttpClient(url, { authorization: `Bearer ${registered.body.data.token}` });

  vellumDir = mkdtempSync(join(tmpdir(), 'vellum-diff-ctb-vellum-'));
  cpSync(BLOG, vellumDir, { recursive: true, filter: (source) => !source.includes('.tmp') });
  dev = await startDevelop(vellumDir, {
    env: { NODE_ENV: 'test' },
    overrides: { server: { host: '127.0.0.1', port: 0 } },
  });
  await dev.current.auth.admins.create(ADMIN.email, ADMIN.password);
  const login = await new HttpClient(dev.url).post('/admin/login', { email: ADMIN.email, password: ADMIN.password });
  vellum = new HttpClient(dev.url, { authorization: `Bearer ${login.body.data.token}` });
});

after(async () => {
  strapiProcess?.kill('SIGTERM');
  await dev?.close();
  if (process.env.DIFF_KEEP) console.log(`kept ${strapiDir} and ${vellumDir}`);
  else for (const dir of [strapiDir, vellumDir]) if (dir) rmSync(dir, { recursive: true, force: true });
});

test('the same reads', async () => {
  for (const path of ['schema', 'reserved-names', 'content-types/api::article.article', 'components/shared.seo']) {
    const [a, b] = [
      await strapi.get(`/content-type-builder/${path}`),
      await vellum.get(`/content-type-builder/${path}`),
    ];
    const visible = (body: { data?: { contentTypes?: Record<string, unknown> } }) => {
      if (body.data?.contentTypes)
        body.data.contentTypes = Object.fromEntries(
          Object.entries(body.data.contentTypes).filter(
            ([uid]) => uid.startsWith('api::') || uid === 'plugin::users-permissions.user',
          ),
        );
      return body;
    };
    assert.deepEqual([b.status, visible(b.body)], [a.status, visible(a.body)], path);
  }
});

test('the same refusals, nothing written', async () => {
  for (const refusal of refusals) {
    const send = (client: HttpClient) =>
      fetch(`${client.baseUrl}/content-type-builder/update-schema`, {
        method: 'POST',
        headers: { ...client.defaultHeaders, 'content-type': 'application/json' },
        body: refusal.body === null ? undefined : JSON.stringify(refusal.body),
      }).then(async (answer) => [answer.status, await answer.json()]);
    const [a, b] = [await send(strapi), await send(vellum)];
    if (a[0] === 200) await applied(strapi);
    assert.deepEqual(b, a, refusal.name);
  }
  assert.deepEqual(projectFiles(vellumDir), projectFiles(strapiDir));
});

test('the same files after each batch; the time to the next version', async () => {
  for (const batch of batches) {
    const timed = async (client: HttpClient) => {
      const began = performance.now();
      const answer = await client.post('/content-type-builder/update-schema', batch.body);
      assert.deepEqual([answer.status, answer.body], [200, {}], batch.name);
      // Strapi answers before it restarts: its flag is still set on the old process.
      await applied(client);
      return Math.round(performance.now() - began);
    };
    const [strapiMs, vellumMs] = [await timed(strapi), await timed(vellum)];
    console.log(`${batch.name}: Strapi ${strapiMs} ms, Vellum ${vellumMs} ms`);
    assert.deepEqual(projectFiles(vellumDir), projectFiles(strapiDir), batch.name);
  }
});

test("the same answers and files for Strapi's older per-model routes", async () => {
  for (const step of legacySteps) {
    const send = async (client: HttpClient) => {
      const answer = await fetch(`${client.baseUrl}/content-type-builder${step.path}`, {
        method: step.method,
        headers: { ...client.defaultHeaders, 'content-type': 'application/json' },
        body: step.body === undefined ? undefined : JSON.stringify(step.body),
      });
      const result = [answer.status, await answer.json()];
      await applied(client);
      return result;
    };
    const label = `${step.method} ${step.path}`;
    assert.deepEqual(await send(vellum), await send(strapi), label);
    assert.deepEqual(projectFiles(vellumDir), projectFiles(strapiDir), label);
  }
});
