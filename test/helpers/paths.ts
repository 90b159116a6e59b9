import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** The blog example: a copy of the shared Strapi fixture with its configuration. */
export const BLOG = resolve(ROOT, 'examples/blog');
export const fixture = (name: string) => resolve(ROOT, 'test/fixtures', name);
