/**
 * The project's `.env`, read as Strapi 5.54 reads it (`@strapi/core`'s configuration calls
 * dotenv 16's `config()` before any configuration file runs): `<project>/.env`, or the file
 * `ENV_PATH` names; a variable already set in the environment wins over the file, even when empty.
 *
 * Not Node's `util.parseEnv`: on Node 20 it cuts `"{\"a\":1}"` at the escaped quote, takes an
 * indented comment line as part of the next key and a tab-indented key as a new name, where
 * dotenv (and so Strapi) does not. This is dotenv 16's grammar; test/differential/startup.diff.ts
 * compares the two on generated files.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

// One assignment: `[export ]NAME=value` or `NAME: value`, the value single-, double- or
// backtick-quoted (over several lines too) or bare up to a `#`, then an optional comment.
// `\s*` before the name also skips blank lines; a line that does not match is ignored.
const ASSIGNMENT =
  /^\s*(?:export\s+)?([\w.-]+)(?:\s*=\s*?|:\s+?)(\s*'(?:\\'|[^'])*'|\s*"(?:\\"|[^"])*"|\s*`(?:\\`|[^`])*`|[^#\r\n]+)?\s*(?:#.*)?$/gm;

/** The variables of a `.env` text; a name given twice takes its last value. */
export function parseDotenv(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  const source = text.replace(/\r\n?/g, '\n');
  for (const match of source.matchAll(ASSIGNMENT)) {
    const raw = (match[2] ?? '').trim();
    // Per line and global, as dotenv strips them: the same answer for any value it can be given.
    let value = raw.replace(/^(['"`])([\s\S]*)\1$/gm, '$2');
    // Only double quotes expand \n and \r.
    if (raw.startsWith('"')) value = value.replace(/\\n/g, '\n').replace(/\\r/g, '\r');
    values[match[1]!] = value;
  }
  return values;
}

export interface DotenvFile {
  /** The file read (absolute), or undefined when there is none. */
  file?: string;
  values: Record<string, string>;
}

/**
 * `ENV_PATH` (relative to the current directory, as dotenv resolves it: `cwd`) or `<projectDir>/.env`.
 * A missing file is no error, as in Strapi.
 */
export function readDotenv(projectDir: string, env: NodeJS.ProcessEnv, cwd = process.cwd()): DotenvFile {
  const file = env.ENV_PATH ? resolve(cwd, env.ENV_PATH) : resolve(projectDir, '.env');
  if (!existsSync(file)) return { values: {} };
  return { file, values: parseDotenv(readFileSync(file, 'utf8')) };
}

/**
 * The environment the configuration reads: `env`'s variables, and the file's where `env` has
 * none. With `process.env` itself, the file's variables are added to it, as dotenv does, so that
 * project code reading `process.env.X` sees them.
 */
export function withDotenv(env: NodeJS.ProcessEnv, values: Record<string, string>): NodeJS.ProcessEnv {
  const target = env === process.env ? env : { ...env };
  for (const [name, value] of Object.entries(values)) if (!Object.hasOwn(target, name)) target[name] = value;
  return target;
}
