/** Strapi 5's flat shape (`v4CompatibilityMode: false`): documentId, lists, `_connection`, `status`. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';
import { graphql, graphqlData } from '../helpers/graphql.js';
import { unique } from '../helpers/unique.js';

for (const dialect of DIALECTS) {
  describe(`GraphQL operations, flat shape [${dialect}]`, () => {
    let server: TestServer;
    const ids: Record<string, string> = {};
    /** The seed articles carry it in `body`: lists of the seed are scoped to it (other tests add articles). */
    const seed = unique('seed');

    before(async () => {
      server = await startServer(dialect, {
        config: { plugins: { graphql: { config: { v4CompatibilityMode: false } } } },
      });
      ids.ann = (await server.api.post('/api/authors', { data: { name: 'Ann' } })).body.data.documentId;
      ids.red = (await server.api.post('/api/tags', { data: { name: 'red' } })).body.data.documentId;
      ids.blue = (await server.api.post('/api/tags', { data: { name: 'blue' } })).body.data.documentId;
      for (const [title, views] of [
        ['One', 1],
        ['Two', 2],
        ['Three', 3],
      ] as const) {
        ids[title] = (
          await server.api.post('/api/articles', {
            data: { title, views, body: seed, author: ids.ann, tags: [ids.red, ids.blue] },
          })
        ).body.data.documentId;
      }
    });
    after(() => server?.close());

    it('<names> is a list of documents with documentId', async () => {
      const data = await graphqlData(
        server,
        `{ articles(filters: { body: { eq: "${seed}" } }, sort: "views:desc", pagination: { pageSize: 2 }) { documentId title author { documentId name } } }`,
      );
      assert.deepEqual(data.articles, [
        { documentId: ids.Three, title: 'Three', author: { documentId: ids.ann, name: 'Ann' } },
        { documentId: ids.Two, title: 'Two', author: { documentId: ids.ann, name: 'Ann' } },
      ]);
    });

    it('<names>_connection has nodes and pageInfo', async () => {
      const data = await graphqlData(
        server,
        `{ articles_connection(filters: { body: { eq: "${seed}" }, views: { gte: 2 } }, pagination: { page: 1, pageSize: 1 }) { nodes { title } pageInfo { total page pageSize pageCount } } }`,
      );
      assert.equal(data.articles_connection.nodes.length, 1);
      assert.deepEqual(data.articles_connection.pageInfo, { total: 2, page: 1, pageSize: 1, pageCount: 2 });
    });

    it('relations as lists and connections', async () => {
      const data = await graphqlData(
        server,
        `{ article(documentId: "${ids.One}") { tags(sort: "name") { name } tags_connection(sort: "name") { nodes { documentId } } } }`,
      );
      assert.deepEqual(data.article.tags, [{ name: 'blue' }, { name: 'red' }]);
      assert.deepEqual(data.article.tags_connection.nodes, [{ documentId: ids.blue }, { documentId: ids.red }]);
    });

    it('a missing document is null', async () => {
      const response = await graphql(server, '{ article(documentId: "missing") { documentId } }');
      assert.deepEqual(response.body, { data: { article: null } });
    });

    it('status: DRAFT writes and reads drafts', async () => {
      const title = unique('Draft');
      const created = await graphqlData(
        server,
        `mutation { createArticle(status: DRAFT, data: { title: "${title}" }) { documentId publishedAt } }`,
      );
      assert.equal(created.createArticle.publishedAt, null);
      const id = created.createArticle.documentId;
      assert.equal((await graphqlData(server, `{ article(documentId: "${id}") { title } }`)).article, null);
      assert.equal(
        (await graphqlData(server, `{ article(documentId: "${id}", status: DRAFT) { title } }`)).article.title,
        title,
      );
      const drafts = await graphqlData(
        server,
        `{ articles(status: DRAFT, filters: { title: { eq: "${title}" } }) { documentId } }`,
      );
      assert.deepEqual(drafts.articles, [{ documentId: id }]);
    });

    it('update and delete by documentId; delete answers the documentId', async () => {
      const two = (await server.api.post('/api/articles', { data: { title: 'Two', views: 2 } })).body.data.documentId;
      const updated = await graphqlData(
        server,
        `mutation { updateArticle(documentId: "${two}", data: { title: "Deux" }) { documentId title views } }`,
      );
      assert.deepEqual(updated.updateArticle, { documentId: two, title: 'Deux', views: 2 });
      const deleted = await graphqlData(server, `mutation { deleteArticle(documentId: "${two}") { documentId } }`);
      assert.deepEqual(deleted.deleteArticle, { documentId: two });
      assert.equal((await server.api.get(`/api/articles/${two}`)).status, 404);
    });

    it('single types', async () => {
      const updated = await graphqlData(
        server,
        'mutation { updateGlobal(data: { siteName: "S" }) { documentId siteName } }',
      );
      assert.equal(updated.updateGlobal.siteName, 'S');
      assert.equal((await graphqlData(server, '{ global { siteName } }')).global.siteName, 'S');
      const deleted = await graphqlData(server, 'mutation { deleteGlobal { documentId } }');
      assert.equal(typeof deleted.deleteGlobal.documentId, 'string');
    });

    it('publicationState and the entity wrappers do not exist in this shape', async () => {
      const response = await graphql(server, '{ articles(publicationState: LIVE) { data { id } } }');
      assert.equal(response.status, 400);
      assert.equal(response.body.errors![0].extensions.code, 'GRAPHQL_VALIDATION_FAILED');
    });
  });
}
