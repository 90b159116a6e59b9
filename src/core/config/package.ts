/**
 * What a project's `package.json` declares that Vellum acts on: the major version of
 * `@strapi/strapi` it depends on. A project written for Strapi 5 gets Strapi 5's GraphQL shape by
 * default, because its front ends are written for it (docs/decisions.md "The contract", 9).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ProjectError } from '../errors.js';
import { asRecord } from '../objects.js';

/**
 * The major version in an npm range (`5.54.0`, `^5.0.0`, `~5.1`, `>=5 <6`, `v5`); `latest`, `*`,
 * `next` and `x` name the newest, which is 5. Undefined for what names no version (`file:`, git).
 */
export function majorOf(range: string): number | undefined {
  const spec = range.trim();
  if (['latest', '*', '', 'x', 'next'].includes(spec)) return 5;
  const match = /^(?:[\^~]|[<>]=?|=)?\s*v?(\d+)/.exec(spec);
  return match ? Number(match[1]) : undefined;
}

/** The major version of `@strapi/strapi` the project's package.json depends on, if any. */
export function declaredStrapiMajor(projectDir: string): number | undefined {
  let text: string;
  try {
    text = readFileSync(join(projectDir, 'package.json'), 'utf8');
  } catch {
    return undefined;
  }
  let manifest: Record<string, unknown>;
  try {
    manifest = asRecord(JSON.parse(text));
  } catch (error) {
    throw new ProjectError(`not valid JSON (${(error as Error).message})`, 'package.json');
  }
  for (const key of ['dependencies', 'devDependencies', 'peerDependencies']) {
    const range = asRecord(manifest[key])['@strapi/strapi'];
    if (typeof range === 'string') return majorOf(range);
  }
  return undefined;
}
