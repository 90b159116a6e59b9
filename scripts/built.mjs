#!/usr/bin/env node
// The last step of `npm run build`: marks dist/ as built from the sources as they are now
// (scripts/start.mjs compares this file's time with src/'s newest).
import { writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

writeFileSync(
  join(resolve(dirname(fileURLToPath(import.meta.url)), '..'), 'dist/.built'),
  `${new Date().toISOString()}\n`,
);
