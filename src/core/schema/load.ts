import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ProjectError } from '../errors.js';
import { buildSchema, type RawSchemaFile } from './build.js';
import type { Schema } from './model.js';

const listDirs = (dir: string): string[] =>
  existsSync(dir)
    ? readdirSync(dir)
        .filter((name) => statSync(join(dir, name)).isDirectory())
        .sort()
    : [];

function readJson(file: string, projectDir: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ProjectError(`is not valid JSON: ${(error as Error).message}`, relative(projectDir, file));
  }
}

export interface LoadedProject {
  schema: Schema;
  /** One line per thing the schema asks for that Vellum does not honour (it starts regardless, as Strapi does). */
  warnings: string[];
}

/**
 * Reads a project in Strapi v5's layout: `src/api/<api>/content-types/<name>/schema.json` as
 * `api::<api>.<name>`, `src/components/<category>/<name>.json` as `<category>.<name>`.
 */
export function loadProjectSchema(projectDir: string, builtIns: RawSchemaFile[] = []): LoadedProject {
  const srcDir = join(projectDir, 'src');
  if (!existsSync(srcDir)) throw new ProjectError(`no src/ folder in ${projectDir}`);
  const contentTypes: RawSchemaFile[] = [];
  const apiDir = join(srcDir, 'api');
  for (const api of listDirs(apiDir)) {
    const typesDir = join(apiDir, api, 'content-types');
    for (const name of listDirs(typesDir)) {
      const file = join(typesDir, name, 'schema.json');
      if (!existsSync(file)) continue;
      contentTypes.push({
        file: relative(projectDir, file),
        uid: `api::${api}.${name}`,
        json: readJson(file, projectDir),
      });
    }
  }
  const components: RawSchemaFile[] = [];
  const componentsDir = join(srcDir, 'components');
  for (const category of listDirs(componentsDir)) {
    const dir = join(componentsDir, category);
    for (const entry of readdirSync(dir).sort()) {
      if (!entry.endsWith('.json')) continue;
      const file = join(dir, entry);
      components.push({
        file: relative(projectDir, file),
        uid: `${category}.${entry.slice(0, -'.json'.length)}`,
        json: readJson(file, projectDir),
      });
    }
  }
  const warnings: string[] = [];
  const schema = buildSchema(contentTypes, components, builtIns, (message) => warnings.push(message));
  return { schema, warnings };
}
