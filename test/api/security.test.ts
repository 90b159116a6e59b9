/**
 * Security headers and CORS as Strapi's default middlewares set them, configurable in
 * `config/middlewares`; body size limits; upload actions are permissions like any other.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';

describe('security headers and CORS', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer(DIALECTS[0]!);
  });
  after(() => server?.close());

  it('answers carry the security headers', async () => {
    const res = await server.publicApi.get('/api/articles');
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(res.headers.get('x-frame-options'), 'SAMEORIGIN');
    assert.match(res.headers.get('content-security-policy') ?? '', /default-src 'self'/);
    assert.match(res.headers.get('strict-transport-security') ?? '', /max-age=31536000/);
    assert.equal(res.headers.get('x-powered-by'), null);
  });

  it('CORS allows any origin by default, with the Authorization header', async () => {
    const preflight = await server.publicApi.request('OPTIONS', '/api/articles', {
      headers: {
        origin: 'https://app.example.com',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      },
    });
    assert.equal(preflight.status, 204);
    // As Strapi's strapi::cors (credentials on): the allowed origin is answered as itself.
    assert.equal(preflight.headers.get('access-control-allow-origin'), 'https://app.example.com');
    assert.match(preflight.headers.get('access-control-allow-headers') ?? '', /authorization/i);
  });

  it('bodies over the limit are 413 PayloadTooLargeError', async () => {
    const res = await server.api.post('/api/tags', { data: { name: 'x'.repeat(2 * 1024 * 1024) } });
    assert.equal(res.status, 413);
    assert.equal(res.body.error.name, 'PayloadTooLargeError');
  });
});

describe('CORS origins from config/middlewares', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer(DIALECTS[0]!, {
      config: {
        middlewares: [
          'strapi::security',
          { name: 'strapi::cors', config: { origin: ['https://site.example'] } },
        ] as never,
      },
    });
  });
  after(() => server?.close());

  it('only the configured origins are allowed', async () => {
    const allowed = await server.publicApi.get('/api/articles', { headers: { origin: 'https://site.example' } });
    assert.equal(allowed.headers.get('access-control-allow-origin'), 'https://site.example');
    const other = await server.publicApi.get('/api/articles', { headers: { origin: 'https://evil.example' } });
    assert.equal(other.headers.get('access-control-allow-origin'), null);
  });
});

for (const dialect of DIALECTS) {
  describe(`upload permissions [${dialect}]`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect);
    });
    after(() => server?.close());

    const upload = (headers: Record<string, string>) => {
      const form = new FormData();
      form.append('files', new Blob(['hello'], { type: 'text/plain' }), 'hello.txt');
      return fetch(`${server.url}/api/upload`, { method: 'POST', body: form, headers });
    };

    it("Public may list files but not upload; the example's editors may upload", async () => {
      assert.equal((await upload({})).status, 403);
      assert.equal((await server.publicApi.get('/api/upload/files')).status, 200);
      await server.vellum.auth.users.create({
        username: 'uploader',
        email: 'up@example.com',
        password: 'secret123',
        role: 'editor',
      });
      const jwt = (await server.publicApi.post('/api/auth/local', { identifier: 'uploader', password: 'secret123' }))
        .body.jwt;
      const res = await upload({ authorization: `Bearer ${jwt}` });
      assert.equal(res.status, 201);
      const [file] = (await res.json()) as { id: number }[];
      assert.equal((await server.publicApi.delete(`/api/upload/files/${file!.id}`)).status, 403);
      assert.equal(
        (
          await server.publicApi.delete(`/api/upload/files/${file!.id}`, {
            headers: { authorization: `Bearer ${jwt}` },
          })
        ).status,
        200,
      );
    });
  });
}
