import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildSchema, type RawSchemaFile } from '../../core/schema/build.js';
import { describeSchema } from './schema.js';

const type = (name: string, pluginOptions?: Record<string, unknown>): RawSchemaFile => ({
  file: `src/api/${name}/content-types/${name}/schema.json`,
  uid: `api::${name}.${name}`,
  json: {
    kind: 'collectionType',
    info: { singularName: name, pluralName: `${name}s` },
    attributes: { name: { type: 'string' } },
    ...(pluginOptions ? { pluginOptions } : {}),
  },
});

describe('the schema as the admin panel reads it', () => {
  it('marks a type with pluginOptions["content-manager"].visible: false as not displayed (Strapi’s isDisplayed)', () => {
    const schema = buildSchema(
      [
        type('shown'),
        type('hidden', { 'content-manager': { visible: false } }),
        type('kept', { 'content-manager': { visible: true }, 'content-type-builder': { visible: false } }),
      ],
      [],
      [],
    );
    const displayed = Object.fromEntries(describeSchema(schema).contentTypes.map((t) => [t.uid, t.isDisplayed]));
    assert.deepEqual(displayed, { 'api::shown.shown': true, 'api::hidden.hidden': false, 'api::kept.kept': true });
  });
});
