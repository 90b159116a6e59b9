import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { typeOf, unitSchema } from '../../test/helpers/unit-schema.js';
import { knownData, withKnownData } from './known-data.js';

const schema = unitSchema();
const article = typeOf(schema, 'api::article.article');

describe('knownData: the keys of data project code writes', () => {
  it('leaves out the keys the model has no attribute for, and keeps the document keys the document service judges', () => {
    assert.deepEqual(
      knownData(schema, article, {
        title: 't',
        credits: 3,
        id: 1,
        documentId: 'd',
        publishedAt: null,
        locale: 'fr',
        createdAt: 'x',
      }),
      {
        title: 't',
        id: 1,
        documentId: 'd',
        publishedAt: null,
        locale: 'fr',
        createdAt: 'x',
      },
    );
  });

  it('looks into components, repeatable ones and dynamic zone entries', () => {
    const data = {
      seo: { metaTitle: 'm', stray: 1, id: 4 },
      links: [{ stray: 2 }],
      blocks: [
        { __component: 'shared.quote', title: 'q', stray: 3 },
        { __component: 'nope.nope', stray: 4 },
      ],
      author: { connect: [1] },
    };
    assert.deepEqual(knownData(schema, article, data), {
      seo: { metaTitle: 'm', id: 4 },
      links: [{}],
      blocks: [
        { __component: 'shared.quote', title: 'q' },
        { __component: 'nope.nope', stray: 4 },
      ],
      author: { connect: [1] },
    });
  });

  it('keeps the parameters and non-object data as they are', () => {
    assert.equal(knownData(schema, article, 'text'), 'text');
    const params = { documentId: 'd', status: 'published', data: { title: 't', stray: 1 } };
    assert.deepEqual(withKnownData(schema, article, params), {
      documentId: 'd',
      status: 'published',
      data: { title: 't' },
    });
    assert.deepEqual(withKnownData(schema, article, { data: [{ title: 'a', stray: 1 }, { stray: 2 }] }), {
      data: [{ title: 'a' }, {}],
    });
    assert.deepEqual(withKnownData(schema, article, { where: { id: 1 } }), { where: { id: 1 } });
  });
});
