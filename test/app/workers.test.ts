/**
 * `vellum start` with two worker processes (docs/deployment.md "Workers: every core"), as users run
 * it (its own process, one port), on every dialect: both processes answer; a write through one is
 * read through the other with the response cache on (a seeded random sequence of writes and reads
 * over pinned and fresh connections, every read compared with what the acknowledged writes left);
 * concurrent writes through both succeed (no SQLITE_BUSY); each webhook event is delivered once;
 * a worker that dies is replaced, and SIGTERM stops them all. The processes name themselves in a
 * header only under VELLUM_TEST_WORKER_HEADER=1 (app/workers.ts).
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createTestDatabase, type TestDatabase } from '../helpers/databases.js';
import { ROOT } from '../helpers/paths.js';
import { copyProject, type TempProject } from '../helpers/projects.js';
import { eventually, Receiver } from '../helpers/receiver.js';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';
import { unique } from '../helpers/unique.js';

const SERVER_CONFIG = `module.exports = ({ env }) => ({
  host: '127.0.0.1',
  port: env.int('PORT'),
  webhooks: { pollInterval: 50, timeout: 1000, retryDelay: 100, maxRetryDelay: 500 },
});
`;
// Every answer stored, even right after a write (the default waits a second after one): the
// sequence below reads from each worker's cache between the other's writes.
const API_CONFIG = `module.exports = { rest: { cache: { enabled: true, holdAfterWriteMs: 0 } } };
`;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

interface Cluster {
  child: ChildProcess;
  port: number;
  output: () => string;
  exit: Promise<number | null>;
}

/** `vellum start` with `env`; resolves once it prints that it serves (or with its exit, when it stops first). */
function startCluster(projectDir: string, port: number, env: Record<string, string>): Promise<Cluster> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src/app/cli/main.ts'), 'start', projectDir], {
    env: { ...process.env, NODE_ENV: 'test', PORT: String(port), VELLUM_TEST_WORKER_HEADER: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start within 90 s: ${output}`)), 90_000);
    const cluster = { child, port, output: () => output, exit };
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (/Admin panel at/.test(output)) {
        clearTimeout(timer);
        resolve(cluster);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exit.then(() => {
      clearTimeout(timer);
      resolve(cluster);
    });
  });
}

interface Answer {
  status: number;
  body: any;
  /** The worker process that answered. */
  pid: number;
}

/** One request over `agent` (a pinned connection), or a new connection when `agent` is false. */
function send(
  port: number,
  agent: Agent | false,
  headers: Record<string, string>,
  method: string,
  path: string,
  body?: unknown,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        agent,
        headers: { ...headers, ...(payload ? { 'content-type': 'application/json' } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({
            status: res.statusCode ?? 0,
            body: text ? JSON.parse(text) : null,
            pid: Number(res.headers['x-vellum-worker']),
          });
        });
      },
    );
    req.on('error', reject);
    // A request left unanswered fails the test rather than holding it.
    req.setTimeout(20_000, () => req.destroy(new Error(`${method} ${path}: no answer within 20 s`)));
    req.end(payload);
  });
}

/** The parent process of `pid` (/proc/<pid>/stat), or undefined when it is gone. */
const parentOf = (pid: number): number | undefined => {
  try {
    return Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
  } catch {
    return undefined;
  }
};

/** Keep-alive connections, one per agent, until there is one to each of `count` workers: pid -> agents. */
async function pinnedAgents(port: number, headers: Record<string, string>, count: number, perWorker = 1) {
  const byPid = new Map<number, Agent[]>();
  const all: Agent[] = [];
  for (let i = 0; i < 40 && (byPid.size < count || [...byPid.values()].some((a) => a.length < perWorker)); i++) {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    all.push(agent);
    const { pid, status } = await send(port, agent, headers, 'GET', '/api/tags?pagination[pageSize]=1');
    assert.equal(status, 200);
    const agents = byPid.get(pid) ?? [];
    if (agents.length < perWorker) agents.push(agent);
    byPid.set(pid, agents);
  }
  return { byPid, close: () => all.forEach((agent) => agent.destroy()) };
}

/** A seeded pseudo-random sequence (mulberry32): the same steps on every run. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) =>
    child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve()),
  );

for (const dialect of DIALECTS) {
  describe(`vellum start with two workers [${dialect}]`, () => {
    let database: TestDatabase;
    let project: TempProject;
    let receiver: Receiver;
    let headers: Record<string, string>;
    let cluster: Cluster;
    const clusters: Cluster[] = [];

    before(async () => {
      database = await createTestDatabase(dialect);
      project = copyProject();
      rmSync(join(project.dir, 'config/database.js'));
      project.write('config/database.json', JSON.stringify(database.config));
      project.write('config/server.js', SERVER_CONFIG);
      project.write('config/api.js', API_CONFIG);
      receiver = await Receiver.start();
      // A first node makes an API token and the webhook, then stops.
      const setup: TestServer = await startServer(dialect, {
        project: project.dir,
        nodeOf: { databaseConfig: database.config } as TestServer,
      });
      headers = setup.authHeaders;
      await setup.vellum.webhooks.create({ name: unique('workers'), url: receiver.url, events: ['entry.create'] });
      await setup.close();
      cluster = await startCluster(project.dir, await freePort(), { VELLUM_WORKERS: '2' });
      clusters.push(cluster);
      assert.match(cluster.output(), /with 2 worker processes/, cluster.output());
    });
    after(async () => {
      for (const { child } of clusters) child.kill('SIGKILL');
      await Promise.all(clusters.map(({ child }) => exited(child)));
      await receiver?.close();
      project?.remove();
      await database?.drop();
    });

    it('serves requests from two processes, both children of the one started', async () => {
      const pids = new Set<number>();
      // New connections: the primary hands each to the next worker.
      for (let i = 0; i < 20 && pids.size < 2; i++) {
        const { status, pid } = await send(cluster.port, false, headers, 'GET', '/api/articles');
        assert.equal(status, 200);
        pids.add(pid);
      }
      assert.equal(pids.size, 2);
      for (const pid of pids) assert.equal(parentOf(pid), cluster.child.pid);
      // With npm start's young generation (primary.ts `workerExecArgv`): the idle RSS of each.
      for (const pid of pids)
        assert.ok(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes('--max-semi-space-size=2'));
    });

    it('a write through one worker is read through the other, with the response cache on (seeded sequence)', async () => {
      const SEED = 36;
      const random = seeded(SEED);
      const pinned = await pinnedAgents(cluster.port, headers, 2);
      try {
        const clients: (Agent | false)[] = [...pinned.byPid.values()].map((agents) => agents[0]!);
        assert.equal(clients.length, 2);
        clients.push(false);
        const pick = () => clients[Math.floor(random() * clients.length)]!;
        const prefix = unique('exact');
        const expected = new Map<string, string>();
        const gone = new Set<string>();
        const list = `/api/tags?filters[name][$startsWith]=${encodeURIComponent(prefix)}&sort=name:asc&pagination[pageSize]=100`;
        const writers = new Set<number>();
        const readers = new Set<number>();
        for (let step = 0; step < 160; step++) {
          const at = `seed ${SEED}, step ${step}`;
          const ids = [...expected.keys()];
          const roll = random();
          if (ids.length < 3 || roll < 0.15) {
            const name = `${prefix} ${step}`;
            const res = await send(cluster.port, pick(), headers, 'POST', '/api/tags', { data: { name } });
            assert.equal(res.status, 201, at);
            expected.set(res.body.data.documentId, name);
            writers.add(res.pid);
          } else if (roll < 0.35) {
            const id = ids[Math.floor(random() * ids.length)]!;
            const name = `${prefix} ${step} renamed`;
            const res = await send(cluster.port, pick(), headers, 'PUT', `/api/tags/${id}`, { data: { name } });
            assert.equal(res.status, 200, at);
            expected.set(id, name);
            writers.add(res.pid);
          } else if (roll < 0.42) {
            const id = ids[Math.floor(random() * ids.length)]!;
            const res = await send(cluster.port, pick(), headers, 'DELETE', `/api/tags/${id}`);
            assert.ok(res.status === 200 || res.status === 204, `${at}: ${res.status}`);
            expected.delete(id);
            gone.add(id);
            writers.add(res.pid);
          } else if (roll < 0.75) {
            const res = await send(cluster.port, pick(), headers, 'GET', list);
            assert.equal(res.status, 200, at);
            const names = res.body.data.map((tag: { name: string }) => tag.name);
            assert.deepEqual(names, [...expected.values()].sort(), at);
            readers.add(res.pid);
          } else {
            const all = [...ids, ...gone];
            const id = all[Math.floor(random() * all.length)]!;
            const res = await send(cluster.port, pick(), headers, 'GET', `/api/tags/${id}`);
            if (gone.has(id)) assert.equal(res.status, 404, at);
            else assert.equal(res.body?.data?.name, expected.get(id), at);
            readers.add(res.pid);
          }
        }
        assert.equal(writers.size, 2, 'both workers wrote');
        assert.equal(readers.size, 2, 'both workers read');
      } finally {
        pinned.close();
      }
    });

    it('concurrent writes through both workers all succeed (no busy database)', async () => {
      const pinned = await pinnedAgents(cluster.port, headers, 2, 4);
      try {
        const prefix = unique('concurrent');
        const shared = await send(cluster.port, false, headers, 'POST', '/api/tags', { data: { name: `${prefix} x` } });
        assert.equal(shared.status, 201);
        const agents = [...pinned.byPid.values()].flat();
        assert.equal(agents.length, 8);
        const writes = agents.flatMap((agent, a) =>
          Array.from({ length: 5 }, async (_, i) => [
            await send(cluster.port, agent, headers, 'POST', '/api/tags', { data: { name: `${prefix} ${a}-${i}` } }),
            await send(cluster.port, agent, headers, 'PUT', `/api/tags/${shared.body.data.documentId}`, {
              data: { name: `${prefix} x ${a}-${i}` },
            }),
          ]),
        );
        const answers = (await Promise.all(writes)).flat();
        assert.deepEqual(
          answers.filter((res) => res.status >= 300).map((res) => [res.status, res.body]),
          [],
        );
        assert.equal(new Set(answers.map((res) => res.pid)).size, 2);
        const listed = await send(
          cluster.port,
          false,
          headers,
          'GET',
          `/api/tags?filters[name][$startsWith]=${encodeURIComponent(prefix)}&pagination[pageSize]=100`,
        );
        assert.equal(listed.body.meta.pagination.total, 41);
      } finally {
        pinned.close();
      }
    });

    it('delivers each webhook event once, whichever worker wrote it', async () => {
      const prefix = unique('delivered');
      const ids: string[] = [];
      for (let i = 0; i < 10; i++) {
        const res = await send(cluster.port, false, headers, 'POST', '/api/tags', { data: { name: `${prefix} ${i}` } });
        assert.equal(res.status, 201);
        ids.push(res.body.data.documentId);
      }
      const mine = () => receiver.delivered.filter((r) => String(r.body.entry?.name).startsWith(prefix));
      await receiver.until(
        () => new Set(mine().map((r) => r.body.entry.documentId)).size === ids.length,
        'every event delivered',
      );
      assert.deepEqual(
        mine()
          .map((r) => r.body.entry.documentId)
          .sort(),
        [...ids].sort(),
        'each event once',
      );
    });

    it('replaces a worker that dies, and SIGTERM stops every worker', async () => {
      const own = await startCluster(project.dir, await freePort(), { VELLUM_WORKERS: '2' });
      clusters.push(own);
      const pids = new Set<number>();
      for (let i = 0; i < 20 && pids.size < 2; i++)
        pids.add((await send(own.port, false, headers, 'GET', '/api/tags')).pid);
      assert.equal(pids.size, 2);
      const [killed, kept] = [...pids] as [number, number];
      process.kill(killed, 'SIGKILL');
      // Once the primary has seen it die: a connection handed to a dying worker is lost with it (Node's cluster).
      const line = new RegExp(`\\[vellum\\] worker ${killed} exited \\(SIGKILL\\); starting another`);
      await eventually(() => line.test(own.output()), 'the primary noticing');
      let replacement = 0;
      await eventually(async () => {
        const { pid, status } = await send(own.port, false, headers, 'GET', '/api/tags');
        if (status === 200 && pid !== kept && pid !== killed) replacement = pid;
        return replacement !== 0;
      }, 'a new worker answering');
      assert.equal(parentOf(replacement), own.child.pid);
      own.child.kill('SIGTERM');
      assert.equal(await own.exit, 0, own.output());
      for (const pid of [kept, replacement]) assert.equal(existsSync(`/proc/${pid}`), false, `worker ${pid} stopped`);
    });
  });
}

describe('vellum start: workers misconfigured', () => {
  it('stops with one line naming the setting', async () => {
    const project = copyProject();
    try {
      const failed = await startCluster(project.dir, await freePort(), { VELLUM_WORKERS: 'two' });
      assert.equal(await failed.exit, 1);
      assert.equal(
        failed.output().trim(),
        'Cannot start: config/server: workers: must be a number of processes (1 or more) or "auto" (one per core); set VELLUM_WORKERS or workers',
      );
    } finally {
      project.remove();
    }
  });
});
