/**
 * The content manager at Strapi 5.54's paths (`/content-manager/...`, docs/admin-panel.md "Roles"),
 * on every dialect: the shapes Strapi answered for the same requests (the differential
 * test/differential/content-manager.diff.ts compares them side by side), and roles enforced there
 * as on Vellum's own routes.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { HttpClient } from '../helpers/http.js';
import { inviteAdmin, registerFirstAdmin } from '../helpers/admins.js';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';

const ARTICLES = '/content-manager/collection-types/api::article.article';
const GLOBAL = '/content-manager/single-types/api::global.global';
const CREATOR_KEYS = ['id', 'firstname', 'lastname', 'username', 'email', 'isActive'];

for (const dialect of DIALECTS) {
  describe(`content manager at Strapi's paths (${dialect})`, () => {
    let server: TestServer;
    let root: HttpClient;
    before(async () => {
      server = await startServer(dialect);
      root = (await registerFirstAdmin(server)).client;
    });
    after(() => server?.close());

    it('answers a document with its counts, creator fields, status and meta', async () => {
      const created = await root.post(ARTICLES, { title: 'Via Strapi paths', seo: { metaTitle: 'm' } });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const { data, meta } = created.body;
      assert.deepEqual(data.tags, { count: 0 });
      assert.deepEqual(data.author, { count: 0 });
      assert.deepEqual(Object.keys(data.createdBy), CREATOR_KEYS);
      assert.equal(data.status, 'draft');
      assert.deepEqual(meta, { availableLocales: [], availableStatus: [] });
      const id = data.documentId as string;
      const published = await root.post(`${ARTICLES}/${id}/actions/publish`, {});
      assert.equal(published.body.data.status, 'published');
      assert.equal(published.body.meta.availableStatus.length, 1);
      await root.put(`${ARTICLES}/${id}`, { title: 'Edited' });
      assert.equal((await root.get(`${ARTICLES}/${id}`)).body.data.status, 'modified');
      const list = await root.get(`${ARTICLES}?page=1&pageSize=5`);
      assert.deepEqual(list.body.pagination, { page: 1, pageSize: 5, pageCount: 1, total: 1 });
      assert.equal(list.body.results[0].author, null);
      assert.equal(list.body.results[0].status, 'modified');
      assert.deepEqual((await root.delete(`${ARTICLES}/${id}`)).body, {});
      assert.equal((await root.get(`${ARTICLES}/${id}`)).status, 404);
      assert.equal((await root.get(GLOBAL)).status, 404);
      assert.equal((await root.put(GLOBAL, { siteName: 'Site' })).body.data.locale, null);
    });

    it('enforces roles there too', async () => {
      // Strapi's Author role (id 3).
      const who = { email: 'author@example.com', firstname: 'Au', password: 'Passw0rd-Au' };
      const { client: author } = await inviteAdmin(server, root, [3], who);
      const others = await root.post(ARTICLES, { title: 'Root’s' });
      const mine = await author.post(ARTICLES, { title: 'Mine' });
      assert.equal(mine.status, 201);
      assert.deepEqual(
        (await author.get(ARTICLES)).body.results.map((doc: { title: string }) => doc.title),
        ['Mine'],
      );
      assert.equal((await author.get(`${ARTICLES}/${others.body.data.documentId}`)).status, 403);
      const publish = await author.post(`${ARTICLES}/${mine.body.data.documentId}/actions/publish`, {});
      assert.equal(publish.status, 403);
      assert.equal(publish.body.error.name, 'PolicyError');
    });

    it('creates and publishes at once (publish without a documentId)', async () => {
      const published = await root.post(`${ARTICLES}/actions/publish`, { title: 'At once', views: 4 });
      assert.equal(published.status, 200, JSON.stringify(published.body));
      assert.equal(published.body.data.status, 'published');
      assert.notEqual(published.body.data.publishedAt, null);
      assert.equal(published.body.data.views, 4);
      assert.equal(published.body.meta.availableStatus.length, 1);
      const id = published.body.data.documentId;
      assert.equal((await root.get(`${ARTICLES}/${id}`)).body.data.status, 'published');
      // The publish permission is the route's; an Author (no publish) is refused before anything is written.
      const who = { email: 'author2@example.com', firstname: 'Au', password: 'Passw0rd-Au' };
      const { client: author } = await inviteAdmin(server, root, [3], who);
      const refused = await author.post(`${ARTICLES}/actions/publish`, { title: 'Not at once' });
      assert.equal(refused.status, 403);
      const none = await root.get(`${ARTICLES}?filters[title][$eq]=Not at once`);
      assert.equal(none.body.pagination.total, 0);
    });
  });
}
