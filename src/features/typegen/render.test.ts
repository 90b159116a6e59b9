import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { builtInTypes } from '../../app/built-ins.js';
import { rawSchemaOf } from '../../app/open-project.js';
import { loadProjectSchema } from '../../core/schema/load.js';
import { BLOG, ROOT } from '../../../test/helpers/paths.js';
import { generatedTypes } from './index.js';
import { interfaceName, literal, renderSchemas } from './render.js';

describe('generated types', () => {
  it("writes Strapi 5.54's text for the blog example, content-types and components", async () => {
    const { schema } = loadProjectSchema(BLOG, builtInTypes(BLOG));
    // Formatted as in a folder without a Prettier configuration (this repository has one).
    const types = await generatedTypes({ dir: tmpdir(), schema, rawSchema: rawSchemaOf(BLOG) });
    const strapi = (file: string) => readFileSync(join(ROOT, 'test/fixtures/typegen/blog', file), 'utf8');
    assert.equal(types.contentTypes, strapi('contentTypes.d.ts'));
    assert.equal(types.components, strapi('components.d.ts'));
  });

  it('names interfaces as lodash camelCase does', () => {
    assert.equal(interfaceName('api::article.article'), 'ApiArticleArticle');
    assert.equal(interfaceName('plugin::i18n.locale'), 'PluginI18NLocale');
    assert.equal(interfaceName('plugin::users-permissions.user'), 'PluginUsersPermissionsUser');
    assert.equal(interfaceName('shared.rich-text'), 'SharedRichText');
  });

  it('writes literals with sorted keys, quoted where not identifiers', () => {
    assert.equal(literal({ b: 1, a: [true, null, 'x'], 'c-d': -2 }), "{\na: [true, null, 'x'];\nb: 1;\n'c-d': -2;\n}");
  });

  it('writes a placeholder for an app without components, and skips unknown attribute types with a warning', () => {
    assert.equal(renderSchemas('ComponentSchemas', []).text, "/*\n * The app doesn't have any components yet.\n */\n");
    const warnings: string[] = [];
    const { text } = renderSchemas(
      'ContentTypeSchemas',
      [
        {
          uid: 'api::a.a',
          modelType: 'contentType',
          kind: 'collectionType',
          attributes: { x: { type: 'customField' } },
        },
      ],
      (message) => warnings.push(message),
    );
    assert.doesNotMatch(text, /\bx:/);
    assert.deepEqual(warnings, ['"x" attribute from "api::a.a" has an invalid type: "customField"']);
  });
});
