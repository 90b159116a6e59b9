/**
 * The commands of `vellum`: `main(argv, io)` runs one and answers its exit code (main.ts calls it,
 * from this module or its bundle, with the process's streams; tests call it in-process).
 * `vellum start [projectDir]` serves a project (default: the current folder, as `strapi start`);
 * `vellum develop [projectDir]` serves it and applies each change without a restart (app/develop.ts);
 * `vellum db prune [projectDir]` drops the columns and tables the schema no longer names;
 * the administration commands (tokens, permissions, users, admins, locales) are in admin.ts;
 * `vellum audit` (the audit log) in audit.ts;
 * `vellum import` and `vellum export` in transfer.ts; `vellum new` in new-project.ts.
 */
import { existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { processIo, type CliIo } from './io.js';

export type { CliIo } from './io.js';
import { configSource } from '../../core/config/files.js';
import { loadConfig, type VellumConfig } from '../../core/config/load.js';
import { connectDatabase } from '../../core/database/connection.js';
import { pruneSchema } from '../../core/database/sync.js';
import { ProjectError, TransferError, VellumError } from '../../core/errors.js';
import { loadProjectSchema } from '../../core/schema/load.js';
import { createVellum } from '../server.js';
import { builtInTypes, systemTables } from '../built-ins.js';
import { isFirstWorker, isWorker, nameServingProcess, reportReady, workerCount } from '../workers.js';

const ADMIN_COMMANDS = new Set([
  'admin',
  'token',
  'permissions',
  'user',
  'registration',
  'settings',
  'locale',
  'webhook',
  'schedule',
]);

/**
 * The project a command acts on: the folder named, else the current one (as `strapi start`
 * assumes). A folder with neither `config/` nor `src/api/` is no project (Vellum's own checkout
 * has a `src/`): said at once, rather than serving or writing an empty one.
 */
function projectDir(named: string | undefined, cwd: string): string {
  const dir = resolve(cwd, named ?? '.');
  if (!existsSync(join(dir, 'config')) && !existsSync(join(dir, 'src', 'api'))) {
    const how =
      named === undefined
        ? "run vellum in the project's folder, or name it (vellum start path/to/project, --project for the other commands)"
        : "name the folder that holds the project's config/ and src/";
    throw new ProjectError(`is not a Strapi project (no config/ or src/api/ folder): ${how}`, dir);
  }
  return dir;
}

// The administration and transfer commands load when run: `start` needs none of their modules.
const usage = async (): Promise<string> => `usage:
${(await import('./new-project.js')).NEW_USAGE}
  vellum start [projectDir]      serve a project (default: the current folder)
  vellum develop [projectDir]    serve it and apply each change of src/, config/ and .env as saved
  vellum db prune [projectDir]   drop columns and tables that the schema no longer names
  vellum ts:generate-types [projectDir]   write types/generated/*.d.ts, as strapi ts:generate-types
${(await import('./inspect.js')).INSPECT_USAGE}
${(await import('./openapi.js')).OPENAPI_USAGE}
${(await import('./generate.js')).GENERATE_USAGE}
${(await import('./admin.js')).ADMIN_USAGE}
${(await import('./audit.js')).AUDIT_USAGE}
${(await import('./transfer.js')).TRANSFER_USAGE}`;

/**
 * Serves the project until SIGTERM (the process's: `start` is for the bin, not in-process use), in
 * this process or as a worker of `vellum start`'s primary (cli/primary.ts, app/workers.ts).
 */
async function start(projectDir: string, io: CliIo): Promise<void> {
  const worker = isWorker();
  const quiet = worker && !isFirstWorker();
  const { lines, workers } = await serve(
    projectDir,
    quiet ? { ...io, out: () => undefined, err: () => undefined } : io,
    worker,
  );
  if (worker) reportReady(lines, workers);
  else for (const line of lines) io.out(line);
}

/**
 * Starts a node and listens; answers the lines that say where it serves (a worker sends them to
 * the primary, which prints them once every worker listens). Stops on SIGTERM (a worker ignores
 * SIGINT: a terminal's reaches every process of the group, and the primary stops the workers).
 */
async function serve(projectDir: string, io: CliIo, worker: boolean): Promise<{ lines: string[]; workers: number }> {
  const vellum = await createVellum(projectDir, { env: io.env, cwd: io.cwd });
  let workers: number;
  try {
    workers = workerCount(vellum.config);
  } catch (error) {
    await vellum.close();
    throw error;
  }
  for (const warning of vellum.warnings) io.err(`Warning: ${warning}`);
  for (const warning of vellum.sync.warnings) io.out(`Warning: ${warning}`);
  for (const line of vellum.sync.moved) io.out(line);
  if (vellum.sync.orphaned.length) {
    io.out(
      `Kept data the schema no longer names (remove with \`vellum db prune\`): ${vellum.sync.orphaned.join(', ')}`,
    );
  }
  nameServingProcess(vellum.app.server);
  const url = await vellum.listen().catch(async (error: unknown) => {
    await vellum.close();
    throw listenFailure(vellum.config, error);
  });
  const client = vellum.config.database.client;
  const lines = [`Vellum serving ${projectDir} on ${url} (${client}); REST at ${url}${vellum.config.api.rest.prefix}`];
  const firstAdmin = (await vellum.auth.admins.any()) ? '' : ' (no administrator yet: open it to create the first)';
  lines.push(`Admin panel at ${url}/admin${firstAdmin}`);
  if (vellum.playgroundPath) lines.push(`GraphQL playground at ${url}${vellum.playgroundPath}`);
  const stop = async () => {
    await vellum.close();
    process.exit(0);
  };
  process.once('SIGTERM', stop);
  if (worker) process.on('SIGINT', () => undefined);
  else process.once('SIGINT', stop);
  return { lines, workers };
}

/** `vellum ts:generate-types`: types/generated/*.d.ts, as `strapi ts:generate-types` writes them. */
async function generateTypes(projectDir: string, io: CliIo): Promise<void> {
  const { writeGeneratedTypes } = await import('../../features/typegen/index.js');
  const { rawSchemaOf } = await import('../open-project.js');
  const { schema } = loadProjectSchema(projectDir, builtInTypes(projectDir));
  const files = await writeGeneratedTypes({ dir: projectDir, schema, rawSchema: rawSchemaOf(projectDir) }, (message) =>
    io.err(`Warning: ${message}`),
  );
  for (const file of files) io.out(`Saved ${relative(io.cwd, file) || file}`);
}

/**
 * Serves the project and applies each change of its files without a restart (app/develop.ts),
 * until SIGINT or SIGTERM.
 */
async function develop(projectDir: string, io: CliIo): Promise<void> {
  const { startDevelop } = await import('../develop.js');
  const shown = (files: string[]) => (files.length ? files.join(', ') : 'files');
  const dev = await startDevelop(projectDir, {
    env: io.env,
    cwd: io.cwd,
    listenFailure,
    report: (event) => {
      if (event.kind === 'failed') {
        const message = event.error instanceof Error ? event.error.message : String(event.error);
        io.err(`Not applied (${shown(event.files)}): ${message}. Still serving the previous version; fix it and save.`);
        return;
      }
      for (const warning of event.vellum.warnings) io.err(`Warning: ${warning}`);
      for (const warning of event.vellum.sync.warnings) io.out(`Warning: ${warning}`);
      for (const line of event.vellum.sync.moved) io.out(line);
      if (event.kind === 'started') {
        io.out(
          `Vellum developing ${projectDir} on ${event.url} (${event.vellum.config.database.client}): changes to src/, config/ and .env apply as saved`,
        );
        io.out(`Admin panel at ${event.url}/admin`);
        if (event.vellum.playgroundPath) io.out(`GraphQL playground at ${event.url}${event.vellum.playgroundPath}`);
      } else io.out(`Applied ${shown(event.files)} in ${event.ms} ms`);
    },
  });
  const stop = async () => {
    await dev.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

/** Node's `listen` errors a user can fix, as one line naming the file (or variable) that sets it. */
function listenFailure(config: VellumConfig, error: unknown): unknown {
  const { host, port } = config.server;
  const code = (error as { code?: unknown } | null)?.code;
  const file = configSource(config.projectDir, 'server', config.environment);
  const where = file ? `port in ${file}, or PORT` : 'PORT';
  if (code === 'EADDRINUSE')
    return new ProjectError(
      `port ${port} on ${host} is taken by another process: stop it, or choose another port (${where})`,
      file,
    );
  if (code === 'EACCES')
    return new ProjectError(`port ${port} on ${host} needs privileges: choose a port above 1023 (${where})`, file);
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
    return new ProjectError(
      `cannot listen on ${host}, no address of this machine: choose another host (${file ? `host in ${file}, or HOST` : 'HOST'})`,
      file,
    );
  return error;
}

async function prune(projectDir: string, io: CliIo): Promise<void> {
  const config = await loadConfig(projectDir, { env: io.env, cwd: io.cwd });
  const { schema } = loadProjectSchema(projectDir, builtInTypes(projectDir));
  const database = await connectDatabase(config.database);
  try {
    const dropped = await pruneSchema(database, schema, systemTables);
    io.out(dropped.length ? `Dropped: ${dropped.join(', ')}` : 'Nothing to prune.');
  } finally {
    await database.close();
  }
}

/** Runs one command; answers its exit code. Errors a user can act on are one line on `io.err`. */
export async function main(argv: string[], io: CliIo = processIo()): Promise<number> {
  try {
    return await run(argv, io);
  } catch (error) {
    await report(error, io);
    return 1;
  }
}

async function run(argv: string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  const project = (named: string | undefined) => projectDir(named, io.cwd);
  if (argv.includes('--help') || argv.includes('-h')) {
    io.out(await usage());
    return 0;
  }
  if (command === 'start') {
    await start(project(rest[0]), io);
    return 0;
  }
  if (command === 'ts:generate-types') {
    await generateTypes(project(rest[0]), io);
    return 0;
  }
  if (command && (await import('./inspect.js')).INSPECT_COMMANDS.has(command)) {
    const { values } = parseArgs({ args: rest, options: { project: { type: 'string' } }, allowPositionals: false });
    return (await import('./inspect.js')).runInspectCommand(command, project(values.project), io);
  }
  if (command === 'generate') return (await import('./generate.js')).runGenerateCommand(argv, project, io);
  if (command === 'openapi') return (await import('./openapi.js')).runOpenApiCommand(argv, project, io);
  if (command === 'develop') {
    await develop(project(rest[0]), io);
    return 0;
  }
  if (command === 'db' && rest[0] === 'prune') {
    await prune(project(rest[1]), io);
    return 0;
  }
  if (command === 'new') return (await import('./new-project.js')).runNewCommand(argv, io);
  if (command && ADMIN_COMMANDS.has(command)) return (await import('./admin.js')).runAdminCommand(argv, project, io);
  if (command === 'audit') return (await import('./audit.js')).runAuditCommand(argv, project, io);
  if (command === 'import' || command === 'export')
    return (await import('./transfer.js')).runTransferCommand(argv, project, io);
  io.err(await usage());
  return command ? 1 : 0;
}

/** node:util's parseArgs refuses an option a command does not take (`ERR_PARSE_ARGS_...`). */
const isArgumentError = (error: unknown): error is Error => {
  const code = (error as { code?: unknown } | null)?.code;
  return error instanceof Error && typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS');
};

async function report(error: unknown, io: CliIo): Promise<void> {
  if (isArgumentError(error)) io.err(`Error: ${error.message.split('. ')[0]}.\n${await usage()}`);
  else if (error instanceof ProjectError) io.err(`Cannot start: ${error.message}`);
  else if (error instanceof VellumError) {
    // A 404's "Not Found" says what was missing in its details.
    io.err(`Error: ${typeof error.details.reason === 'string' ? error.details.reason : error.message}`);
    // Each problem of a body (a webhook's url and events, ...) on its own line.
    const problems = Array.isArray(error.details.errors)
      ? (error.details.errors as { path?: unknown[]; message?: string }[])
      : [];
    if (problems.length > 1)
      for (const problem of problems) io.err(`  ${(problem.path ?? []).join('.')}: ${problem.message}`);
  } else if (error instanceof TransferError)
    io.err(
      `Stopped: ${error.message}\nNothing is lost: fix the cause and run the same command again; it completes what was done.`,
    );
  else io.err(error instanceof Error ? (error.stack ?? String(error)) : String(error));
}
