#!/usr/bin/env node
// Two builds of Vellum kept up at once and measured in short alternated bursts, for a host too
// loaded for bench/ab-reads.mjs (whose rounds start each build in turn: at a load of 20-30 on two
// cores its rounds moved ±30% between two runs of one build). Both servers run on copies of one
// seeded database with the response cache off; per scenario, wrk bursts of BURST seconds go to one
// server then the other (the order alternates), ROUNDS times, and the server's CPU per request is
// read from /proc. Prints, per scenario, each server's median, the median of the paired ratios and
// in how many pairs the second build was cheaper.
//
// Env: BUILDS (two folders with dist/app/cli/main.js; default .tmp/ab/base and this checkout),
// SEEDED (the database bench/ab-reads.mjs seeded and kept with SEEDED=..., and its .token; default
// .tmp/ab/seeded.db), SCENARIOS (the reads of bench/ab-reads.mjs but distinct_reads), ROUNDS (10),
// BURST (seconds, 2), PORTS (two ports; default random), NODE_FLAGS (--max-semi-space-size=2).
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const BUILDS = (process.env.BUILDS ?? `${join(root, '.tmp/ab/base')},${root}`).split(',').map((b) => resolve(b));
const SEEDED = resolve(process.env.SEEDED ?? join(root, '.tmp/ab/seeded.db'));
const ROUNDS = Number(process.env.ROUNDS ?? 10);
const BURST = Number(process.env.BURST ?? 2);
const NODE_FLAGS = (process.env.NODE_FLAGS ?? '--max-semi-space-size=2').split(' ').filter(Boolean);
const base = 20000 + Math.floor(Math.random() * 20000);
const PORTS = (process.env.PORTS ?? `${base},${base + 1}`).split(',').map(Number);
const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK']).stdout?.toString().trim()) || 100;
const token = readFileSync(`${SEEDED}.token`, 'utf8');
const reads = {
  list_default: '/api/articles',
  list_page100: '/api/articles?pagination[pageSize]=100',
  filter_sort: '/api/articles?filters[views][$gt]=500&filters[kind][$eq]=news&sort[0]=publishDate:desc',
  deep_filter_relation: '/api/articles?filters[author][name][$containsi]=a',
  populate_star: '/api/articles?populate=*',
  deep_populate:
    '/api/articles?populate[author][populate][0]=avatar&populate[category]=true&populate[tags]=true&populate[seo][populate]=*&populate[blocks][populate]=*',
  find_one: undefined, // the first article by documentId, read from the server below
};
const SCENARIOS = (process.env.SCENARIOS ?? Object.keys(reads).join(',')).split(',');
const dir = mkdtempSync(join(tmpdir(), 'vellum-bursts-'));

const cpuMs = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
};
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function start(build, port, index) {
  const database = join(dir, `bench-${index}.db`);
  copyFileSync(SEEDED, database);
  const child = spawn(
    process.execPath,
    [...NODE_FLAGS, join(build, 'dist/app/cli/main.js'), 'start', join(root, 'examples/blog')],
    {
      env: {
        ...process.env,
        NODE_ENV: 'production',
        VELLUM_WORKERS: '1',
        JWT_SECRET: 'bench-only-jwt-secret-0123456789',
        PORT: String(port),
        HOST: '127.0.0.1',
        REST_CACHE: 'false',
        DATABASE_FILENAME: database,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  await new Promise((done, fail) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (/serving/.test(out)) done();
    });
    child.on('exit', (code) => fail(new Error(`vellum exited with ${code}: ${out}`)));
  });
  return { child, port };
}

function wrk(port, path, seconds) {
  const url = `http://127.0.0.1:${port}${encodeURI(path)}`;
  const args = ['-t1', '-c10', `-d${seconds}s`, '-H', `Authorization: Bearer ${token}`, url];
  const result = spawnSync('wrk', args, { encoding: 'utf8' });
  const requests = /(\d+) requests in/.exec(result.stdout);
  if (!requests || /Non-2xx/.test(result.stdout)) throw new Error(`wrk failed: ${result.stdout}${result.stderr}`);
  return Number(requests[1]);
}

const servers = [];
try {
  for (const [i, build] of BUILDS.entries()) servers.push(await start(build, PORTS[i], i));
  const first = await (
    await fetch(`http://127.0.0.1:${PORTS[0]}/api/articles?sort=id:asc&pagination[pageSize]=1`, {
      headers: { authorization: `Bearer ${token}` },
    })
  ).json();
  reads.find_one = `/api/articles/${first.data[0].documentId}`;
  for (const scenario of SCENARIOS) {
    for (const server of servers) wrk(server.port, reads[scenario], 2);
    const cpu = servers.map(() => []);
    for (let round = 0; round < ROUNDS; round++) {
      for (const i of round % 2 ? [1, 0] : [0, 1]) {
        const { child, port } = servers[i];
        const before = cpuMs(child.pid);
        const requests = wrk(port, reads[scenario], BURST);
        cpu[i].push((cpuMs(child.pid) - before) / requests);
      }
    }
    const ratios = cpu[0].map((a, round) => cpu[1][round] / a);
    const load = readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
    console.log(
      `${scenario}: ${median(cpu[0]).toFixed(3)} -> ${median(cpu[1]).toFixed(3)} ms (paired ratios' median ${((median(ratios) - 1) * 100).toFixed(1)}%, lower in ${ratios.filter((r) => r < 1).length}/${ROUNDS}), load ${load}`,
    );
  }
} finally {
  await Promise.all(
    servers.map(({ child }) => new Promise((done) => (child.once('exit', done), child.kill('SIGTERM')))),
  );
  rmSync(dir, { recursive: true, force: true });
}
