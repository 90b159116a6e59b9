import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';

const V4 = { headers: { 'Strapi-Response-Format': 'v4' } };

for (const dialect of DIALECTS) {
  describe(`earlier response format on request, docs/rest.md "Earlier response format (v4)" [${dialect}]`, () => {
    let server: TestServer;
    let articleId: string;
    before(async () => {
      server = await startServer(dialect);
      const author = (await server.api.post('/api/authors', { data: { name: 'Legacy' } })).body.data.documentId;
      const tag = (await server.api.post('/api/tags', { data: { name: 'old' } })).body.data.documentId;
      articleId = (
        await server.api.post('/api/articles', { data: { title: 'V4', author, tags: [tag], seo: { metaTitle: 'm' } } })
      ).body.data.documentId;
    });
    after(() => server?.close());

    it('nests attributes under attributes and wraps populated relations in data', async () => {
      const res = await server.api.get(`/api/articles/${articleId}?populate=author,tags,seo`, V4);
      assert.equal(res.status, 200);
      const { data } = res.body;
      assert.equal(typeof data.id, 'number');
      assert.equal(data.attributes.title, 'V4');
      assert.equal(data.documentId, articleId, 'documentId sits beside id, as Strapi 5 answers');
      assert.equal('documentId' in data.attributes, false);
      assert.equal(data.attributes.author.data.attributes.name, 'Legacy');
      assert.deepEqual(
        data.attributes.tags.data.map((t: any) => t.attributes.name),
        ['old'],
      );
      assert.equal(data.attributes.seo.metaTitle, 'm', 'components stay plain');
      assert.deepEqual(res.body.meta, {});
    });

    it('lists too, with the same pagination meta; without the header the current format', async () => {
      // Scoped to this file's seed: other tests create articles.
      const res = await server.api.get('/api/articles?filters[title][$eq]=V4', V4);
      assert.equal(res.body.data[0].attributes.title, 'V4');
      assert.equal(res.body.meta.pagination.total, 1);
      const current = await server.api.get('/api/articles?filters[title][$eq]=V4');
      assert.equal(current.body.data[0].title, 'V4');
      assert.equal('attributes' in current.body.data[0], false);
    });

    it('an empty to-one relation is { data: null }', async () => {
      const res = await server.api.post('/api/articles?populate=author', { data: { title: 'Alone' } }, V4);
      assert.equal(res.status, 201);
      assert.deepEqual(res.body.data.attributes.author, { data: null });
    });
  });
}
