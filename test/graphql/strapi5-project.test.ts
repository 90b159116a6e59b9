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
      v4 = await startServer(dialect, {
        project: PROJECT,
        nodeOf: server,
        config: { plugins: { graphql: { config: { v4CompatibilityMode: true } } } },
      });
      small = await startServer(dialect, {
        project: PROJECT,
        nodeOf: server,
        config: { plugins: { graphql: { config: { costLimit: 20 } } } },
      });
      category = (await server.api.post('/api/categories', { data: { name: `${prefix} tools` } })).body.data.documentId;
      for (const [name, price] of [
        ['hammer', 10],
        ['saw', 20],
        ['drill', 30],
      ] as const) {
        products[name] = (
          await server.api.post('/api/products', {
            data: { name: `${prefix} ${name}`, slug: `${prefix}-${name}`, price, stock: 1, category },
          })
        ).body.data.documentId;
      }
      const page = await server.api.post('/api/products', {
        data: {
          name: `${prefix} page`,
          slug: `${prefix}-page`,
          price: 5,
          category,
          sections: productSections([products.hammer!, products.saw!]),
        },
      });
      assert.equal(page.status, 201, JSON.stringify(page.body));
      products.page = page.body.data.documentId;
    });
    after(async () => {
      await small?.close();
      await v4?.close();
      await server?.close();
    });

    it('gets the flat shape by default: lists, _connection, documentId, status', async () => {
      const data = await graphqlData(
        server,
        `{
        products(filters: { name: { startsWith: "${prefix}" }, price: { gte: 20 } }, sort: "price:desc", pagination: { pageSize: 2 }) { documentId name price }
        products_connection(filters: { name: { startsWith: "${prefix}" } }, pagination: { page: 2, pageSize: 3 }) { nodes { name } pageInfo { total page pageSize pageCount } }
      }`,
      );
      assert.deepEqual(data.products, [
        { documentId: products.drill, name: `${prefix} drill`, price: 30 },
        { documentId: products.saw, name: `${prefix} saw`, price: 20 },
      ]);
      assert.deepEqual(data.products_connection.pageInfo, { total: 4, page: 2, pageSize: 3, pageCount: 2 });
      assert.equal(data.products_connection.nodes.length, 1);
      const draft = await graphqlData(
        server,
        `mutation { createProduct(status: DRAFT, data: { name: "${prefix} draft" }) { documentId publishedAt } }`,
      );
      assert.equal(draft.createProduct.publishedAt, null);
      const drafts = await graphqlData(
        server,
        `{ products(status: DRAFT, filters: { name: { eq: "${prefix} draft" } }) { documentId } }`,
      );
      assert.deepEqual(drafts.products, [{ documentId: draft.createProduct.documentId }]);
      const wrapped = await graphql(
        server,
        `
          {
            products {
              data {
                id
                attributes {
                  name
                }
              }
            }
          }
        `,
      );
      assert.equal(wrapped.status, 400, 'the earlier shape is not served');
      assert.equal(wrapped.body.errors![0].extensions.code, 'GRAPHQL_VALIDATION_FAILED');
    });

    it('config/plugins v4CompatibilityMode: true still gives the earlier shape', async () => {
      const data = await graphqlData(
        v4,
        `{ products(filters: { slug: { eq: "${prefix}-saw" } }) { data { id attributes { name } } } }`,
      );
      assert.deepEqual(data.products.data, [{ id: products.saw, attributes: { name: `${prefix} saw` } }]);
    });

    it("answers a product page's zone of eight component kinds with nested lists", async () => {
      const response = await graphql(server, PRODUCT_PAGE, { documentId: products.page });
      assert.equal(response.status, 200, JSON.stringify(response.body.errors));
      assert.equal(response.body.errors, undefined, JSON.stringify(response.body.errors));
      const sections = response.body.data.product.sections;
      assert.deepEqual(
        sections.map((s: any) => s.__typename),
        [
          'ComponentBlocksHero',
          'ComponentBlocksText',
          'ComponentBlocksFeatureList',
          'ComponentBlocksFaq',
          'ComponentBlocksSpecs',
          'ComponentBlocksRelated',
          'ComponentBlocksPricing',
          'ComponentBlocksCta',
        ],
      );
      assert.deepEqual(sections[2].features[0].bullets, [{ text: 'b0' }, { text: 'b1' }, { text: 'b2' }]);
      assert.deepEqual(sections[5].products, [
        { name: `${prefix} hammer`, category: { name: `${prefix} tools` } },
        { name: `${prefix} saw`, category: { name: `${prefix} tools` } },
      ]);
      assert.deepEqual(sections[6].plans[1].perks.length, 4);
    });

    it("Strapi 5's publication cohorts: publicationFilter and hasPublishedVersion", async () => {
      const name = unique('cohort');
      const never = (
        await graphqlData(
          server,
          `mutation { createProduct(status: DRAFT, data: { name: "${name}-never" }) { documentId } }`,
        )
      ).createProduct.documentId;
      const published = (
        await graphqlData(server, `mutation { createProduct(data: { name: "${name}-pub" }) { documentId } }`)
      ).createProduct.documentId;
      await graphqlData(
        server,
        `mutation { updateProduct(documentId: "${published}", status: DRAFT, data: { stock: 3 }) { documentId } }`,
      );
      const list = async (args: string) =>
        (
          await graphqlData(
            server,
            `{ products(filters: { name: { startsWith: "${name}" } }, status: DRAFT, ${args}) { documentId } }`,
          )
        ).products.map((p: any) => p.documentId);
      assert.deepEqual(await list('publicationFilter: NEVER_PUBLISHED'), [never]);
      assert.deepEqual(await list('publicationFilter: MODIFIED'), [published]);
      assert.deepEqual(await list('hasPublishedVersion: true'), [published]);
      assert.deepEqual(await list('hasPublishedVersion: false'), [never]);
    });

    it('component lists take filters and sort per field, aliases apart', async () => {
      const data = await graphqlData(
        server,
        `query($d: ID!) { product(documentId: $d) { sections { ... on ComponentBlocksPricing {
        byName: plans(sort: "name:desc") { name }
        pro: plans(filters: { name: { eq: "Pro" } }) { name price }
        dear: plans(filters: { price: { gt: 10 } }, pagination: { limit: 5 }) { name }
        top: plans(sort: "price:desc", pagination: { limit: 1 }) { name perks(sort: "text:desc", pagination: { limit: 2 }) { text } }
        withPerk: plans(filters: { perks: { text: { eq: "b3" } } }) { name }
      } } } }`,
        { d: products.page },
      );
      const pricing = data.product.sections.find((s: any) => s.byName);
      assert.deepEqual(pricing, {
        byName: [{ name: 'Pro' }, { name: 'Basic' }],
        pro: [{ name: 'Pro', price: 19.5 }],
        dear: [{ name: 'Pro' }],
        top: [{ name: 'Pro', perks: [{ text: 'b3' }, { text: 'b2' }] }],
        withPerk: [{ name: 'Pro' }],
      });
    });

    it("errors carry Strapi 5's codes: a variable's value, mixed pagination", async () => {
      const variable = await graphql(server, 'query($n: Int) { products(pagination: { pageSize: $n }) { name } }', {
        n: 'x',
      });
      assert.equal(variable.status, 400);
      assert.equal(variable.body.errors![0].extensions.code, 'BAD_USER_INPUT');
      const mixed = await graphql(server, '{ products(pagination: { page: 1, start: 1 }) { name } }');
      assert.equal(mixed.status, 200);
      assert.equal(mixed.body.errors![0].extensions.code, 'STRAPI_PAGINATION_ERROR');
      assert.equal(mixed.body.errors![0].extensions.error.name, 'PaginationError');
    });

    it("a write to a missing document is no error, as Strapi 5.54's; a user not found is STRAPI_NOT_FOUND_ERROR; a bad token HTTP 401", async () => {
      const missing = 'nope00000000000000000000';
      const update = await graphql(
        server,
        `mutation { updateProduct(documentId: "${missing}", data: { name: "x" }) { name } }`,
      );
      assert.deepEqual(update.body, { data: { updateProduct: null } });
      const remove = await graphql(server, `mutation { deleteProduct(documentId: "${missing}") { documentId } }`);
      assert.deepEqual(remove.body, { data: { deleteProduct: { documentId: missing } } });
      // The earlier shape keeps its error.
      const v4Update = await graphql(
        v4,
        `mutation { updateProduct(id: "${missing}", data: { name: "x" }) { data { id } } }`,
      );
      assert.equal(v4Update.body.errors![0].extensions.code, 'STRAPI_NOT_FOUND_ERROR');
      const user = await graphql(
        server,
        'mutation { updateUsersPermissionsUser(id: "999999", data: { username: "xyz" }) { data { documentId } } }',
      );
      assert.equal(user.body.errors![0].extensions.code, 'STRAPI_NOT_FOUND_ERROR');
      assert.equal(user.body.errors![0].extensions.error.name, 'NotFoundError');
      const bad = await graphql(server, '{ products { name } }', undefined, {
        anonymous: true,
        headers: { authorization: 'Bearer garbage' },
      });
      assert.equal(bad.status, 401);
      assert.deepEqual(bad.body, {
        data: null,
        error: { status: 401, name: 'UnauthorizedError', message: 'Missing or invalid credentials', details: {} },
      } as never);
    });

    it('a relation asked twice with different filters or sort is refused, never answered wrong', async () => {
      const response = await graphql(
        server,
        `
          query ($c: ID!) {
            category(documentId: $c) {
              products(sort: "price:desc") {
                name
              }
              products_connection(filters: { price: { lt: 15 } }) {
                nodes {
                  name
                }
              }
            }
          }
        `,
        { c: category },
      );
      assert.equal(response.body.data.category, null);
      assert.equal(response.body.errors![0].extensions.error.name, 'ValidationError');
      assert.match(response.body.errors![0].message, /different filters or sort/);
      const same = await graphqlData(
        server,
        `query($c: ID!) { category(documentId: $c) { products(sort: "price:desc", pagination: { limit: 1 }) { name } products_connection(sort: "price:desc") { nodes { name } } } }`,
        { c: category },
      );
      assert.deepEqual(same.category.products, [{ name: `${prefix} drill` }]);
      assert.equal(same.category.products_connection.nodes.length, 4);
    });

    it("inputs as Strapi 5's: locale accepted and ignored on a type without i18n, no createdAt", async () => {
      const created = await graphqlData(
        server,
        `mutation { createCategory(data: { name: "${prefix} loc", locale: "fr" }) { name } }`,
      );
      assert.deepEqual(created.createCategory, { name: `${prefix} loc` });
      const dated = await graphql(
        server,
        'mutation { createCategory(data: { name: "x", createdAt: "2020-01-01T00:00:00.000Z" }) { name } }',
      );
      assert.equal(dated.status, 400);
    });

    it('counts what the operation reads while it runs: over a budget, refused then', async () => {
      // The page reads 35 items (1 product, 1 category, 8 sections, 25 below them): over 20.
      const before = small.vellum.database.statementCount;
      const response = await graphql(small, PRODUCT_PAGE, { documentId: products.page });
      assert.equal(response.status, 200);
      assert.equal(response.body.data.product, null);
      assert.equal(response.body.errors![0].extensions.code, 'BAD_USER_INPUT');
      assert.equal(response.body.errors![0].extensions.error.name, 'CostLimitError');
      assert.deepEqual(response.body.errors![0].extensions.error.details, {
        limit: 20,
        setting: 'graphql.config.costLimit',
      });
      assert.ok(small.vellum.database.statementCount > before, 'refused while executing, not before');
      // A product without sections fits.
      const plain = await graphqlData(
        small,
        `query($d: ID!) { product(documentId: $d) { name sections { __typename } } }`,
        { d: products.saw },
      );
      assert.deepEqual(plain.product, { name: `${prefix} saw`, sections: [] });
    });
  });
}
