/**
 * A node killed with `kill -9` between the commit of writes and the delivery of their events: the
 * node runs as users run it (`vellum start`, its own process), its writes are acknowledged while
 * the receiver holds every delivery unanswered, then the process is killed. Restarted, it delivers
 * every event, and none twice (counting what the receiver answered 2xx).
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { HttpClient } from '../helpers/http.js';
import { ROOT } from '../helpers/paths.js';
import { copyProject, type TempProject } from '../helpers/projects.js';
import { Receiver } from '../helpers/receiver.js';
import { createTestDatabase, type TestDatabase } from '../helpers/databases.js';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';
import { unique } from '../helpers/unique.js';

const SERVER_CONFIG = `module.exports = ({ env }) => ({
  host: '127.0.0.1',
  port: env.int('PORT'),
  webhooks: { pollInterval: 50, timeout: 1000, retryDelay: 100, maxRetryDelay: 500 },
});
`;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** `vellum start` in its own process; resolves once it serves. */
function startProcess(projectDir: string, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src/app/cli/main.ts'), 'start', projectDir], {
    env: { ...process.env, NODE_ENV: 'test', PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start within 60 s: ${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (/serving/.test(output)) {
        clearTimeout(timer);
        resolve(child);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code}: ${output}`));
    });
  });
}

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) =>
    child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve()),
  );

for (const dialect of DIALECTS) {
  describe(`kill -9 between commit and delivery [${dialect}]`, () => {
    let database: TestDatabase;
    let project: TempProject;
    let receiver: Receiver;
    let headers: Record<string, string>;
    const children: ChildProcess[] = [];

    before(async () => {
      database = await createTestDatabase(dialect);
      project = copyProject();
      rmSync(join(project.dir, 'config/database.js'));
      project.write('config/database.json', JSON.stringify(database.config));
      project.write('config/server.js', SERVER_CONFIG);
      receiver = await Receiver.start(() => 'hold');
      // A first node makes the schema, an API token and the webhook, then stops.
      const setup: TestServer = await startServer(dialect, {
        project: project.dir,
        nodeOf: { databaseConfig: database.config } as TestServer,
      });
      headers = setup.authHeaders;
      await setup.vellum.webhooks.create({ name: unique('kill'), url: receiver.url, events: ['entry.create'] });
      await setup.close();
    });
    after(async () => {
      for (const child of children) child.kill('SIGKILL');
      await Promise.all(children.map(exited));
      await receiver?.close();
      project?.remove();
      await database?.drop();
    });

    it('delivers every acknowledged event after a restart, none twice', async () => {
      const port = await freePort();
      const first = await startProcess(project.dir, port);
      children.push(first);
      const api = new HttpClient(`http://127.0.0.1:${port}`, headers);
      const prefix = unique('killed');
      const ids: string[] = [];
      for (let i = 0; i < 8; i++) {
        const res = await api.post('/api/tags', { data: { name: `${prefix} ${i}` } });
        assert.equal(res.status, 201);
        ids.push(res.body.data.documentId);
      }
      // Deliveries are under way (held by the receiver, unanswered) when the node dies.
      await receiver.until((r) => r.requests.length >= 1, 'a delivery attempt');
      first.kill('SIGKILL');
      await exited(first);
      receiver.release();
      receiver.answer = () => 200;

      const second = await startProcess(project.dir, await freePort());
      children.push(second);
      const mine = () => receiver.delivered.filter((r) => String(r.body.entry?.name).startsWith(prefix));
      await receiver.until(
        () => new Set(mine().map((r) => r.body.entry.documentId)).size === ids.length,
        'every event delivered',
      );
      const delivered = mine()
        .map((r) => r.body.entry.documentId)
        .sort();
      assert.deepEqual(delivered, [...ids].sort(), 'each event once');
      second.kill('SIGTERM');
      await exited(second);
    });
  });
}
