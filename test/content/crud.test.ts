import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';
import { unique } from '../helpers/unique.js';

for (const dialect of DIALECTS) {
  describe(`REST CRUD, docs/rest.md "Routes" [${dialect}]`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect);
    });
    after(() => server?.close());

    it('POST creates a document and answers 201 with the document and an empty meta', async () => {
      const res = await server.api.post('/api/articles', { data: { title: 'Hello', views: 3 } });
      assert.equal(res.status, 201);
      assert.deepEqual(res.body.meta, {});
      const doc = res.body.data;
      assert.equal(typeof doc.id, 'number');
      assert.match(doc.documentId, /^[a-z0-9]{24}$/);
      assert.equal(doc.title, 'Hello');
      assert.equal(doc.slug, 'hello');
      assert.equal(doc.views, 3);
      assert.equal(doc.featured, false, 'default applied');
      assert.equal(doc.locale, 'en');
      for (const key of ['createdAt', 'updatedAt', 'publishedAt']) assert.ok(!Number.isNaN(Date.parse(doc[key])), key);
      assert.equal(doc.author, undefined, 'relations are not returned unless populated');
      assert.equal(doc.seo, undefined, 'components are not returned unless populated');
    });

    it('documentIds are random, URL-safe and 24 characters long', async () => {
      const ids = new Set<string>();
      for (let i = 0; i < 5; i++) {
        const res = await server.api.post('/api/tags', { data: { name: `tag ${i}` } });
        assert.equal(res.status, 201);
        assert.match(res.body.data.documentId, /^[A-Za-z0-9_-]{24}$/);
        ids.add(res.body.data.documentId);
      }
      assert.equal(ids.size, 5);
    });

    it('GET /:documentId returns the document; GET lists it with the default page', async () => {
      const name = unique('Ann');
      const created = (await server.api.post('/api/authors', { data: { name, email: `${name}@example.com` } })).body
        .data;
      const one = await server.api.get(`/api/authors/${created.documentId}`);
      assert.equal(one.status, 200);
      assert.deepEqual(one.body, { data: created, meta: {} });

      const list = await server.api.get(`/api/authors?filters[name][$eq]=${name}`);
      assert.equal(list.status, 200);
      assert.deepEqual(list.body.meta, { pagination: { page: 1, pageSize: 25, pageCount: 1, total: 1 } });
      assert.deepEqual(list.body.data, [created]);
    });

    it('lists return at most the default page size, in a stable order', async () => {
      const prefix = unique('category');
      for (let i = 0; i < 30; i++)
        await server.api.post('/api/categories', { data: { name: `${prefix} ${String(i).padStart(2, '0')}` } });
      const list = await server.api.get(`/api/categories?filters[name][$startsWith]=${prefix}`);
      assert.equal(list.body.data.length, 25);
      assert.deepEqual(list.body.meta.pagination, { page: 1, pageSize: 25, pageCount: 2, total: 30 });
      const again = await server.api.get(`/api/categories?filters[name][$startsWith]=${prefix}`);
      assert.deepEqual(
        again.body.data.map((d: any) => d.id),
        list.body.data.map((d: any) => d.id),
      );
    });

    it('PUT updates partially, null clears, and answers the document', async () => {
      const created = (
        await server.api.post('/api/authors', { data: { name: 'Bob', bio: 'Writes', email: 'bob@example.com' } })
      ).body.data;
      const res = await server.api.put(`/api/authors/${created.documentId}`, { data: { name: 'Robert', bio: null } });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body.meta, {});
      assert.equal(res.body.data.documentId, created.documentId);
      assert.equal(res.body.data.name, 'Robert');
      assert.equal(res.body.data.bio, null);
      assert.equal(res.body.data.email, 'bob@example.com', 'attributes not sent are left unchanged');
      assert.equal(res.body.data.createdAt, created.createdAt);
      const read = await server.api.get(`/api/authors/${created.documentId}`);
      assert.deepEqual(read.body.data, res.body.data);
    });

    it('DELETE answers 204 with no body, and the document is gone', async () => {
      const created = (await server.api.post('/api/tags', { data: { name: 'ephemeral' } })).body.data;
      const res = await server.api.delete(`/api/tags/${created.documentId}`);
      assert.equal(res.status, 204);
      assert.equal(res.text, '');
      assert.equal((await server.api.get(`/api/tags/${created.documentId}`)).status, 404);
    });

    it('an unknown documentId is 404 NotFoundError on GET, PUT and DELETE', async () => {
      for (const res of [
        await server.api.get('/api/articles/doesnotexist000000000000'),
        await server.api.put('/api/articles/doesnotexist000000000000', { data: { title: 'x' } }),
        await server.api.delete('/api/articles/doesnotexist000000000000'),
      ]) {
        assert.equal(res.status, 404);
        assert.equal(res.body.data, null);
        assert.equal(res.body.error.status, 404);
        assert.equal(res.body.error.name, 'NotFoundError');
        assert.equal(typeof res.body.error.message, 'string');
        assert.deepEqual(typeof res.body.error.details, 'object');
      }
    });

    it('an unknown content-type is 404', async () => {
      const res = await server.api.get('/api/unicorns');
      assert.equal(res.status, 404);
      assert.equal(res.body.error.name, 'NotFoundError');
    });

    it('the media library type is not served by the content API', async () => {
      assert.equal((await server.api.get('/api/files')).status, 404);
    });

    it('single types: GET is 404 before content exists; PUT creates then updates; DELETE removes', async () => {
      assert.equal((await server.api.get('/api/global')).status, 404);
      const created = await server.api.put('/api/global', { data: { siteName: 'Vellum', siteDescription: 'Fast' } });
      assert.equal(created.status, 200);
      assert.equal(created.body.data.siteName, 'Vellum');
      const updated = await server.api.put('/api/global', { data: { siteName: 'Vellum 2' } });
      assert.equal(updated.body.data.documentId, created.body.data.documentId);
      assert.equal(updated.body.data.siteDescription, 'Fast');
      const read = await server.api.get('/api/global');
      assert.deepEqual(read.body, { data: updated.body.data, meta: {} });
      assert.equal((await server.api.delete('/api/global')).status, 204);
      assert.equal((await server.api.get('/api/global')).status, 404);
      assert.equal((await server.api.delete('/api/global')).status, 404);
    });

    it('single types have no collection routes', async () => {
      assert.equal((await server.api.get('/api/globals')).status, 404);
    });

    it('components and dynamic zones are stored and returned when populated', async () => {
      const res = await server.api.post('/api/articles?populate=*', {
        data: {
          title: 'With parts',
          seo: { metaTitle: 'Meta', metaDescription: 'Desc' },
          links: [
            { label: 'one', url: 'https://one' },
            { label: 'two', url: 'https://two' },
          ],
          blocks: [
            { __component: 'shared.quote', title: 'Q', body: 'B' },
            { __component: 'shared.rich-text', body: '# Hi' },
          ],
        },
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      const doc = res.body.data;
      assert.deepEqual({ ...doc.seo, id: 0 }, { id: 0, metaTitle: 'Meta', metaDescription: 'Desc' });
      assert.deepEqual(
        doc.links.map((l: any) => l.label),
        ['one', 'two'],
      );
      assert.deepEqual(
        doc.blocks.map((b: any) => b.__component),
        ['shared.quote', 'shared.rich-text'],
      );
      assert.equal(doc.blocks[1].body, '# Hi');
      assert.equal(typeof doc.blocks[0].id, 'number');
    });
  });
}
