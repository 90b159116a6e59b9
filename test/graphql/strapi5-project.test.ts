/**
 * A Strapi 5 project (its package.json depends on `@strapi/strapi` 5, test/fixtures/strapi5-shop)
 * served unchanged: Strapi 5's flat GraphQL shape by default, as Strapi serves it, and an
 * operation's cost measured while it runs. (Issue 30, points 5 and 6.)
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, fixture, startServer, type TestServer } from '../helpers/server.js';
import { graphql, graphqlData } from '../helpers/graphql.js';
import { unique } from '../helpers/unique.js';
import { PRODUCT_PAGE, productSections } from '../helpers/strapi5-shop.js';

const PROJECT = fixture('strapi5-shop');

for (const dialect of DIALECTS) {
  describe(`a Strapi 5 project's GraphQL [${dialect}]`, () => {
    let server: TestServer;
    /** The same project with `v4CompatibilityMode: true` in its config/plugins. */
    let v4: TestServer;
    /** A node with a budget of 20 items. */
    let small: TestServer;
    const prefix = unique('shop');
    let category: string;
    const products: Record<string, string> = {};

    before(async () => {
      server = await startServer(dialect, { project: PROJECT });
      v4 = await startServer(dialect, { project: PROJECT, nodeOf: server, config: { plugins: { graphql: { config: { v4CompatibilityMode: true } } } } });
      small = await startServer(dialect, { project: PROJECT, nodeOf: server, config: { plugins: { graphql: { config: { costLimit: 20 } } } } });
      category = (await server.api.post('/api/categories', { data: { name: `${prefix} tools` } })).body.data.documentId;
      for (const [name, price] of [['hammer', 10], ['saw', 20], ['drill', 30]] as const) {
        products[name] = (await server.api.post('/api/products', { data: { name: `${prefix} ${name}`, slug: `${prefix}-${name}`, price, stock: 1, category } })).body.data.documentId;
      }
      const page = await server.api.post('/api/products', { data: { name: `${prefix} page`, slug: `${prefix}-page`, price: 5, category, sections: productSections([products.hammer!, products.saw!]) } });
      assert.equal(page.status, 201, JSON.stringify(page.body));
      products.page = page.body.data.documentId;
    });
    after(async () => {
      await small?.close();
      await v4?.close();
      await server?.close();
    });

    it('gets the flat shape by default: lists, _connection, documentId, status', async () => {
      const data = await graphqlData(server, `{
        products(filters: { name: { startsWith: "${prefix}" }, price: { gte: 20 } }, sort: "price:desc", pagination: { pageSize: 2 }) { documentId name price }
        products_connection(filters: { name: { startsWith: "${prefix}" } }, pagination: { page: 2, pageSize: 3 }) { nodes { name } pageInfo { total page pageSize pageCount } }
      }`);
      assert.deepEqual(data.products, [
        { documentId: products.drill, name: `${prefix} drill`, price: 30 },
        { documentId: products.saw, name: `${prefix} saw`, price: 20 },
      ]);
      assert.deepEqual(data.products_connection.pageInfo, { total: 4, page: 2, pageSize: 3, pageCount: 2 });
      assert.equal(data.products_connection.nodes.length, 1);
      const draft = await graphqlData(server, `mutation { createProduct(status: DRAFT, data: { name: "${prefix} draft" }) { documentId publishedAt } }`);
      assert.equal(draft.createProduct.publishedAt, null);
      const drafts = await graphqlData(server, `{ products(status: DRAFT, filters: { name: { eq: "${prefix} draft" } }) { documentId } }`);
      assert.deepEqual(drafts.products, [{ documentId: draft.createProduct.documentId }]);
      const wrapped = await graphql(server, `{ products { data { id attributes { name } } } }`);
      assert.equal(wrapped.status, 400, 'the specification shape is not served');
      assert.equal(wrapped.body.errors![0].extensions.code, 'GRAPHQL_VALIDATION_FAILED');
    });

    it('config/plugins v4CompatibilityMode: true still gives the specification shape', async () => {
      const data = await graphqlData(v4, `{ products(filters: { slug: { eq: "${prefix}-saw" } }) { data { id attributes { name } } } }`);
      assert.deepEqual(data.products.data, [{ id: products.saw, attributes: { name: `${prefix} saw` } }]);
    });

    it("answers a product page's zone of eight component kinds with nested lists", async () => {
      const response = await graphql(server, PRODUCT_PAGE, { documentId: products.page });
      assert.equal(response.status, 200, JSON.stringify(response.body.errors));
      assert.equal(response.body.errors, undefined, JSON.stringify(response.body.errors));
      const sections = response.body.data.product.sections;
      assert.deepEqual(sections.map((s: any) => s.__typename), [
        'ComponentBlocksHero', 'ComponentBlocksText', 'ComponentBlocksFeatureList', 'ComponentBlocksFaq',
        'ComponentBlocksSpecs', 'ComponentBlocksRelated', 'ComponentBlocksPricing', 'ComponentBlocksCta',
      ]);
      assert.deepEqual(sections[2].features[0].bullets, [{ text: 'b0' }, { text: 'b1' }, { text: 'b2' }]);
      assert.deepEqual(sections[5].products, [{ name: `${prefix} hammer`, category: { name: `${prefix} tools` } }, { name: `${prefix} saw`, category: { name: `${prefix} tools` } }]);
      assert.deepEqual(sections[6].plans[1].perks.length, 4);
    });

    it('counts what the operation reads while it runs: over a budget, refused then', async () => {
      // The page holds 1 product, 1 category, 8 sections and 27 nested items: over 20.
      const before = small.vellum.database.statementCount;
      const response = await graphql(small, PRODUCT_PAGE, { documentId: products.page });
      assert.equal(response.status, 200);
      assert.equal(response.body.data.product, null);
      assert.equal(response.body.errors![0].extensions.code, 'BAD_USER_INPUT');
      assert.equal(response.body.errors![0].extensions.error.name, 'CostLimitError');
      assert.deepEqual(response.body.errors![0].extensions.error.details, { limit: 20, setting: 'graphql.config.costLimit' });
      assert.ok(small.vellum.database.statementCount > before, 'refused while executing, not before');
      // A product without sections fits.
      const plain = await graphqlData(small, `query($d: ID!) { product(documentId: $d) { name sections { __typename } } }`, { d: products.saw });
      assert.deepEqual(plain.product, { name: `${prefix} saw`, sections: [] });
    });
  });
}
