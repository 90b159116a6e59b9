import type { ProgressOutput } from '../../features/transfer/index.js';

/** Where a command writes, and what it reads of its surroundings. */
export interface CliIo {
  /** A line of the command's answer (stdout). */
  out(line: string): void;
  /** A line of warning or error (stderr). */
  err(line: string): void;
  /** Where an import or export draws its progress (a bar on a TTY); null for none. */
  progress: ProgressOutput | null;
  /** The folder a command acts on when none is named. */
  cwd: string;
  /** The variables the configuration reads (the project's .env is added to them as Strapi does). */
  env: NodeJS.ProcessEnv;
}

/** The process's own: stdout, stderr, the current folder and environment. */
export const processIo = (): CliIo => ({
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  progress: process.stderr,
  cwd: process.cwd(),
  env: process.env,
});
