import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { componentLinkTableName, identifier, indexName, linkTableName, snakeCase } from './naming.js';

describe('database names of schema names', () => {
  it('snake-cases attribute and component names', () => {
    assert.deepEqual(
      ['publishDate', 'metaTitle', 'rich-text', 'HTMLBody', 'already_snake', 'a1B2', 'x y'].map(snakeCase),
      ['publish_date', 'meta_title', 'rich_text', 'html_body', 'already_snake', 'a1_b2', 'x_y'],
    );
  });

  it('keeps identifiers under 55 characters with a stable hash suffix', () => {
    assert.equal(identifier('short'), 'short');
    const long = 'a'.repeat(80);
    assert.equal(identifier(long).length, 55);
    assert.equal(identifier(long), identifier(long));
    assert.notEqual(identifier(long), identifier(`${'a'.repeat(79)}b`));
    assert.match(identifier(long), /^a{46}_[0-9a-f]{8}$/);
  });

  it('names link, component-link and index tables', () => {
    assert.equal(linkTableName('articles', 'relatedArticles'), 'articles_related_articles_lnk');
    assert.equal(componentLinkTableName('articles'), 'articles_cmps');
    assert.equal(indexName('articles', ['document_id', 'locale']), 'articles_document_id_locale_idx');
    assert.equal(indexName('articles', ['slug'], 'unique'), 'articles_slug_unique');
    assert.ok(linkTableName('a_very_long_collection_name_for_testing', 'anEvenLongerAttributeName').length <= 55);
  });
});
