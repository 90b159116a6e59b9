/**
 * The primary process of `vellum start` with workers (app/workers.ts explains the design). It
 * loads nothing of Vellum: main.ts imports this module instead of the commands, so the primary
 * idles at a bare Node's memory (45 MB RSS on this machine, against 78 MB with the bundle loaded).
 * It forks the first worker alone; that one reads the configuration, does the start-up work that
 * must happen once, listens, and answers how many workers the configuration asks for; the others
 * start then. A worker that fails at start-up stops everything with its error (it printed it);
 * one that dies later is replaced, with one line. SIGTERM or SIGINT stops every worker as SIGTERM
 * stops a single node (requests in flight finish), then the primary exits.
 */
import cluster, { type Worker } from 'node:cluster';

/** What a worker tells the primary once it listens (app/workers.ts `reportReady`). */
interface Ready {
  vellum: 'ready';
  /** The lines `vellum start` prints once every worker listens. */
  lines: string[];
  /** How many workers the configuration asks for (the first worker's answer counts). */
  workers: number;
}

const isReady = (message: unknown): message is Ready =>
  typeof message === 'object' && message !== null && (message as { vellum?: unknown }).vellum === 'ready';

/**
 * True when this process is the bin's primary for `vellum start`: not a worker, not `--help`, and
 * not asked for one process (`VELLUM_WORKERS=1` serves in this process, as before workers).
 */
export const supervisesWorkers = (argv: readonly string[], env: NodeJS.ProcessEnv): boolean =>
  argv[0] === 'start' &&
  cluster.isPrimary &&
  env.VELLUM_WORKERS?.trim() !== '1' &&
  !argv.includes('--help') &&
  !argv.includes('-h');

/**
 * The Node flags of the workers: this process's, and a young generation of 2 MB semi-spaces, as
 * `npm start` gives its node, unless this command line or NODE_OPTIONS chooses a size. V8 fixes the
 * size when a process starts; Node's default lets it grow to 16 MB per semi-space, which a
 * worker keeps: its idle RSS was 101-109 MB with the default, 89-91 MB with 2 MB (the blog,
 * docs/performance.md "Start-up and memory"; requests: within noise, "A young generation of 2 MB").
 */
export function workerExecArgv(execArgv: readonly string[], nodeOptions: string | undefined): string[] {
  const chosen = [...execArgv, ...(nodeOptions ?? '').split(/\s+/)].some((flag) =>
    /^--max[-_]semi[-_]space[-_]size(=|$)/.test(flag),
  );
  return chosen ? [...execArgv] : [...execArgv, '--max-semi-space-size=2'];
}

/** Runs the workers until SIGINT or SIGTERM (or a failed start); answers the exit code. */
export function superviseWorkers(out: (line: string) => void, err: (line: string) => void): Promise<number> {
  const live = new Set<Worker>();
  let stopping = false;
  let code = 0;
  let forked = 0;
  let resolveExited!: (code: number) => void;
  const exited = new Promise<number>((resolve) => (resolveExited = resolve));
  const stop = () => {
    if (stopping) return;
    stopping = true;
    for (const worker of live) worker.process.kill('SIGTERM');
    if (live.size === 0) resolveExited(code);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  cluster.setupPrimary({ execArgv: workerExecArgv(process.execArgv, process.env.NODE_OPTIONS) });

  /** Forks a worker; resolves with its Ready once it listens, rejects if it stops before. */
  const fork = (): Promise<Ready> =>
    new Promise((resolve, reject) => {
      forked += 1;
      // The first worker alone prints the configuration's warnings: the others would repeat them.
      const worker = cluster.fork({ VELLUM_WORKER_INDEX: String(forked) });
      let listening = false;
      live.add(worker);
      worker.on('message', (message: unknown) => {
        if (!isReady(message) || listening) return;
        listening = true;
        resolve(message);
      });
      worker.on('exit', (exitCode, signal) => {
        live.delete(worker);
        if (!listening) {
          // It printed why; nothing is restarted (the next one would fail the same way).
          if (!stopping) code = exitCode || 1;
          reject(new Error('stopped at start-up'));
          stop();
        } else if (!stopping) {
          err(`[vellum] worker ${worker.process.pid} exited (${signal ?? `code ${exitCode}`}); starting another`);
          fork().catch(() => undefined);
        }
        if (stopping && live.size === 0) resolveExited(code);
      });
    });

  fork()
    .then(async (first) => {
      await Promise.all(Array.from({ length: first.workers - 1 }, fork));
      const [serving = '', ...rest] = first.lines;
      out(first.workers > 1 ? `${serving} with ${first.workers} worker processes` : serving);
      for (const line of rest) out(line);
    })
    .catch(() => undefined);
  return exited;
}
