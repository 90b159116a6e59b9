import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { QueryValidationError } from '../../errors.js';
import type { Model } from '../../schema/model.js';
import { parseFields } from './fields.js';
import { throwsVellum } from '../../../../test/helpers/unit-errors.js';
import { componentOf, typeOf, unitSchema } from '../../../../test/helpers/unit-schema.js';

const schema = unitSchema();
const article = typeOf(schema, 'api::article.article');
const author = typeOf(schema, 'api::author.author');
const fields = (value: unknown, model: Model = article) => parseFields(model, value, ['fields']);
const refused = (value: unknown, message: string, key: string, model: Model = article) =>
  throwsVellum(() => fields(value, model), QueryValidationError, message, {
    source: 'query',
    param: 'fields',
    key,
    path: null,
  });

describe('fields (docs/rest.md "Fields")', () => {
  it('means every field when absent, empty or *', () => {
    assert.equal(fields(undefined), undefined);
    assert.equal(fields(''), undefined);
    assert.equal(fields('*'), undefined);
    assert.equal(fields(['title', '*']), undefined);
  });

  it('reads names, comma lists and arrays; id and documentId always come', () => {
    assert.deepEqual(fields('title'), ['title']);
    assert.deepEqual(fields('title, views'), ['title', 'views']);
    assert.deepEqual(fields(['slug', 'id', 'documentId']), ['slug']);
    assert.deepEqual(fields({ 0: 'views', 1: 'title' }), ['views', 'title']);
  });

  it('selects the document columns; locale is an invalid key on types without i18n, as Strapi 5.54', () => {
    assert.deepEqual(fields('createdAt,updatedAt,publishedAt,locale'), [
      'createdAt',
      'updatedAt',
      'publishedAt',
      'locale',
    ]);
    refused('createdAt,locale', 'Invalid key locale in fields', 'locale', author);
  });

  it('refuses unknown, hidden and non-scalar attributes', () => {
    refused('nope', 'Invalid key nope in fields', 'nope');
    refused('secret', 'Invalid key secret in fields', 'secret', author);
    refused('author', 'author is not a scalar attribute; use populate for it', 'author');
    refused('seo', 'seo is not a scalar attribute; use populate for it', 'seo');
    refused([3], 'fields must be names', '0');
    refused({ title: true }, 'fields must be a field name, a comma-separated list or an array of names', 'fields');
  });

  it('reads the fields of a component, which has no document columns', () => {
    const seo = componentOf(schema, 'shared.seo');
    assert.deepEqual(fields('metaTitle', seo), ['metaTitle']);
    refused('createdAt', 'Invalid key createdAt in fields', 'createdAt', seo);
  });
});
