/**
 * The lifecycles files of a project (`src/api/<api>/content-types/<type>/lifecycles.js|ts|mjs|cjs`,
 * and `src/extensions/users-permissions/content-types/user/lifecycles.*`): each exports handlers
 * by action (`beforeCreate(event)`, ...), which run for that content-type's rows, as Strapi runs a
 * model's lifecycles. They subscribe before `register` runs, so they come first.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { LIFECYCLE_ACTIONS, type Lifecycles, type Subscriber } from './lifecycles.js';
import { loadProjectModule } from '../core/project/modules.js';
import type { Schema } from '../core/schema/model.js';

const FILE = /^lifecycles\.(c|m)?(j|t)s$/;

const list = (dir: string) => (existsSync(dir) && statSync(dir).isDirectory() ? readdirSync(dir).sort() : []);

/** Lifecycles files with the uid of their content-type. */
function lifecycleFiles(projectDir: string): { uid: string; file: string }[] {
  const found: { uid: string; file: string }[] = [];
  const api = join(projectDir, 'src', 'api');
  for (const name of list(api)) {
    const types = join(api, name, 'content-types');
    for (const type of list(types)) {
      for (const file of list(join(types, type)))
        if (FILE.test(file)) found.push({ uid: `api::${name}.${type}`, file: join(types, type, file) });
    }
  }
  const user = join(projectDir, 'src', 'extensions', 'users-permissions', 'content-types', 'user');
  for (const file of list(user))
    if (FILE.test(file)) found.push({ uid: 'plugin::users-permissions.user', file: join(user, file) });
  return found;
}

/** Handlers by action: `module.exports = {...}`, `export default {...}`, or transpiled forms of them. */
function handlersOf(loaded: unknown): Record<string, unknown> | undefined {
  let exports = loaded as Record<string, unknown> | undefined;
  const hasHandler = (value: Record<string, unknown> | undefined) =>
    value !== undefined && LIFECYCLE_ACTIONS.some((action) => typeof value[action] === 'function');
  while (exports && !hasHandler(exports) && exports.default && typeof exports.default === 'object')
    exports = exports.default as Record<string, unknown>;
  return exports && typeof exports === 'object' ? exports : undefined;
}

/** Loads and subscribes every lifecycles file; a file that cannot run is named in a warning and left out. */
export async function loadLifecycleFiles(
  projectDir: string,
  schema: Schema,
  lifecycles: Lifecycles,
  warn: (message: string) => void,
): Promise<string[]> {
  const loaded: string[] = [];
  for (const { uid, file } of lifecycleFiles(projectDir)) {
    const where = relative(projectDir, file);
    if (!schema.contentTypes.has(uid)) {
      warn(`${where}: no content-type ${uid} beside it; its lifecycles are left out`);
      continue;
    }
    let handlers: Record<string, unknown> | undefined;
    try {
      handlers = handlersOf(await loadProjectModule(file, projectDir));
    } catch (error) {
      warn(`${where}: cannot be run (${(error as Error).message}); it is left out`);
      continue;
    }
    const subscriber: Record<string, unknown> = { models: [uid] };
    for (const action of LIFECYCLE_ACTIONS)
      if (typeof handlers?.[action] === 'function')
        subscriber[action] = (handlers[action] as (event: unknown) => unknown).bind(handlers);
    const unknown = Object.keys(handlers ?? {}).filter(
      (key) => !(LIFECYCLE_ACTIONS as readonly string[]).includes(key) && typeof handlers?.[key] === 'function',
    );
    if (unknown.length)
      warn(
        `${where}: ${unknown.join(', ')} ${unknown.length === 1 ? 'is' : 'are'} not a lifecycle Vellum runs (${LIFECYCLE_ACTIONS.join(', ')})`,
      );
    lifecycles.subscribe(subscriber as Subscriber);
    loaded.push(where);
  }
  return loaded;
}
