#!/usr/bin/env node
// `npm run bench:attack`: how long `/_health` waits while the worst requests the limits allow run
// (docs/security.md "Limits against denial of service"). Starts Vellum (dist/) on SQLite with the blog example, seeds N articles over
// the API and copies them in SQL up to about ROWS rows (new documentIds, bodies as seeded), then for
// each attack keeps CONCURRENCY of its requests in flight for SECONDS while one client probes
// `/_health` every 5 ms, and prints the attack's latency and the probes' p50, p99 and max.
//
// SQLite only: it is the dialect where a statement runs in Vellum's process (on PostgreSQL and
// MariaDB the database server runs it and the event loop waits for nothing).
//
// Env: N (2000), ROWS (100000), SECONDS (5), CONCURRENCY (2), PORT (1491), KEEP=<dir> (reuse a
// seeded database there between runs), ONLY=<word> (the attacks whose name has it), NODE_FLAGS
// (for the server: "--cpu-prof").
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { startVellum, stopVellum } from './vellum.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const int = (name, fallback) => (process.env[name] ? parseInt(process.env[name], 10) : fallback);
const N = int('N', 2000);
const ROWS = int('ROWS', 100_000);
const SECONDS = int('SECONDS', 5);
const CONCURRENCY = int('CONCURRENCY', 2);
const PORT = int('PORT', 1491);
const BASE = `http://127.0.0.1:${PORT}`;
const dir = process.env.KEEP ?? mkdtempSync(join(tmpdir(), 'vellum-attack-'));
mkdirSync(dir, { recursive: true });
const filename = join(dir, 'attack.db');
const env = {
  ...process.env,
  // One process, as its figures were measured until workers (VELLUM_WORKERS=auto for every core).
  VELLUM_WORKERS: process.env.VELLUM_WORKERS ?? '1',
  NODE_ENV: 'production',
  JWT_SECRET: 'bench-only-jwt-secret-0123456789',
  PORT: String(PORT),
  HOST: '127.0.0.1',
  DATABASE_FILENAME: filename,
};
const cli = join(root, 'dist/app/cli/main.js');
const project = join(root, 'examples/blog');

const start = () => startVellum({ env, flags: process.env.NODE_FLAGS ? process.env.NODE_FLAGS.split(' ') : [] });
const stop = stopVellum;

async function seed() {
  const server = await start();
  const token = spawnSync(
    process.execPath,
    [cli, 'token', 'create', '--type', 'full-access', '--name', 'attack', '--project', project],
    { env, encoding: 'utf8' },
  )
    .stdout.trim()
    .split('\n')
    .at(-1);
  const seeded = spawnSync(process.execPath, [join(root, 'bench/seed.mjs')], {
    env: { ...process.env, BASE_URL: BASE, N: String(N), QUIET: '1', TOKEN: token },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await stop(server);
  if (seeded.status !== 0) throw new Error('seeding failed');
  const db = new Database(filename);
  const columns = db
    .prepare("select name from pragma_table_info('articles') where name not in ('id', 'document_id')")
    .all()
    .map((row) => `"${row.name}"`);
  // Slugs are unique per locale among published rows: each copy gets a suffix.
  const copied = columns.map((column) => (column === '"slug"' ? `"slug" || '-' || hex(randomblob(4))` : column));
  const copy = db.prepare(
    `insert into articles (document_id, ${columns.join(', ')}) select lower(hex(randomblob(12))), ${copied.join(', ')} from articles limit ?`,
  );
  for (
    let count = db.prepare('select count(*) as n from articles').get().n;
    count < ROWS;
    count = db.prepare('select count(*) as n from articles').get().n
  )
    copy.run(ROWS - count);
  db.close();
}

/** Keeps `CONCURRENCY` requests of the attack in flight for `SECONDS`; probes `/_health` meanwhile. */
async function attack(name, send) {
  if (process.env.ONLY && !name.includes(process.env.ONLY)) return;
  const server = await start();
  // Warm: the first answers pay for compiling code paths, not for the attack.
  for (let i = 0; i < 20; i++) await fetch(`${BASE}/_health`);
  await send();
  const until = performance.now() + SECONDS * 1000;
  const took = [];
  const statuses = new Map();
  const loop = async () => {
    while (performance.now() < until) {
      const started = performance.now();
      const status = await send();
      took.push(performance.now() - started);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
  };
  const loops = Array.from({ length: CONCURRENCY }, loop);
  const probes = [];
  while (performance.now() < until) {
    const started = performance.now();
    await fetch(`${BASE}/_health`);
    probes.push(performance.now() - started);
    await new Promise((done) => setTimeout(done, 5));
  }
  await Promise.all(loops);
  await stop(server);
  const at = (list, q) => list.sort((a, b) => a - b)[Math.min(list.length - 1, Math.floor(list.length * q))];
  const ms = (value) => `${value.toFixed(1)} ms`;
  console.log(
    `| ${name} | ${[...statuses].map(([status, count]) => `${count}× ${status}`).join(', ')} | ${ms(at(took, 0.5))} | ${ms(at(took, 1))} | ${probes.length} | ${ms(at(probes, 0.5))} | ${ms(at(probes, 0.99))} | ${ms(at(probes, 1))} |`,
  );
}

let counter = 0;
/** `path(n)` differs per request: the response cache answers none of them. */
const get = (path) => async () => {
  const response = await fetch(`${BASE}${path((counter += 1))}`);
  await response.arrayBuffer();
  return response.status;
};

if (!existsSync(filename)) await seed();
const rows = new Database(filename, { readonly: true }).prepare('select count(*) as n from articles').get().n;
console.error(`${rows} article rows in ${filename}; ${CONCURRENCY} attack requests in flight for ${SECONDS} s each`);

// The blog example serves GraphQL in the specification's (v4) shape: `article(id)`.
const ids = new Database(filename, { readonly: true })
  .prepare('select id from articles where published_at is not null limit 100')
  .all()
  .map((row) => row.id);
const aliases = ids.map((id, i) => `a${i}: article(id: "${id}") { data { id attributes { title body } } }`).join(' ');

console.log('| attack | answers | its p50 | its max | `/_health` probes | p50 | p99 | max |');
console.log('|---|---|---|---|---|---|---|---|');
await attack('none (baseline)', async () => (await new Promise((done) => setTimeout(done, 50)), 0));
await attack(
  'filter through 4 relations (the most allowed)',
  get((n) => `/api/articles?filters[category][articles][category][articles][title][$containsi]=zzz${n}`),
);
await attack(
  '`$containsi` with a 200-character operand (the longest allowed)',
  get((n) => `/api/articles?filters[body][$containsi]=${String(n).padStart(200, 'q')}`),
);
await attack('GraphQL, 100 aliased `article(id)` (the most root fields allowed)', async () => {
  const response = await fetch(`${BASE}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: `{ n${(counter += 1)}: __typename ${aliases} }` }),
  });
  const body = await response.json();
  if (response.status !== 200) throw new Error(JSON.stringify(body).slice(0, 400));
  return response.status;
});
await attack(
  'populate to the read budget (categories, articles, category, articles)',
  get(
    (n) =>
      `/api/categories?pagination[pageSize]=100&populate[articles][populate][category][populate][articles]=true&filters[name][$ne]=${n}`,
  ),
);
