import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';
import { insertFile } from '../helpers/files.js';

for (const dialect of DIALECTS) {
  describe(`locales, docs/rest.md "Locale and status" [${dialect}]`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect);
    });
    after(() => server?.close());
    const api = () => server.api;

    it('lists the configured locales at /api/i18n/locales', async () => {
      const res = await api().get('/api/i18n/locales');
      assert.equal(res.status, 200);
      assert.deepEqual(
        res.body.map((l: any) => [l.code, l.isDefault]),
        [
          ['en', true],
          ['fr', false],
        ],
      );
    });

    it('POST ?locale=fr creates the fr version; no locale means the default locale', async () => {
      const fr = await api().post('/api/articles?locale=fr', { data: { title: 'Bonjour' } });
      assert.equal(fr.status, 201);
      assert.equal(fr.body.data.locale, 'fr');
      const en = await api().post('/api/articles', { data: { title: 'Hello' } });
      assert.equal(en.body.data.locale, 'en');
      assert.equal((await api().get(`/api/articles/${fr.body.data.documentId}`)).status, 404, 'not in en');
      assert.equal((await api().get(`/api/articles/${fr.body.data.documentId}?locale=fr`)).body.data.title, 'Bonjour');
      const frList = (await api().get('/api/articles?locale=fr')).body.data.map((d: any) => d.title);
      assert.ok(frList.includes('Bonjour') && !frList.includes('Hello'));
    });

    it('PUT ?locale=fr adds a locale to an existing document, then updates it', async () => {
      const en = (await api().post('/api/articles', { data: { title: 'Cat', views: 7 } })).body.data;
      const fr = await api().put(`/api/articles/${en.documentId}?locale=fr`, { data: { title: 'Chat' } });
      assert.equal(fr.status, 200, JSON.stringify(fr.body));
      assert.equal(fr.body.data.documentId, en.documentId);
      assert.equal(fr.body.data.locale, 'fr');
      assert.equal(fr.body.data.views, 7, 'a new locale starts with the shared attributes');
      const updated = await api().put(`/api/articles/${en.documentId}?locale=fr`, { data: { title: 'Le chat' } });
      assert.equal(updated.body.data.title, 'Le chat');
      assert.equal((await api().get(`/api/articles/${en.documentId}`)).body.data.title, 'Cat');
    });

    it('a new locale version checks required attributes', async () => {
      const en = (await api().post('/api/articles', { data: { title: 'Needs title' } })).body.data;
      const res = await api().put(`/api/articles/${en.documentId}?locale=fr`, { data: { body: 'no title' } });
      assert.equal(res.status, 400);
    });

    it('non-localized attributes are shared by all locales', async () => {
      const en = (await api().post('/api/articles', { data: { title: 'Shared', views: 1 } })).body.data;
      await api().put(`/api/articles/${en.documentId}?locale=fr`, { data: { title: 'Partagé' } });
      await api().put(`/api/articles/${en.documentId}?locale=fr`, { data: { views: 99, featured: true } });
      const enRead = (await api().get(`/api/articles/${en.documentId}`)).body.data;
      assert.equal(enRead.views, 99);
      assert.equal(enRead.featured, true);
      assert.equal(enRead.title, 'Shared', 'localized attributes stay per locale');
    });

    it('non-localized media are shared too: copied to a new locale, synced on write', async () => {
      const files = [await insertFile(server, 'shared-a.png'), await insertFile(server, 'shared-b.png')];
      const en = (await api().post('/api/articles', { data: { title: 'Media', cover: files[0] } })).body.data;
      const fr = await api().put(`/api/articles/${en.documentId}?locale=fr&populate=cover`, {
        data: { title: 'Média' },
      });
      assert.equal(fr.body.data.cover.name, 'shared-a.png', 'copied to the new locale');
      await api().put(`/api/articles/${en.documentId}?locale=fr`, {
        data: { cover: files[1], gallery: [files[1], files[0]] },
      });
      const enRead = (await api().get(`/api/articles/${en.documentId}?populate=cover,gallery`)).body.data;
      assert.equal(enRead.cover.name, 'shared-b.png');
      assert.deepEqual(
        enRead.gallery.map((f: any) => f.name),
        ['shared-b.png', 'shared-a.png'],
      );
    });

    it('an unknown locale is a 400', async () => {
      for (const res of [
        await api().get('/api/articles?locale=xx'),
        await api().post('/api/articles?locale=xx', { data: { title: 'x' } }),
      ]) {
        assert.equal(res.status, 400);
        assert.equal(res.body.error.name, 'ValidationError');
      }
    });

    it('populate=localizations lists the document in its other locales', async () => {
      const en = (await api().post('/api/articles', { data: { title: 'Dog' } })).body.data;
      await api().put(`/api/articles/${en.documentId}?locale=fr`, { data: { title: 'Chien' } });
      const res = await api().get(`/api/articles/${en.documentId}?populate=localizations`);
      assert.deepEqual(
        res.body.data.localizations.map((l: any) => [l.locale, l.title]),
        [['fr', 'Chien']],
      );
    });

    it('populate=localizations on pages of one locale and of several (a document twice in the page)', async () => {
      const en = (await api().post('/api/articles', { data: { title: 'Cat' } })).body.data;
      await api().put(`/api/articles/${en.documentId}?locale=fr`, { data: { title: 'Chat' } });
      const filter = `filters[documentId]=${en.documentId}&populate=localizations`;
      const pairs = (list: any[]) =>
        list.map((doc) => [doc.locale, doc.localizations.map((l: any) => [l.locale, l.title])]);
      assert.deepEqual(pairs((await api().get(`/api/articles?locale=fr&${filter}`)).body.data), [
        ['fr', [['en', 'Cat']]],
      ]);
      const both = (await api().get(`/api/articles?locale[0]=en&locale[1]=fr&sort=locale:asc&${filter}`)).body.data;
      assert.deepEqual(pairs(both), [
        ['en', [['fr', 'Chat']]],
        ['fr', [['en', 'Cat']]],
      ]);
    });

    it('locale and status combine: each locale has its own draft and published versions', async () => {
      const en = (await api().post('/api/articles', { data: { title: 'Both' } })).body.data;
      await api().put(`/api/articles/${en.documentId}?locale=fr&status=draft`, { data: { title: 'Les deux' } });
      assert.equal((await api().get(`/api/articles/${en.documentId}?locale=fr`)).status, 404, 'fr is not published');
      assert.equal(
        (await api().get(`/api/articles/${en.documentId}?locale=fr&status=draft`)).body.data.title,
        'Les deux',
      );
      await api().post(`/api/articles/${en.documentId}/actions/publish?locale=fr`);
      assert.equal((await api().get(`/api/articles/${en.documentId}?locale=fr`)).body.data.title, 'Les deux');
      assert.equal((await api().delete(`/api/articles/${en.documentId}?locale=fr`)).status, 204);
      assert.equal((await api().get(`/api/articles/${en.documentId}?locale=fr&status=draft`)).status, 404);
      assert.equal(
        (await api().get(`/api/articles/${en.documentId}`)).body.data.title,
        'Both',
        'deleting one locale keeps the others',
      );
    });

    it('types without i18n have no locale key', async () => {
      const tag = (await api().post('/api/tags', { data: { name: 'no locale' } })).body.data;
      assert.equal('locale' in tag, false);
    });
  });
}
