import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';

for (const dialect of DIALECTS) {
  describe(`sort, pagination and fields, docs/rest.md "Query parameters" [${dialect}]`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect);
      const api = server.api;
      const authors: string[] = [];
      for (const name of ['Zed', 'Amy', 'Kim'])
        authors.push((await api.post('/api/authors', { data: { name } })).body.data.documentId);
      // 12 articles: views repeat so that the id tiebreak matters.
      for (let i = 0; i < 12; i++) {
        const res = await api.post('/api/articles', {
          data: { title: `T${String(i).padStart(2, '0')}`, views: i % 4, author: authors[i % 3] },
        });
        assert.equal(res.status, 201);
      }
    });
    after(() => server?.close());
    const list = async (query: string) => {
      const res = await server.api.get(`/api/articles?${query}`);
      assert.equal(res.status, 200, `${query}: ${JSON.stringify(res.body)}`);
      return res.body;
    };
    const titles = async (query: string) => (await list(query)).data.map((d: any) => d.title);

    it('sorts by one field, asc and desc, with : or %3A', async () => {
      const asc = await titles('sort=title:asc');
      assert.deepEqual(asc, [...asc].sort());
      assert.deepEqual(await titles('sort=title:desc'), [...asc].reverse());
      assert.deepEqual(await titles('sort=title%3Adesc'), [...asc].reverse());
      assert.deepEqual(await titles('sort=title'), asc);
    });

    it('sorts by several fields, in every syntax', async () => {
      const expected = (await list('sort=title:asc')).data
        .map((d: any) => [d.views, d.title])
        .sort((a: any, b: any) => b[0] - a[0] || (a[1] < b[1] ? -1 : 1))
        .map((p: any) => p[1]);
      assert.deepEqual(await titles('sort[0]=views:desc&sort[1]=title:asc'), expected);
      assert.deepEqual(await titles('sort=views:desc,title:asc'), expected);
      assert.deepEqual(await titles('sort[0][views]=desc&sort[1][title]=asc'), expected);
    });

    it("sorts by a relation's field", async () => {
      const docs = (await list('sort[0]=author.name:asc&sort[1]=title:asc&populate=author')).data;
      const names = docs.map((d: any) => d.author.name);
      assert.deepEqual(names, [...names].sort());
    });

    it('pages never overlap when sort values repeat', async () => {
      const seen: string[] = [];
      for (let page = 1; page <= 4; page++)
        seen.push(...(await titles(`sort=views:asc&pagination[page]=${page}&pagination[pageSize]=3`)));
      assert.equal(seen.length, 12);
      assert.equal(new Set(seen).size, 12);
    });

    it('page-based pagination has page, pageSize, pageCount, total', async () => {
      const body = await list('pagination[page]=2&pagination[pageSize]=5');
      assert.deepEqual(body.meta.pagination, { page: 2, pageSize: 5, pageCount: 3, total: 12 });
      assert.equal(body.data.length, 5);
      assert.equal((await list('pagination[page]=3&pagination[pageSize]=5')).data.length, 2);
      assert.equal((await list('pagination[page]=9&pagination[pageSize]=5')).data.length, 0);
    });

    it('the page statement carries the total; only a page past the end counts apart', async () => {
      // The response cache's change counters are read or not depending on how long ago the type
      // last moved (api/response-cache.ts `moving`): timing, not the page, so they are not counted.
      const statements = async (query: string) => {
        const seen: string[] = [];
        const stop = server.vellum.database.observe((sql) => seen.push(sql));
        const body = await list(query);
        stop();
        const counted = seen.filter((sql) => !/\bvellum_changes\b/.test(sql)).length;
        return { total: body.meta.pagination.total, statements: counted };
      };
      // sort=id: URLs no other test asks for, so that neither answer comes from the response cache.
      const full = await statements('pagination[page]=2&pagination[pageSize]=5&sort=id');
      const last = await statements('pagination[page]=3&pagination[pageSize]=5&sort=id');
      const uncounted = await statements(
        'pagination[page]=2&pagination[pageSize]=5&sort=id&pagination[withCount]=false',
      );
      assert.deepEqual([full.total, last.total, uncounted.total], [12, 12, undefined]);
      assert.equal(full.statements, uncounted.statements, 'the total comes with the page');
      assert.equal(last.statements, full.statements);
      const past = await statements('pagination[page]=9&pagination[pageSize]=5&sort=id');
      assert.equal(past.total, 12);
      // On SQLite a page's rows are read by id in a statement of their own (Dialect.pageRowsById),
      // which an empty page does without.
      const rowsApart = server.vellum.database.dialect.pageRowsById ? 1 : 0;
      assert.equal(past.statements, full.statements - rowsApart + 1, 'an empty page past the end counts apart');
      assert.equal((await statements('pagination[start]=20&pagination[limit]=5')).total, 12);
      assert.equal((await statements('pagination[start]=0&pagination[limit]=100')).total, 12);
      assert.equal((await statements('filters[title][$eq]=nothing-like-this')).total, 0);
    });

    it('offset-based pagination has start, limit, total', async () => {
      const body = await list('pagination[start]=10&pagination[limit]=5');
      assert.deepEqual(body.meta.pagination, { start: 10, limit: 5, total: 12 });
      assert.equal(body.data.length, 2);
    });

    it('withCount=false leaves out the counts', async () => {
      assert.deepEqual((await list('pagination[withCount]=false')).meta.pagination, { page: 1, pageSize: 25 });
      assert.deepEqual(
        (await list('pagination[start]=0&pagination[limit]=2&pagination[withCount]=false')).meta.pagination,
        { start: 0, limit: 2 },
      );
    });

    it('limits above api.rest.maxLimit are capped', async () => {
      assert.equal((await list('pagination[pageSize]=1000')).meta.pagination.pageSize, 100);
      assert.equal((await list('pagination[limit]=1000')).meta.pagination.limit, 100);
    });

    it('mixing page and offset pagination is a 400 PaginationError', async () => {
      const res = await server.api.get('/api/articles?pagination[page]=1&pagination[limit]=5');
      assert.equal(res.status, 400);
      assert.equal(res.body.error.name, 'PaginationError');
    });

    for (const query of [
      'pagination[page]=0',
      'pagination[page]=abc',
      'pagination[pageSize]=-3',
      'pagination[start]=-1',
      'pagination[page]=1.5',
      'pagination[pageSize]=99999999999999999999999',
    ]) {
      it(`invalid pagination ${query} is a 400`, async () => {
        const res = await server.api.get(`/api/articles?${query}`);
        assert.equal(res.status, 400, JSON.stringify(res.body));
        assert.equal(res.body.data, null);
      });
    }

    for (const [query, path] of [
      ['sort=nope:asc', 'sort'],
      ['sort=title:sideways', 'sort'],
      ['sort=author.nope:asc', 'sort'],
    ] as const) {
      it(`bad sort ${query} is a 400 naming param ${path}`, async () => {
        const res = await server.api.get(`/api/articles?${query}`);
        assert.equal(res.status, 400);
        assert.equal(res.body.error.details.param, path);
      });
    }

    it('fields selects attributes; id and documentId always come back', async () => {
      const one = (await list('fields=title')).data[0];
      assert.deepEqual(
        Object.keys(one)
          .filter((k) => !['createdAt', 'updatedAt', 'publishedAt', 'locale'].includes(k))
          .sort(),
        ['documentId', 'id', 'title'],
      );
      const two = (await list('fields[0]=title&fields[1]=views')).data[0];
      assert.ok('title' in two && 'views' in two && !('slug' in two));
      const star = (await list('fields=*')).data[0];
      assert.ok('slug' in star && 'body' in star);
      const res = await server.api.get('/api/articles?fields=nope');
      assert.equal(res.status, 400);
      assert.equal(res.body.error.details.param, 'fields');
    });
  });
}
