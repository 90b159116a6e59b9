import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';
import { copyProject, TAG_SCHEMA } from '../helpers/projects.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Runs the CLI as users do and waits for a line of output matching `ready`. */
function run(args: string[], env: Record<string, string>, ready: RegExp): Promise<{ output: string; stop: () => void; exit: Promise<number | null> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'src/cli/main.ts'), ...args], {
    env: { ...process.env, NODE_ENV: 'test', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exit = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  return new Promise((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`timed out: ${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (ready.test(output)) {
        clearTimeout(timer);
        done({ output, stop: () => child.kill('SIGTERM'), exit });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exit.then((code) => {
      clearTimeout(timer);
      done({ output, stop: () => undefined, exit: Promise.resolve(code) });
    });
  });
}

describe('vellum CLI', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vellum-cli-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('`vellum start` serves the blog example with PORT and DATABASE_FILENAME from the environment', async () => {
    const port = String(20000 + (process.pid % 20000));
    const filename = join(dir, 'x.db');
    const server = await run(['start'], { PORT: port, HOST: '127.0.0.1', DATABASE_FILENAME: filename }, /serving/);
    try {
      assert.match(server.output, new RegExp(`:${port}`));
      // The blog's routers, controllers and services run: nothing is reported as left out.
      assert.doesNotMatch(server.output, /Warning|left out/);
      const res = await fetch(`http://127.0.0.1:${port}/api/articles`);
      assert.equal(res.status, 200);
      const { existsSync } = await import('node:fs');
      assert.ok(existsSync(filename), 'the SQLite file is where DATABASE_FILENAME says');
    } finally {
      server.stop();
      await server.exit;
    }
  });

  it('a weak secret stops a production start-up, naming the variable and how to make one, before the database is touched', async () => {
    const filename = join(dir, 'weak.db');
    const strong = 'Zq3vN8pXr2LkW5tYb7HcJ0mD4sFgA9eU';
    for (const [name, env] of [
      ['JWT_SECRET', { JWT_SECRET: 'x' }],
      ['ADMIN_JWT_SECRET', { JWT_SECRET: strong, ADMIN_JWT_SECRET: 'changeme-changeme' }],
      ['API_TOKEN_SALT', { JWT_SECRET: strong, API_TOKEN_SALT: 'aaaaaaaaaaaaaaaaaaaaaaaa' }],
    ] as const) {
      const result = await run(['start'], { NODE_ENV: 'production', PORT: '0', DATABASE_FILENAME: filename, ...env }, /Cannot start|serving/);
      // Served (it should not be): stopped, and the assertions below say why.
      if (/serving/.test(result.output)) result.stop();
      assert.match(result.output, new RegExp(`Cannot start: ${name} is too weak: .*openssl rand -base64 32`));
      assert.equal(await result.exit, 1);
    }
    const { existsSync } = await import('node:fs');
    assert.ok(!existsSync(filename), 'refused before the database was opened');
  });

  it('a broken schema stops start-up with the file and attribute named', async () => {
    const project = copyProject();
    project.editJson(TAG_SCHEMA, (j) => (j.attributes.name.type = 'strin'));
    try {
      const result = await run(['start', project.dir], { PORT: '0', DATABASE_FILENAME: join(dir, 'y.db') }, /Cannot start/);
      assert.match(result.output, /tag\/schema\.json/);
      assert.match(result.output, /name/);
      assert.equal(await result.exit, 1);
    } finally {
      project.remove();
    }
  });
});
