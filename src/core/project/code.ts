/**
 * The project's own code (`src/index.ts|js|mjs|cjs`), as in Strapi: its `register({ strapi })`
 * runs before the APIs are built, so it can extend GraphQL through
 * `strapi.plugin('graphql').service('extension')`; `bootstrap({ strapi })` runs once the node is
 * ready, `destroy({ strapi })` when it closes. TypeScript is compiled to CommonJS as Strapi's build
 * does (see modules.ts).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ProjectError } from '../errors.js';
import { loadProjectModule } from './modules.js';

const CANDIDATES = ['index.ts', 'index.mts', 'index.js', 'index.mjs', 'index.cjs'];

type Hook = (context: { strapi: unknown }) => unknown;

export interface ProjectHooks {
  file: string;
  register?: Hook;
  bootstrap?: Hook;
  destroy?: Hook;
}

const HOOKS = ['register', 'bootstrap', 'destroy'] as const;

/**
 * The levels a module's exports may sit at: `module.exports`, its `default` (an ES module, or
 * TypeScript compiled to CommonJS), and a `default` of that (CommonJS imported as an ES module
 * whose exports were compiled from TypeScript).
 */
function exportLevels(loaded: unknown): Record<string, unknown>[] {
  const levels: Record<string, unknown>[] = [];
  let level = loaded;
  while (level !== null && (typeof level === 'object' || typeof level === 'function') && levels.length < 3) {
    levels.push(level as Record<string, unknown>);
    level = (level as { default?: unknown }).default;
  }
  return levels;
}

export async function loadProjectCode(projectDir: string): Promise<ProjectHooks | undefined> {
  const name = CANDIDATES.find((candidate) => existsSync(join(projectDir, 'src', candidate)));
  if (!name) return undefined;
  const file = join(projectDir, 'src', name);
  let loaded: unknown;
  try {
    loaded = await loadProjectModule(file, projectDir);
  } catch (error) {
    throw new ProjectError(`cannot load project code: ${(error as Error).message}`, `src/${name}`);
  }
  // Each hook from the first level that has it: a file may export some hooks by name and others
  // under `default` (or `module.exports` and `exports.default` both), and none is lost.
  const levels = exportLevels(loaded);
  const hooks: ProjectHooks = { file: `src/${name}` };
  for (const hook of HOOKS) {
    const found = levels.map((level) => level[hook]).find((value) => typeof value === 'function');
    if (found) hooks[hook] = found as Hook;
  }
  return hooks;
}
