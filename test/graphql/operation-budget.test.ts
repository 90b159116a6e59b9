/**
 * One budget per GraphQL operation (`costLimit`): the pages root fields ask for (aliases and
 * fragments included) count toward it before executing, and the items actually read, at every
 * level, count toward it while executing, shared by every root field (issue 30, point 6: nested
 * lists are measured, not guessed). (Issue 17, point 2: 1,000 aliases of a page of 100
 * articles answered 42.8 MB to an anonymous client.)
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';
import { graphql } from '../helpers/graphql.js';

const aliases = (count: number, field: string) =>
  `{ ${Array.from({ length: count }, (_, i) => `a${i}: ${field}`).join(' ')} }`;

for (const dialect of DIALECTS) {
  describe(`GraphQL operation budget [${dialect}]`, () => {
    let server: TestServer;
    /** A second node on the same database with a budget of 250 items. */
    let small: TestServer;

    before(async () => {
      server = await startServer(dialect);
      small = await startServer(dialect, {
        nodeOf: server,
        config: { plugins: { graphql: { config: { costLimit: 250 } } } },
      });
      const author = (await server.api.post('/api/authors', { data: { name: 'Ann' } })).body.data.documentId;
      const category = (await server.api.post('/api/categories', { data: { name: 'News' } })).body.data.documentId;
      for (let i = 0; i < 100; i++)
        await server.api.post('/api/articles', { data: { title: `Article ${i}`, author, category } });
    });
    after(async () => {
      await small?.close();
      await server?.close();
    });

    it("refuses the probe's 1,000 aliases of a page of 100 before executing", async () => {
      const before = server.vellum.database.statementCount;
      const response = await graphql(
        server,
        aliases(1000, 'articles(pagination: { pageSize: 100 }) { data { id } }'),
        undefined,
        { anonymous: true },
      );
      assert.equal(response.status, 400);
      assert.equal(response.body.errors![0].extensions.code, 'GRAPHQL_VALIDATION_FAILED');
      assert.match(response.body.errors![0].message, /more than 25000 items \(costLimit\)/);
      assert.equal(server.vellum.database.statementCount, before, 'nothing executed');
    });

    it('counts aliases reached through fragments; refuses an operation too deep', async () => {
      const fragment = 'fragment Page on ArticleEntityResponseCollection { data { id } }';
      const spread = await graphql(
        server,
        `
          ${aliases(300, 'articles(pagination: { pageSize: 100 }) { ...Page }')}
          ${fragment}
        `,
        undefined,
        { anonymous: true },
      );
      assert.equal(spread.status, 400, '300 pages of 100 through a fragment');
      assert.match(spread.body.errors![0].message, /costLimit/);
      const nested = await graphql(
        server,
        '{ authors(pagination: { pageSize: 100 }) { data { attributes { articles { data { attributes { category { data { attributes { articles { data { id } } } } } } } } } } } }',
        undefined,
        { anonymous: true },
      );
      assert.equal(nested.status, 400, 'eleven levels: over depthLimit');
    });

    it('nested lists are measured while reading, not multiplied by guessed page sizes', async () => {
      // 1 author, its 100 articles, their categories: 201 items, within 250 (estimated 100 x 25 before).
      const fits = await graphql(
        small,
        '{ authors(pagination: { pageSize: 100 }) { data { attributes { articles { data { attributes { category { data { attributes { name } } } } } } } } } }',
        undefined,
        { anonymous: true },
      );
      assert.equal(fits.status, 200);
      assert.equal(fits.body.errors, undefined, JSON.stringify(fits.body.errors));
      assert.equal(fits.body.data.authors.data[0].attributes.articles.data.length, 100);
      // With each article's author too: 301 items read, over 250: refused while reading.
      const over = await graphql(
        small,
        '{ authors(pagination: { pageSize: 100 }) { data { attributes { articles { data { attributes { author { data { id } } category { data { attributes { name } } } } } } } } } }',
        undefined,
        { anonymous: true },
      );
      assert.equal(over.status, 200);
      assert.equal(over.body.data.authors, null);
      assert.equal(over.body.errors![0].extensions.error.name, 'CostLimitError');
    });

    it('lets a real page through: 100 articles with their author and category, and a few aliases', async () => {
      const page =
        'articles(pagination: { pageSize: 100 }) { data { id attributes { title author { data { id } } category { data { attributes { name } } } } } }';
      const response = await graphql(server, `{ first: ${page} second: ${page} }`, undefined, { anonymous: true });
      assert.equal(response.status, 200);
      assert.equal(response.body.errors, undefined);
      assert.equal(response.body.data.first.data.length, 100);
      assert.equal(response.body.data.second.data[99].attributes.category.data.attributes.name, 'News');
    });

    it("a nested page reads only what it shows: each owner's first start + size items", async () => {
      // Read whole, each alias would read the author's 100 articles: 303 items, over 250.
      const nested =
        'authors { data { attributes { articles(pagination: { start: 1, limit: 2 }, sort: "title:desc") { data { attributes { title } } } } } }';
      const response = await graphql(small, `{ a: ${nested} b: ${nested} c: ${nested} }`, undefined, {
        anonymous: true,
      });
      assert.equal(response.status, 200);
      assert.equal(response.body.errors, undefined, JSON.stringify(response.body.errors));
      const titles = response.body.data.c.data[0].attributes.articles.data.map((a: any) => a.attributes.title);
      assert.deepEqual(titles, ['Article 98', 'Article 97']);
      // Aliases of one relation with different pages read the largest of them.
      const two = await graphql(
        small,
        '{ authors { data { attributes { first: articles(pagination: { limit: 1 }, sort: "title:asc") { data { attributes { title } } } more: articles(pagination: { page: 2, pageSize: 3 }, sort: "title:asc") { data { attributes { title } } } } } } }',
        undefined,
        { anonymous: true },
      );
      assert.equal(two.body.errors, undefined, JSON.stringify(two.body.errors));
      const attributes = two.body.data.authors.data[0].attributes;
      assert.deepEqual(
        attributes.first.data.map((a: any) => a.attributes.title),
        ['Article 0'],
      );
      assert.deepEqual(
        attributes.more.data.map((a: any) => a.attributes.title),
        ['Article 11', 'Article 12', 'Article 13'],
        'text order: 0, 1, 10, 11, ...',
      );
      // Without pagination a nested list shows (and reads) amountLimit items.
      const all = await graphql(server, '{ authors { data { attributes { articles { data { id } } } } } }', undefined, {
        anonymous: true,
      });
      assert.equal(all.body.data.authors.data[0].attributes.articles.data.length, 100);
    });

    it('the items read while executing share one budget across root fields', async () => {
      // Estimated at 100 items per page (to-one relations are no lists), each page reads 200.
      const page = 'articles(pagination: { pageSize: 100 }) { data { id attributes { author { data { id } } } } }';
      const one = await graphql(small, `{ a: ${page} }`, undefined, { anonymous: true });
      assert.equal(one.status, 200);
      assert.equal(one.body.errors, undefined);
      assert.equal(one.body.data.a.data.length, 100);
      // Root fields run concurrently: whatever the order, 400 items cannot all fit in 250.
      const two = await graphql(small, `{ a: ${page} b: ${page} }`, undefined, { anonymous: true });
      assert.equal(two.status, 200);
      assert.ok(two.body.errors && two.body.errors.length >= 1, 'at least one root field is refused');
      for (const error of two.body.errors!) {
        assert.equal(error.extensions.code, 'BAD_USER_INPUT');
        assert.equal(error.extensions.error.name, 'CostLimitError');
        assert.deepEqual(error.extensions.error.details, { limit: 250, setting: 'graphql.config.costLimit' });
        assert.equal(two.body.data[error.path[0]], null);
      }
      // One root field reading more than the budget by itself: 100 articles, authors and categories.
      const wide = await graphql(
        small,
        '{ articles(pagination: { pageSize: 100 }) { data { id attributes { author { data { id } } category { data { id } } } } } }',
        undefined,
        { anonymous: true },
      );
      assert.equal(wide.body.errors![0].extensions.error.name, 'CostLimitError');
      assert.equal(wide.body.data.articles, null);
    });
  });
}
