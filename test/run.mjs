#!/usr/bin/env node
// Runs every test/**/*.test.ts with Node's test runner (TypeScript through tsx).
// VELLUM_TEST_DIALECTS=sqlite,postgres,mysql picks the databases (default: all three).
// Extra arguments are file filters: `node test/run.mjs content/crud` runs test/content/crud.test.ts only.
// TEST_CONCURRENCY: files run at once (default 3); TEST_REPORTER: Node's reporter (default spec).
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('.', import.meta.url));
const walk = (dir) =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : path.endsWith('.test.ts') ? [path] : [];
  });
const filters = process.argv.slice(2);
const files = walk(root)
  .filter((file) => filters.length === 0 || filters.some((f) => relative(root, file).includes(f)))
  .sort();
if (files.length === 0) {
  console.error('no test files match', filters.join(' '));
  process.exit(1);
}
// Three files at once on two cores: a file waits on its databases and servers much of the time.
// Measured on this 2-core machine, the whole tier: 8 min at 3 against 11-12.5 min at 2 (CI runs of
// the same commit). More would pass PostgreSQL's 100 connections (each test node pools up to 10).
const concurrency = process.env.TEST_CONCURRENCY ?? '3';
const result = spawnSync(
  process.execPath,
  [
    '--import',
    'tsx',
    '--test',
    `--test-concurrency=${concurrency}`,
    `--test-reporter=${process.env.TEST_REPORTER ?? 'spec'}`,
    ...files,
  ],
  // One process per `vellum start` a test spawns, unless the test asks for workers (test/app/workers.test.ts).
  // VELLUM_CHECK_SHAPES: every statement compiled once per shape is compiled again and compared
  // (core/database/shapes.ts), so a shape's key that misses something fails the tests.
  {
    stdio: 'inherit',
    env: {
      ...process.env,
      NODE_ENV: process.env.NODE_ENV ?? 'test',
      VELLUM_WORKERS: '1',
      VELLUM_CHECK_SHAPES: process.env.VELLUM_CHECK_SHAPES ?? '1',
    },
  },
);
process.exit(result.status ?? 1);
