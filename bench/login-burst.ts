/**
 * What a burst of logins does to everyone else: the latency of a cached list request while
 * LOGINS logins (bcrypt at cost 10, Strapi's) run at once, against a node on SQLite started in a
 * process of its own (the client's timers must not wait for the node's work). A measurement, not
 * a test:
 *
 *   LOGINS=20 ROUNDS=3 GAP=10 node --import tsx bench/login-burst.ts
 *
 * Prints how long the logins take alone, then, per burst, how long they took (the last one's
 * answer) and the latencies of a list request sent every GAP ms meanwhile, whether or not the
 * previous one was answered, counted from when it was due (median, 95th percentile, largest).
 * `VELLUM_ROOT` names another checkout to measure (its test helpers start the node).
 */
import { fork } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = resolve(process.env.VELLUM_ROOT ?? fileURLToPath(new URL('..', import.meta.url)));
const LOGINS = Number(process.env.LOGINS ?? 20);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const GAP = Number(process.env.GAP ?? 10);

interface Started {
  url: string;
  authHeaders: Record<string, string>;
}

if (process.env.LOGIN_BURST_NODE) {
  // The node's process: starts it, says where it listens, and stops when told.
  const { startServer } = (await import(
    pathToFileURL(`${ROOT}/test/helpers/server.ts`).href
  )) as typeof import('../test/helpers/server.js');
  const server = await startServer('sqlite', {
    config: {
      // Strapi's cost, whatever the checkout's test default.
      server: { passwords: { rounds: 10 } },
      plugins: { 'users-permissions': { config: { register: { ratelimit: { max: 10_000 } } } } },
    },
  });
  process.send!({ url: server.url, authHeaders: server.authHeaders } satisfies Started);
  process.once('message', () => void server.close().then(() => process.exit(0)));
} else {
  const child = fork(fileURLToPath(import.meta.url), {
    env: { ...process.env, LOGIN_BURST_NODE: '1' },
    execArgv: ['--import', 'tsx'],
  });
  const { url, authHeaders } = await new Promise<Started>((done) => child.once('message', (m) => done(m as Started)));
  try {
    await measure(url, authHeaders);
  } finally {
    child.send('stop');
  }
}

async function measure(url: string, authHeaders: Record<string, string>) {
  const quantile = (values: number[], q: number) =>
    [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * q))]!;
  const summary = (values: number[]) =>
    `median ${quantile(values, 0.5).toFixed(1)} ms, p95 ${quantile(values, 0.95).toFixed(1)} ms, max ${Math.max(...values).toFixed(1)} ms (${values.length} requests)`;
  const post = (path: string, body: unknown) =>
    fetch(url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const password = 'burst-password-1';
  const users = Array.from({ length: LOGINS }, (_, n) => `burst${n}`);
  for (const username of users) {
    const res = await post('/api/auth/local/register', { username, email: `${username}@example.com`, password });
    if (res.status !== 200) throw new Error(`register ${username}: ${res.status} ${await res.text()}`);
  }
  const logins = async () => {
    const started = performance.now();
    await Promise.all(
      users.map(async (identifier) => {
        const res = await post('/api/auth/local', { identifier, password });
        if (res.status !== 200) throw new Error(`login ${identifier}: ${res.status} ${await res.text()}`);
      }),
    );
    return performance.now() - started;
  };
  /** The list request's latency, from `due` (when it should have been sent). */
  const list = async (due = performance.now()) => {
    const res = await fetch(`${url}/api/articles?pagination[pageSize]=5`, { headers: authHeaders });
    if (res.status !== 200) throw new Error(`list: ${res.status}`);
    await res.arrayBuffer();
    return performance.now() - due;
  };
  for (let n = 0; n < 20; n++) await list();
  const quiet: number[] = [];
  for (let n = 0; n < 50; n++) quiet.push(await list());
  console.log(`no logins: list ${summary(quiet)}`);
  console.log(`no other traffic: ${LOGINS} logins in ${(await logins()).toFixed(0)} ms`);
  for (let round = 1; round <= ROUNDS; round++) {
    const latencies: Promise<number>[] = [];
    let done = false;
    const burst = logins().finally(() => (done = true));
    const start = performance.now();
    for (let n = 0; !done; n++) {
      const due = start + n * GAP;
      await new Promise((wake) => setTimeout(wake, Math.max(0, due - performance.now())));
      latencies.push(list(due));
    }
    console.log(
      `burst ${round}: ${LOGINS} logins in ${(await burst).toFixed(0)} ms; list ${summary(await Promise.all(latencies))}`,
    );
  }
}
