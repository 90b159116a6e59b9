/**
 * What Strapi 5.54's admin panel sends to the content manager at Strapi's paths, on every dialect:
 * the shortest sequences the differential content-manager sequences
 * (`npm run test:strapi:sequences -- --api content-manager`) found Vellum answering otherwise than
 * Strapi. The panel sends the whole form (repeatable items with a `__temp_key__`, relations as
 * `{ connect, disconnect }` of `{ id, documentId, locale, isTemporary }`), reads a locale the
 * document lacks before translating it, and publishes a new locale straight from its form.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { HttpClient } from '../helpers/http.js';
import { registerFirstAdmin } from '../helpers/admins.js';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';

const ARTICLES = '/content-manager/collection-types/api::article.article';
const TAGS = '/content-manager/collection-types/api::tag.tag';
const none = { connect: [], disconnect: [] };

for (const dialect of DIALECTS) {
  describe(`content manager at Strapi's paths, as the panel sends (${dialect})`, () => {
    let server: TestServer;
    let root: HttpClient;
    before(async () => {
      server = await startServer(dialect);
      root = (await registerFirstAdmin(server)).client;
    });
    after(() => server?.close());

    const tag = async (name: string) => {
      const res = await root.post(TAGS, { name, articles: none });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body.data as { id: number; documentId: string };
    };

    it("takes the form's __temp_key__ and isTemporary keys", async () => {
      const t = await tag('panel-keys');
      const res = await root.post(`${ARTICLES}?locale=fr`, {
        title: 'Keys',
        author: none,
        tags: { connect: [{ id: t.id, documentId: t.documentId, locale: null, isTemporary: true }], disconnect: [] },
        links: [{ label: 'l', url: 'u', __temp_key__: 'a0' }],
        blocks: [{ __component: 'shared.rich-text', body: 'b', __temp_key__: 'a0' }],
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.deepEqual(res.body.data.tags, { count: 1 });
      assert.equal(res.body.data.links[0].label, 'l');
      assert.equal('__temp_key__' in res.body.data.links[0], false);
      // Saved again as the edit view sends it: the item with its id and key, unchanged.
      const { id, label, url } = res.body.data.links[0];
      const saved = await root.put(`${ARTICLES}/${res.body.data.documentId}?locale=fr`, {
        title: 'Keys',
        links: [{ id, label, url, __temp_key__: 'a0' }],
        tags: none,
      });
      assert.equal(saved.status, 200, JSON.stringify(saved.body));
      assert.equal(saved.body.data.links[0].id, id);
      assert.deepEqual(saved.body.data.tags, { count: 1 });
    });

    it('reads a locale or status the document lacks as { data: {} } with the shared values to start from', async () => {
      const created = await root.post(ARTICLES, { title: 'Shared', views: 7, featured: true });
      const id = created.body.data.documentId as string;
      const fr = await root.get(`${ARTICLES}/${id}?locale=fr`);
      assert.equal(fr.status, 200, JSON.stringify(fr.body));
      assert.deepEqual(fr.body.data, {});
      assert.deepEqual(fr.body.meta.availableStatus, []);
      const [en] = fr.body.meta.availableLocales;
      assert.equal(en.locale, 'en');
      assert.equal(en.status, 'draft');
      assert.equal(en.views, 7);
      assert.equal(en.featured, true);
      assert.equal('title' in en, false);
      const published = await root.get(`${ARTICLES}/${id}?locale=en&status=published`);
      assert.equal(published.status, 200);
      assert.deepEqual(published.body.data, {});
      assert.equal((await root.get(`${ARTICLES}/${id}?status=sometimes`)).status, 400);
      assert.equal((await root.get(`${ARTICLES}/zzzzzzzzzzzzzzzzzzzzzzzz?locale=fr`)).status, 404);
    });

    it("shows the Published tab's version as modified once its draft is saved", async () => {
      const created = await root.post(ARTICLES, { title: 'Tabs' });
      const id = created.body.data.documentId as string;
      await root.post(`${ARTICLES}/${id}/actions/publish`, { title: 'Tabs' });
      assert.equal((await root.get(`${ARTICLES}/${id}?status=published`)).body.data.status, 'published');
      await new Promise((resolve) => setTimeout(resolve, 5));
      await root.put(`${ARTICLES}/${id}`, { title: 'Tabs edited' });
      const published = await root.get(`${ARTICLES}/${id}?status=published`);
      assert.equal(published.body.data.title, 'Tabs');
      assert.equal(published.body.data.status, 'modified');
    });

    it('unpublishes and discards the changes with { discardDraft: true }', async () => {
      const created = await root.post(ARTICLES, { title: 'Kept' });
      const id = created.body.data.documentId as string;
      await root.post(`${ARTICLES}/${id}/actions/publish`, { title: 'Kept' });
      await root.put(`${ARTICLES}/${id}`, { title: 'Changed' });
      const res = await root.post(`${ARTICLES}/${id}/actions/unpublish`, { discardDraft: true });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const draft = await root.get(`${ARTICLES}/${id}`);
      assert.equal(draft.body.data.title, 'Kept');
      assert.equal(draft.body.data.status, 'draft');
    });

    it('publishes a new locale straight from its form, and a new document from the create page', async () => {
      const created = await root.post(ARTICLES, { title: 'Source', views: 3 });
      const id = created.body.data.documentId as string;
      const fr = await root.post(`${ARTICLES}/${id}/actions/publish?locale=fr`, { title: 'Traduit', views: 3 });
      assert.equal(fr.status, 200, JSON.stringify(fr.body));
      assert.equal(fr.body.data.locale, 'fr');
      assert.equal(fr.body.data.status, 'published');
      // Without the required title: refused, nothing written.
      const bare = await root.post(ARTICLES, { title: 'Bare' });
      const refused = await root.post(`${ARTICLES}/${bare.body.data.documentId}/actions/publish?locale=fr`);
      assert.equal(refused.status, 400);
      assert.deepEqual((await root.get(`${ARTICLES}/${bare.body.data.documentId}?locale=fr`)).body.data, {});
      const direct = await root.post(`${ARTICLES}/actions/publish`, { title: 'Direct', tags: none });
      assert.equal(direct.status, 200, JSON.stringify(direct.body));
      assert.equal(direct.body.data.status, 'published');
    });

    it('deletes every locale with locale=*, and refuses a locale that is not configured', async () => {
      const created = await root.post(ARTICLES, { title: 'Everywhere' });
      const id = created.body.data.documentId as string;
      assert.equal((await root.put(`${ARTICLES}/${id}?locale=fr`, { title: 'Partout' })).status, 200);
      const wrong = await root.put(`${ARTICLES}/${id}?locale=xx-not-a-locale`, {});
      assert.equal(wrong.status, 400);
      assert.equal(wrong.body.error.name, 'ApplicationError');
      assert.equal(wrong.body.error.message, "This locale doesn't exist");
      const deleted = await root.delete(`${ARTICLES}/${id}?locale=*`);
      assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
      assert.equal((await root.get(`${ARTICLES}/${id}?locale=fr`)).status, 404);
      assert.equal((await root.delete(`${ARTICLES}/${id}?locale=*`)).status, 404);
    });

    it("keeps a duplicate's relations the form leaves alone, and changes those it edits", async () => {
      const [a, b] = [await tag('clone-a'), await tag('clone-b')];
      const created = await root.post(ARTICLES, {
        title: 'Original',
        tags: { connect: [a, b].map((t) => ({ id: t.id, documentId: t.documentId, locale: null })), disconnect: [] },
      });
      const id = created.body.data.documentId as string;
      const same = await root.post(`${ARTICLES}/clone/${id}`, { title: 'Copy', tags: none, author: none });
      assert.equal(same.status, 200, JSON.stringify(same.body));
      assert.deepEqual(same.body.data.tags, { count: 2 });
      const edited = await root.post(`${ARTICLES}/clone/${id}`, {
        title: 'Copy 2',
        tags: { connect: [], disconnect: [{ id: a.id, documentId: a.documentId, locale: null }] },
      });
      assert.equal(edited.status, 200, JSON.stringify(edited.body));
      assert.deepEqual(edited.body.data.tags, { count: 1 });
    });
  });
}
