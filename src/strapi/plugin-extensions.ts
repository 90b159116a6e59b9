/**
 * A project's plugin extensions, `src/extensions/<plugin>/strapi-server.{js,ts,cjs,mjs}`: a function
 * given the plugin and returning it, run at load time as Strapi runs them. Users-permissions' runs
 * (users-permissions-plugin.ts); other plugins' are named in a warning and left out. An extension
 * that throws or returns no plugin stops start-up, naming the file, as Strapi does not start.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ProjectError } from '../core/errors.js';
import { loadProjectModule } from '../core/project/modules.js';
import type { Runtime } from './runtime.js';
import { extendUsersPermissions, type ExtendedPlugin } from './users-permissions-plugin.js';

const FILE = /^strapi-server\.[cm]?[jt]s$/;

/** `src/extensions/<plugin>/strapi-server.*`, by plugin name (the first file of a folder, by name). */
function extensionFiles(projectDir: string): { plugin: string; file: string }[] {
  const list = (dir: string) => (existsSync(dir) && statSync(dir).isDirectory() ? readdirSync(dir).sort() : []);
  const root = join(projectDir, 'src', 'extensions');
  const found: { plugin: string; file: string }[] = [];
  for (const plugin of list(root)) {
    const file = list(join(root, plugin)).find((name) => FILE.test(name));
    if (file) found.push({ plugin, file: join(root, plugin, file) });
  }
  return found;
}

/** The function a file exports: `module.exports = (plugin) => ...`, `export default`, or their transpiled forms. */
function extensionOf(loaded: unknown): ((plugin: Record<string, unknown>) => unknown) | undefined {
  let value = loaded;
  for (let depth = 0; depth < 3 && typeof value !== 'function' && value && typeof value === 'object'; depth++)
    value = (value as { default?: unknown }).default;
  return typeof value === 'function' ? (value as (plugin: Record<string, unknown>) => unknown) : undefined;
}

/**
 * Runs the project's users-permissions extension, if any; warns about the others. `plugins` are
 * the node's plugin services (filled once it runs).
 */
export async function runPluginExtensions(
  runtime: Runtime,
  plugins: Record<string, Record<string, unknown>>,
): Promise<{ usersPermissions?: ExtendedPlugin; notRun: string[] }> {
  const projectDir = runtime.config.projectDir;
  const notRun: string[] = [];
  let usersPermissions: ExtendedPlugin | undefined;
  for (const { plugin, file } of extensionFiles(projectDir)) {
    const where = relative(projectDir, file);
    if (plugin !== 'users-permissions') {
      notRun.push(where);
      runtime.warn(
        `${where}: Vellum runs users-permissions' extension only (its ${plugin} is its own code); this one is left out`,
      );
      continue;
    }
    let extend: ReturnType<typeof extensionOf>;
    try {
      extend = extensionOf(await loadProjectModule(file, projectDir));
    } catch (error) {
      throw new ProjectError(`cannot be loaded (${(error as Error).message})`, where);
    }
    if (!extend) throw new ProjectError('must export a function (plugin) => plugin', where);
    try {
      usersPermissions = await extendUsersPermissions(runtime, where, extend, plugins);
    } catch (error) {
      throw new ProjectError((error as Error).message, where);
    }
  }
  return { usersPermissions, notRun };
}
