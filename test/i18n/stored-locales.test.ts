/**
 * Locales are a stored list (i18n_locale, the default in Strapi's core store): the configured ones
 * to start with, others added and removed at run time through the admin API, and a locale added on
 * one node is usable on another at once (no restart).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';
import { unique } from '../helpers/unique.js';

for (const dialect of DIALECTS) {
  describe(`stored locales [${dialect}]`, () => {
    let server: TestServer;
    let other: TestServer;
    let admin: Record<string, string>;
    before(async () => {
      server = await startServer(dialect);
      other = await startServer(dialect, { nodeOf: server });
      const email = `${unique('admin')}@example.test`;
      await server.vellum.auth.admins.create(email, 'Admin-Passw0rd!');
      const login = await server.publicApi.post('/admin/login', { email, password: 'Admin-Passw0rd!' });
      admin = { authorization: `Bearer ${login.body.data.token}` };
    });
    after(async () => {
      await other?.close();
      await server?.close();
    });

    it('a locale added through the admin API on one node is listed and usable on the other, without restart', async () => {
      const code = 'pt-BR';
      assert.equal((await other.api.get(`/api/articles?locale=${code}`)).status, 400, 'unknown before');
      const created = await server.publicApi.post(
        '/admin/locales',
        { code, name: 'Portuguese (Brazil)' },
        { headers: admin },
      );
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assert.equal(created.body.data.code, code);
      const listed = (await other.publicApi.get('/api/i18n/locales')).body as {
        code: string;
        name: string;
        isDefault: boolean;
      }[];
      assert.deepEqual(
        listed.find((l) => l.code === code),
        { ...listed.find((l) => l.code === code), name: 'Portuguese (Brazil)', isDefault: false },
      );
      const title = unique('Olá');
      const doc = await other.api.post(`/api/articles?locale=${code}`, { data: { title } });
      assert.equal(doc.status, 201, JSON.stringify(doc.body));
      assert.equal(doc.body.data.locale, code);
      assert.equal(
        (await server.api.get(`/api/articles/${doc.body.data.documentId}?locale=${code}`)).body.data.title,
        title,
      );
    });

    it('the default locale changes at run time; the configured locales and the default cannot be removed', async () => {
      const code = 'nl';
      await server.publicApi.post('/admin/locales', { code }, { headers: admin });
      const removedDefault = await server.publicApi.delete('/admin/locales/en', { headers: admin });
      assert.equal(removedDefault.status, 400);
      const removedConfigured = await server.publicApi.delete('/admin/locales/fr', { headers: admin });
      assert.equal(removedConfigured.status, 400);
      assert.match(removedConfigured.body.error.message, /config\/plugins/);
      const removed = await server.publicApi.delete(`/admin/locales/${code}`, { headers: admin });
      assert.equal(removed.status, 200);
      assert.equal((await server.api.get(`/api/articles?locale=${code}`)).status, 400, 'gone');
    });

    it('the admin locale routes need an administrator', async () => {
      assert.equal((await server.publicApi.post('/admin/locales', { code: 'it' })).status, 401);
      assert.equal(
        (await server.api.post('/admin/locales', { code: 'it' })).status,
        401,
        'a content API token is no administrator',
      );
      assert.equal(
        (await server.publicApi.post('/admin/locales', { code: 'not a code' }, { headers: admin })).status,
        400,
      );
    });
  });
}
