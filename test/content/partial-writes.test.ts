/**
 * A partial write changes only what its body names, in every locale and status: found by random
 * write sequences against Strapi 5.54. Creating a localization used to write the schema defaults of
 * the shared attributes (`views: 0`, `featured: false`) into the other locales' drafts, and the next
 * write published the loss everywhere. Strapi keeps the document's values.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';

for (const dialect of DIALECTS) {
  describe(`a partial write changes only what it names [${dialect}]`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect);
    });
    after(() => server?.close());

    /** views and featured of every locale and status of an article. */
    const shared = async (documentId: string) => {
      const out: Record<string, unknown> = {};
      for (const locale of ['en', 'fr'])
        for (const status of ['draft', 'published']) {
          const res = await server.api.get(`/api/articles/${documentId}?locale=${locale}&status=${status}`);
          out[`${locale} ${status}`] =
            res.status === 200 ? [res.body.data.views, res.body.data.featured, res.body.data.rating] : res.status;
        }
      return out;
    };
    const create = async () => {
      const res = await server.api.post('/api/articles', {
        data: { title: 'Shared', views: 5, featured: true, rating: 4.5 },
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body.data.documentId as string;
    };

    it('translating, then editing the source locale, keeps the shared attributes that have defaults', async () => {
      const id = await create();
      const fr = await server.api.put(`/api/articles/${id}?locale=fr`, { data: { title: 'Partagé', slug: 'partage' } });
      assert.equal(fr.status, 200, JSON.stringify(fr.body));
      assert.deepEqual([fr.body.data.views, fr.body.data.featured], [5, true]);
      assert.equal((await server.api.put(`/api/articles/${id}`, { data: { title: 'Shared, edited' } })).status, 200);
      const kept = [5, true, 4.5];
      assert.deepEqual(await shared(id), {
        'en draft': kept,
        'en published': kept,
        'fr draft': kept,
        'fr published': kept,
      });
    });

    it('an empty draft localization changes nothing in the other locale, and a later publish keeps it too', async () => {
      const id = await create();
      const fr = await server.api.put(`/api/articles/${id}?locale=fr&status=draft`, { data: {} });
      assert.equal(fr.status, 200, JSON.stringify(fr.body));
      assert.deepEqual(await shared(id), {
        'en draft': [5, true, 4.5],
        'en published': [5, true, 4.5],
        'fr draft': [5, true, 4.5],
        'fr published': 404,
      });
      assert.equal((await server.api.put(`/api/articles/${id}`, { data: { title: 'published edit' } })).status, 200);
      const kept = [5, true, 4.5];
      assert.deepEqual(await shared(id), {
        'en draft': kept,
        'en published': kept,
        'fr draft': kept,
        'fr published': 404,
      });
    });

    it('a shared value the new locale sends reaches the other locale, the defaults it does not send do not', async () => {
      const id = await create();
      assert.equal(
        (await server.api.put(`/api/articles/${id}?locale=fr`, { data: { title: 'Partagé', views: 9 } })).status,
        200,
      );
      const expected = [9, true, 4.5];
      assert.deepEqual(await shared(id), {
        'en draft': expected,
        'en published': expected,
        'fr draft': expected,
        'fr published': expected,
      });
    });
  });
}
