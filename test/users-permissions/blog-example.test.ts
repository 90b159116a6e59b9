/**
 * The blog example is safe to expose: it listens on this machine only unless HOST says otherwise,
 * and a visitor who registers reads the site but cannot change or delete its content and files.
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { after, before, describe, it } from 'node:test';
import { createVellum } from '../../src/app/server.js';
import { createTestDatabase } from '../helpers/databases.js';
import { graphql } from '../helpers/graphql.js';
import { HttpClient } from '../helpers/http.js';
import { BLOG, DIALECTS, type TestServer } from '../helpers/server.js';
import { unique } from '../helpers/unique.js';
import { startUploadServer, upload } from '../helpers/uploads.js';

for (const dialect of DIALECTS) {
  describe(`a visitor who registers on the blog example changes nothing [${dialect}]`, () => {
    let server: TestServer;
    let visitor: HttpClient;
    let article: string;
    let tag: string;
    let file: number;
    before(async () => {
      // Uploads go to a temporary public folder.
      server = await startUploadServer(dialect);
      const name = unique('visitor');
      const registered = await server.publicApi.post('/api/auth/local/register', {
        username: name,
        email: `${name}@example.com`,
        password: 'a-visitor-password',
      });
      assert.equal(registered.status, 200, JSON.stringify(registered.body));
      visitor = new HttpClient(server.url, { authorization: `Bearer ${registered.body.jwt}` });
      article = (await server.api.post('/api/articles', { data: { title: unique('article') } })).body.data.documentId;
      tag = (await server.api.post('/api/tags', { data: { name: unique('tag') } })).body.data.documentId;
      const uploaded = await upload(server, [
        { name: 'site.txt', bytes: new TextEncoder().encode('the site file'), type: 'text/plain' },
      ]);
      assert.equal(uploaded.status, 201, JSON.stringify(uploaded.body));
      file = uploaded.body[0].id;
    });
    after(() => server?.close());

    it('reads what Public reads', async () => {
      assert.equal((await visitor.get(`/api/articles/${article}`)).status, 200);
      assert.equal((await visitor.get('/api/tags')).status, 200);
      assert.equal((await visitor.get(`/api/upload/files/${file}`)).status, 200);
    });

    it('cannot create, change or delete content: 403, and the content is as it was', async () => {
      const before = (await server.api.get(`/api/articles/${article}`)).body.data;
      const attempts = [
        await visitor.put(`/api/articles/${article}`, { data: { title: 'defaced' } }),
        await visitor.delete(`/api/articles/${article}`),
        await visitor.post('/api/articles', { data: { title: unique('spam') } }),
        await visitor.post(`/api/articles/${article}/actions/unpublish`),
        await visitor.put(`/api/tags/${tag}`, { data: { name: 'defaced' } }),
        await visitor.delete(`/api/tags/${tag}`),
        await visitor.put('/api/global', { data: { siteName: 'defaced' } }),
        await visitor.delete('/api/global'),
      ];
      assert.deepEqual(
        attempts.map((res) => res.status),
        attempts.map(() => 403),
        JSON.stringify(attempts.map((res) => res.body)),
      );
      assert.deepEqual((await server.api.get(`/api/articles/${article}`)).body.data, before);
      assert.equal((await server.api.get(`/api/tags/${tag}`)).status, 200);
      const mutation = await graphql(
        server,
        `mutation { deleteArticle(id: "${article}") { data { id } } }`,
        undefined,
        { anonymous: true, headers: visitor.defaultHeaders },
      );
      assert.equal(mutation.body.errors?.[0]?.extensions?.code, 'FORBIDDEN', JSON.stringify(mutation.body));
    });

    it('cannot upload, replace or delete files: 403, and the file stays', async () => {
      const form = new FormData();
      form.append('files', new Blob(['not mine'], { type: 'text/plain' }), 'mine.txt');
      assert.equal(
        (await fetch(`${server.url}/api/upload`, { method: 'POST', body: form, headers: visitor.defaultHeaders }))
          .status,
        403,
      );
      const info = await visitor.post(`/api/upload?id=${file}`, { fileInfo: { name: 'defaced' } });
      assert.equal(info.status, 403);
      assert.equal((await visitor.delete(`/api/upload/files/${file}`)).status, 403);
      const kept = await server.api.get(`/api/upload/files/${file}`);
      assert.equal(kept.status, 200);
      assert.equal(kept.body.name, 'site.txt');
    });
  });
}

describe('the blog example listens where the documentation says', () => {
  it('on this machine only (localhost) when HOST is not set', async () => {
    const database = await createTestDatabase('sqlite');
    const vellum = await createVellum(BLOG, {
      env: { NODE_ENV: 'test' },
      overrides: { server: { port: 0 }, database: database.config },
    });
    try {
      assert.equal(vellum.config.server.host, 'localhost');
      const url = await vellum.listen();
      const addresses = vellum.app.addresses() as AddressInfo[];
      assert.ok(addresses.length > 0);
      for (const { address } of addresses)
        assert.ok(address === '127.0.0.1' || address === '::1', `listens on ${address}`);
      assert.equal((await fetch(`${url}/_health`)).status, 204);
      // Another interface of this machine, when it has one, is refused.
      const port = addresses[0]!.port;
      const outside = Object.values(networkInterfaces())
        .flat()
        .find((i) => i && !i.internal && i.family === 'IPv4');
      if (outside)
        await assert.rejects(fetch(`http://${outside.address}:${port}/_health`, { signal: AbortSignal.timeout(5000) }));
    } finally {
      await vellum.close();
      await database.drop();
    }
  });
});
