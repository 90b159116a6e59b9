// Starts the built Vellum (dist/app/cli/main.js) on the blog example for a benchmark, and stops it.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** `vellum start examples/blog` with these variables and node flags; resolves once it serves. */
export async function startVellum({ env, flags = [] }) {
  const child = spawn(
    process.execPath,
    [...flags, join(root, 'dist/app/cli/main.js'), 'start', join(root, 'examples/blog')],
    {
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  await new Promise((done, fail) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (/serving/.test(out)) done();
    });
    child.on('exit', (code) => fail(new Error(`vellum exited with ${code}: ${out}`)));
  });
  return child;
}

/** SIGTERM, then the exit. */
export const stopVellum = (child) => new Promise((done) => (child.on('exit', done), child.kill('SIGTERM')));
