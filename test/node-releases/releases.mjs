// The Node releases Vellum is tested on beside the machine's own (docs/contributing/testing.md
// "Node releases"): their binaries (npm packages pinned in this folder), and for each a
// better-sqlite3 built for its ABI. Used by run.mjs and bench/startup.mjs (NODE_RELEASE).
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const pinned = JSON.parse(readFileSync(join(here, 'package.json'), 'utf8')).dependencies;
const seconds = (from) => ((performance.now() - from) / 1000).toFixed(1);

/** The pinned releases' names (`node22`, `node24`). */
export const RELEASES = Object.keys(pinned);

/** The pinned packages are Linux x64's (the CI machine's). */
export const SUPPORTED = `${process.platform}-${process.arch}` === 'linux-x64';

export const binary = (name) => join(here, 'node_modules', name, 'bin', 'node');
export const versionOf = (name) =>
  JSON.parse(readFileSync(join(here, 'node_modules', name, 'package.json'), 'utf8')).version;

export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: 'inherit', ...options });
  if (result.status !== 0)
    throw new Error(`${[command, ...args].join(' ')} exited with ${result.status ?? result.signal}`);
  return result;
}

/** Installs the pinned binaries (`npm ci` in this folder) unless they are there already. */
export function install(names = RELEASES) {
  if (names.every((name) => existsSync(binary(name)) && pinned[name].endsWith(`@${versionOf(name)}`))) return;
  const t = performance.now();
  run(npm, ['ci', '--no-audit', '--no-fund', '--prefer-offline'], {
    cwd: here,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  console.log(`node releases: installed ${names.join(', ')} in ${seconds(t)} s`);
}

/** A better-sqlite3 built for `node`'s ABI: its lib/index.js. */
export function sqliteDriver(name) {
  const node = binary(name);
  const source = join(root, 'node_modules/better-sqlite3');
  const { version } = JSON.parse(readFileSync(join(source, 'package.json'), 'utf8'));
  const abi = spawnSync(node, ['-p', 'process.versions.modules'], { encoding: 'utf8' }).stdout.trim();
  // Inside the project, so that its lib/ resolves `bindings` from the project's node_modules.
  const dir = join(root, '.tmp/node-releases', `better-sqlite3-${version}-abi${abi}`);
  const addon = join(dir, 'build/Release/better_sqlite3.node');
  if (existsSync(addon)) return join(dir, 'lib/index.js');
  const t = performance.now();
  const building = `${dir}.building`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(building, { recursive: true });
  for (const entry of ['package.json', 'binding.gyp', 'lib', 'src', 'deps'])
    cpSync(join(source, entry), join(building, entry), { recursive: true });
  const target = versionOf(name);
  // Built addons are kept outside the checkout too: a fresh clone (CI's) copies one in instead of
  // compiling it again (75-135 s per release on this machine under load).
  const kept = join(
    process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'),
    'vellum/node-releases',
    `better-sqlite3-${version}-abi${abi}.node`,
  );
  const built = join(building, 'build/Release/better_sqlite3.node');
  if (existsSync(kept)) {
    mkdirSync(dirname(built), { recursive: true });
    copyFileSync(kept, built);
    rmSync(dir, { recursive: true, force: true });
    renameSync(building, dir);
    console.log(`node releases: better-sqlite3 ${version} for Node ${target} (ABI ${abi}) from ${kept}`);
    return join(dir, 'lib/index.js');
  }
  const prebuilt = spawnSync(
    join(root, 'node_modules/.bin/prebuild-install'),
    ['--runtime', 'node', '--target', target, '--arch', 'x64', '--platform', 'linux'],
    { cwd: building, stdio: 'ignore', timeout: 60_000 },
  );
  if (prebuilt.status !== 0 || !existsSync(join(building, 'build/Release/better_sqlite3.node'))) {
    // No download (offline, or no prebuilt binary): compile against the release's own headers.
    const nodeGyp =
      process.env.npm_config_node_gyp ??
      join(
        spawnSync(npm, ['root', '-g'], { encoding: 'utf8' }).stdout.trim(),
        'npm/node_modules/node-gyp/bin/node-gyp.js',
      );
    const gyp = spawnSync(
      node,
      [nodeGyp, 'rebuild', '--release', `--nodedir=${join(here, 'node_modules', name)}`, '-j', 'max'],
      { cwd: building, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
    );
    if (gyp.status !== 0)
      throw new Error(`node-gyp could not build better-sqlite3 for Node ${target}:\n${gyp.stdout}${gyp.stderr}`);
    rmSync(join(building, 'build/Release/obj.target'), { recursive: true, force: true });
    rmSync(join(building, 'build/Release/obj'), { recursive: true, force: true });
  }
  try {
    mkdirSync(dirname(kept), { recursive: true });
    copyFileSync(built, kept);
  } catch {
    // A cache that cannot be written costs the next clone a build, nothing more.
  }
  rmSync(dir, { recursive: true, force: true });
  renameSync(building, dir);
  console.log(`node releases: better-sqlite3 ${version} for Node ${target} (ABI ${abi}) in ${seconds(t)} s`);
  return join(dir, 'lib/index.js');
}

/** The environment that makes a process on that release load its better-sqlite3 (sqlite-addon.mjs). */
export const releaseEnv = (driver) => ({
  VELLUM_SQLITE_DRIVER: driver,
  // In NODE_OPTIONS, not the arguments: the SQLite reader threads start with no execArgv.
  NODE_OPTIONS: `--import=${pathToFileURL(join(here, 'sqlite-addon.mjs')).href}`,
});
