/**
 * GraphQL reads served from the response cache REST uses (features/graphql/cache.ts): a repeated query is
 * answered without querying the content, a write to a type drops only the answers that read it,
 * a write by another node is seen at once, and callers of other grants never share an answer.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';
import { graphql } from '../helpers/graphql.js';

/** Answers right after a write are stored too (by default a moving type's answers wait a second). */
const HOLD_NOTHING = { api: { rest: { cache: { holdAfterWriteMs: 0 } } } };
import { unique } from '../helpers/unique.js';

for (const dialect of DIALECTS) {
  describe(`GraphQL response cache [${dialect}]`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect, { config: HOLD_NOTHING });
    });
    after(() => server?.close());

    /** Runs a query; its data and whether it read the content tables. */
    const run = async (query: string, options: { anonymous?: boolean } = {}) => {
      const statements: string[] = [];
      const stop = server.vellum.database.observe((sql) => statements.push(sql));
      const response = await graphql(server, query, undefined, options);
      stop();
      return { ...response, queried: statements.some((sql) => /articles|authors|tags/.test(sql)) };
    };

    it('a repeated query is answered from the cache; a write to another type keeps it, one to a type it reads drops it', async () => {
      const name = unique('Gql');
      const author = (await server.api.post('/api/authors', { data: { name } })).body.data.documentId;
      const title = unique('gql');
      const own = (await server.api.post('/api/articles', { data: { title, author } })).body.data.documentId;
      const query = `{ articles(filters: { title: { eq: "${title}" } }) { data { id attributes { title author { data { attributes { name } } } } } } }`;
      const first = await run(query);
      assert.equal(first.status, 200);
      assert.equal(first.body.data.articles.data[0].attributes.author.data.attributes.name, name);
      assert.ok(first.queried);
      const again = await run(query);
      assert.deepEqual(again.body, first.body);
      assert.equal(again.queried, false, 'answered from the cache');
      await server.api.post('/api/tags', { data: { name: unique('tag') } });
      assert.equal((await run(query)).queried, false, 'a write to tags keeps it');
      await server.api.put(`/api/authors/${author}`, { data: { name: `${name} 2` } });
      const after = await run(query);
      assert.ok(after.queried, 'a write to authors drops it');
      assert.equal(after.body.data.articles.data[0].attributes.author.data.attributes.name, `${name} 2`);
      await server.api.put(`/api/articles/${own}`, { data: { title: `${title} 2` } });
      assert.deepEqual((await run(query)).body.data.articles.data, []);
    });

    it('a write by another node is seen by the next query', async () => {
      const title = unique('remote');
      const own = (await server.api.post('/api/articles', { data: { title } })).body.data.documentId;
      const query = `{ article(id: "${own}") { data { attributes { title views } } } }`;
      await run(query);
      assert.equal((await run(query)).queried, false);
      const other = await startServer(dialect, { nodeOf: server, config: HOLD_NOTHING });
      try {
        await other.api.put(`/api/articles/${own}`, { data: { views: 12 } });
        assert.equal((await run(query)).body.data.article.data.attributes.views, 12);
      } finally {
        await other.close();
      }
    });

    it('callers of other grants never share an answer; mutations and errors are not kept', async () => {
      const title = unique('scoped');
      await server.api.post('/api/articles', { data: { title } });
      const query = `{ articles(filters: { title: { eq: "${title}" } }) { data { attributes { title } } } }`;
      await run(query);
      assert.equal((await run(query)).queried, false);
      const anonymous = await run(query, { anonymous: true });
      assert.ok(anonymous.queried || anonymous.body.errors, 'Public is answered for itself');
      const bad = `{ articles(filters: { title: { eq: 1 } }) { data { id } } }`;
      assert.ok((await run(bad)).body.errors);
      assert.ok((await run(bad)).body.errors);
      const mutation = `mutation { createTag(data: { name: "${unique('m')}" }) { data { id } } }`;
      const created = await run(mutation);
      assert.equal(created.status, 200, JSON.stringify(created.body));
      assert.ok((await run(mutation.replace('") {', '-2") {'))).queried);
    });
  });
}
