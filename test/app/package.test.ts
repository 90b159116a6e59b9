/**
 * Vellum as a package (docs/getting-started.md): `npm pack` makes a tarball with the server and the
 * admin panel prebuilt and none of the sources, tests or source maps; `vellum new` from the
 * unpacked tarball makes a project, and the tarball's bin serves it on SQLite.
 *
 * The scratch folder's node_modules holds the unpacked tarball and links to Vellum's
 * `dependencies` alone (from this checkout's node_modules, as `npm install` of the tarball would
 * install them, without the network): a module the server imports from a devDependency fails
 * the start. The tarball is packed from dist/ as `npm run build` left it (`npm ci` builds it).
 * The bin runs as a process: the process is the point.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import * as tar from 'tar';
import { ROOT } from '../helpers/paths.js';

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/** Resolves with the first line of `child`'s output matching `pattern`; rejects when it exits first. */
const lineOf = (child: ChildProcess, pattern: RegExp): Promise<string> =>
  new Promise((resolve, reject) => {
    let seen = '';
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      const line = seen.split('\n').find((candidate) => pattern.test(candidate));
      if (line) resolve(line);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`exited with ${code} before ${pattern}:\n${seen}`)));
  });

describe('vellum as a package', () => {
  let scratch: string;
  let files: string[];
  let bin: string;
  let server: ChildProcess | undefined;

  before(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'vellum-package-'));
    const packed = spawnSync('npm', ['pack', '--ignore-scripts', '--json', '--silent', '--pack-destination', scratch], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    assert.equal(packed.status, 0, packed.stderr);
    const [manifest] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
    files = manifest!.files.map((file) => file.path);
    const vellum = join(scratch, 'node_modules', 'vellum');
    mkdirSync(vellum, { recursive: true });
    await tar.x({ file: join(scratch, manifest!.filename), cwd: vellum, strip: 1 });
    const { dependencies } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    for (const name of Object.keys(dependencies)) {
      const link = join(scratch, 'node_modules', name);
      mkdirSync(dirname(link), { recursive: true });
      symlinkSync(join(ROOT, 'node_modules', name), link, 'dir');
    }
    bin = join(vellum, 'dist', 'app', 'cli', 'main.js');
  });

  after(() => {
    server?.kill('SIGKILL');
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('holds the prebuilt server, admin panel and project template, and no sources, tests or maps', () => {
    for (const needed of [
      'dist/app/cli/main.js',
      'dist/bundle/main.mjs',
      'dist/admin/index.html',
      'templates/new-project/config/database.js',
      'examples/blog/src/api/article/content-types/article/schema.json',
    ])
      assert.ok(files.includes(needed), `${needed} is packed`);
    const unwanted = files.filter((file) => /^(src|test|admin|bench|scripts|docs)\/|\.map$|\.tsbuildinfo$/.test(file));
    assert.deepEqual(unwanted, []);
  });

  it('npm create vellum: the packed create-vellum runs the installed vellum new', async () => {
    const packed = spawnSync('npm', ['pack', '--json', '--silent', '--pack-destination', scratch], {
      cwd: join(ROOT, 'packages', 'create-vellum'),
      encoding: 'utf8',
    });
    assert.equal(packed.status, 0, packed.stderr);
    const [manifest] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
    assert.deepEqual(manifest!.files.map((file) => file.path).sort(), ['index.js', 'package.json']);
    const create = join(scratch, 'node_modules', 'create-vellum');
    mkdirSync(create, { recursive: true });
    await tar.x({ file: join(scratch, manifest!.filename), cwd: create, strip: 1 });
    const made = spawnSync(process.execPath, [join(create, 'index.js'), 'created-site'], {
      cwd: scratch,
      encoding: 'utf8',
    });
    assert.equal(made.status, 0, made.stderr);
    assert.match(made.stdout, /Next: cd created-site && npm install && npm start/);
    const site = JSON.parse(readFileSync(join(scratch, 'created-site', 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    assert.equal(site.dependencies.vellum, `^${version}`);
    const usage = spawnSync(process.execPath, [join(create, 'index.js')], { cwd: scratch, encoding: 'utf8' });
    assert.equal(usage.status, 1);
    assert.match(usage.stderr, /Usage: npm create vellum@latest <folder>/);
  });

  it('installed into a Strapi 5 project, the packed bin serves it where `strapi start` would', async () => {
    // As `npm install vellum-<version>.tgz` leaves it: the project's node_modules holds vellum and its dependencies.
    const project = join(scratch, 'strapi-shop');
    cpSync(join(ROOT, 'test', 'fixtures', 'strapi5-shop'), project, { recursive: true });
    symlinkSync(join(scratch, 'node_modules'), join(project, 'node_modules'), 'dir');
    const port = await freePort();
    server = spawn(
      process.execPath,
      [join(project, 'node_modules', 'vellum', 'dist', 'app', 'cli', 'main.js'), 'start'],
      {
        cwd: project,
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          NODE_ENV: 'development',
          HOST: '127.0.0.1',
          PORT: `${port}`,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    assert.match(await lineOf(server, /Vellum serving/), /\(sqlite\)/);
    const base = `http://127.0.0.1:${port}`;
    // Public holds no grant in this project: the route exists and answers Strapi's 403.
    const products = await fetch(`${base}/api/products`);
    assert.equal(products.status, 403, await products.clone().text());
    const graphql = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ __type(name: "Product") { name } }' }),
    });
    assert.deepEqual(await graphql.json(), { data: { __type: { name: 'Product' } } });
    const exited = new Promise((resolve) => server!.once('exit', resolve));
    server.kill('SIGTERM');
    assert.equal(await exited, 0);
    server = undefined;
  });

  it('vellum new makes a project that the packed bin serves on SQLite, with the admin panel', async () => {
    const made = spawnSync(process.execPath, [bin, 'new', 'site', '--example', 'blog'], {
      cwd: scratch,
      encoding: 'utf8',
    });
    assert.equal(made.status, 0, made.stderr);
    assert.match(made.stdout, /Next: cd site && npm install && npm start/);
    const site = join(scratch, 'site');
    for (const file of ['.env', '.env.example', '.gitignore', 'config/database.js', 'src/index.js', 'package.json'])
      assert.ok(existsSync(join(site, file)), `${file} is written`);
    assert.match(readFileSync(join(site, '.env'), 'utf8'), /^JWT_SECRET=[A-Za-z0-9+/=]{44}$/m);
    const again = spawnSync(process.execPath, [bin, 'new', 'site'], { cwd: scratch, encoding: 'utf8' });
    assert.equal(again.status, 1);
    assert.match(again.stderr, /is not empty: name a new folder/);

    const port = await freePort();
    // Production: the generated secrets pass the strength check that stops a weak one there.
    server = spawn(process.execPath, [bin, 'start'], {
      cwd: site,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NODE_ENV: 'production',
        HOST: '127.0.0.1',
        PORT: `${port}`,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    assert.match(await lineOf(server, /Vellum serving/), /\(sqlite\)/);
    const base = `http://127.0.0.1:${port}`;
    const articles = await fetch(`${base}/api/articles`);
    assert.equal(articles.status, 200, await articles.clone().text());
    assert.deepEqual((await articles.json()).data, []);
    const admin = await fetch(`${base}/admin/`);
    assert.equal(admin.status, 200);
    assert.match(await admin.text(), /<div id="root">/);
    const graphql = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    assert.equal(graphql.status, 200);
    assert.ok(existsSync(join(site, '.tmp', 'data.db')), 'the database is the project’s .tmp/data.db');
    const exited = new Promise((resolve) => server!.once('exit', resolve));
    server.kill('SIGTERM');
    assert.equal(await exited, 0);
    server = undefined;
  });
});
