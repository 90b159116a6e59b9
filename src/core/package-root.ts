import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Vellum's own folder (the one with its package.json), found from a module's `import.meta.url`:
 * modules sit at different depths under src/ (tsx), dist/ (built) and dist/bundle/ (bundled), so a
 * fixed `../..` would be right in one of them only.
 */
export function packageRoot(moduleUrl: string): string {
  let dir = dirname(fileURLToPath(moduleUrl));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${fileURLToPath(moduleUrl)}`);
    dir = parent;
  }
  return dir;
}
