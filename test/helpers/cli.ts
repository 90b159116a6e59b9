/**
 * `vellum` run in this process (`main(argv, io)`), as the bin runs it but without a new Node: a
 * spawned CLI under tsx costs ~1-2 s of start-up per command. test/app's spawn tests keep the bin
 * itself covered.
 */
import { main } from '../../src/app/cli/commands.js';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs a command; `env` is read in place of the process's (a copy: a project's .env is not added
 * to this process's environment), `cwd` is the folder it acts on when none is named.
 */
export async function runCli(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, {
    out: (line) => void (stdout += `${line}\n`),
    err: (line) => void (stderr += `${line}\n`),
    // Plain progress lines (no TTY), on stderr as the bin writes them.
    progress: { write: (text: string) => void (stderr += text) },
    cwd: options.cwd ?? process.cwd(),
    env: { ...(options.env ?? process.env), NODE_ENV: options.env?.NODE_ENV ?? 'test' },
  });
  return { code, stdout, stderr };
}

/** A command's stdout; a failed one throws with its stderr (as a failed child process rejects). */
export async function cliOutput(
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<string> {
  const run = await runCli(args, options);
  if (run.code !== 0)
    throw new Error(`vellum ${args.join(' ')} failed (exit ${run.code}):\n${run.stderr}${run.stdout}`);
  return run.stdout;
}
