/**
 * A TypeScript project's own code, as Strapi's TypeScript templates write it
 * (test/fixtures/strapi-project-code-ts): `export default` everywhere, `import { factories } from
 * '@strapi/strapi'`, `import { errors } from '@strapi/utils'` also from a helper another
 * TypeScript file imports, a route middleware changing the answer after the controller, a policy
 * named within its API, and `src/index.ts` seeding in bootstrap.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, fixture, startServer, type TestServer } from '../helpers/server.js';

const PROJECT = fixture('strapi-project-code-ts');
const unique = (label: string) => `${label}-${randomUUID().slice(0, 8)}`;

for (const dialect of DIALECTS) {
  describe(`a TypeScript project's own code [${dialect}]`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect, { project: PROJECT });
    });
    after(() => server?.close());

    const manager = { headers: { 'x-role': 'manager' } };

    it('runs its files with no warning, and bootstrap seeded a published product', async () => {
      assert.deepEqual(server.vellum.warnings, []);
      const seeded = await server.api.get('/api/products?filters[name][$eq]=Seeded product');
      assert.equal(seeded.body.data.length, 1, seeded.text);
      assert.equal(seeded.body.data[0].price, 1000);
    });

    it('__dirname, require of TypeScript and require.resolve are what they are after strapi build', () => {
      const dist = (...parts: string[]) => join(PROJECT, 'dist', ...parts);
      const imported = {
        dirname: dist('src', 'utils'),
        filename: dist('src', 'utils', 'paths.js'),
        money: dist('src', 'utils', 'money.js'),
        data: join(PROJECT, 'src', 'utils', 'data.json'),
      };
      assert.deepEqual((globalThis as Record<string, unknown>).__tsProjectPaths, {
        index: { dirname: dist('src'), filename: dist('src', 'index.js') },
        // What src/index.ts imports sees dist too, and so does what a config file imports.
        imported,
        config: imported,
        discounted: 900,
        data: 'hello from data.json',
      });
    });

    it('a policy named within its API guards create', async () => {
      const name = unique('product');
      const refused = await server.api.post('/api/products', { data: { name, price: 5 } });
      assert.equal(refused.status, 403);
      assert.equal(refused.body.error.name, 'PolicyError');
      const created = await server.api.post('/api/products', { data: { name, price: 5 } }, manager);
      assert.equal(created.status, 201, created.text);
    });

    it('super.findOne(ctx) in an override, then a route middleware changing the answer', async () => {
      const created = await server.api.post(
        '/api/products',
        { data: { name: unique('product'), price: 12.5 } },
        manager,
      );
      const read = await server.api.get(`/api/products/${created.body.data.documentId}`);
      assert.equal(read.status, 200, read.text);
      assert.equal(read.body.data.priceTag, '12.5 EUR');
      assert.deepEqual(read.body.meta, { currency: 'EUR' });
      assert.equal((await server.api.get('/api/products/nope')).status, 404);
    });

    it('a custom action with auth: false and a custom service method through strapi.documents', async () => {
      await server.api.post('/api/products', { data: { name: unique('cheap'), price: 0.5 } }, manager);
      const cheapest = await server.publicApi.get('/api/products/cheapest');
      assert.equal(cheapest.status, 200, cheapest.text);
      assert.ok(cheapest.body.data.price <= 0.5);
    });

    it("@strapi/utils errors thrown from a TypeScript helper answer as Strapi's", async () => {
      const priced = await server.api.post('/api/products', { data: { name: unique('priced'), price: 20 } }, manager);
      const discounted = await server.api.get(`/api/products/${priced.body.data.documentId}/discounted`);
      assert.deepEqual(discounted.body, { data: { documentId: priced.body.data.documentId, price: 18 } });
      const free = await server.api.post('/api/products', { data: { name: unique('free') } }, manager);
      const refused = await server.api.get(`/api/products/${free.body.data.documentId}/discounted`);
      assert.equal(refused.status, 400);
      assert.deepEqual(refused.body.error, {
        status: 400,
        name: 'ValidationError',
        message: 'This product has no price',
        details: { field: 'price' },
      });
      assert.equal((await server.api.get('/api/products/nope/discounted')).status, 404);
    });

    it("ctx.ip and ctx.request.ip are the client's address: the socket's, or behind a proxy the forwarded one (server.proxy)", async () => {
      const direct = await server.publicApi.get('/api/products/client-ip', {
        headers: { 'x-forwarded-for': '203.0.113.9' },
      });
      assert.deepEqual(direct.body, { ip: '127.0.0.1', requestIp: '127.0.0.1' });
      const proxied = await startServer(dialect, {
        project: PROJECT,
        nodeOf: server,
        config: { server: { proxy: { koa: true, maxIpsCount: 1 } } },
      });
      try {
        const res = await proxied.publicApi.get('/api/products/client-ip', {
          headers: { 'x-forwarded-for': '10.0.0.1, 203.0.113.9' },
        });
        assert.deepEqual(res.body, { ip: '203.0.113.9', requestIp: '203.0.113.9' });
      } finally {
        await proxied.close();
      }
    });

    it('destroy runs on close', async () => {
      const node = await startServer(dialect, { project: PROJECT, nodeOf: server });
      await node.close();
      assert.equal((globalThis as Record<string, unknown>).__tsProjectCodeDestroyed, true);
    });
  });
}
