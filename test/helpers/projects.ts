/**
 * Temporary copies of a fixture project, edited per test (schema changes, broken schemas), and what
 * a project's files hold, to compare.
 */
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { BLOG } from './paths.js';

/** A content-type's schema.json, as the edits of tests read it. */
export type SchemaJson = { pluginOptions?: unknown; attributes: Record<string, Record<string, unknown>> };

export interface TempProject {
  dir: string;
  /** Edits a JSON file of the project in place. */
  editJson(file: string, edit: (json: any) => void): void;
  /** Edits the schema.json of the API's content-type `name` (`src/api/<name>/content-types/<name>/`) in place. */
  editSchema(name: string, edit: (schema: SchemaJson) => void): void;
  /** Writes a file of the project (its folders made as needed). */
  write(file: string, text: string): void;
  remove(): void;
}

export function copyProject(source = BLOG): TempProject {
  const dir = mkdtempSync(join(tmpdir(), 'vellum-project-'));
  cpSync(join(source, 'src'), join(dir, 'src'), { recursive: true });
  cpSync(join(source, 'config'), join(dir, 'config'), { recursive: true });
  const editJson = (file: string, edit: (json: any) => void) => {
    const path = join(dir, file);
    const json = JSON.parse(readFileSync(path, 'utf8'));
    edit(json);
    writeFileSync(path, JSON.stringify(json, null, 2));
  };
  return {
    dir,
    editJson,
    editSchema: (name, edit) => editJson(`src/api/${name}/content-types/${name}/schema.json`, edit),
    write(file, text) {
      mkdirSync(dirname(join(dir, file)), { recursive: true });
      writeFileSync(join(dir, file), text);
    },
    remove() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The text of every file under `folders` of the project at `dir` (a folder that is not there adds
 * none), by its path from `dir`: what a Content-Type Builder batch wrote, to compare with another
 * project's (Strapi's, a twin's) or with an earlier read. By default the folders the builder writes:
 * src/api and src/components.
 */
export function projectFiles(dir: string, folders = ['src/api', 'src/components']): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (at: string) => {
    if (!existsSync(at)) return;
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      if (statSync(path).isDirectory()) walk(path);
      else out[relative(dir, path)] = readFileSync(path, 'utf8');
    }
  };
  for (const folder of folders) walk(join(dir, folder));
  return out;
}

export const ARTICLE_SCHEMA = 'src/api/article/content-types/article/schema.json';
export const AUTHOR_SCHEMA = 'src/api/author/content-types/author/schema.json';
export const TAG_SCHEMA = 'src/api/tag/content-types/tag/schema.json';
