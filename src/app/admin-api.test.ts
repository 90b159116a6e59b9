import { strict as assert } from 'node:assert';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import Fastify, { type FastifyServerFactoryHandler } from 'fastify';
import { LazyAdminApi, underAdminApi } from './admin-api.js';

describe('underAdminApi', () => {
  it("takes the admin API's first segments, alone or followed by a path or a query", () => {
    for (const url of [
      '/admin',
      '/admin/',
      '/admin/init',
      '/admin?x=1',
      '/content-manager/init',
      '/content-type-builder/schema',
      '/content-releases',
      '/content-releases/1/actions',
      // The router decodes a path before it matches it.
      '/%61dmin/init',
    ])
      assert.equal(underAdminApi(url), true, url);
  });

  it('leaves every other path to the node', () => {
    for (const url of [
      '/',
      '/api/articles',
      '/administrator',
      '/admins/x',
      '/api/content-type-builder/content-types',
      '/uploads/a.png',
      '/graphql',
      '/_health',
      '//admin/init',
      'admin/init',
      '/%E0%A4%A/x',
      '/admin%2Finit',
    ])
      assert.equal(underAdminApi(url), false, url);
  });
});

describe('LazyAdminApi', () => {
  const servers: Server[] = [];
  after(() => Promise.all(servers.map((server) => new Promise((done) => server.close(done)))));

  /** A node whose main handler answers "main", and whose admin instance is built on first use. */
  async function node(build: () => Promise<void> = async () => undefined) {
    let builds = 0;
    const lazy = new LazyAdminApi(async () => {
      builds++;
      await build();
      let handler: FastifyServerFactoryHandler | undefined;
      const admin = Fastify({
        serverFactory: (h) => {
          handler = h;
          return createServer();
        },
      });
      admin.get('/admin/init', async () => ({ data: { built: builds } }));
      await admin.ready();
      return { app: admin, handler: handler! };
    });
    const server = createServer(lazy.dispatch((_request, response) => response.end('main')));
    servers.push(server);
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const port = (server.address() as AddressInfo).port;
    const get = (path: string) =>
      new Promise<{ status: number; body: string }>((done, fail) => {
        httpRequest({ host: '127.0.0.1', port, path, agent: false }, (response) => {
          let body = '';
          response.on('data', (chunk: Buffer) => (body += chunk));
          response.on('end', () => done({ status: response.statusCode!, body }));
        })
          .on('error', fail)
          .end();
      });
    return { lazy, get, builds: () => builds };
  }

  it('builds the admin instance once, for requests that arrive together', async () => {
    const { lazy, get, builds } = await node(() => new Promise((done) => setTimeout(done, 50)));
    assert.equal(lazy.loaded, false);
    assert.equal((await get('/api/articles')).body, 'main');
    assert.equal(builds(), 0, 'a request outside the admin API builds nothing');
    const answers = await Promise.all(Array.from({ length: 8 }, () => get('/admin/init')));
    assert.equal(builds(), 1);
    for (const answer of answers) assert.deepEqual(answer, { status: 200, body: '{"data":{"built":1}}' });
    assert.equal((await get('/admin/missing')).status, 404);
    assert.equal(builds(), 1);
    await lazy.close();
  });

  it('answers a 500 when the build fails, and builds again on the next request', async () => {
    let fail = true;
    const { lazy, get, builds } = await node(async () => {
      if (fail) throw new Error('no admin today');
    });
    const failed = await get('/admin/init');
    assert.equal(failed.status, 500);
    assert.equal(JSON.parse(failed.body).error.status, 500);
    fail = false;
    assert.equal((await get('/admin/init')).status, 200);
    assert.equal(builds(), 2);
    await lazy.close();
  });
});
