import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { extname, join, relative } from 'node:path';
import type * as Esbuild from 'esbuild';
import { ProjectError } from '../errors.js';
import { isPlainObject } from '../objects.js';
import { loadProjectModule } from '../project/modules.js';
import type { EnvHelper } from './env.js';

const EXTENSIONS = ['.ts', '.js', '.cjs', '.mjs', '.json'];

/** Loads one configuration file (see project/modules.ts, or JSON) and returns its export. */
async function importProjectFile(file: string, projectDir: string): Promise<unknown> {
  try {
    if (file.endsWith('.json')) return JSON.parse(readFileSync(file, 'utf8'));
    const loaded = await loadProjectModule(file, projectDir);
    // `export default` lands under `default` (twice when compiled, then imported).
    let value = loaded;
    for (let depth = 0; depth < 2 && value && typeof value === 'object' && 'default' in value; depth++) {
      if (depth > 0 && Object.keys(value).filter((key) => key !== '__esModule').length !== 1) break;
      value = (value as { default: unknown }).default;
    }
    return value;
  } catch (error) {
    if (error instanceof ProjectError) throw error;
    const label = relative(projectDir, file);
    const syntax =
      error instanceof SyntaxError || /^Transform failed/.test((error as Error).message)
        ? syntaxErrorAt(file)
        : undefined;
    if (syntax) throw new ProjectError(`syntax error: ${syntax.text}`, `${label}:${syntax.line}:${syntax.column}`);
    throw new ProjectError(`cannot be loaded: ${firstLine((error as Error).message)}`, label);
  }
}

const firstLine = (message: string) => message.split('\n')[0]!;

/**
 * Where a file's syntax error is: V8 tells it for none of `new Function`, `import()` and
 * `JSON.parse` on Node 20, esbuild's parser does (loaded only here, when a file is already wrong).
 */
function syntaxErrorAt(file: string): { line: number; column: number; text: string } | undefined {
  const ext = extname(file);
  const loader = ext === '.json' ? 'json' : /\.[cm]?ts$/.test(ext) ? 'ts' : 'js';
  try {
    (createRequire(import.meta.url)('esbuild') as typeof Esbuild).transformSync(readFileSync(file, 'utf8'), {
      loader,
      sourcefile: file,
    });
    return undefined;
  } catch (error) {
    const found = (error as { errors?: Esbuild.Message[] }).errors?.[0];
    const location = found?.location;
    return location ? { line: location.line, column: location.column + 1, text: found.text } : undefined;
  }
}

/** The names of `config/` and `config/env/<environment>/` files, as Strapi keys its configuration. */
export function configNames(projectDir: string, environment: string): string[] {
  const names = new Set<string>();
  for (const dir of [join(projectDir, 'config'), join(projectDir, 'config', 'env', environment)]) {
    if (!existsSync(dir)) continue;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const ext = extname(entry.name);
      // `.d.ts` declarations are not configuration.
      if (entry.isFile() && EXTENSIONS.includes(ext) && !entry.name.endsWith('.d.ts'))
        names.add(entry.name.slice(0, -ext.length));
    }
  }
  return [...names].sort();
}

/** The file a section is read from, relative to the project (the environment's, when it has one), for errors. */
export function configSource(projectDir: string, name: string, environment: string): string | undefined {
  const file =
    findProjectFile(join(projectDir, 'config', 'env', environment), name) ??
    findProjectFile(join(projectDir, 'config'), name);
  return file && relative(projectDir, file);
}

function findProjectFile(dir: string, name: string): string | undefined {
  for (const ext of EXTENSIONS) {
    const file = join(dir, `${name}${ext}`);
    if (existsSync(file)) return file;
  }
  return undefined;
}

async function readConfigValue(file: string | undefined, env: EnvHelper, projectDir: string): Promise<unknown> {
  if (!file) return undefined;
  const value = await importProjectFile(file, projectDir);
  return typeof value === 'function' ? await (value as (ctx: { env: EnvHelper }) => unknown)({ env }) : value;
}

/** A configuration file that exports a list (`config/middlewares`); the environment's file replaces it. */
export async function loadConfigList(
  projectDir: string,
  name: string,
  env: EnvHelper,
  environment: string,
): Promise<unknown[]> {
  for (const dir of [join(projectDir, 'config', 'env', environment), join(projectDir, 'config')]) {
    const file = findProjectFile(dir, name);
    const value = await readConfigValue(file, env, projectDir);
    if (value === undefined || value === null) continue;
    if (!Array.isArray(value)) throw new ProjectError('must export an array or a function returning one', file);
    return value;
  }
  return [];
}

/** A file of the project's own (`config/custom.js`): any value; the environment's object merged over the base's, or replacing it. */
export async function loadConfigValue(
  projectDir: string,
  name: string,
  env: EnvHelper,
  environment: string,
): Promise<unknown> {
  const base = await readConfigValue(findProjectFile(join(projectDir, 'config'), name), env, projectDir);
  const override = await readConfigValue(
    findProjectFile(join(projectDir, 'config', 'env', environment), name),
    env,
    projectDir,
  );
  if (override === undefined) return base;
  return isPlainObject(base) && isPlainObject(override) ? deepMerge(base, override) : override;
}

/** `config/<name>` merged with `config/env/<NODE_ENV>/<name>`; a function export gets `{ env }`. */
export async function loadConfigFile(
  projectDir: string,
  name: string,
  env: EnvHelper,
  environment: string,
): Promise<Record<string, unknown>> {
  const read = async (file: string | undefined): Promise<Record<string, unknown>> => {
    const value = await readConfigValue(file, env, projectDir);
    if (value === undefined || value === null) return {};
    if (typeof value !== 'object' || Array.isArray(value)) {
      throw new ProjectError('must export an object or a function returning one', file);
    }
    return value as Record<string, unknown>;
  };
  const base = await read(findProjectFile(join(projectDir, 'config'), name));
  const override = await read(findProjectFile(join(projectDir, 'config', 'env', environment), name));
  return deepMerge(base, override);
}

export function deepMerge(base: Record<string, unknown>, override: Record<string, unknown>): Record<string, unknown> {
  const result: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(override)) {
    const current = result[key];
    result[key] = isPlainObject(value) && isPlainObject(current) ? deepMerge(current, value) : value;
  }
  return result;
}
