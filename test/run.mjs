#!/usr/bin/env node
// Runs every test/**/*.test.ts with Node's test runner (TypeScript through tsx).
// VELLUM_TEST_DIALECTS=sqlite,postgres,mysql picks the databases (default: all three).
// Extra arguments are file filters: `node test/run.mjs content/crud` runs test/content/crud.test.ts only.
// TEST_CONCURRENCY: processes at once (default 3); TEST_REPORTER: Node's reporter (default spec);
// TEST_SHARDS: how many processes share the files (default: 4 per concurrent process; 0: one per file).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

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
// Three processes at once on two cores: a file waits on its databases and servers much of the time.
// Measured on this 2-core machine, the whole tier: 8 min at 3 against 11-12.5 min at 2 (CI runs of
// the same commit). More would pass PostgreSQL's 100 connections (each test node pools up to 10).
const concurrency = Number(process.env.TEST_CONCURRENCY ?? 3);
const shards = Number(process.env.TEST_SHARDS ?? concurrency * 4);

/**
 * Files run a few processes each, one file after another (Node's runner runs a process's top-level
 * tests in turn), instead of a process per file: a process spends ~1 s of CPU loading Vellum's
 * sources through tsx before its first test, which was ~30% of the tier's CPU over 168 files
 * (CPU profile of the SQLite tier, 2026-11-29). Files are dealt longest first to the shard with
 * the least work, from test/timings.json (seconds per file on all three dialects; a file not
 * listed counts as the median), and the longest shards start first.
 */
/**
 * A shard whose process is still alive 10 s after its last test (a server, timer or socket a file
 * left open) ends with an error naming what is open, instead of holding the run until CI's limit.
 */
const GUARD = `import { after } from 'node:test';
after(() => {
  setTimeout(() => {
    const open = process._getActiveHandles().map((handle) => handle.constructor.name);
    console.error('this test process is still alive 10 s after its tests; open handles:', open.join(', '));
    process.exit(1);
  }, 10_000).unref();
});
`;

function shardFiles() {
  const timings = JSON.parse(readFileSync(join(root, 'timings.json'), 'utf8'));
  const known = Object.values(timings).sort((a, b) => a - b);
  const median = known[Math.floor(known.length / 2)] ?? 1;
  const cost = (file) => timings[relative(root, file)] ?? median;
  const bins = Array.from({ length: Math.min(shards, files.length) }, () => ({ files: [], total: 0 }));
  for (const file of [...files].sort((a, b) => cost(b) - cost(a))) {
    const bin = bins.reduce((least, next) => (next.total < least.total ? next : least));
    bin.files.push(file);
    bin.total += cost(file);
  }
  const dir = join(root, '../.tmp/test-shards');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return bins
    .sort((a, b) => b.total - a.total)
    .map((bin, index) => {
      const path = join(dir, `shard-${String(index + 1).padStart(2, '0')}.test.mjs`);
      const imports = bin.files.map((file) => `await import(${JSON.stringify(pathToFileURL(file).href)});`);
      writeFileSync(
        path,
        `// ${Math.round(bin.total)} s on three dialects (test/timings.json)\n${GUARD}${imports.join('\n')}\n`,
      );
      return path;
    });
}

const entries = shards > 0 && files.length > concurrency ? shardFiles() : files;
const result = spawnSync(
  process.execPath,
  [
    '--import',
    'tsx',
    '--test',
    `--test-concurrency=${concurrency}`,
    `--test-reporter=${process.env.TEST_REPORTER ?? 'spec'}`,
    ...entries,
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
