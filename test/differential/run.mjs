#!/usr/bin/env node
// Runs the differential suite (test/differential/*.diff.ts) against the real Strapi 5.54 and
// Vellum, one file at a time (each starts its own Strapi). On demand only: Strapi's install takes
// minutes. `npm run test:strapi -- writes` runs writes.diff.ts only.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const filters = process.argv.slice(2);
const files = readdirSync(here)
  .filter((name) => name.endsWith('.diff.ts'))
  .filter((name) => filters.length === 0 || filters.some((f) => name.includes(f)))
  .sort()
  .map((name) => join(here, name));
if (files.length === 0) {
  console.error('no differential files match', filters.join(' '));
  process.exit(1);
}
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=1', '--test-reporter=spec', ...files],
  {
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: process.env.NODE_ENV ?? 'test' },
  },
);
process.exit(result.status ?? 1);
