/**
 * Spec 4.7 rule 1, 5.4, 7.3: what a caller may not `find` stays out of everything it can read —
 * populate leaves it out, filters and sort through it are refused rather than answered (no oracle).
 * Here Public may read articles but not authors.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';

for (const dialect of DIALECTS) {
  describe(`permissions below the document: populate, filters, sort [${dialect}]`, () => {
    let server: TestServer;
    let article: string;
    before(async () => {
      server = await startServer(dialect, {
        config: {
          permissions: { public: ['api::article.article.find', 'api::article.article.findOne', 'api::tag.tag.find'] },
        },
      });
      const author = (await server.api.post('/api/authors', { data: { name: 'Secret Sam', email: 'sam@example.com' } }))
        .body.data.documentId;
      const tag = (await server.api.post('/api/tags', { data: { name: 'open' } })).body.data.documentId;
      article = (await server.api.post('/api/articles', { data: { title: 'Public post', author, tags: [tag] } })).body
        .data.documentId;
    });
    after(() => server?.close());

    it('the author relation is left unpopulated for Public, whatever the populate form', async () => {
      for (const query of [
        'populate=author',
        'populate=*',
        'populate[author][fields][0]=name',
        'populate[tags][populate]=*',
      ]) {
        const res = await server.publicApi.get(`/api/articles/${article}?${query}`);
        assert.equal(res.status, 200, query);
        assert.equal(res.body.data.author, undefined, query);
        assert.doesNotMatch(res.text, /Secret Sam|sam@example/, query);
      }
      const allowed = await server.publicApi.get(`/api/articles/${article}?populate=tags`);
      assert.equal(allowed.body.data.tags[0].name, 'open', 'readable relations are populated');
      const full = await server.api.get(`/api/articles/${article}?populate=author`);
      assert.equal(full.body.data.author.name, 'Secret Sam', 'the author is there for who may read it');
    });

    it('filters and sort through the author are refused, not answered', async () => {
      for (const query of [
        'filters[author][name][$startsWith]=Secret',
        'filters[author][email][$contains]=sam',
        'filters[$or][0][author][name][$eq]=x',
        'sort=author.name',
      ]) {
        const res = await server.publicApi.get(`/api/articles?${query}`);
        assert.ok(res.status === 400 || res.status === 403, `${query}: ${res.status}`);
        assert.doesNotMatch(res.text, /Secret Sam/);
      }
    });

    it('the types themselves stay private: 403', async () => {
      assert.equal((await server.publicApi.get('/api/authors')).status, 403);
      assert.equal((await server.publicApi.get('/api/categories')).status, 403);
    });

    it('users are never reachable through a relation: passwords can be neither returned, filtered nor sorted', async () => {
      assert.equal((await server.publicApi.get('/api/users')).status, 403);
      for (const query of ['fields[0]=password', 'filters[password][$null]=false', 'sort=password']) {
        assert.equal((await server.api.get(`/api/users?${query}`)).status, 400, query);
      }
    });
  });
}
