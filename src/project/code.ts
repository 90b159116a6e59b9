/**
 * The project's own code (`src/index.ts|js|mjs|cjs`), as in Strapi: its `register({ strapi })`
 * runs before the APIs are built, so it can extend GraphQL through
 * `strapi.plugin('graphql').service('extension')`; `bootstrap({ strapi })` runs once the node is
 * ready. TypeScript is compiled to CommonJS as Strapi's build does (see modules.ts).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ProjectError } from '../errors.js';
import { loadProjectModule } from './modules.js';

const CANDIDATES = ['index.ts', 'index.mts', 'index.js', 'index.mjs', 'index.cjs'];

export interface ProjectHooks {
  file: string;
  register?: (context: { strapi: unknown }) => unknown;
  bootstrap?: (context: { strapi: unknown }) => unknown;
}

type Module = { register?: unknown; bootstrap?: unknown; default?: Module | ((...args: unknown[]) => unknown) };

export async function loadProjectCode(projectDir: string): Promise<ProjectHooks | undefined> {
  const name = CANDIDATES.find((candidate) => existsSync(join(projectDir, 'src', candidate)));
  if (!name) return undefined;
  const file = join(projectDir, 'src', name);
  let loaded: Module;
  try {
    loaded = (await loadProjectModule(file, projectDir)) as Module;
  } catch (error) {
    throw new ProjectError(`cannot load project code: ${(error as Error).message}`, `src/${name}`);
  }
  // CommonJS and transpiled modules put the exports under `default`, sometimes twice.
  let exports: Module = loaded;
  while (exports && typeof exports.register !== 'function' && typeof exports.bootstrap !== 'function' && exports.default && typeof exports.default === 'object') {
    exports = exports.default;
  }
  const fn = (value: unknown) => (typeof value === 'function' ? (value as ProjectHooks['register']) : undefined);
  return { file: `src/${name}`, register: fn(exports.register), bootstrap: fn(exports.bootstrap) };
}

/** The part of Strapi's `strapi` object that project code may use here. */
export function strapiFacade(services: Record<string, Record<string, unknown>>, config: Record<string, unknown>) {
  return {
    plugin(name: string) {
      return {
        service(service: string) {
          const found = services[name]?.[service];
          if (!found) throw new ProjectError(`strapi.plugin('${name}').service('${service}') is not available in Vellum`);
          return found;
        },
      };
    },
    config: { get: (path: string, fallback?: unknown) => path.split('.').reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], config) ?? fallback },
  };
}
