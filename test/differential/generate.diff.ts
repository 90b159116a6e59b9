/**
 * `vellum generate` against Strapi 5.54's own generators (`@strapi/generators` of the reference
 * install, run with the answers its prompts would record): the same files, byte for byte, in
 * JavaScript and TypeScript projects. On demand: `npm run test:strapi -- generate` (no Strapi server
 * is started). Pinned for Vellum alone in test/app/generate.test.ts.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { cliOutput } from '../helpers/cli.js';

const reference = process.env.STRAPI_DIR ?? join(homedir(), 'strapi-reference');
const generators = createRequire(join(reference, 'package.json'))('@strapi/generators') as {
  generate(name: string, answers: Record<string, unknown>, options: { dir: string }): Promise<unknown>;
};

const files = (dir: string): Record<string, string> => {
  const found: Record<string, string> = {};
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      if (statSync(path).isDirectory()) walk(path);
      else found[relative(dir, path)] = readFileSync(path, 'utf8');
    }
  };
  walk(join(dir, 'src'));
  return found;
};

const project = (language: 'js' | 'ts') => {
  const dir = mkdtempSync(join(tmpdir(), 'vellum-generate-diff-'));
  mkdirSync(join(dir, 'src'));
  mkdirSync(join(dir, 'config'));
  writeFileSync(join(dir, 'package.json'), '{"name":"p"}');
  if (language === 'ts') writeFileSync(join(dir, 'tsconfig.json'), '{}');
  return dir;
};

for (const language of ['js', 'ts'] as const) {
  test(`the same files as Strapi's generators (${language})`, async () => {
    const strapi = project(language);
    const vellum = project(language);
    try {
      const cases: [string, Record<string, unknown>, string[]][] = [
        [
          'content-type',
          {
            id: 'recipe',
            displayName: 'Recipe',
            singularName: 'recipe',
            pluralName: 'recipes',
            kind: 'collectionType',
            destination: 'new',
            bootstrapApi: true,
            attributes: [
              { attributeName: 'title', attributeType: 'string' },
              { attributeName: 'level', attributeType: 'enumeration', enum: 'easy, hard' },
              { attributeName: 'photo', attributeType: 'media', multiple: false },
            ],
          },
          ['content-type', 'recipe', '--attributes', 'title:string,level:enumeration:easy|hard,photo:media'],
        ],
        [
          'content-type',
          {
            api: 'recipe',
            displayName: 'Tip',
            singularName: 'tip',
            pluralName: 'tips',
            kind: 'singleType',
            destination: 'api',
            bootstrapApi: true,
            attributes: [],
          },
          ['content-type', 'tip', '--api', 'recipe', '--kind', 'singleType'],
        ],
        ['api', { id: 'reports', isPluginApi: false }, ['api', 'reports']],
        [
          'controller',
          { id: 'stats', destination: 'api', api: 'reports' },
          ['controller', 'stats', '--api', 'reports'],
        ],
        ['service', { id: 'stats', destination: 'api', api: 'reports' }, ['service', 'stats', '--api', 'reports']],
        ['policy', { id: 'is-owner', destination: 'root' }, ['policy', 'is-owner']],
        [
          'middleware',
          { name: 'timing', destination: 'api', api: 'reports' },
          ['middleware', 'timing', '--api', 'reports'],
        ],
      ];
      for (const [name, answers, args] of cases) {
        await generators.generate(name, answers, { dir: strapi });
        await cliOutput(['generate', ...args, '--project', vellum]);
      }
      assert.deepEqual(files(vellum), files(strapi));
    } finally {
      rmSync(strapi, { recursive: true, force: true });
      rmSync(vellum, { recursive: true, force: true });
    }
  });
}
