/**
 * DELETE on a localized type removes what Strapi 5.54 removes (observed on the real server): the
 * default locale's versions when no locale is named, the named locale's with `locale`, every
 * locale with `locale=*`; never more. Types without i18n ignore `locale`.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { graphql } from '../helpers/graphql.js';
import { DIALECTS, fixture, startServer, type TestServer } from '../helpers/server.js';

for (const dialect of DIALECTS) {
  describe(`DELETE and locales, as Strapi 5 [${dialect}]`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect, { project: fixture('relation-matrix') });
    });
    after(() => server?.close());

    const unique = (label: string) => `${label}-${randomUUID().slice(0, 8)}`;
    /** A page in en and fr, each published (draft and published versions). */
    const bilingual = async (plural = 'pages', field = 'title') => {
      const en = await server.api.post(`/api/${plural}`, { data: { [field]: unique('en') } });
      assert.equal(en.status, 201, JSON.stringify(en.body));
      const id = en.body.data.documentId as string;
      assert.equal(
        (await server.api.put(`/api/${plural}/${id}?locale=fr`, { data: { [field]: unique('fr') } })).status,
        200,
      );
      return id;
    };
    /** Which versions exist: `en`/`fr` published, `en draft`/`fr draft`. */
    const versions = async (id: string, plural = 'pages') => {
      const found: string[] = [];
      for (const locale of ['en', 'fr']) {
        for (const status of ['', 'draft']) {
          const res = await server.api.get(`/api/${plural}/${id}?locale=${locale}${status ? `&status=${status}` : ''}`);
          if (res.status === 200) found.push(status ? `${locale} draft` : locale);
        }
      }
      return found;
    };

    it('without a locale, only the default locale is deleted (draft and published)', async () => {
      const id = await bilingual();
      assert.equal((await server.api.delete(`/api/pages/${id}`)).status, 204);
      assert.deepEqual(await versions(id), ['fr', 'fr draft']);
    });

    it('without a locale, a document with no default-locale version is a 404 and keeps its locales', async () => {
      const fr = await server.api.post('/api/pages?locale=fr', { data: { title: unique('fr') } });
      const id = fr.body.data.documentId;
      const res = await server.api.delete(`/api/pages/${id}`);
      assert.equal(res.status, 404);
      assert.equal(res.body.error.name, 'NotFoundError');
      assert.deepEqual(await versions(id), ['fr', 'fr draft']);
    });

    it('locale=fr deletes fr only; locale=* deletes every locale', async () => {
      const id = await bilingual();
      assert.equal((await server.api.delete(`/api/pages/${id}?locale=fr`)).status, 204);
      assert.deepEqual(await versions(id), ['en', 'en draft']);
      const other = await bilingual();
      assert.equal((await server.api.delete(`/api/pages/${other}?locale=*`)).status, 204);
      assert.deepEqual(await versions(other), []);
    });

    it('status=draft is a 400 and deletes nothing; status=published deletes the locale as without status', async () => {
      const id = await bilingual();
      const res = await server.api.delete(`/api/pages/${id}?status=draft`);
      assert.equal(res.status, 400);
      assert.equal(res.body.error.name, 'ValidationError');
      assert.deepEqual(await versions(id), ['en', 'en draft', 'fr', 'fr draft']);
      assert.equal((await server.api.delete(`/api/pages/${id}?status=published`)).status, 204);
      assert.deepEqual(await versions(id), ['fr', 'fr draft']);
    });

    it('an unknown locale is a 400 and deletes nothing', async () => {
      const id = await bilingual();
      const res = await server.api.delete(`/api/pages/${id}?locale=xx`);
      assert.equal(res.status, 400);
      assert.equal(res.body.error.name, 'ValidationError');
      assert.deepEqual(await versions(id), ['en', 'en draft', 'fr', 'fr draft']);
    });

    it('a localized type without draft and publish: the default locale only', async () => {
      const id = await bilingual('labels', 'name');
      assert.equal((await server.api.delete(`/api/labels/${id}`)).status, 204);
      assert.deepEqual(await versions(id, 'labels'), ['fr', 'fr draft']);
    });

    it('relations to the deleted locale go; relations to the other locales stay', async () => {
      const label = await bilingual('labels', 'name');
      const owner = await server.api.post('/api/owners', {
        data: {
          name: unique('owner'),
          labels: [
            { documentId: label, locale: 'en' },
            { documentId: label, locale: 'fr' },
          ],
        },
      });
      const ownerId = owner.body.data.documentId;
      const linked = async () =>
        (await server.api.get(`/api/owners/${ownerId}?populate=labels`)).body.data.labels.map((l: any) => l.locale);
      assert.deepEqual(await linked(), ['en', 'fr']);
      await server.api.delete(`/api/labels/${label}`);
      assert.deepEqual(await linked(), ['fr']);
    });

    it('a type without i18n ignores locale', async () => {
      const target = await server.api.post('/api/targets', { data: { name: unique('t') } });
      const id = target.body.data.documentId;
      assert.equal((await server.api.delete(`/api/targets/${id}?locale=fr`)).status, 204);
      assert.equal((await server.api.get(`/api/targets/${id}`)).status, 404);
      assert.equal((await server.api.get(`/api/targets/${id}?status=draft`)).status, 404);
    });

    it('GraphQL delete without a locale deletes the default locale only', async () => {
      const id = await bilingual();
      const res = await graphql(server, `mutation { deletePage(id: "${id}") { data { id } } }`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.errors, undefined, JSON.stringify(res.body.errors));
      assert.deepEqual(await versions(id), ['fr', 'fr draft']);
    });

    it('the publish, unpublish and discard-draft actions without a locale act on the default locale only', async () => {
      const id = await bilingual();
      assert.equal((await server.api.post(`/api/pages/${id}/actions/unpublish`)).status, 200);
      assert.deepEqual(await versions(id), ['en draft', 'fr', 'fr draft']);
      assert.equal((await server.api.post(`/api/pages/${id}/actions/publish`)).status, 200);
      assert.deepEqual(await versions(id), ['en', 'en draft', 'fr', 'fr draft']);
      await server.api.put(`/api/pages/${id}?locale=fr&status=draft`, { data: { title: 'fr edited' } });
      await server.api.put(`/api/pages/${id}?status=draft`, { data: { title: 'en edited' } });
      assert.equal((await server.api.post(`/api/pages/${id}/actions/discard-draft`)).status, 200);
      assert.notEqual((await server.api.get(`/api/pages/${id}?status=draft`)).body.data.title, 'en edited');
      assert.equal((await server.api.get(`/api/pages/${id}?locale=fr&status=draft`)).body.data.title, 'fr edited');
    });
  });
}
