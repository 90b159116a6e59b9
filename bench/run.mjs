#!/usr/bin/env node
// `npm run bench`: starts Vellum (dist/) on a fresh SQLite database with the blog example, seeds it
// with bench/seed.mjs, then measures throughput and latency with wrk and prints a table. For
// comparison it also measures a bare node:http server answering the same precomputed list
// response: the ceiling for this machine. Beside throughput and latency it reports the server's CPU
// time per request (from /proc) and its peak RSS (VmHWM).
//
// Beside the fixed URLs, distinct_reads cycles through about 600 distinct read URLs a site sends
// and mixed_writes sends the same with one `PUT` in WRITE_EVERY (20) requests (bench/traffic.mjs;
// bench/mixed.mjs sends the same requests to any server, Strapi too). Every scenario runs twice:
// with the response cache, then on a server started with REST_CACHE=false on the same database.
//
// The real Strapi 5.54 (../shared/bench/strapi, bench/strapi.mjs; STRAPI=0 leaves it out) is seeded and measured
// first with the same scenarios, and the run ends with issue 36's targets, each beside Strapi's
// figure from this run: CPU per request without the response cache (1/10 of Strapi's), writes (20x
// its throughput), mixed traffic (10x), cold start (300 ms) and idle memory (80 MB).
//
// Env: N (articles, default 2000), DURATION (seconds per scenario, 10), CONNECTIONS (10),
// WARMUP (seconds, 3), SCENARIOS (comma list), CACHE_OFF (0: skip the pass without the cache),
// WRITE_EVERY (20), WORKERS (the server's processes, VELLUM_WORKERS: default 1, so figures compare
// across runs; `auto` for one per core; CPU and memory are then the sum over the primary and its
// workers), NODE_FLAGS (the server's node flags; default --max-semi-space-size=2 as npm start),
// OUT (write the JSON summary there).
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildTraffic, fetchRetry, writeDocumentsLua, writeTrafficLua } from './traffic.mjs';
import { startStrapi, stopStrapi, strapiScripts } from './strapi.mjs';
import { startVellum as spawnVellum } from './vellum.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const N = process.env.N ?? '2000';
const DURATION = Number(process.env.DURATION ?? 10);
const WARMUP = Number(process.env.WARMUP ?? 3);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 10);
const WRITE_EVERY = Number(process.env.WRITE_EVERY ?? 20);
// As `npm start` runs the server (package.json); NODE_FLAGS=' ' measures Node's defaults.
const NODE_FLAGS = (process.env.NODE_FLAGS ?? '--max-semi-space-size=2').split(' ').filter(Boolean);
const PORT = 20000 + Math.floor(Math.random() * 20000);
const WORKERS = process.env.WORKERS ?? '1';
const BASE = `http://127.0.0.1:${PORT}`;
// Strapi beside Vellum whenever the reference scripts are there (STRAPI=0: Vellum alone).
const WITH_STRAPI =
  process.env.STRAPI === '1' ||
  (process.env.STRAPI !== '0' &&
    existsSync(
      process.env.STRAPI_BENCH ?? resolve(dirname(fileURLToPath(import.meta.url)), '../../shared/bench/strapi'),
    ));
// graphql_list: Vellum's blog example answers the v4 compatibility shape, Strapi 5 its flat one.
const GRAPHQL_V4 =
  '{ articles(pagination: { pageSize: 25 }) { data { id attributes { title views author { data { attributes { name } } } } } } }';
const GRAPHQL_V5 = '{ articles(pagination: { pageSize: 25 }) { documentId title views author { name } } }';

if (spawnSync('wrk', ['--version']).error) {
  console.error('wrk is needed on the PATH (Debian: apt-get install -y wrk)');
  process.exit(1);
}

const dir = mkdtempSync(join(tmpdir(), 'vellum-bench-'));
/** The server's processes: `pid` and, with workers, its children (Linux /proc). */
const processTree = (pid) => {
  const children = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const parent = Number(readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1].split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]) ?? []));
  return tree;
};
/** A /proc/<pid>/status field in MB, summed over the server's processes. */
const statusMb = (pid, field) =>
  processTree(pid).reduce((sum, one) => {
    try {
      const status = readFileSync(`/proc/${one}/status`, 'utf8');
      return sum + Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024;
    } catch {
      return sum;
    }
  }, 0);
const rss = (pid) => statusMb(pid, 'VmRSS');

const vellumEnv = (extra = {}) => ({
  ...process.env,
  ...extra,
  NODE_ENV: 'production',
  VELLUM_WORKERS: WORKERS,
  JWT_SECRET: 'bench-only-jwt-secret-0123456789',
  PORT: String(PORT),
  HOST: '127.0.0.1',
  DATABASE_FILENAME: join(dir, 'bench.db'),
});

/** A full-access API token for seeding, and sent with every REST request as the shared bench does. */
function createToken() {
  const out = spawnSync(
    process.execPath,
    [
      join(root, 'dist/app/cli/main.js'),
      'token',
      'create',
      '--type',
      'full-access',
      '--name',
      `bench ${Date.now()}`,
      '--project',
      join(root, 'examples/blog'),
    ],
    { env: vellumEnv(), encoding: 'utf8' },
  );
  if (out.status !== 0) throw new Error(`token create failed: ${out.stderr}`);
  return out.stdout.trim().split('\n').at(-1);
}

async function startVellum(extraEnv) {
  const started = Date.now();
  const child = await spawnVellum({ env: vellumEnv(extraEnv), flags: NODE_FLAGS });
  // To the first answer, as the reference's start.sh measures Strapi's.
  await (await fetchRetry(`${BASE}/api/articles`)).arrayBuffer();
  const coldStartMs = Date.now() - started;
  // Idle: after start-up's garbage is collected (the first scavenges come within a second).
  await new Promise((done) => setTimeout(done, 1000));
  return { child, coldStartMs, idleRss: rss(child.pid) };
}

const LUA = `
local counter = 0
request = function()
  if wrk.method == "POST" then
    counter = counter + 1
    local body = string.gsub(wrk.body, "__N__", tostring(counter) .. "-" .. tostring(math.random(1, 1e9)))
    return wrk.format(nil, nil, nil, body)
  end
  return wrk.format()
end
done = function(summary, latency, requests)
  io.write(string.format("RESULT %d %d %d %.3f %.3f %.3f %.3f\\n", summary.requests, summary.errors.status + summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout, summary.duration, latency:percentile(50) / 1000, latency:percentile(90) / 1000, latency:percentile(99) / 1000, latency.max / 1000))
end`;
const luaFile = join(dir, 'bench.lua');
writeFileSync(luaFile, LUA);

let TOKEN = '';

function wrk(url, seconds, { method = 'GET', body, graphql = false, lua, token = TOKEN } = {}) {
  // A traffic script (bench/traffic.mjs) sets its own methods, paths and headers.
  const args = ['-t1', `-c${CONNECTIONS}`, `-d${seconds}s`, '-s', lua ?? luaFile, '--latency', url];
  if (method !== 'GET') args.push('-H', 'Content-Type: application/json');
  // Like the shared bench (../shared/bench/run.mjs), every REST request carries the API token.
  if (!graphql && !lua && token) args.push('-H', `Authorization: Bearer ${token}`);
  const script =
    method !== 'GET'
      ? `wrk.method = "${method}"\nwrk.body = ${JSON.stringify(JSON.stringify(body))}\nwrk.headers["Content-Type"] = "application/json"\n` +
        LUA
      : LUA;
  if (!lua) writeFileSync(luaFile, script);
  const result = spawnSync('wrk', args, { encoding: 'utf8' });
  const match = /RESULT (\d+) (\d+) (\d+) ([\d.]+) ([\d.]+) ([\d.]+) ([\d.]+)/.exec(result.stdout);
  if (!match) throw new Error(`wrk failed: ${result.stdout}${result.stderr}`);
  const [, requests, errors, micros, p50, p90, p99, max] = match.map(Number);
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(result.stdout)?.[1] ?? 0);
  return { rps: requests / (micros / 1e6), requests, errors: errors + non2xx, p50, p90, p99, max };
}

/** CPU time (user + system, ms) the server's processes have used so far, from /proc (Linux). */
const cpuMs = (pid) =>
  processTree(pid).reduce((sum, one) => {
    try {
      const fields = readFileSync(`/proc/${one}/stat`, 'utf8').split(') ')[1].split(' ');
      return sum + ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
    } catch {
      return one === pid ? NaN : sum;
    }
  }, 0);
const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK']).stdout?.toString().trim()) || 100;
/** Peak RSS so far (VmHWM), in MB, summed over the server's processes. */
const peakRss = (pid) => statusMb(pid, 'VmHWM');

function measure(name, url, options, pid) {
  if (WARMUP > 0) wrk(url, WARMUP, options);
  const cpuBefore = cpuMs(pid);
  const result = wrk(url, DURATION, options);
  const cpuPerRequest = (cpuMs(pid) - cpuBefore) / result.requests;
  console.error(`  ${name}: ${result.rps.toFixed(0)} req/s, ${cpuPerRequest.toFixed(2)} ms CPU per request`);
  return { name, ...result, cpuPerRequest, peakRss: peakRss(pid) };
}

/** Runs every scenario against a started server; the results and the server's RSS. */
async function runPass(
  { pid, idleRss, base = BASE, token = TOKEN, graphqlQuery = GRAPHQL_V4 },
  label,
  traffic,
  documentId,
) {
  const BASE = base;
  const results = [];
  console.error(`${label}: RSS idle ${idleRss.toFixed(0)} MB`);
  const scenarios = [
    ['list_default', `${BASE}/api/articles`],
    ['list_page100', `${BASE}/api/articles?pagination[pageSize]=100`],
    ['filter_sort', `${BASE}/api/articles?filters[views][$gt]=500&filters[kind][$eq]=news&sort[0]=publishDate:desc`],
    ['deep_filter_relation', `${BASE}/api/articles?filters[author][name][$containsi]=a`],
    ['populate_star', `${BASE}/api/articles?populate=*`],
    [
      'deep_populate',
      `${BASE}/api/articles?populate[author][populate][0]=avatar&populate[category]=true&populate[tags]=true&populate[seo][populate]=*&populate[blocks][populate]=*`,
    ],
    ['find_one', `${BASE}/api/articles/${documentId}`],
    // A site's traffic: ~600 distinct read URLs, then the same with one PUT in WRITE_EVERY.
    ['distinct_reads', BASE, { lua: traffic.reads }],
    ['mixed_writes', BASE, { lua: traffic.mixed }],
    ['mixed_writes_5', BASE, { lua: traffic.mixed5 }],
    // Whole documents (relations, components, a zone) written, as bench/mixed.mjs writes them to Strapi.
    ['create_full', BASE, { lua: traffic.createFull }],
    ['update_full', BASE, { lua: traffic.updateFull }],
    [
      'create',
      `${BASE}/api/articles`,
      { method: 'POST', body: { data: { title: 'Bench __N__', views: 1, kind: 'news' } } },
    ],
    // The shared bench's graphql_list: 25 articles with their author's name, in the server's shape.
    ['graphql_list', `${BASE}/graphql`, { method: 'POST', graphql: true, body: { query: graphqlQuery } }],
  ];
  const wanted = process.env.SCENARIOS?.split(',');
  for (const [name, url, options] of scenarios) {
    if (wanted && !wanted.includes(name)) continue;
    if (!options?.lua) {
      const probeBody = options?.graphql ? options.body : { data: { title: `probe ${Date.now()}` } };
      const headers = {
        'content-type': 'application/json',
        ...(options?.graphql ? {} : { authorization: `Bearer ${token}` }),
      };
      const probe = await fetchRetry(
        url,
        options ? { method: 'POST', headers, body: JSON.stringify(probeBody) } : undefined,
      );
      if (probe.status >= 400 || (options?.graphql && (await probe.clone().json()).errors)) {
        results.push({ name, skipped: `HTTP ${probe.status}` });
        console.error(`  ${name}: skipped (HTTP ${probe.status})`);
        continue;
      }
    }
    results.push(measure(name, url, { ...options, token }, pid));
  }
  return { results, idleRss, peakRss: peakRss(pid) };
}

const stop = async (child) => {
  const exited = new Promise((done) => child.once('exit', done));
  child.kill('SIGTERM');
  await exited;
};

const passes = [];
let strapi;
let coldStartMs = 0;
let listBody;

/** The read URLs and write scripts of a seeded server (the same list on every server: bench/traffic.mjs). */
async function prepareTraffic(base, token, name) {
  const urls = await buildTraffic(base, token);
  for (const path of urls.reads) {
    const res = await fetchRetry(base + path, { headers: { authorization: `Bearer ${token}` } });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`GET ${path} on ${name}: HTTP ${res.status}`);
  }
  const DONE = LUA.slice(LUA.indexOf('done = function'));
  const traffic = {
    reads: join(dir, `${name}-reads.lua`),
    mixed: join(dir, `${name}-mixed.lua`),
    mixed5: join(dir, `${name}-mixed5.lua`),
    createFull: join(dir, `${name}-create-full.lua`),
    updateFull: join(dir, `${name}-update-full.lua`),
  };
  writeTrafficLua(traffic.reads, urls, { token, doneLua: DONE });
  writeTrafficLua(traffic.mixed, urls, { writeEvery: WRITE_EVERY, token, doneLua: DONE });
  writeTrafficLua(traffic.mixed5, urls, { writeEvery: 5, token, doneLua: DONE });
  writeDocumentsLua(traffic.createFull, urls, { mode: 'create', token, doneLua: DONE });
  writeDocumentsLua(traffic.updateFull, urls, { mode: 'update', token, doneLua: DONE });
  const first = await (
    await fetchRetry(`${base}/api/articles?sort=id:asc&pagination[pageSize]=1`, {
      headers: { authorization: `Bearer ${token}` },
    })
  ).json();
  console.error(`${urls.reads.length} distinct read URLs (bench/traffic.mjs)`);
  return { traffic, documentId: first.data[0].documentId };
}

try {
  if (WITH_STRAPI) {
    // Strapi first, seeded the same way, then stopped: the two never share the machine.
    const scripts = strapiScripts(root);
    const strapiPort = PORT + 2;
    const strapiBase = `http://127.0.0.1:${strapiPort}`;
    console.error(`Strapi: starting on an empty database (the first run installs it: minutes)...`);
    let started = startStrapi(scripts, strapiPort, { reset: true });
    try {
      console.error(`Strapi up in ${started.coldStartMs} ms; seeding ${N} articles...`);
      const seed = spawnSync(process.execPath, [join(root, 'bench/seed.mjs')], {
        env: { ...process.env, BASE_URL: strapiBase, N, QUIET: '1', TOKEN: started.token },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      if (seed.status !== 0) throw new Error('seeding Strapi failed');
    } finally {
      await stopStrapi(started.pid);
    }
    started = startStrapi(scripts, strapiPort);
    try {
      await new Promise((done) => setTimeout(done, 1000));
      const idleRss = rss(started.pid);
      const { traffic, documentId } = await prepareTraffic(strapiBase, started.token, 'strapi');
      const pass = await runPass(
        { pid: started.pid, idleRss, base: strapiBase, token: started.token, graphqlQuery: GRAPHQL_V5 },
        'Strapi 5.54',
        traffic,
        documentId,
      );
      strapi = { coldStartMs: started.coldStartMs, ...pass };
    } finally {
      await stopStrapi(started.pid);
    }
  }

  const first = await startVellum();
  coldStartMs = first.coldStartMs;
  console.error(`Vellum up in ${coldStartMs} ms; seeding ${N} articles...`);
  let child = first.child;
  try {
    TOKEN = createToken();
    const seed = spawnSync(process.execPath, [join(root, 'bench/seed.mjs')], {
      env: { ...process.env, BASE_URL: BASE, N, QUIET: '1', TOKEN },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    if (seed.status !== 0) throw new Error('seeding failed');
    // Seeding grew the heap: measure from a fresh start, as a deployed node would.
    await stop(child);
    // The seeded database, kept: the pass without the cache starts from it too, not from what the
    // first pass's writes (create, create_full, update_full) left.
    const database = join(dir, 'bench.db');
    const copy = (from, to) => {
      copyFileSync(from, to);
      rmSync(`${to}-shm`, { force: true });
      rmSync(`${to}-wal`, { force: true });
      if (existsSync(`${from}-wal`)) copyFileSync(`${from}-wal`, `${to}-wal`);
    };
    const restore = () => copy(`${database}.seeded`, database);
    copy(database, `${database}.seeded`);
    let started = await startVellum();
    child = started.child;
    // The start measured: on the seeded database, as Strapi's (the first one created the tables).
    coldStartMs = started.coldStartMs;
    const { traffic, documentId } = await prepareTraffic(BASE, TOKEN, 'vellum');
    const server = (run) => ({ pid: run.child.pid, idleRss: run.idleRss });
    passes.push({ cache: 'on', ...(await runPass(server(started), 'response cache on', traffic, documentId)) });
    listBody = Buffer.from(await (await fetchRetry(`${BASE}/api/articles`)).text());
    if (process.env.CACHE_OFF !== '0') {
      await stop(child);
      restore();
      started = await startVellum({ REST_CACHE: 'false' });
      child = started.child;
      passes.push({ cache: 'off', ...(await runPass(server(started), 'REST_CACHE=false', traffic, documentId)) });
    }
  } finally {
    child.kill('SIGTERM');
  }

  // The ceiling: node:http answering the precomputed default list response.
  const body = listBody;
  const bare = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
    res.end(body);
  });
  await new Promise((done) => bare.listen(PORT + 1, '127.0.0.1', done));
  // wrk runs in a child process; node:http answers on this event loop meanwhile.
  const ceiling = await new Promise((done) => {
    const run = spawn(
      process.execPath,
      [
        '-e',
        `
      const { spawnSync } = require('node:child_process');
      const r = spawnSync('wrk', ['-t1', '-c${CONNECTIONS}', '-d${DURATION}s', '-s', ${JSON.stringify(luaFile)}, 'http://127.0.0.1:${PORT + 1}/api/articles'], { encoding: 'utf8' });
      process.stdout.write(r.stdout);`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    run.stdout.on('data', (c) => (out += c));
    run.on('exit', () => done(out));
  });
  writeFileSync(luaFile, LUA);
  bare.close();
  const m = /RESULT (\d+) (\d+) (\d+) ([\d.]+) ([\d.]+) ([\d.]+) ([\d.]+)/.exec(ceiling);
  const bareRps = m ? Number(m[1]) / (Number(m[3]) / 1e6) : NaN;

  const [on, off] = passes;
  const list = on.results.find((r) => r.name === 'list_default');
  const listOff = off?.results.find((r) => r.name === 'list_default');
  console.log(
    `\nVellum bench: ${N} articles, SQLite, ${WORKERS === '1' ? '1 process' : `VELLUM_WORKERS=${WORKERS}`}, wrk -t1 -c${CONNECTIONS} -d${DURATION}s${NODE_FLAGS.length ? `, node ${NODE_FLAGS.join(' ')}` : ''}; cold start ${coldStartMs} ms`,
  );
  for (const pass of passes)
    console.log(
      `response cache ${pass.cache}: RSS idle ${pass.idleRss.toFixed(0)} MB, peak (VmHWM) ${pass.peakRss.toFixed(0)} MB`,
    );
  console.log(
    `ceiling (bare node:http, the same list body): ${bareRps.toFixed(0)} req/s; list_default ${list?.rps ? ((list.rps / bareRps) * 100).toFixed(1) : '-'}% of it with the cache, ${listOff?.rps ? ((listOff.rps / bareRps) * 100).toFixed(1) : '-'}% without`,
  );
  const strapiOf = (name) => strapi?.results.find((r) => r.name === name);
  console.log(
    `\n| scenario |${strapi ? ' Strapi req/s | CPU ms/req |' : ''} req/s | p50 ms | p99 ms | errors | server CPU ms/req | no cache: req/s | p50 ms | p99 ms | errors | server CPU ms/req |`,
  );
  console.log(`|---|${strapi ? '---:|---:|' : ''}---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|`);
  const cells = (r) =>
    !r
      ? ['', '', '', '', '']
      : r.skipped
        ? [`skipped: ${r.skipped}`, '', '', '', '']
        : [r.rps.toFixed(0), r.p50.toFixed(2), r.p99.toFixed(2), String(r.errors), r.cpuPerRequest.toFixed(2)];
  const strapiCells = (r) =>
    !strapi ? [] : !r || r.skipped ? ['-', '-'] : [r.rps.toFixed(0), r.cpuPerRequest.toFixed(2)];
  for (const r of on.results)
    console.log(
      `| ${r.name} | ${[...strapiCells(strapiOf(r.name)), ...cells(r), ...cells(off?.results.find((o) => o.name === r.name))].join(' | ')} |`,
    );
  if (strapi) printTargets(strapi, on, off);
  if (process.env.OUT)
    writeFileSync(process.env.OUT, JSON.stringify({ coldStartMs, ceiling: bareRps, passes, strapi }, null, 2));
} finally {
  rmSync(dir, { recursive: true, force: true });
}

/**
 * Issue 36's targets, each beside Strapi's figure from this run: CPU per request without the
 * response cache at most a tenth of Strapi's; writes at least 20x and mixed traffic at least 10x
 * its throughput (with the cache, as deployed); cold start and idle memory as absolute figures.
 */
function printTargets(strapi, on, off) {
  const find = (pass, name) => pass?.results.find((r) => r.name === name && !r.skipped);
  const rows = [];
  const ratio = (a, b) => (a && b ? a / b : NaN);
  const engine = ['list_default', 'list_page100', 'filter_sort', 'deep_filter_relation', 'populate_star'];
  engine.push('deep_populate', 'find_one', 'graphql_list', 'distinct_reads');
  for (const name of engine) {
    const s = find(strapi, name);
    const v = find(off, name);
    const x = ratio(s?.cpuPerRequest, v?.cpuPerRequest);
    rows.push([
      `uncached engine: ${name}`,
      `${s?.cpuPerRequest.toFixed(2)} ms`,
      `${v?.cpuPerRequest.toFixed(2)} ms`,
      x,
      10,
    ]);
  }
  for (const name of ['create_full', 'update_full', 'create']) {
    const s = find(strapi, name);
    const v = find(on, name);
    rows.push([
      `writes: ${name}`,
      `${s?.rps.toFixed(0)} req/s`,
      `${v?.rps.toFixed(0)} req/s`,
      ratio(v?.rps, s?.rps),
      20,
    ]);
  }
  for (const [name, label] of [
    ['mixed_writes', `mixed, one write in ${WRITE_EVERY}`],
    ['mixed_writes_5', 'mixed, one write in 5'],
  ]) {
    const s = find(strapi, name);
    const v = find(on, name);
    rows.push([label, `${s?.rps.toFixed(0)} req/s`, `${v?.rps.toFixed(0)} req/s`, ratio(v?.rps, s?.rps), 10]);
  }
  console.log('\nIssue 36 targets, beside Strapi 5.54 from this run:\n');
  console.log('| target | Strapi | Vellum | Vellum / Strapi | goal | met |');
  console.log('|---|---:|---:|---:|---:|---|');
  for (const [label, s, v, x, goal] of rows)
    console.log(
      `| ${label} | ${s} | ${v} | ${Number.isNaN(x) ? '-' : `${x.toFixed(1)}x`} | ${goal}x | ${x >= goal ? 'yes' : 'no'} |`,
    );
  const idle = on.idleRss;
  console.log(
    `| cold start (spawn to first answer) | ${strapi.coldStartMs} ms | ${coldStartMs} ms | | <= 300 ms | ${coldStartMs <= 300 ? 'yes' : 'no'} |`,
  );
  console.log(
    `| idle memory (RSS) | ${strapi.idleRss.toFixed(0)} MB | ${idle.toFixed(0)} MB | | <= 80 MB | ${idle <= 80 ? 'yes' : 'no'} |`,
  );
}
