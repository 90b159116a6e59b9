import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ProjectError } from '../../src/core/errors.js';
import { loadProjectSchema } from '../../src/core/schema/load.js';
import { builtInTypes } from '../../src/app/built-ins.js';
import { ARTICLE_SCHEMA, AUTHOR_SCHEMA, TAG_SCHEMA, copyProject } from '../helpers/projects.js';
import { BLOG } from '../helpers/paths.js';

describe('project loading', () => {
  const projects: ReturnType<typeof copyProject>[] = [];
  after(() => projects.forEach((p) => p.remove()));
  const broken = (file: string, edit: (json: any) => void) => {
    const project = copyProject();
    projects.push(project);
    project.editJson(file, edit);
    return () => loadProjectSchema(project.dir, builtInTypes(project.dir));
  };
  const failsWith = (load: () => unknown, file: string, ...fragments: RegExp[]) => {
    assert.throws(load, (error: unknown) => {
      assert.ok(error instanceof ProjectError, String(error));
      assert.ok(error.message.includes(file), `names the file: ${error.message}`);
      for (const fragment of fragments) assert.match(error.message, fragment);
      return true;
    });
  };

  it('reads content-types and components in Strapi v5 layout with their uids', () => {
    const { schema } = loadProjectSchema(BLOG, builtInTypes(BLOG));
    assert.deepEqual([...schema.contentTypes.keys()].filter((uid) => uid.startsWith('api::')).sort(), [
      'api::article.article',
      'api::author.author',
      'api::category.category',
      'api::global.global',
      'api::tag.tag',
    ]);
    assert.deepEqual([...schema.components.keys()].sort(), [
      'shared.link',
      'shared.media',
      'shared.quote',
      'shared.rich-text',
      'shared.seo',
    ]);
    const article = schema.contentTypes.get('api::article.article')!;
    assert.equal(article.pluralName, 'articles');
    assert.equal(article.draftAndPublish, true);
    assert.equal(article.localized, true);
    assert.equal(schema.contentTypes.get('api::global.global')!.kind, 'singleType');
  });

  it('an unknown attribute type names the file and the attribute', () => {
    failsWith(
      broken(ARTICLE_SCHEMA, (j) => (j.attributes.title.type = 'strng')),
      ARTICLE_SCHEMA,
      /title/,
      /strng/,
    );
  });

  it('a relation to a missing target names the file and the attribute', () => {
    failsWith(
      broken(
        AUTHOR_SCHEMA,
        (j) => (j.attributes.favourite = { type: 'relation', relation: 'oneToOne', target: 'api::post.post' }),
      ),
      AUTHOR_SCHEMA,
      /favourite/,
      /api::post\.post/,
    );
  });

  it('a missing pluralName names the file', () => {
    failsWith(
      broken(TAG_SCHEMA, (j) => delete j.info.pluralName),
      TAG_SCHEMA,
      /pluralName/,
    );
  });

  it('two types with the same plural name are refused', () => {
    const load = broken(TAG_SCHEMA, (j) => {
      j.info.pluralName = 'authors';
      j.info.singularName = 'writer';
      j.collectionName = 'writers';
    });
    assert.throws(
      load,
      (error: unknown) =>
        error instanceof ProjectError && /authors/.test(error.message) && /schema\.json/.test(error.message),
    );
  });

  // As in Strapi; `locale` and the timestamps are left out instead (test/strapi/strapi-projects.test.ts).
  for (const reserved of ['id', 'documentId', '__typename']) {
    it(`the reserved attribute name ${reserved} is refused`, () => {
      failsWith(
        broken(TAG_SCHEMA, (j) => (j.attributes[reserved] = { type: 'string' })),
        TAG_SCHEMA,
        new RegExp(reserved),
      );
    });
  }

  it('a missing component names the file and the attribute', () => {
    failsWith(
      broken(ARTICLE_SCHEMA, (j) => (j.attributes.seo.component = 'shared.nothing')),
      ARTICLE_SCHEMA,
      /seo/,
      /shared\.nothing/,
    );
  });

  it('invalid JSON names the file', () => {
    const project = copyProject();
    projects.push(project);
    project.write(TAG_SCHEMA, '{ "kind": ');
    failsWith(() => loadProjectSchema(project.dir, builtInTypes(project.dir)), TAG_SCHEMA, /JSON/);
  });

  it('a content-type folder without schema.json is skipped', () => {
    const project = copyProject();
    projects.push(project);
    mkdirSync(join(project.dir, 'src/api/empty/content-types/empty'), { recursive: true });
    const { schema } = loadProjectSchema(project.dir, builtInTypes(project.dir));
    assert.equal(schema.contentTypes.has('api::empty.empty'), false);
  });
});
