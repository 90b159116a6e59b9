#!/usr/bin/env node
// The unit tier: every src/**/*.test.ts and admin/src/**/*.test.ts (tests beside the code they test,
// the admin panel's logic without its React), and the checks of test/ that read files only (the
// documentation's links: test/docs-links.test.ts). No server, no database.
// They run in this one process (`node --import tsx test/unit.mjs`, as `npm run test:unit` does):
// a process per file, as `node --test` makes, costs ~0.6 s of start-up each, more than the tests.
// Extra arguments are file filters: `npm run test:unit -- core/query/parse` runs src/core/query/parse/*.test.ts;
// Node's test flags apply (`--test-reporter=spec`, `--test-name-pattern=...` before test/unit.mjs).
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

if (!process.execArgv.some((arg, i, all) => arg === '--import=tsx' || (arg === '--import' && all[i + 1] === 'tsx'))) {
  console.error('run the unit tier as `node --import tsx test/unit.mjs` (npm run test:unit)');
  process.exit(2);
}
process.env.NODE_ENV ??= 'test';
const root = fileURLToPath(new URL('..', import.meta.url));
const walk = (dir) =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : path.endsWith('.test.ts') ? [path] : [];
  });
const filters = process.argv.slice(2);
const files = [...walk(join(root, 'src')), ...walk(join(root, 'admin/src')), join(root, 'test/docs-links.test.ts')]
  .filter(
    (file) =>
      filters.length === 0 ||
      filters.some((f) => relative(join(root, 'src'), file).includes(f) || relative(root, file).includes(f)),
  )
  .sort();
if (files.length === 0) {
  console.error('no unit test files match', filters.join(' '));
  process.exit(1);
}
for (const file of files) await import(pathToFileURL(file).href);
