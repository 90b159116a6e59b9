import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';

const assertEnvelope = (res: { status: number; body: any }, status: number, name: string) => {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.equal(res.body.data, null);
  assert.equal(res.body.error.status, status);
  assert.equal(res.body.error.name, name);
  assert.equal(typeof res.body.error.message, 'string');
  assert.equal(typeof res.body.error.details, 'object');
};

for (const dialect of DIALECTS) {
  describe(`errors and request handling, docs/errors.md [${dialect}]`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect, { config: { server: { bodyLimit: 64 * 1024 } } });
    });
    after(() => server?.close());

    const count = async (plural: string) =>
      (await server.api.get(`/api/${plural}?status=draft`)).body.meta.pagination.total as number;

    it('malformed JSON is a 400 SyntaxError, as Strapi names it', async () => {
      const res = await server.api.post('/api/tags', undefined, {
        rawBody: '{"data": {"name": ',
        headers: { 'content-type': 'application/json' },
      });
      assertEnvelope(res, 400, 'SyntaxError');
    });

    it('a body without data, or with a non-object data, is a 400', async () => {
      for (const body of [{}, { name: 'x' }, { data: null }, { data: 'x' }, { data: [] }, []]) {
        const res = await server.api.post('/api/tags', body);
        assertEnvelope(res, 400, 'ValidationError');
        assert.match(res.body.error.message, /data/);
      }
      assertEnvelope(await server.api.post('/api/tags'), 400, 'ValidationError');
    });

    it('an oversized body is a 413 PayloadTooLargeError', async () => {
      const res = await server.api.post('/api/tags', { data: { name: 'x'.repeat(100 * 1024) } });
      assertEnvelope(res, 413, 'PayloadTooLargeError');
    });

    it('a non-JSON body is refused with a 4xx envelope', async () => {
      const res = await server.api.post('/api/tags', undefined, {
        rawBody: 'name=x',
        headers: { 'content-type': 'text/plain' },
      });
      assert.ok(res.status >= 400 && res.status < 500);
      assert.equal(res.body.data, null);
    });

    it('Content-Type: application/json on GET and DELETE without a body is accepted', async () => {
      const created = (await server.api.post('/api/tags', { data: { name: 'sdk' } })).body.data;
      const headers = { 'content-type': 'application/json' };
      assert.equal((await server.api.get('/api/tags', { headers })).status, 200);
      assert.equal((await server.api.get(`/api/tags/${created.documentId}`, { headers })).status, 200);
      assert.equal((await server.api.delete(`/api/tags/${created.documentId}`, { headers })).status, 204);
    });

    it('query strings work fully percent-encoded and raw', async () => {
      await server.api.post('/api/tags', { data: { name: 'encoded' } });
      const encoded = await server.api.get(
        '/api/tags?filters%5Bname%5D%5B%24eq%5D=encoded&sort=name%3Adesc&populate=%2A',
      );
      const raw = await server.api.get('/api/tags?filters[name][$eq]=encoded&sort=name:desc&populate=*');
      assert.equal(encoded.status, 200, JSON.stringify(encoded.body));
      assert.deepEqual(encoded.body, raw.body);
      assert.deepEqual(
        encoded.body.data.map((t: any) => t.name),
        ['encoded'],
      );
    });

    it('a wrong type and a missing required value list every problem with its path', async () => {
      const res = await server.api.post('/api/articles', { data: { views: 'many', featured: 'yes' } });
      assertEnvelope(res, 400, 'ValidationError');
      const paths = res.body.error.details.errors.map((e: any) => e.path.join('.')).sort();
      assert.deepEqual(paths, ['featured', 'title', 'views']);
    });

    it('a failed write changes nothing (each write is one transaction)', async () => {
      const before = await count('articles');
      const res = await server.api.post('/api/articles', {
        data: { title: 'Half', seo: { metaTitle: 'm' }, tags: ['doesnotexist000000000000'] },
      });
      assertEnvelope(res, 400, 'ValidationError');
      assert.equal(await count('articles'), before);

      const created = (await server.api.post('/api/articles', { data: { title: 'Whole' } })).body.data;
      const failed = await server.api.put(`/api/articles/${created.documentId}`, {
        data: { title: 'Changed', author: 'doesnotexist000000000000' },
      });
      assertEnvelope(failed, 400, 'ValidationError');
      assert.equal((await server.api.get(`/api/articles/${created.documentId}`)).body.data.title, 'Whole');
    });

    it('SQL-looking text is stored as text', async () => {
      const name = "Robert'); DROP TABLE tags;--";
      const res = await server.api.post('/api/tags', { data: { name } });
      assert.equal(res.status, 201);
      assert.equal((await server.api.get(`/api/tags/${res.body.data.documentId}`)).body.data.name, name);
      assert.equal((await server.api.get('/api/tags')).status, 200);
    });

    it('unknown routes answer the 404 envelope', async () => {
      assertEnvelope(await server.api.get('/nothing/here'), 404, 'NotFoundError');
      // The blog has router files, so its routes are served as Strapi's router serves them: a path
      // served for other methods is a 405 with Allow, in plain text (test/differential/project-code.diff.ts).
      const patch = await server.api.request('PATCH', '/api/tags');
      assert.equal(patch.status, 405);
      assert.equal(patch.headers.get('allow'), 'HEAD, GET, POST');
    });
  });
}
