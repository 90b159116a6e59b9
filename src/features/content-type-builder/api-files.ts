/**
 * The files of a content-type's API besides its schema: the core controller, service and router
 * Strapi's generators write (`@strapi/generators` 5.54 templates, byte for byte), and their removal
 * when the type is deleted (Strapi's `api-handler`: only the files named after the type, then the
 * folders left empty).
 */
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';

export type Language = 'js' | 'ts';

/** A core controller, service or router (`createCoreController('api::x.x')`), as Strapi's templates write them. */
export function coreFile(
  kind: 'controller' | 'service' | 'router',
  id: string,
  uid: string,
  language: Language,
): string {
  const factory = { controller: 'createCoreController', service: 'createCoreService', router: 'createCoreRouter' }[
    kind
  ];
  return language === 'ts'
    ? `/**\n * ${id} ${kind}\n */\n\nimport { factories } from '@strapi/strapi';\n\nexport default factories.${factory}('${uid}');\n`
    : `'use strict';\n\n/**\n * ${id} ${kind}\n */\n\nconst { ${factory} } = require('@strapi/strapi').factories;\n\nmodule.exports = ${factory}('${uid}');\n`;
}

const projectLanguage = (projectDir: string): Language => (existsSync(join(projectDir, 'tsconfig.json')) ? 'ts' : 'js');

/** The core controller, service and router of a new API type (`src/api/<name>/`), each unless it exists. */
export function apiFiles(projectDir: string, singularName: string): [string, string][] {
  const language = projectLanguage(projectDir);
  const api = join(projectDir, 'src', 'api', singularName);
  const uid = `api::${singularName}.${singularName}`;
  // Strapi's comment names the new API; an existing API folder gets none.
  const id = existsSync(api) ? '' : singularName;
  return (['controller', 'service', 'router'] as const)
    .map((kind): [string, string] => [
      join(api, `${kind === 'router' ? 'routes' : `${kind}s`}`, `${singularName}.${language}`),
      coreFile(kind, id, uid, language),
    ])
    .filter(([path]) => !existsSync(path));
}

export function writeFiles(files: [string, string][]): void {
  for (const [path, text] of files) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  }
}

/** Removes a deleted type's own files from its API folder (`<modelName>.js`, its schema), then empty folders. */
export function clearApi(projectDir: string, apiName: string, modelName: string): string[] {
  const removed: string[] = [];
  const remove = (folder: string): void => {
    if (!existsSync(folder)) return;
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) remove(path);
      else if (basename(path, extname(path)) === modelName || path.endsWith(join(modelName, 'schema.json'))) {
        rmSync(path, { force: true });
        removed.push(path);
      }
    }
    if (readdirSync(folder).length === 0) rmSync(folder, { recursive: true, force: true });
  };
  remove(join(projectDir, 'src', 'api', apiName));
  return removed;
}
