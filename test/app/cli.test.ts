import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { after, describe, it } from 'node:test';
import { createServer, type AddressInfo } from 'node:net';
import { databaseEnv, DIALECTS } from '../helpers/databases.js';
import { BLOG } from '../helpers/paths.js';
import { copyProject, TAG_SCHEMA } from '../helpers/projects.js';
import { runCli } from '../helpers/cli.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
// What the tests set themselves (a project's .env loses to the environment) is not inherited.
const inherited = Object.fromEntries(
  Object.entries(process.env).filter(([name]) => !/^(DATABASE_|HOST$|PORT$|ENV_PATH$)/.test(name)),
);
// By path: a project folder elsewhere has no node_modules to find tsx in.
const tsxLoader = pathToFileURL(join(root, 'node_modules/tsx/dist/esm/index.mjs')).href;

/** The CLI in this process, with the test's variables only (start-up failures answer before listening). */
const inProcess = (args: string[], env: Record<string, string>, cwd = root) =>
  runCli(args, { cwd, env: { ...inherited, ...env } });

/** Runs the CLI as users do (in `cwd`, default this checkout) and waits for a line of output matching `ready`. */
function run(
  args: string[],
  env: Record<string, string>,
  ready: RegExp,
  cwd = root,
): Promise<{ output: string; stderr: () => string; stop: () => void; exit: Promise<number | null> }> {
  const child = spawn(process.execPath, ['--import', tsxLoader, join(root, 'src/app/cli/main.ts'), ...args], {
    env: { ...inherited, NODE_ENV: 'test', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    cwd,
  });
  let output = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exit = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  return new Promise((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`timed out: ${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (ready.test(output)) {
        clearTimeout(timer);
        done({ output, stderr: () => stderr, stop: () => child.kill('SIGTERM'), exit });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exit.then((code) => {
      clearTimeout(timer);
      done({ output, stderr: () => stderr, stop: () => undefined, exit: Promise.resolve(code) });
    });
  });
}

describe('vellum CLI', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vellum-cli-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const dialect of DIALECTS) {
    it(`\`vellum start\` and \`vellum admin create\` in a project folder act on it, its .env read first [${dialect}]`, async () => {
      const project = copyProject();
      const database = await databaseEnv(dialect);
      const port = String(20000 + ((process.pid + DIALECTS.indexOf(dialect) * 97) % 20000));
      // Everything from the project's .env, as a Strapi project keeps it: DATABASE_CLIENT included.
      const dotenv = { ...database.env, HOST: '127.0.0.1', PORT: port };
      project.write(
        '.env',
        `# written by cli.test.ts\n${Object.entries(dotenv)
          .map(([name, value]) => `${name}="${value}"`)
          .join('\n')}\n`,
      );
      try {
        const email = `cli-${dialect}-${process.pid}@example.com`;
        const admin = await run(
          ['admin', 'create', '--email', email, '--password', 'Cli-password-1234'],
          {},
          /created|Error|Cannot/,
          project.dir,
        );
        assert.equal(await admin.exit, 0, admin.output);
        const server = await run(['start'], {}, /GraphQL playground at|Cannot start/, project.dir);
        try {
          assert.match(
            server.output,
            new RegExp(`Vellum serving ${project.dir} on http://127\\.0\\.0\\.1:${port} \\(${dialect}\\)`),
          );
          // The addresses a newcomer opens next.
          assert.match(server.output, new RegExp(`Admin panel at http://127\\.0\\.0\\.1:${port}/admin\\n`));
          assert.match(server.output, new RegExp(`GraphQL playground at http://127\\.0\\.0\\.1:${port}/graphql\\n`));
          assert.doesNotMatch(server.output, /Warning|left out/);
          assert.equal((await fetch(`http://127.0.0.1:${port}/api/articles`)).status, 200);
          // The administrator the command created is in the database the server uses.
          const login = await fetch(`http://127.0.0.1:${port}/admin/login`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ email, password: 'Cli-password-1234' }),
          });
          assert.equal(login.status, 200, await login.text());
        } finally {
          server.stop();
          await server.exit;
        }
      } finally {
        project.remove();
        await database.drop();
      }
    });
  }

  it("a command run in a process that serves a node leaves it the node's global `strapi`", async () => {
    const project = copyProject();
    const global = globalThis as { strapi?: unknown };
    const before = global.strapi;
    const node = { node: 'the one this process serves' };
    global.strapi = node;
    try {
      const listed = await inProcess(['token', 'list', '--project', project.dir], {
        DATABASE_FILENAME: join(dir, 'global.db'),
      });
      assert.equal(listed.code, 0, listed.stderr);
      assert.ok(global.strapi === node, "the global is the command's strapi");
    } finally {
      global.strapi = before;
      project.remove();
    }
  });

  it('a folder that is no project, a taken port, a syntax error in a config file: one line on stderr, exit 1', async () => {
    const notProject = await inProcess(['start'], {}, dir);
    assert.equal(
      notProject.stderr,
      `Cannot start: ${dir}: is not a Strapi project (no config/ or src/api/ folder): run vellum in the project's folder, or name it (vellum start path/to/project, --project for the other commands)\n`,
    );
    assert.equal(notProject.code, 1);

    const holder = createServer();
    await new Promise<void>((done) => holder.listen(0, '127.0.0.1', done));
    const port = (holder.address() as AddressInfo).port;
    try {
      const taken = await inProcess(['start', BLOG], {
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_FILENAME: join(dir, 'taken.db'),
      });
      assert.equal(
        taken.stderr,
        `Cannot start: config/server.js: port ${port} on 127.0.0.1 is taken by another process: stop it, or choose another port (port in config/server.js, or PORT)\n`,
      );
      assert.equal(taken.code, 1);
    } finally {
      holder.close();
    }

    const project = copyProject();
    try {
      project.write(
        'config/api.js',
        'module.exports = {\n  rest: {\n    defaultLimit: 25\n    maxLimit: 100,\n  },\n};\n',
      );
      const broken = await inProcess(['start'], { DATABASE_FILENAME: join(dir, 'broken.db') }, project.dir);
      assert.equal(broken.stderr, 'Cannot start: config/api.js:4:5: syntax error: Expected "}" but found "maxLimit"\n');
      assert.equal(broken.code, 1);
    } finally {
      project.remove();
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
      const result = await inProcess(['start', BLOG], {
        NODE_ENV: 'production',
        PORT: '0',
        DATABASE_FILENAME: filename,
        ...env,
      });
      assert.match(result.stderr, new RegExp(`Cannot start: ${name} is too weak: .*openssl rand -base64 32`));
      assert.equal(result.code, 1);
    }
    const { existsSync } = await import('node:fs');
    assert.ok(!existsSync(filename), 'refused before the database was opened');
  });

  it('a broken schema stops start-up with the file and attribute named', async () => {
    const project = copyProject();
    project.editJson(TAG_SCHEMA, (j) => (j.attributes.name.type = 'strin'));
    try {
      const result = await inProcess(['start', project.dir], { PORT: '0', DATABASE_FILENAME: join(dir, 'y.db') });
      assert.match(result.stderr, /tag\/schema\.json/);
      assert.match(result.stderr, /name/);
      assert.equal(result.code, 1);
    } finally {
      project.remove();
    }
  });
});
