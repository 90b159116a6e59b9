#!/usr/bin/env node
// Two builds of Vellum measured against each other on the bench's write scenarios, interleaved:
// this machine is shared and its speed moves by ±25% within minutes, so one build after the other
// measures the machine as much as the code. One database is seeded once (bench/seed.mjs, N
// articles); then every round starts each build in turn (the order alternates) on a fresh copy of
// that file, with the response cache off, and runs the scenarios with wrk, reading the server's
// CPU time per request from /proc. Prints each round and the medians per build, and each server's
// peak RSS (VmHWM).
//
// Env: BUILDS (two folders, each with dist/app/cli/main.js and a package.json; default: a copy of
// the base build in .tmp/ab/base, then this checkout), ROUNDS (3), DURATION (seconds per scenario,
// 8), WARMUP (2), N (2000), SCENARIOS (create,create_full,update_full; the reads of `npm run bench`
// too: list_default, list_page100, filter_sort, deep_filter_relation, populate_star, deep_populate,
// find_one, distinct_reads; bench/ab-reads.mjs runs those by default), CONNECTIONS (10),
// NODE_FLAGS (the servers' node flags; default --max-semi-space-size=2 as npm start), SEEDED (a
// file to keep the seeded database in, with its token in SEEDED.token, reused by the next run),
// AB_PORT (the servers' port; default a random one), BUILD_ENV (per build, `|` between builds: `NAME=value` pairs separated by spaces, given to that
// build's servers: `BUILDS=b,b BUILD_ENV='REST_CACHE=false|'` compares one build's settings).
//
// Scenarios: the writes (create, create_full, update_full) and the reads run on a server without the
// response cache; mixed_writes and mixed_writes_5 (bench/traffic.mjs: the ~600 read URLs with one
// views-only `PUT` of an article in 20 and in 5) and distinct_reads_cached on a server with it.
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildTraffic, fetchRetry, writeDocumentsLua, writeTrafficLua } from './traffic.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
// A build may name node flags of its own after a '#' (`.tmp/ab/base#--single-threaded-gc`): one
// build against itself under other flags.
const BUILDS = (process.env.BUILDS ?? `${join(root, '.tmp/ab/base')},${root}`).split(',').map((b) => {
  const [folder, ...flags] = b.split('#');
  return { dir: resolve(folder), flags: flags.join(' ').split(' ').filter(Boolean), name: b };
});
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const DURATION = Number(process.env.DURATION ?? 8);
const WARMUP = Number(process.env.WARMUP ?? 2);
const N = process.env.N ?? '2000';
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 10);
const SCENARIOS = (process.env.SCENARIOS ?? 'create,create_full,update_full').split(',');
const BUILD_ENV = (process.env.BUILD_ENV ?? '').split('|').map((pairs) =>
  Object.fromEntries(
    pairs
      .split(' ')
      .filter(Boolean)
      .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
  ),
);
/** Scenarios measured with the response cache on (as deployed); the others without it. */
const CACHED = new Set(['mixed_writes', 'mixed_writes_5', 'distinct_reads_cached']);
const NODE_FLAGS = (process.env.NODE_FLAGS ?? '--max-semi-space-size=2').split(' ').filter(Boolean);
const PORT = Number(process.env.AB_PORT) || 20000 + Math.floor(Math.random() * 20000);
const BASE = `http://127.0.0.1:${PORT}`;
const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK']).stdout?.toString().trim()) || 100;

const dir = mkdtempSync(join(tmpdir(), 'vellum-ab-'));
const database = join(dir, 'bench.db');
const env = (extra = {}) => ({
  ...process.env,
  NODE_ENV: 'production',
  VELLUM_WORKERS: '1',
  JWT_SECRET: 'bench-only-jwt-secret-0123456789',
  PORT: String(PORT),
  HOST: '127.0.0.1',
  DATABASE_FILENAME: database,
  ...extra,
});

async function start(build, extra) {
  const child = spawn(
    process.execPath,
    [...NODE_FLAGS, ...build.flags, join(build.dir, 'dist/app/cli/main.js'), 'start', join(root, 'examples/blog')],
    { env: env(extra), stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise((done, fail) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (/serving/.test(out)) done();
    });
    child.on('exit', (code) => fail(new Error(`vellum exited with ${code}: ${out}`)));
  });
  await (await fetchRetry(`${BASE}/api/articles`)).arrayBuffer();
  return child;
}
const stop = (child) => new Promise((done) => (child.once('exit', done), child.kill('SIGTERM')));
const copy = (from, to) => {
  copyFileSync(from, to);
  for (const suffix of ['-wal', '-shm']) rmSync(`${to}${suffix}`, { force: true });
  if (existsSync(`${from}-wal`)) copyFileSync(`${from}-wal`, `${to}-wal`);
  spawnSync('sync');
};
const cpuMs = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
};
/** The server's peak resident memory so far (VmHWM), MB. */
const peakMb = (pid) => Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
const DONE = `done = function(summary, latency, requests)
  io.write(string.format("RESULT %d %d %d\\n", summary.requests, summary.errors.status + summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout, summary.duration))
end`;
function wrk(lua, seconds) {
  const result = spawnSync('wrk', ['-t1', `-c${CONNECTIONS}`, `-d${seconds}s`, '-s', lua, BASE], { encoding: 'utf8' });
  const match = /RESULT (\d+) (\d+) (\d+)/.exec(result.stdout);
  if (!match) throw new Error(`wrk failed: ${result.stdout}${result.stderr}`);
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(result.stdout)?.[1] ?? 0);
  return { requests: Number(match[1]), errors: Number(match[2]) + non2xx, seconds: Number(match[3]) / 1e6 };
}
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

try {
  // Seed with the last build, keep the file.
  const seeded = process.env.SEEDED ? resolve(process.env.SEEDED) : `${database}.seeded`;
  const reuse = existsSync(seeded) && existsSync(`${seeded}.token`);
  if (reuse) copy(seeded, database);
  let child = await start(BUILDS.at(-1));
  const token = reuse
    ? readFileSync(`${seeded}.token`, 'utf8')
    : spawnSync(
        process.execPath,
        [
          join(BUILDS.at(-1).dir, 'dist/app/cli/main.js'),
          'token',
          'create',
          '--type',
          'full-access',
          '--name',
          'ab',
        ].concat(['--project', join(root, 'examples/blog')]),
        { env: env(), encoding: 'utf8' },
      )
        .stdout.trim()
        .split('\n')
        .at(-1);
  if (!reuse) {
    console.error(`seeding ${N} articles...`);
    const seed = spawnSync(process.execPath, [join(root, 'bench/seed.mjs')], {
      env: { ...process.env, BASE_URL: BASE, N, QUIET: '1', TOKEN: token },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    if (seed.status !== 0) throw new Error('seeding failed');
  }
  const urls = await buildTraffic(BASE, token);
  // find_one reads the first article by documentId, as bench/run.mjs does.
  const first = await (
    await fetchRetry(`${BASE}/api/articles?sort=id:asc&pagination[pageSize]=1`, {
      headers: { authorization: `Bearer ${token}` },
    })
  ).json();
  await stop(child);
  if (!reuse) {
    copy(database, seeded);
    writeFileSync(`${seeded}.token`, token);
  }
  const headers = `wrk.headers["Content-Type"] = "application/json"\nwrk.headers["Authorization"] = ${JSON.stringify(`Bearer ${token}`)}\n`;
  const lua = {
    create_full: join(dir, 'create-full.lua'),
    update_full: join(dir, 'update-full.lua'),
    create: join(dir, 'create.lua'),
    mixed_writes: join(dir, 'mixed-writes.lua'),
    mixed_writes_5: join(dir, 'mixed-writes-5.lua'),
    distinct_reads: join(dir, 'distinct-reads.lua'),
    distinct_reads_cached: join(dir, 'distinct-reads.lua'),
  };
  // The read scenarios of bench/run.mjs, each a GET of one URL (uncached, as its second pass).
  const reads = {
    list_default: '/api/articles',
    list_page100: '/api/articles?pagination[pageSize]=100',
    filter_sort: '/api/articles?filters[views][$gt]=500&filters[kind][$eq]=news&sort[0]=publishDate:desc',
    deep_filter_relation: '/api/articles?filters[author][name][$containsi]=a',
    populate_star: '/api/articles?populate=*',
    deep_populate:
      '/api/articles?populate[author][populate][0]=avatar&populate[category]=true&populate[tags]=true&populate[seo][populate]=*&populate[blocks][populate]=*',
    find_one: `/api/articles/${first.data[0].documentId}`,
  };
  for (const [name, path] of Object.entries(reads)) {
    lua[name] = join(dir, `${name}.lua`);
    writeFileSync(lua[name], `wrk.path = ${JSON.stringify(encodeURI(path))}\n${headers}${DONE}`);
  }
  writeTrafficLua(lua.mixed_writes, urls, { writeEvery: 20, token, doneLua: DONE });
  writeTrafficLua(lua.mixed_writes_5, urls, { writeEvery: 5, token, doneLua: DONE });
  writeTrafficLua(lua.distinct_reads, urls, { writeEvery: 0, token, doneLua: DONE });
  writeDocumentsLua(lua.create_full, urls, { mode: 'create', token, doneLua: DONE });
  writeDocumentsLua(lua.update_full, urls, { mode: 'update', token, doneLua: DONE });
  writeFileSync(
    lua.create,
    `wrk.method = "POST"\nwrk.path = "/api/articles"\n${headers}local counter = 0
request = function()
  counter = counter + 1
  return wrk.format(nil, nil, nil, '{"data":{"title":"Bench ' .. counter .. '-' .. math.random(1, 1e9) .. '","views":1,"kind":"news"}}')
end
${DONE}`,
  );

  const results = BUILDS.map(() => Object.fromEntries(SCENARIOS.map((s) => [s, []])));
  // Peak RSS of each server start (one per round and cache setting), to compare memory flags too.
  const peaks = BUILDS.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 ? [...BUILDS.keys()].reverse() : [...BUILDS.keys()];
    for (const b of order) {
      const line = [];
      for (const cached of [false, true]) {
        const group = SCENARIOS.filter((scenario) => CACHED.has(scenario) === cached);
        if (group.length === 0) continue;
        copy(seeded, database);
        child = await start(BUILDS[b], { ...(cached ? {} : { REST_CACHE: 'false' }), ...BUILD_ENV[b] });
        for (const scenario of group) {
          if (WARMUP > 0) wrk(lua[scenario], WARMUP);
          const before = cpuMs(child.pid);
          const run = wrk(lua[scenario], DURATION);
          const cpu = (cpuMs(child.pid) - before) / run.requests;
          results[b][scenario].push({ cpu, rps: run.requests / run.seconds, errors: run.errors });
          line.push(
            `${scenario} ${cpu.toFixed(2)} ms ${(run.requests / run.seconds).toFixed(0)} req/s${run.errors ? ` (${run.errors} errors)` : ''}`,
          );
        }
        const peak = peakMb(child.pid);
        peaks[b].push(peak);
        line.push(`peak ${peak.toFixed(0)} MB`);
        await stop(child);
      }
      console.error(`round ${round + 1} build ${b} (${BUILDS[b].name}): ${line.join(', ')}`);
    }
  }
  console.log(
    `\nmedians over ${ROUNDS} rounds (server CPU ms per request, req/s), load ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`,
  );
  for (const scenario of SCENARIOS) {
    const cells = BUILDS.map((_, b) => {
      const runs = results[b][scenario];
      return `${median(runs.map((r) => r.cpu)).toFixed(2)} ms ${median(runs.map((r) => r.rps)).toFixed(0)} req/s`;
    });
    // Each round's runs are close in time: the median of their ratios is steadier than the ratio of
    // medians. Every build against the first.
    const a = median(results[0][scenario].map((r) => r.cpu));
    const against = BUILDS.slice(1).map((_, i) => {
      const runs = results[i + 1][scenario];
      const z = median(runs.map((r) => r.cpu));
      const paired = median(results[0][scenario].map((r, round) => runs[round].cpu / r.cpu));
      return `${(((z - a) / a) * 100).toFixed(1)}% CPU, rounds' ratios ${((paired - 1) * 100).toFixed(1)}%`;
    });
    console.log(`${scenario}: ${cells.join(' -> ')} (${against.join('; ')})`);
  }
  console.log(`peak RSS per server start (median MB): ${peaks.map((p) => median(p).toFixed(0)).join(' -> ')}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
