/**
 * Lifecycle subscribers and Document Service middlewares registered on a node
 * (`vellum.lifecycles`, `vellum.documentMiddlewares`, which `strapi.db.lifecycles`
 * and `strapi.documents.use` fill), seen from REST, GraphQL, the facade and the query engine on
 * the blog example. Each test subscribes for its own rows (named with a tag) and unsubscribes.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { LifecycleEvent } from '../../src/strapi/index.js';
import { ForbiddenError, ValidationError } from '../../src/core/errors.js';
import { HttpClient } from '../helpers/http.js';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';

const tag = () => randomUUID().slice(0, 8);
type Row = Record<string, unknown>;
const dataOf = (event: LifecycleEvent) => (event.params.data ?? {}) as Row;

for (const dialect of DIALECTS) {
  describe(`lifecycles and document middlewares [${dialect}]`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect);
    });
    after(() => server?.close());

    const subscribe = (subscriber: Parameters<TestServer['vellum']['lifecycles']['subscribe']>[0]) =>
      server.vellum.lifecycles.subscribe(subscriber);

    it('without a subscriber for the type, a write costs the statements it cost before', async () => {
      const count = async () => {
        const start = server.vellum.database.statementCount;
        await server.api.post('/api/tags', { data: { name: `Cost ${tag()}` } });
        return server.vellum.database.statementCount - start;
      };
      await count(); // the first write of a token also records its use
      const plain = await count();
      const off = subscribe({ models: ['api::author.author'], beforeCreate() {}, afterFindMany() {} });
      try {
        assert.equal(await count(), plain);
        assert.equal(server.vellum.documents.of('api::tag.tag').cacheable, true);
        assert.equal(server.vellum.documents.of('api::author.author').cacheable, false);
      } finally {
        off();
      }
      // Write handlers only (a slug lifecycle): reads stay the database's, and cached.
      const writesOnly = subscribe({ models: ['api::tag.tag'], beforeCreate() {}, afterUpdate() {} });
      try {
        assert.equal(server.vellum.documents.of('api::tag.tag').cacheable, true);
      } finally {
        writesOnly();
      }
    });

    it('beforeCreate may replace the data; an error thrown before a write aborts it with nothing written, on every write', async () => {
      const prefix = tag();
      const off = subscribe({
        models: ['api::tag.tag'],
        beforeCreate(event: LifecycleEvent) {
          if (String(dataOf(event).name).endsWith('refused')) throw new ValidationError('No refused tags');
          if (String(dataOf(event).name).endsWith('replaced'))
            event.params.data = { ...dataOf(event), name: `${prefix} new name` };
        },
        beforeUpdate(event: LifecycleEvent) {
          if (dataOf(event).name === `${prefix} locked`) throw new ForbiddenError('Locked');
        },
        beforeDelete() {
          throw new ValidationError('Tags stay');
        },
      });
      try {
        const replaced = await server.api.post('/api/tags', { data: { name: `${prefix} replaced` } });
        assert.equal(replaced.body.data.name, `${prefix} new name`);
        const refused = await server.api.post('/api/tags', { data: { name: `${prefix} refused` } });
        assert.equal(refused.status, 400);
        assert.equal(refused.body.error.message, 'No refused tags');
        assert.equal((await server.api.get(`/api/tags?filters[name][$eq]=${prefix} refused`)).body.data.length, 0);
        const id = replaced.body.data.documentId;
        assert.equal((await server.api.put(`/api/tags/${id}`, { data: { name: `${prefix} locked` } })).status, 403);
        assert.equal((await server.api.get(`/api/tags/${id}`)).body.data.name, `${prefix} new name`);
        assert.equal((await server.api.delete(`/api/tags/${id}`)).status, 400);
        assert.equal((await server.api.get(`/api/tags/${id}`)).status, 200);
      } finally {
        off();
      }
    });

    it('handlers may use the database themselves (they never run inside the write transaction)', async () => {
      const prefix = tag();
      const engine = server.vellum.documents.engine;
      const off = subscribe({
        models: ['api::category.category'],
        async afterCreate(event: LifecycleEvent) {
          await engine
            .query('api::tag.tag')
            .create({ data: { name: `${prefix} audit ${String((event.result as Row).name)}` } });
        },
        async beforeCreate(event: LifecycleEvent) {
          const taken = await server.vellum.documents
            .of('api::category.category')
            .count({ filters: { name: dataOf(event).name } });
          dataOf(event).description = `${taken} before`;
        },
      });
      try {
        const created = await server.api.post('/api/categories', { data: { name: `${prefix} cat` } });
        assert.equal(created.status, 201);
        assert.equal(created.body.data.description, '0 before');
        assert.equal(
          (await server.api.get(`/api/tags?filters[name][$eq]=${prefix} audit ${prefix} cat`)).body.data.length,
          1,
        );
      } finally {
        off();
      }
    });

    it('beforeFindMany may add a condition; afterFindMany and afterFindOne may add keys, which REST answers; the response cache stays out', async () => {
      const prefix = tag();
      await server.api.post('/api/tags', { data: { name: `${prefix} shown` } });
      await server.api.post('/api/tags', { data: { name: `${prefix} hidden` } });
      let reads = 0;
      const off = subscribe({
        models: ['api::tag.tag'],
        beforeFindMany(event: LifecycleEvent) {
          (event.params.where as Row).$and = [{ name: { $notContains: 'hidden' } }];
        },
        afterFindMany(event: LifecycleEvent) {
          reads += 1;
          for (const row of event.result as Row[]) row.computed = `read ${reads}`;
        },
        afterFindOne(event: LifecycleEvent) {
          if (event.result) (event.result as Row).single = true;
        },
      });
      try {
        const path = `/api/tags?filters[name][$startsWith]=${prefix}`;
        const first = await server.api.get(path);
        assert.deepEqual(
          first.body.data.map((row: Row) => row.name),
          [`${prefix} shown`],
        );
        assert.equal(first.body.meta.pagination.total, 1);
        assert.equal(first.body.data[0].computed, 'read 1');
        assert.equal((await server.api.get(path)).body.data[0].computed, 'read 2', 'not answered from the cache');
        const one = await server.api.get(`/api/tags/${first.body.data[0].documentId}`);
        assert.equal(one.body.data.single, true);
      } finally {
        off();
      }
      assert.equal((await server.api.get(`/api/tags?filters[name][$startsWith]=${prefix}`)).body.data.length, 2);
    });

    it('the query engine fires its own events: create re-reads with findOne; the many-row writes fire *Many', async () => {
      const prefix = tag();
      const seen: string[] = [];
      const off = subscribe({
        models: ['api::tag.tag'],
        beforeCreate: (event: LifecycleEvent) => void seen.push(`beforeCreate ${String(dataOf(event).name)}`),
        afterCreate: (event: LifecycleEvent) => void seen.push(`afterCreate ${String((event.result as Row).name)}`),
        beforeFindOne: () => void seen.push('beforeFindOne'),
        afterFindOne: () => void seen.push('afterFindOne'),
        beforeCreateMany: () => void seen.push('beforeCreateMany'),
        afterCreateMany: (event: LifecycleEvent) =>
          void seen.push(`afterCreateMany ${(event.result as { count: number }).count}`),
        beforeUpdateMany: () => void seen.push('beforeUpdateMany'),
        afterUpdateMany: () => void seen.push('afterUpdateMany'),
        beforeDeleteMany: () => void seen.push('beforeDeleteMany'),
        afterDeleteMany: (event: LifecycleEvent) =>
          void seen.push(`afterDeleteMany ${(event.result as { count: number }).count}`),
        beforeCount: () => void seen.push('beforeCount'),
        afterCount: (event: LifecycleEvent) => void seen.push(`afterCount ${String(event.result)}`),
      });
      try {
        const tags = server.vellum.documents.engine.query('api::tag.tag');
        await tags.create({ data: { name: `${prefix} a` } });
        await tags.createMany({ data: [{ name: `${prefix} b` }, { name: `${prefix} c` }] });
        await tags.updateMany({ where: { name: `${prefix} b` }, data: { name: `${prefix} d` } });
        await tags.count({ where: { name: { $startsWith: prefix } } });
        await tags.deleteMany({ where: { name: { $startsWith: prefix } } });
        assert.deepEqual(seen, [
          `beforeCreate ${prefix} a`,
          'beforeFindOne',
          'afterFindOne',
          `afterCreate ${prefix} a`,
          'beforeCreateMany',
          'afterCreateMany 2',
          'beforeUpdateMany',
          'afterUpdateMany',
          'beforeCount',
          'afterCount 3',
          'beforeDeleteMany',
          'afterDeleteMany 3',
        ]);
      } finally {
        off();
      }
    });

    it('publish, unpublish and discard-draft fire the row events of the versions they copy and delete', async () => {
      const prefix = tag();
      const created = await server.api.post('/api/articles?status=draft', { data: { title: `${prefix} doc` } });
      const id = created.body.data.documentId;
      const seen: string[] = [];
      const off = subscribe({
        models: ['api::article.article'],
        beforeCreate: (event: LifecycleEvent) =>
          void seen.push(`beforeCreate ${dataOf(event).publishedAt === null ? 'draft' : 'published'}`),
        afterCreate: () => void seen.push('afterCreate'),
        beforeDelete: () => void seen.push('beforeDelete'),
        afterDelete: (event: LifecycleEvent) =>
          void seen.push(`afterDelete ${(event.result as Row).publishedAt === null ? 'draft' : 'published'}`),
      });
      try {
        await server.api.post(`/api/articles/${id}/actions/publish`);
        assert.deepEqual(seen.splice(0), ['beforeCreate published', 'afterCreate']);
        await server.api.post(`/api/articles/${id}/actions/publish`);
        assert.deepEqual(seen.splice(0), [
          'beforeDelete',
          'beforeCreate published',
          'afterDelete published',
          'afterCreate',
        ]);
        await server.api.post(`/api/articles/${id}/actions/discard-draft`);
        assert.deepEqual(seen.splice(0), ['beforeDelete', 'beforeCreate draft', 'afterDelete draft', 'afterCreate']);
        await server.api.post(`/api/articles/${id}/actions/unpublish`);
        assert.deepEqual(seen.splice(0), ['beforeDelete', 'afterDelete published']);
      } finally {
        off();
      }
    });

    it('document middlewares see every call (REST, GraphQL, project code), may change its params and its answer', async () => {
      const prefix = tag();
      await server.api.post('/api/tags', { data: { name: `${prefix} one` } });
      const seen: string[] = [];
      const off = server.vellum.documentMiddlewares.use(async (context, next) => {
        if (context.uid !== 'api::tag.tag') return next();
        seen.push(`${context.action} ${String(context.params.status)}`);
        if (context.action === 'findMany' && context.params.filters === undefined)
          context.params.filters = { name: { $startsWith: prefix } };
        const result = await next();
        if (context.action === 'findMany') return (result as Row[]).map((row) => ({ ...row, viaMiddleware: true }));
        return result;
      });
      try {
        const listed = await server.api.get('/api/tags');
        assert.deepEqual(
          listed.body.data.map((row: Row) => [row.name, row.viaMiddleware]),
          [[`${prefix} one`, true]],
        );
        assert.equal(listed.body.meta.pagination.total, 1);
        const graphql = new HttpClient(server.url, server.authHeaders);
        const answer = await graphql.post('/graphql', { query: '{ tags { data { attributes { name } } } }' });
        assert.deepEqual(
          answer.body.data.tags.data.map((row: { attributes: Row }) => row.attributes.name),
          [`${prefix} one`],
        );
        await server.vellum.documents.of('api::tag.tag').count({ status: 'draft' });
        assert.deepEqual(seen, ['findMany published', 'findMany published', 'count draft']);
        assert.equal(server.vellum.documents.of('api::tag.tag').cacheable, false);
      } finally {
        off();
      }
      assert.equal(server.vellum.documents.of('api::tag.tag').cacheable, true);
    });
  });
}
