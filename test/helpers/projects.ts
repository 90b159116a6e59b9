/** Temporary copies of a fixture project, edited per test (schema changes, broken schemas). */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BLOG } from './paths.js';

export interface TempProject {
  dir: string;
  /** Edits a JSON file of the project in place. */
  editJson(file: string, edit: (json: any) => void): void;
  write(file: string, text: string): void;
  remove(): void;
}

export function copyProject(source = BLOG): TempProject {
  const dir = mkdtempSync(join(tmpdir(), 'vellum-project-'));
  cpSync(join(source, 'src'), join(dir, 'src'), { recursive: true });
  cpSync(join(source, 'config'), join(dir, 'config'), { recursive: true });
  return {
    dir,
    editJson(file, edit) {
      const path = join(dir, file);
      const json = JSON.parse(readFileSync(path, 'utf8'));
      edit(json);
      writeFileSync(path, JSON.stringify(json, null, 2));
    },
    write(file, text) {
      writeFileSync(join(dir, file), text);
    },
    remove() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const ARTICLE_SCHEMA = 'src/api/article/content-types/article/schema.json';
export const AUTHOR_SCHEMA = 'src/api/author/content-types/author/schema.json';
export const TAG_SCHEMA = 'src/api/tag/content-types/tag/schema.json';
