import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { unitSchema } from '../../../test/helpers/unit-schema.js';
import { publishOrder } from './publisher.js';

describe('publishOrder', () => {
  const schema = unitSchema();

  it('publishes a type after the types of the release its relations point to, as Strapi', () => {
    // article -> author (author -> article too: the cycle is broken where it is met).
    assert.deepEqual(publishOrder(schema, ['api::article.article', 'api::author.author']), [
      'api::author.author',
      'api::article.article',
    ]);
    assert.deepEqual(publishOrder(schema, ['api::author.author', 'api::article.article']), [
      'api::article.article',
      'api::author.author',
    ]);
  });

  it('keeps the order of types without relations between them, and ignores targets outside the release', () => {
    assert.deepEqual(publishOrder(schema, ['api::tag.tag', 'api::global.global']), [
      'api::tag.tag',
      'api::global.global',
    ]);
    assert.deepEqual(publishOrder(schema, ['api::category.category']), ['api::category.category']);
  });
});
