#!/usr/bin/env node
/**
 * `vellum`: runs the commands (commands.ts) from the bundle `npm run build` makes
 * (dist/bundle/, scripts/bundle.mjs) when there is one, else from the compiled files beside this
 * one (or, under tsx, from the sources). The bundle starts in a fraction of the time: Node loads
 * one file instead of ~550 (docs/performance.md "Start-up and memory"). `VELLUM_BUNDLE=0` runs without it.
 * `vellum start` with several workers runs primary.ts in this process instead (app/workers.ts).
 */
import { existsSync } from 'node:fs';
import module from 'node:module';
import { fileURLToPath } from 'node:url';
import { superviseWorkers, supervisesWorkers } from './primary.js';

// `vellum start`'s primary forks the workers and loads nothing else (primary.ts).
if (supervisesWorkers(process.argv.slice(2), process.env)) {
  process.exitCode = await superviseWorkers(
    (line) => process.stdout.write(`${line}\n`),
    (line) => process.stderr.write(`${line}\n`),
  );
  process.exit();
}

// Node 22.1+: V8's code cache for the modules loaded from here on (the bundle), kept in Node's
// default folder (os.tmpdir()/node-compile-cache, or NODE_COMPILE_CACHE; NODE_DISABLE_COMPILE_CACHE=1
// turns it off). A start then compiles nothing it compiled before: docs/performance.md "Start-up and memory".
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();

const bundle = new URL('../../bundle/main.mjs', import.meta.url);
const commands: typeof import('./commands.js') =
  process.env.VELLUM_BUNDLE !== '0' && existsSync(fileURLToPath(bundle))
    ? await import(bundle.href)
    : await import('./commands.js');
const code = await commands.main(process.argv.slice(2));
// A failed command stops here, whatever it left open; `start` keeps serving after answering 0.
if (code !== 0) process.exit(code);
