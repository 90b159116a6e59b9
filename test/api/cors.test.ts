/**
 * CORS as Strapi 5's `strapi::cors` (over @koa/cors) answers, from `config/middlewares`: allowed
 * origins answered as themselves with credentials, preflights answered 204 with the headers they
 * ask for (unless a list is configured), Strapi's one-year max-age, requests without Origin left alone.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer, type TestServer } from '../helpers/server.js';

const ORIGIN = 'https://app.example.com';

const preflight = (server: TestServer, path: string, headers: Record<string, string> = {}) =>
  server.publicApi.request('OPTIONS', path, {
    headers: {
      origin: ORIGIN,
      'access-control-request-method': 'PUT',
      'access-control-request-headers': 'authorization,content-type,x-trace-id',
      ...headers,
    },
  });

/** A server whose `config/middlewares` configures strapi::cors with `config`. */
const withCors = (config?: Record<string, unknown>) =>
  startServer('sqlite', {
    config: { middlewares: ['strapi::security', config ? { name: 'strapi::cors', config } : 'strapi::cors'] as never },
  });

describe('CORS by default (strapi::cors without options)', () => {
  let server: TestServer;
  before(async () => {
    server = await withCors();
  });
  after(() => server?.close());

  it("a preflight is answered 204: the origin, credentials, one-year max-age, Strapi's methods, the headers it asks for", async () => {
    const res = await preflight(server, '/api/articles');
    assert.equal(res.status, 204);
    assert.equal(res.headers.get('access-control-allow-origin'), ORIGIN);
    assert.equal(res.headers.get('access-control-allow-credentials'), 'true');
    assert.equal(res.headers.get('access-control-max-age'), '31536000');
    assert.equal(res.headers.get('access-control-allow-methods'), 'GET,POST,PUT,PATCH,DELETE,HEAD,OPTIONS');
    assert.equal(res.headers.get('access-control-allow-headers'), 'authorization,content-type,x-trace-id');
    assert.match(res.headers.get('vary') ?? '', /Origin/);
    const none = await server.publicApi.request('OPTIONS', '/api/articles', {
      headers: { origin: ORIGIN, 'access-control-request-method': 'GET' },
    });
    assert.equal(none.status, 204);
    assert.equal(none.headers.get('access-control-allow-headers'), null);
  });

  it('answers to an allowed origin carry it, with credentials, errors included', async () => {
    const ok = await server.publicApi.get('/api/articles', { headers: { origin: ORIGIN } });
    assert.equal(ok.status, 200);
    assert.equal(ok.headers.get('access-control-allow-origin'), ORIGIN);
    assert.equal(ok.headers.get('access-control-allow-credentials'), 'true');
    const denied = await server.publicApi.post('/api/articles', { data: {} }, { headers: { origin: ORIGIN } });
    assert.equal(denied.status, 403);
    assert.equal(denied.headers.get('access-control-allow-origin'), ORIGIN);
  });

  it("a request without Origin gets no CORS header; OPTIONS /_health is the health route's 204", async () => {
    const plain = await server.publicApi.get('/api/articles');
    assert.equal(plain.headers.get('access-control-allow-origin'), null);
    const health = await server.publicApi.request('OPTIONS', '/_health');
    assert.equal(health.status, 204);
    const probe = await server.publicApi.request('OPTIONS', '/_health', { headers: { origin: ORIGIN } });
    assert.equal(probe.status, 204, 'an OPTIONS that is no preflight goes to the route');
  });
});

describe('CORS from config/middlewares', () => {
  let server: TestServer;
  before(async () => {
    server = await withCors({
      origin: ['https://site.example'],
      headers: ['Content-Type', 'Authorization'],
      expose: ['X-Total'],
      maxAge: 600,
      credentials: false,
      methods: 'GET,POST',
    });
  });
  after(() => server?.close());

  it('configured headers, methods, max-age and credentials are answered as configured', async () => {
    const res = await preflight(server, '/api/articles', { origin: 'https://site.example' });
    assert.equal(res.status, 204);
    assert.equal(res.headers.get('access-control-allow-origin'), 'https://site.example');
    assert.equal(res.headers.get('access-control-allow-headers'), 'Content-Type,Authorization');
    assert.equal(res.headers.get('access-control-allow-methods'), 'GET,POST');
    assert.equal(res.headers.get('access-control-max-age'), '600');
    assert.equal(res.headers.get('access-control-allow-credentials'), null);
    const get = await server.publicApi.get('/api/articles', { headers: { origin: 'https://site.example' } });
    assert.equal(get.headers.get('access-control-expose-headers'), 'X-Total');
  });

  it('another origin gets no CORS header, preflight or not', async () => {
    const res = await preflight(server, '/api/articles', { origin: 'https://evil.example' });
    assert.notEqual(res.status, 204);
    assert.equal(res.headers.get('access-control-allow-origin'), null);
    assert.equal(res.headers.get('access-control-allow-headers'), null);
    const get = await server.publicApi.get('/api/articles', { headers: { origin: 'https://evil.example' } });
    assert.equal(get.headers.get('access-control-allow-origin'), null);
  });
});

describe('CORS options Strapi accepts', () => {
  it('maxAge 0 sends no max-age (never "undefined"); a function decides the origin per request', async () => {
    const server = await withCors({
      maxAge: 0,
      origin: (ctx: { get(name: string): string }) =>
        ctx.get('Origin').endsWith('.example.com') ? [ctx.get('Origin')] : [],
    });
    try {
      const res = await preflight(server, '/graphql');
      assert.equal(res.status, 204);
      assert.equal(res.headers.get('access-control-max-age'), null);
      assert.equal(res.headers.get('access-control-allow-origin'), ORIGIN);
      const other = await preflight(server, '/graphql', { origin: 'https://example.org' });
      assert.equal(other.headers.get('access-control-allow-origin'), null);
    } finally {
      await server.close();
    }
  });

  it('an option of the wrong type stops start-up, naming it', async () => {
    await assert.rejects(withCors({ maxAge: 'forever' }), /config\/middlewares: strapi::cors config\.maxAge/);
  });
});
