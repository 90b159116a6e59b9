// A node:test reporter that writes test/timings.json: the seconds each test file's top-level suites
// took (all dialects together), which test/run.mjs uses to deal files to its processes. Run with one
// process per file, on all three dialects, on a machine doing nothing else:
//   TEST_SHARDS=0 TEST_REPORTER=./test/helpers/timings-reporter.mjs node test/run.mjs
// Only a run of every file rewrites the whole list; a filtered run updates its files' entries.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = fileURLToPath(new URL('../timings.json', import.meta.url));

export default async function* timingsReporter(source) {
  const seconds = new Map();
  let failed = 0;
  for await (const event of source) {
    if (event.type === 'test:fail' && event.data.details?.type !== 'suite') {
      failed++;
      yield `not ok: ${event.data.name} (${event.data.file})\n`;
    }
    if ((event.type !== 'test:pass' && event.type !== 'test:fail') || event.data.nesting !== 0 || !event.data.file)
      continue;
    const file = relative(root, event.data.file);
    seconds.set(file, (seconds.get(file) ?? 0) + (event.data.details?.duration_ms ?? 0) / 1000);
  }
  const timings = existsSync(out) ? JSON.parse(readFileSync(out, 'utf8')) : {};
  for (const [file, s] of seconds) timings[file] = Math.round(s * 10) / 10;
  const sorted = Object.fromEntries(Object.entries(timings).sort(([a], [b]) => (a < b ? -1 : 1)));
  writeFileSync(out, `${JSON.stringify(sorted, null, 2)}\n`);
  yield `${seconds.size} files timed into test/timings.json; ${failed} tests failed\n`;
}
