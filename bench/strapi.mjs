// The real Strapi 5.54 beside Vellum in `npm run bench` (STRAPI=1): installed and started by the
// shared reference scripts (../shared/bench/strapi/start.sh; the first install takes minutes),
// seeded with the same seeder, measured with the same scenarios, then stopped.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** The shared reference folder: STRAPI_BENCH, else ../shared/bench/strapi beside the repository. */
export function strapiScripts(root) {
  const dir = process.env.STRAPI_BENCH ?? resolve(root, '../shared/bench/strapi');
  if (!existsSync(join(dir, 'start.sh')))
    throw new Error(`STRAPI=1 needs the reference Strapi scripts: ${dir}/start.sh not found (set STRAPI_BENCH)`);
  return dir;
}

const strapiDir = () => process.env.STRAPI_DIR ?? join(homedir(), 'strapi-reference');

/**
 * Starts the reference Strapi on `port` (RESET_DB: an empty database); its pid, cold start (the
 * script's spawn-to-first-answer) and the full-access token its blog bootstrap forces.
 */
export function startStrapi(scripts, port, { reset = false } = {}) {
  const run = spawnSync('bash', [join(scripts, 'start.sh')], {
    env: { ...process.env, PORT: String(port), RESET_DB: reset ? '1' : '0', STRAPI_DIR: strapiDir() },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (run.status !== 0) throw new Error(`Strapi did not start: ${run.stdout}`);
  const pid = Number(/PID=(\d+)/.exec(run.stdout)?.[1]);
  const coldStartMs = Number(/COLD_START_MS=(\d+)/.exec(run.stdout)?.[1]);
  const env = readFileSync(join(strapiDir(), '.env'), 'utf8');
  const token = /^BENCH_API_TOKEN=(.*)$/m.exec(env)?.[1]?.trim();
  if (!token) throw new Error(`no BENCH_API_TOKEN in ${join(strapiDir(), '.env')}`);
  return { pid, coldStartMs, token };
}

/** SIGTERM to the reference Strapi, then its exit (polled: it is not this process's child). */
export async function stopStrapi(pid) {
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    return;
  }
  for (let i = 0; i < 200; i++) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((done) => setTimeout(done, 100));
  }
  process.kill(pid, 'SIGKILL');
}
