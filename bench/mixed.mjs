#!/usr/bin/env node
// A real site's traffic against any server with Strapi v5's content API and the blog fixture
// seeded by bench/seed.mjs (Strapi from ../shared/bench/strapi/start.sh, or Vellum): the same
// requests `npm run bench` sends in its distinct_reads and mixed_writes scenarios
// (bench/traffic.mjs), then whole documents written (create_full, update_full). Plain Node 20 and
// wrk, no npm dependencies.
//
//   BASE_URL=http://127.0.0.1:1337 TOKEN=<full-access token> SERVER_PID=<pid> node bench/mixed.mjs
//
// Env: BASE_URL (default http://127.0.0.1:1337), TOKEN (sent with every request; the PUTs need
// one that may update), SERVER_PID (server CPU per request and RSS from /proc, the process and its
// children), DURATION (10), WARMUP (5), CONNECTIONS (10), WRITE_EVERY (20), SCENARIOS (comma
// list), OUT (write the JSON summary there).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildTraffic, fetchRetry, writeDocumentsLua, writeTrafficLua } from './traffic.mjs';

const BASE_URL = (process.env.BASE_URL || 'http://127.0.0.1:1337').replace(/\/+$/, '');
const TOKEN = process.env.TOKEN || '';
const DURATION = Number(process.env.DURATION || 10);
const WARMUP = Number(process.env.WARMUP ?? 5);
const CONNECTIONS = Number(process.env.CONNECTIONS || 10);
const WRITE_EVERY = Number(process.env.WRITE_EVERY || 20);
const SERVER_PID = process.env.SERVER_PID ? Number(process.env.SERVER_PID) : null;
const ONLY = process.env.SCENARIOS ? new Set(process.env.SCENARIOS.split(',')) : null;

const DONE_LUA = `
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('WRKJSON {"requests":%d,"duration_us":%d,"errors":%d,"status":%d,"p50":%d,"p90":%d,"p99":%d,"max":%d}\\n',
    summary.requests, summary.duration, e.connect + e.read + e.write + e.timeout, e.status,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max))
end`;

// The server and its children (a server started through npm or a cluster), as the shared driver.
const tree = (pid) => {
  const all = [pid];
  for (let i = 0; i < all.length; i++) {
    try {
      for (const tid of readdirSync(`/proc/${all[i]}/task`)) {
        const f = `/proc/${all[i]}/task/${tid}/children`;
        if (existsSync(f)) all.push(...readFileSync(f, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number));
      }
    } catch {
      // gone
    }
  }
  return all;
};
const statusMB = (key) =>
  SERVER_PID
    ? tree(SERVER_PID).reduce((sum, pid) => {
        try {
          return (
            sum +
            Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) /
              1024
          );
        } catch {
          return sum;
        }
      }, 0)
    : null;
const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK']).stdout?.toString().trim()) || 100;
const cpuMs = () =>
  SERVER_PID
    ? tree(SERVER_PID).reduce((sum, pid) => {
        try {
          const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
          const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
          return sum + ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
        } catch {
          return sum;
        }
      }, 0)
    : null;

function wrk(lua, seconds) {
  const args = ['-t1', `-c${CONNECTIONS}`, `-d${seconds}s`, '--timeout', '10s', '-s', lua, BASE_URL];
  const out = spawnSync('wrk', args, { encoding: 'utf8' });
  const match = /WRKJSON (\{.*\})/.exec(out.stdout ?? '');
  if (!match) throw new Error(`wrk failed: ${out.stdout}${out.stderr}${out.error ?? ''}`);
  return JSON.parse(match[1]);
}

if (spawnSync('wrk', ['--version']).error) {
  console.error('wrk is needed on the PATH (Debian: apt-get install -y wrk)');
  process.exit(1);
}
const work = mkdtempSync(join(tmpdir(), 'bench-mixed-'));
try {
  const traffic = await buildTraffic(BASE_URL, TOKEN);
  console.error(`${traffic.reads.length} distinct read URLs; writes update ${new Set(traffic.updated).size} articles`);
  // Every read URL answers 200 before it is measured (a 404 or 400 would measure an error path).
  const headers = TOKEN ? { authorization: `Bearer ${TOKEN}` } : {};
  for (const path of traffic.reads) {
    const res = await fetchRetry(BASE_URL + path, { headers });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`GET ${path}: HTTP ${res.status}`);
  }
  const summary = {
    base_url: BASE_URL,
    when: new Date().toISOString(),
    load: {
      tool: 'wrk',
      threads: 1,
      connections: CONNECTIONS,
      duration_s: DURATION,
      warmup_s: WARMUP,
      write_every: WRITE_EVERY,
    },
    rss_idle_mb: statusMB('VmRSS'),
    reads: traffic.reads,
    scenarios: [],
  };
  const scenarios = [
    ['distinct_reads', (lua) => writeTrafficLua(lua, traffic, { token: TOKEN, doneLua: DONE_LUA })],
    [
      'mixed_writes',
      (lua) => writeTrafficLua(lua, traffic, { writeEvery: WRITE_EVERY, token: TOKEN, doneLua: DONE_LUA }),
    ],
    // Whole documents written (relations, components, a zone): last, as they add and change articles.
    ['create_full', (lua) => writeDocumentsLua(lua, traffic, { mode: 'create', token: TOKEN, doneLua: DONE_LUA })],
    ['update_full', (lua) => writeDocumentsLua(lua, traffic, { mode: 'update', token: TOKEN, doneLua: DONE_LUA })],
  ];
  for (const [name, write] of scenarios) {
    if (ONLY && !ONLY.has(name)) continue;
    const lua = join(work, `${name}.lua`);
    write(lua);
    if (WARMUP > 0) wrk(lua, WARMUP);
    const before = cpuMs();
    const r = wrk(lua, DURATION);
    const cpu = before === null ? null : (cpuMs() - before) / r.requests;
    const row = {
      name,
      rps: Math.round(r.requests / (r.duration_us / 1e6)),
      p50_ms: r.p50 / 1000,
      p90_ms: r.p90 / 1000,
      p99_ms: r.p99 / 1000,
      max_ms: r.max / 1000,
      non_2xx: r.status,
      socket_errors: r.errors,
      server_cpu_ms_per_req: cpu === null ? null : Math.round(cpu * 100) / 100,
      rss_mb: statusMB('VmRSS'),
    };
    summary.scenarios.push(row);
    console.error(`${name}: ${row.rps} req/s, p99 ${row.p99_ms} ms, non-2xx ${row.non_2xx}`);
  }
  summary.rss_hwm_mb = statusMB('VmHWM');
  console.log('| scenario | req/s | p50 ms | p99 ms | non-2xx | socket errors | server CPU ms/req | RSS MB |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of summary.scenarios)
    console.log(
      `| ${r.name} | ${r.rps} | ${r.p50_ms} | ${r.p99_ms} | ${r.non_2xx} | ${r.socket_errors} | ${r.server_cpu_ms_per_req ?? '-'} | ${r.rss_mb?.toFixed(0) ?? '-'} |`,
    );
  if (SERVER_PID)
    console.log(`RSS idle ${summary.rss_idle_mb.toFixed(0)} MB, high-water mark ${summary.rss_hwm_mb.toFixed(0)} MB`);
  if (process.env.OUT) writeFileSync(process.env.OUT, JSON.stringify(summary, null, 2) + '\n');
} finally {
  rmSync(work, { recursive: true, force: true });
}
