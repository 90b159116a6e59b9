/**
 * The read budget (`api.rest.costLimit`): a read whose answer would hold more documents,
 * components and files than the limit is a 400 CostLimitError naming it, decided while reading;
 * real pages stay far below the default. (Issue 17, point 1: one anonymous GET populating
 * articles -> category -> articles -> category -> articles answered a million documents.)
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';

const ARTICLES = 100;
const PROBE =
  'pagination[pageSize]=100&populate[category][populate][articles][populate][category][populate][articles]=true';

for (const dialect of DIALECTS) {
  describe(`read budget (api.rest.costLimit) [${dialect}]`, () => {
    let server: TestServer;
    /** A second node on the same database with a budget of 200 items. */
    let small: TestServer;
    let categoryId: string;

    before(async () => {
      server = await startServer(dialect);
      small = await startServer(dialect, {
        nodeOf: server,
        config: { api: { rest: { costLimit: 200, cache: { enabled: false } } } },
      });
      const api = server.api;
      categoryId = (await api.post('/api/categories', { data: { name: 'News' } })).body.data.documentId;
      const author = (await api.post('/api/authors', { data: { name: 'Ann' } })).body.data.documentId;
      const tags: string[] = [];
      for (const name of ['a', 'b', 'c'])
        tags.push((await api.post('/api/tags', { data: { name } })).body.data.documentId);
      for (let i = 0; i < ARTICLES; i++) {
        const res = await api.post('/api/articles', {
          data: { title: `Article ${i}`, category: categoryId, author, tags, seo: { metaTitle: `m${i}` } },
        });
        assert.equal(res.status, 201);
      }
    });
    after(async () => {
      await small?.close();
      await server?.close();
    });

    it("refuses the probe's nested populate with a 400 naming the limit", async () => {
      // 100 + 100 + 10,000 + 10,000 items fit in 25,000; the fifth level would add a million.
      const res = await server.publicApi.get(`/api/articles?${PROBE}`);
      assert.equal(res.status, 400);
      assert.equal(res.body.data, null);
      assert.equal(res.body.error.name, 'CostLimitError');
      assert.deepEqual(res.body.error.details, { limit: 25_000, setting: 'api.rest.costLimit' });
      assert.match(res.body.error.message, /25000/);
      assert.match(res.body.error.message, /api\.rest\.costLimit/);
      // The same with a token, and with a single document at the top.
      assert.equal((await server.api.get(`/api/articles?${PROBE}`)).body.error?.name, 'CostLimitError');
      const one = await server.publicApi.get(
        `/api/categories/${categoryId}?populate[articles][populate][category][populate][articles][populate][category][populate][articles]=true`,
      );
      assert.equal(one.status, 400);
      assert.equal(one.body.error.name, 'CostLimitError');
      // The server still answers.
      assert.equal((await server.publicApi.get('/api/articles')).status, 200);
    });

    it('lets a list of 100 with its relations, media and components through the default', async () => {
      const res = await server.publicApi.get('/api/articles?pagination[pageSize]=100&populate=*');
      assert.equal(res.status, 200);
      assert.equal(res.body.data.length, ARTICLES);
      assert.equal(res.body.data[0].tags.length, 3);
      const nested = await server.publicApi.get(
        '/api/articles?pagination[pageSize]=100&populate[category][populate][articles]=true&populate[tags]=true&populate[author]=true',
      );
      assert.equal(nested.status, 200, JSON.stringify(nested.body.error));
      assert.equal(nested.body.data[0].category.articles.length, ARTICLES);
    });

    it('counts the page and every populated item: exactly the limit passes, one level more does not', async () => {
      const exact = await small.publicApi.get('/api/articles?pagination[pageSize]=100&populate[category]=true');
      assert.equal(exact.status, 200, '100 articles + 100 categories = 200 items');
      const over = await small.publicApi.get(
        '/api/articles?pagination[pageSize]=100&populate[category]=true&populate[author]=true',
      );
      assert.equal(over.status, 400);
      assert.deepEqual(over.body.error.details, { limit: 200, setting: 'api.rest.costLimit' });
      // Components and to-many relations count like relations.
      assert.equal(
        (await small.publicApi.get('/api/articles?pagination[pageSize]=50&populate[seo]=true&populate[tags]=true'))
          .status,
        400,
        '50 + 50 + 150',
      );
      assert.equal(
        (await small.publicApi.get('/api/articles?pagination[pageSize]=40&populate[seo]=true&populate[tags]=true'))
          .status,
        200,
        '40 + 40 + 120',
      );
      // A single document counts its populated items too.
      const category = await small.publicApi.get(
        `/api/categories/${categoryId}?populate[articles][populate][tags]=true`,
      );
      assert.equal(category.status, 400, '1 + 100 + 300');
      assert.equal(
        (await small.publicApi.get(`/api/categories/${categoryId}?populate=articles`)).status,
        200,
        '1 + 100',
      );
    });
  });
}
