import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ProjectError } from '../errors.js';
import type { EnvHelper } from './env.js';

const EXTENSIONS = ['.ts', '.js', '.cjs', '.mjs', '.json'];

/** CommonJS (`module.exports = ...`), as Strapi projects write their files, loaded whatever the nearest package.json says. */
function loadCommonJs(file: string): unknown {
  const source = readFileSync(file, 'utf8');
  const module = { exports: {} as unknown };
  const wrapper = new Function('exports', 'require', 'module', '__filename', '__dirname', source);
  wrapper(module.exports, createRequire(file), module, file, dirname(file));
  return module.exports;
}

const looksLikeCommonJs = (source: string): boolean =>
  /\bmodule\.exports\b|\bexports\.[A-Za-z_]|\brequire\(/.test(source) && !/^\s*export\s/m.test(source);

/** Loads one project code or configuration file (TS via tsx, ESM, CommonJS or JSON) and returns its export. */
export async function importProjectFile(file: string): Promise<unknown> {
  try {
    if (file.endsWith('.json')) return JSON.parse(readFileSync(file, 'utf8'));
    if (file.endsWith('.cjs')) return loadCommonJs(file);
    if (file.endsWith('.js') && looksLikeCommonJs(readFileSync(file, 'utf8'))) return loadCommonJs(file);
    let loaded: Record<string, unknown>;
    if (file.endsWith('.ts')) {
      const { tsImport } = await import('tsx/esm/api');
      loaded = (await tsImport(pathToFileURL(file).href, import.meta.url)) as Record<string, unknown>;
    } else {
      loaded = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    }
    // A TS file compiled to CJS by tsx nests the default export once more.
    let value: unknown = 'default' in loaded ? loaded.default : loaded;
    if (value && typeof value === 'object' && 'default' in value && Object.keys(value).length === 1) {
      value = (value as { default: unknown }).default;
    }
    return value;
  } catch (error) {
    if (error instanceof ProjectError) throw error;
    throw new ProjectError(`cannot be loaded: ${(error as Error).message}`, file);
  }
}

export function findProjectFile(dir: string, name: string): string | undefined {
  for (const ext of EXTENSIONS) {
    const file = join(dir, `${name}${ext}`);
    if (existsSync(file)) return file;
  }
  return undefined;
}

async function readConfigValue(file: string | undefined, env: EnvHelper): Promise<unknown> {
  if (!file) return undefined;
  const value = await importProjectFile(file);
  return typeof value === 'function' ? await (value as (ctx: { env: EnvHelper }) => unknown)({ env }) : value;
}

/** A configuration file that exports a list (`config/middlewares`); the environment's file replaces it. */
export async function loadConfigList(projectDir: string, name: string, env: EnvHelper, environment: string): Promise<unknown[]> {
  for (const dir of [join(projectDir, 'config', 'env', environment), join(projectDir, 'config')]) {
    const file = findProjectFile(dir, name);
    const value = await readConfigValue(file, env);
    if (value === undefined || value === null) continue;
    if (!Array.isArray(value)) throw new ProjectError('must export an array or a function returning one', file);
    return value;
  }
  return [];
}

/** `config/<name>` merged with `config/env/<NODE_ENV>/<name>`; a function export gets `{ env }`. */
export async function loadConfigFile(
  projectDir: string,
  name: string,
  env: EnvHelper,
  environment: string,
): Promise<Record<string, unknown>> {
  const read = async (file: string | undefined): Promise<Record<string, unknown>> => {
    const value = await readConfigValue(file, env);
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
    const bothObjects =
      value && typeof value === 'object' && !Array.isArray(value) && current && typeof current === 'object' && !Array.isArray(current);
    result[key] = bothObjects
      ? deepMerge(current as Record<string, unknown>, value as Record<string, unknown>)
      : value;
  }
  return result;
}
