#!/usr/bin/env node
// `npm start`: serves with dist/ (its bundle, dist/bundle/, through dist/app/cli/main.js), building it
// first only when src/ changed since the last build
// (`npm run build` writes dist/.built after compiling; `npm ci`/`npm install` build through
// `prepare`). A check of the sources' modification times costs a few milliseconds; tsc costs
// seconds even when nothing changed. Arguments after `npm start --` go to `vellum start` (default: examples/blog).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const stamp = join(root, 'dist/.built');

/** The newest modification time of what the build reads. */
function newestSource() {
  let newest = Math.max(
    ...['tsconfig.json', 'tsconfig.build.json', 'scripts/bundle.mjs'].map((file) => statSync(join(root, file)).mtimeMs),
  );
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else newest = Math.max(newest, statSync(path).mtimeMs);
    }
  };
  walk(join(root, 'src'));
  return newest;
}

if (!existsSync(stamp) || statSync(stamp).mtimeMs < newestSource()) {
  console.log('Building dist/ (missing, or older than src/)...');
  const npm = process.env.npm_execpath ? [process.execPath, [process.env.npm_execpath]] : ['npm', []];
  const build = spawnSync(npm[0], [...npm[1], 'run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const main = join(root, 'dist/app/cli/main.js');
// `vellum start` serves the current folder, as `strapi start` does; `npm start` in this repository
// serves the blog example.
const args = process.argv.slice(2);
process.argv = [
  process.argv[0],
  main,
  'start',
  ...(args.some((arg) => !arg.startsWith('-')) ? args : [...args, join(root, 'examples/blog')]),
];
await import(pathToFileURL(main).href);
