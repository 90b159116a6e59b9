#!/usr/bin/env node
// `npm run bench:startup`: how long a start takes, spawn to first answer, and the RSS after it.
// Runs `node dist/app/cli/main.js start` (or COMMAND, a shell command) RUNS times on the blog example
// with a database synchronised by a first, unmeasured start, polls GET /_health... every 5 ms until
// the server answers, and prints the median, min and max, the CPU time the server process used by
// then (for COMMAND, the process started: npm's own), the main thread's share of it, and the median
// idle RSS 1 s later (with its anonymous and file-backed parts, /proc/PID/status's RssAnon and RssFile).
//
// The first measured start runs with an empty compile cache (Node 22+, `module.enableCompileCache`
// in dist/app/cli/main.js; a folder of the bench's own, NODE_COMPILE_CACHE): "cold"; the others
// reuse it: "warm". On Node 20 both are the same start.
//
// Env: RUNS (default 15), COMMAND (default: node dist/app/cli/main.js start), PROJECT (a project dir),
// NODE_FLAGS (extra node flags for the default command, e.g. "--cpu-prof"), NODE_BIN (the node
// binary for the default command, built for this Node's ABI), NODE_RELEASE (22, 24: a release of
// test/node-releases/, with a better-sqlite3 built for it: docs/contributing/testing.md "Node releases"),
// VELLUM_ROOT (another checkout to measure, built: its dist/ and examples/blog; A/B runs alternate
// this checkout and another from one script).
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(process.env.VELLUM_ROOT ?? resolve(dirname(fileURLToPath(import.meta.url)), '..'));
const RUNS = Number(process.env.RUNS ?? 15);
const dir = mkdtempSync(join(tmpdir(), 'vellum-startup-'));
const PORT = 20000 + Math.floor(Math.random() * 20000);
const cache = join(dir, 'compile-cache');
let node = process.env.NODE_BIN ?? process.execPath;
let releaseEnv = {};
if (process.env.NODE_RELEASE) {
  const releases = await import('../test/node-releases/releases.mjs');
  const name = `node${process.env.NODE_RELEASE}`;
  releases.install([name]);
  node = releases.binary(name);
  releaseEnv = releases.releaseEnv(releases.sqliteDriver(name));
}
const env = {
  ...process.env,
  ...releaseEnv,
  NODE_COMPILE_CACHE: cache,
  // One process unless VELLUM_WORKERS says otherwise (then RSS and CPU are the primary's alone).
  VELLUM_WORKERS: process.env.VELLUM_WORKERS ?? '1',
  NODE_ENV: 'production',
  JWT_SECRET: 'bench-only-jwt-secret-0123456789',
  PORT: String(PORT),
  HOST: '127.0.0.1',
  DATABASE_FILENAME: join(dir, 'startup.db'),
};
const flags = process.env.NODE_FLAGS ? process.env.NODE_FLAGS.split(' ') : [];
const args = [
  ...flags,
  join(root, 'dist/app/cli/main.js'),
  'start',
  process.env.PROJECT ?? join(root, 'examples/blog'),
];

const answers = () =>
  new Promise((done) => {
    const req = request(
      { host: '127.0.0.1', port: PORT, path: '/api/articles?pagination[pageSize]=1', agent: false },
      (res) => {
        res.resume();
        res.on('end', () => done(res.statusCode !== undefined));
      },
    );
    req.on('error', () => done(false));
    req.end();
  });

// CPU time (user + system) the process has used: steadier than wall time on a busy machine.
const cpuOf = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10; // USER_HZ is 100 on Linux
};
// The main thread's alone (its task has the process's id): the rest is Node's helper threads and
// the SQLite reader threads.
const mainCpuOf = (pid) => {
  const fields = readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
};
const statusOf = (pid, field) =>
  Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
const rssOf = (pid) => ({
  rss: statusOf(pid, 'VmRSS'),
  anon: statusOf(pid, 'RssAnon'),
  file: statusOf(pid, 'RssFile'),
});

async function once() {
  const started = performance.now();
  const child = process.env.COMMAND
    ? spawn('sh', ['-c', `exec ${process.env.COMMAND}`], {
        env,
        cwd: root,
        stdio: ['ignore', 'ignore', 'inherit'],
        detached: true,
      })
    : spawn(node, args, { env, cwd: root, stdio: ['ignore', 'ignore', 'inherit'], detached: true });
  let exited = false;
  child.on('exit', () => (exited = true));
  for (;;) {
    if (exited) throw new Error('the server exited before answering');
    if (await answers()) break;
    await new Promise((r) => setTimeout(r, 5));
  }
  const ms = performance.now() - started;
  let cpu = NaN;
  let mainCpu = NaN;
  try {
    cpu = cpuOf(child.pid);
    mainCpu = mainCpuOf(child.pid);
  } catch {
    // gone
  }
  await new Promise((r) => setTimeout(r, 1000));
  let rss = { rss: 0, anon: 0, file: 0 };
  try {
    rss = rssOf(child.pid);
  } catch {
    // npm start: the server is a grandchild; RSS is for the default command only
  }
  const closed = new Promise((r) => child.on('exit', r));
  // The whole process group: npm does not pass SIGTERM on to the server it started.
  process.kill(-child.pid, 'SIGTERM');
  await closed;
  if (process.env.COMMAND) await new Promise((r) => setTimeout(r, 300));
  return { ms, cpu, mainCpu, ...rss };
}

try {
  await once(); // creates and synchronises the database
  rmSync(cache, { recursive: true, force: true });
  mkdirSync(cache);
  const cold = await once();
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await once());
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const ms = runs.map((r) => r.ms);
  const version = process.env.COMMAND ? '' : execFileSync(node, ['-v'], { encoding: 'utf8' }).trim();
  console.log(
    `${version ? `Node ${version}: ` : ''}cold start (empty compile cache) ${cold.ms.toFixed(0)} ms, CPU ${cold.cpu.toFixed(0)} ms, idle RSS ${cold.rss.toFixed(0)} MB`,
  );
  const of = (key) => median(runs.map((r) => r[key])).toFixed(0);
  console.log(
    `warm, start to first answer over ${RUNS} runs: median ${median(ms).toFixed(0)} ms (min ${Math.min(...ms).toFixed(0)}, max ${Math.max(...ms).toFixed(0)}), CPU used by then: median ${of('cpu')} ms (main thread ${of('mainCpu')}); idle RSS 1 s later: median ${of('rss')} MB (RssAnon ${of('anon')}, RssFile ${of('file')})`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
