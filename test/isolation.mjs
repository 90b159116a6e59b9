#!/usr/bin/env node
// Runs every integration test alone (`--test-name-pattern` with its exact name), on SQLite, one
// file at a time, and lists the tests that fail alone: a test that passes with its file but not
// alone depends on another test having run. On demand, not in CI (~15 minutes for the suite).
//
//   node test/isolation.mjs                  every test/**/*.test.ts
//   node test/isolation.mjs content/crud users-permissions   files whose path contains one of these
//   ISOLATION_CONCURRENCY=1 node test/isolation.mjs ...   (default 2 runs at once)
//
// The output of each failing run is kept in .tmp/isolation/.
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('.', import.meta.url));
const logs = fileURLToPath(new URL('../.tmp/isolation/', import.meta.url));
const reporter = fileURLToPath(new URL('./helpers/json-reporter.mjs', import.meta.url));
const concurrency = Number(process.env.ISOLATION_CONCURRENCY ?? 2);

const walk = (dir) =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : path.endsWith('.test.ts') ? [path] : [];
  });
const filters = process.argv.slice(2);
const files = walk(root)
  .filter((file) => !relative(root, file).startsWith('fixtures'))
  .filter((file) => filters.length === 0 || filters.some((f) => relative(root, file).includes(f)))
  .sort();

/** Runs one test file (optionally only the tests named `pattern`) and returns its events. */
function run(file, pattern) {
  const args = [
    '--import',
    'tsx',
    '--test',
    '--test-concurrency=1',
    `--test-reporter=${reporter}`,
    '--test-reporter-destination=stdout',
  ];
  if (pattern) args.push(`--test-name-pattern=${pattern}`);
  args.push(file);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, {
      env: { ...process.env, VELLUM_TEST_DIALECTS: 'sqlite', NODE_ENV: 'test', VELLUM_WORKERS: '1' },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    child.on('close', (code) => {
      const events = out
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line));
      resolve({ code, events, output: `${out}\n${err}` });
    });
  });
}

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const leaves = (events) => events.filter((event) => !event.suite && !event.skipped && !event.todo);

async function pool(items, worker) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        await worker(items[index], index);
      }
    }),
  );
}

/** A pattern no test name matches: the file's tests are listed, skipped, none run. */
const NONE = '^(?!)';
const UNMATCHED = 'test name does not match pattern';

rmSync(logs, { recursive: true, force: true });
mkdirSync(logs, { recursive: true });
const failures = [];
const started = Date.now();
for (const file of files) {
  const name = relative(root, file);
  // The tests that would run on SQLite: skipped here for the pattern only, not for a reason of their own.
  const listed = await run(file, NONE);
  const tests = [
    ...new Set(
      listed.events.filter((event) => !event.suite && event.skipReason === UNMATCHED).map((event) => event.name),
    ),
  ];
  if (tests.length === 0 && listed.code !== 0) console.log(`${name}: cannot be listed (exit ${listed.code})`);
  const alone = [];
  await pool(tests, async (test, index) => {
    const result = await run(file, `^${escapeRegExp(test)}$`);
    const named = result.events.filter((event) => !event.suite && event.name === test);
    // Skipped for a reason of its own once the pattern selects it (`skip: dialect === 'sqlite' && ...`).
    if (result.code === 0 && named.length > 0 && named.every((event) => event.skipped)) return;
    const ran = leaves(result.events).filter((event) => event.name === test);
    if (result.code === 0 && ran.length > 0 && ran.every((event) => event.passed)) return;
    const why =
      ran.length === 0
        ? `did not run (exit ${result.code})`
        : (ran.find((event) => !event.passed)?.error ?? `exit ${result.code}`);
    const log = join(logs, `${name.replace(/[/\\]/g, '_')}-${index}.log`);
    writeFileSync(log, `${test}\n\n${result.output}`);
    alone.push(test);
    failures.push({ file: name, test, why: why.split('\n')[0], log: relative(process.cwd(), log) });
  });
  console.log(`${name}: ${tests.length} tests, ${alone.length ? `${alone.length} fail alone` : 'each passes alone'}`);
}
console.log(`\n${files.length} files in ${Math.round((Date.now() - started) / 1000)} s`);
if (failures.length === 0) {
  console.log('every test passes alone');
} else {
  console.log(`${failures.length} tests fail alone:`);
  for (const { file, test, why, log } of failures) console.log(`- ${file}: ${test}\n    ${why}\n    (${log})`);
  process.exitCode = 1;
}
