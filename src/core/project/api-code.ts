/**
 * Loads a project's API code as Strapi's loaders do: `src/api/<api>/{routes,controllers,services,
 * policies,middlewares}/<file>` and the global `src/policies/<file>`, `src/middlewares/<file>`,
 * each file's default export under its name in kebab case (`article.js` -> `article`). JavaScript
 * (CommonJS or ES modules), TypeScript and JSON; a file that cannot be loaded is reported, not
 * fatal (the caller names it at start-up).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, extname, join, relative } from 'node:path';
import { loadProjectModule } from './modules.js';

const API_FOLDERS = ['routes', 'controllers', 'services', 'policies', 'middlewares'] as const;
export type ApiFolder = (typeof API_FOLDERS)[number];

export interface LoadedFile {
  /** The name Strapi registers it under (kebab case of the file's base name). */
  name: string;
  /** Relative to the project. */
  file: string;
  exports: unknown;
}

export interface LoadedApi {
  name: string;
  folders: Record<ApiFolder, LoadedFile[]>;
}

export interface ProjectApiCode {
  apis: LoadedApi[];
  policies: LoadedFile[];
  middlewares: LoadedFile[];
  /** Files that could not be loaded, each with why. */
  failures: { file: string; message: string }[];
}

const CODE = /\.(c|m)?(j|t)s$/;
const isCodeFile = (name: string) =>
  !name.startsWith('.') && !name.endsWith('.d.ts') && (CODE.test(name) || name.endsWith('.json'));

/** Strapi's `normalizeName`: kebab case names stay, others are turned into kebab case. */
export function kebabName(name: string): string {
  if (/^([a-z][a-z0-9]*)(-[a-z0-9]+)*$/.test(name)) return name;
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/([A-Za-z])([0-9])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word.toLowerCase())
    .join('-');
}

/** Strapi's `importDefault`: `default` of a transpiled or ES module, the exports otherwise. */
function defaultExport(loaded: unknown): unknown {
  if (loaded === null || typeof loaded !== 'object') return loaded;
  const module = loaded as Record<PropertyKey, unknown>;
  const isNamespace = module[Symbol.toStringTag] === 'Module';
  if ((module.__esModule || isNamespace) && 'default' in module) return module.default;
  return loaded;
}

const listDirs = (dir: string): string[] =>
  existsSync(dir)
    ? readdirSync(dir)
        .filter((name) => !name.startsWith('.') && statSync(join(dir, name)).isDirectory())
        .sort()
    : [];

/**
 * `kebab`: an API's files are named in kebab case (Strapi's `normalizeName`: `pagePopulate.ts` is
 * `page-populate`); the global `src/policies` and `src/middlewares` keep their file's name, as
 * Strapi's loaders do (`src/policies/isOwner.ts` is `global::isOwner`).
 */
async function loadFolder(
  dir: string,
  projectDir: string,
  failures: ProjectApiCode['failures'],
  kebab = true,
): Promise<LoadedFile[]> {
  if (!existsSync(dir)) return [];
  const files: LoadedFile[] = [];
  const seen = new Map<string, string>();
  for (const entry of readdirSync(dir).sort()) {
    const path = join(dir, entry);
    if (!isCodeFile(entry) || !statSync(path).isFile()) continue;
    const file = relative(projectDir, path);
    const name = kebab ? kebabName(basename(entry, extname(entry))) : basename(entry, extname(entry));
    const taken = seen.get(name);
    if (taken) {
      failures.push({ file, message: `${taken} already defines "${name}"; this file is not run` });
      continue;
    }
    try {
      const exports = entry.endsWith('.json')
        ? JSON.parse(readFileSync(path, 'utf8'))
        : defaultExport(await loadProjectModule(path, projectDir));
      files.push({ name, file, exports });
      seen.set(name, file);
    } catch (error) {
      failures.push({ file, message: (error as Error).message.split('\n')[0]! });
    }
  }
  return files;
}

export async function loadApiCode(projectDir: string): Promise<ProjectApiCode> {
  const failures: ProjectApiCode['failures'] = [];
  const apis: LoadedApi[] = [];
  const apiDir = join(projectDir, 'src', 'api');
  for (const api of listDirs(apiDir)) {
    const folders = {} as Record<ApiFolder, LoadedFile[]>;
    for (const folder of API_FOLDERS)
      folders[folder] = await loadFolder(join(apiDir, api, folder), projectDir, failures);
    // The folder's own name, as the schema's uids (schema/load.ts) use it.
    apis.push({ name: api, folders });
  }
  return {
    apis,
    policies: await loadFolder(join(projectDir, 'src', 'policies'), projectDir, failures, false),
    middlewares: await loadFolder(join(projectDir, 'src', 'middlewares'), projectDir, failures, false),
    failures,
  };
}
