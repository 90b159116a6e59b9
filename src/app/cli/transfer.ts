/**
 * `vellum import` and `vellum export`: a project's content, users and files in and out.
 *
 *   vellum import --file <archive.tar[.gz]> [--project dir]           Strapi's export archive (or Vellum's)
 *   vellum import strapi --url <base URL> --token <token> [--file-origin <origin>]... [--project dir]   a running Strapi, over its API
 *   vellum export --file <archive.tar.gz> [--project dir]             Strapi's archive format
 */
import { basename, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ValidationError } from '../../core/errors.js';
import {
  exportArchive,
  importArchive,
  importFromStrapi,
  Progress,
  type Summary,
} from '../../features/transfer/index.js';
import { openProject } from '../open-project.js';
import { AuditLog } from '../../features/audit/index.js';
import { adminIdentity } from '../../features/users-permissions/index.js';
import type { Database } from '../../core/database/connection.js';
import type { CliIo } from './io.js';

export const TRANSFER_USAGE = `  vellum import --file <archive.tar.gz> [--project dir]      restore a strapi export (or vellum export) archive
  vellum import strapi --url <url> --token <token> [--file-origin <origin>] [--project dir]   copy a running Strapi over its API
                                                             (files from its own origin, or one --file-origin names)
  vellum export --file <archive.tar.gz> [--project dir]      write Strapi's archive format`;

const OPTIONS = {
  project: { type: 'string' },
  file: { type: 'string' },
  url: { type: 'string' },
  token: { type: 'string' },
  'file-origin': { type: 'string', multiple: true },
  quiet: { type: 'boolean' },
} as const;

/** Prints the summary; answers the exit code (1 when the counts differ). */
function print(summary: Summary, io: CliIo): number {
  for (const line of summary.lines()) io.out(line);
  const mismatches = summary.mismatches;
  if (!mismatches.length) return 0;
  io.out('Counts differ:');
  for (const line of mismatches) io.out(`  ${line}`);
  return 1;
}

/**
 * A completed import in the audit log, as Vellum's own change (a command has no administrator):
 * where it came from (the archive's name, or the Strapi's URL; never its token) and how long it
 * took. An import writes in many transactions; it is recorded once it has completed.
 */
async function recordImport(database: Database, source: string, details: Record<string, unknown>): Promise<void> {
  await new AuditLog(database, adminIdentity).recordAlone({
    action: 'transfer.import',
    actor: null,
    subject: source,
    details,
  });
}

/** Runs an import or export on the project `--project` names (`project` checks it; the current folder without it). */
export async function runTransferCommand(
  argv: string[],
  project: (named: string | undefined) => string,
  io: CliIo,
): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true });
  const [command, source] = positionals;
  const projectDir = project(values.project);
  const progress = new Progress(values.quiet ? null : io.progress);
  const started = Date.now();
  if (command === 'import' && source === undefined) {
    if (!values.file) throw new ValidationError(`--file is required\n${TRANSFER_USAGE}`);
    const project = await openProject(projectDir, { env: io.env, cwd: io.cwd });
    try {
      // Changes to administrators' roles are recorded in their transaction, as Vellum's own.
      const audited = { trail: new AuditLog(project.database, adminIdentity), actor: null };
      const summary = await importArchive(project, resolve(io.cwd, values.file), progress, audited);
      summary.seconds = (Date.now() - started) / 1000;
      const roles = summary.types.get('admin::role')?.written;
      await recordImport(project.database, basename(values.file), {
        from: 'archive',
        seconds: summary.seconds,
        ...(roles ? { adminRoles: roles } : {}),
      });
      io.out(`Imported ${values.file} into ${projectDir} (${project.config.database.client}).`);
      return print(summary, io);
    } finally {
      await project.close();
    }
  }
  if (command === 'import' && source === 'strapi') {
    if (!values.url || !values.token) throw new ValidationError(`--url and --token are required\n${TRANSFER_USAGE}`);
    const project = await openProject(projectDir, { env: io.env, cwd: io.cwd });
    try {
      const summary = await importFromStrapi(project, values.url, values.token, progress, values['file-origin'] ?? []);
      summary.seconds = (Date.now() - started) / 1000;
      await recordImport(project.database, new URL(values.url).origin, { from: 'strapi', seconds: summary.seconds });
      io.out(`Imported ${values.url} into ${projectDir} (${project.config.database.client}).`);
      return print(summary, io);
    } finally {
      await project.close();
    }
  }
  if (command === 'export' && source === undefined) {
    if (!values.file) throw new ValidationError(`--file is required\n${TRANSFER_USAGE}`);
    const project = await openProject(projectDir, { env: io.env, cwd: io.cwd });
    try {
      const summary = await exportArchive(project, resolve(io.cwd, values.file), progress);
      summary.seconds = (Date.now() - started) / 1000;
      io.out(`Exported ${projectDir} (${project.config.database.client}) to ${values.file}.`);
      return print(summary, io);
    } finally {
      await project.close();
    }
  }
  throw new ValidationError(`unknown command "${positionals.join(' ')}"\n${TRANSFER_USAGE}`);
}
