/**
 * `vellum generate` (docs/cli.md "Generating files"): the files `strapi generate` writes, from
 * flags; the project serves what it generated at once; an existing file stops it with nothing
 * written; TypeScript in a project with a tsconfig.json.
 */
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { cliOutput, runCli } from '../helpers/cli.js';
import { BLOG, startServer } from '../helpers/server.js';

describe('vellum generate', () => {
  let project: string;
  before(() => {
    project = mkdtempSync(join(tmpdir(), 'vellum-generate-'));
    cpSync(BLOG, project, { recursive: true, filter: (source) => !source.includes('.tmp') });
  });
  after(() => rmSync(project, { recursive: true, force: true }));
  const read = (path: string) => readFileSync(join(project, path), 'utf8');

  it('a component, as the Content-Type Builder writes one (Strapi has no component generator), used at once', async () => {
    const out = await cliOutput(
      [
        'generate',
        'component',
        'shared.call-out',
        '--icon',
        'bell',
        '--attributes',
        'label:string,tone:enumeration:calm|loud',
      ],
      { cwd: project },
    );
    assert.equal(out, 'Created src/components/shared/call-out.json\n');
    // What POST /content-type-builder/update-schema writes for the same component (Strapi's builder's file).
    assert.equal(
      read('src/components/shared/call-out.json'),
      `${JSON.stringify(
        {
          collectionName: 'components_shared_call_outs',
          info: { displayName: 'Call Out', icon: 'bell' },
          options: {},
          attributes: { label: { type: 'string' }, tone: { type: 'enumeration', enum: ['calm', 'loud'] } },
          config: {},
        },
        null,
        2,
      )}\n`,
    );
    const again = await runCli(['generate', 'component', 'shared.call-out'], { cwd: project });
    assert.notEqual(again.code, 0);
    assert.match(again.stderr, /already exists/);
    const bad = await runCli(['generate', 'component', 'Shared'], { cwd: project });
    assert.match(bad.stderr, /<category>\.<name>/);
  });

  it('a content-type with its core controller, service and router, served at once', async () => {
    const out = await cliOutput(
      ['generate', 'content-type', 'recipe', '--attributes', 'title:string,level:enumeration:easy|hard,photo:media'],
      { cwd: project },
    );
    assert.equal(
      out,
      [
        'Created src/api/recipe/content-types/recipe/schema.json',
        'Created src/api/recipe/controllers/recipe.js',
        'Created src/api/recipe/services/recipe.js',
        'Created src/api/recipe/routes/recipe.js',
        '',
      ].join('\n'),
    );
    assert.deepEqual(JSON.parse(read('src/api/recipe/content-types/recipe/schema.json')), {
      kind: 'collectionType',
      collectionName: 'recipes',
      info: { singularName: 'recipe', pluralName: 'recipes', displayName: 'Recipe' },
      options: { comment: '' },
      attributes: {
        title: { type: 'string' },
        level: { type: 'enumeration', enum: ['easy', 'hard'] },
        photo: { type: 'media', allowedTypes: ['images', 'files', 'videos', 'audios'], multiple: false },
      },
    });
    assert.equal(
      read('src/api/recipe/routes/recipe.js'),
      "'use strict';\n\n/**\n * recipe router\n */\n\nconst { createCoreRouter } = require('@strapi/strapi').factories;\n\nmodule.exports = createCoreRouter('api::recipe.recipe');\n",
    );
    const server = await startServer('sqlite', { project });
    try {
      const created = await server.api.post('/api/recipes', { data: { title: 'Soup', level: 'easy' } });
      assert.equal(created.status, 201, created.text);
    } finally {
      await server.close();
    }
  });

  it('an API, a controller, a service, a global policy and an API middleware; nothing overwritten', async () => {
    await cliOutput(['generate', 'api', 'reports'], { cwd: project });
    assert.match(read('src/api/reports/routes/reports.js'), /handler: 'reports\.exampleAction'/);
    await cliOutput(['generate', 'controller', 'stats', '--api', 'reports'], { cwd: project });
    await cliOutput(['generate', 'service', 'stats', '--api', 'reports'], { cwd: project });
    await cliOutput(['generate', 'policy', 'is-owner'], { cwd: project });
    await cliOutput(['generate', 'middleware', 'timing', '--api', 'reports'], { cwd: project });
    for (const path of [
      'src/api/reports/controllers/stats.js',
      'src/api/reports/services/stats.js',
      'src/policies/is-owner.js',
      'src/api/reports/middlewares/timing.js',
    ])
      assert.ok(existsSync(join(project, path)), path);
    const again = await runCli(['generate', 'policy', 'is-owner'], { cwd: project });
    assert.equal(again.code, 1);
    assert.match(again.stderr, /src\/policies\/is-owner\.js already exists: nothing was written/);
    const bad = await runCli(['generate', 'content-type', 'Bad Name'], { cwd: project });
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /kebab case/);
  });

  it('TypeScript files in a project with a tsconfig.json', async () => {
    writeFileSync(join(project, 'tsconfig.json'), '{}');
    await cliOutput(['generate', 'content-type', 'tip', '--no-bootstrap-api'], { cwd: project });
    assert.equal(
      read('src/api/tip/content-types/tip/schema.json'),
      '\n{\n  "kind": "collectionType",\n  "collectionName": "tips",\n  "info": {\n    "singularName": "tip",\n    "pluralName": "tips",\n    "displayName": "Tip"\n  },\n  "options": {\n    "comment": ""\n  },\n  "attributes": {}\n}\n',
    );
    assert.equal(existsSync(join(project, 'src/api/tip/controllers')), false);
    await cliOutput(['generate', 'service', 'helper', '--api', 'tip'], { cwd: project });
    assert.equal(read('src/api/tip/services/helper.ts'), '/**\n * helper service\n */\n\nexport default () => ({});\n');
  });
});
