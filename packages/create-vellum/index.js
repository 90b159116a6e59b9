#!/usr/bin/env node
// `npm create vellum@latest my-site [-- --example blog]`: runs `vellum new` of the Vellum this
// package depends on, whose version the new project's package.json then names.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
let manifest;
try {
  manifest = require.resolve('vellum/package.json');
} catch {
  console.error(
    'create-vellum: the vellum package is not installed beside it; run `npm create vellum@latest <folder>`.',
  );
  process.exit(1);
}
const { bin } = JSON.parse(readFileSync(manifest, 'utf8'));
const args = process.argv.slice(2);
if (args.length === 0) {
  console.error('Usage: npm create vellum@latest <folder> [-- --example blog]');
  process.exit(1);
}
const result = spawnSync(process.execPath, [join(dirname(manifest), bin.vellum), 'new', ...args], { stdio: 'inherit' });
process.exit(result.status ?? 1);
