import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, fixture, startServer, type TestServer } from '../helpers/server.js';

/** Sample rows covering every scalar type, with edge cases (nulls, non-ASCII, LIKE wildcards). */
const rows = [
  {
    name: 'Alpha',
    code: 'AAA',
    notes: 'Café au lait',
    contact: 'a@x.io',
    day: '2024-01-10',
    at: '08:00:00.000',
    moment: '2024-01-10T08:00:00.000Z',
    count: 1,
    big: '9007199254740993',
    ratio: 0.5,
    price: 10.5,
    active: true,
    state: 'live',
  },
  {
    name: 'Beta',
    code: 'BBB',
    notes: 'ÉCOLE 100% sûre',
    contact: 'b@x.io',
    day: '2024-02-20',
    at: '12:30:00.000',
    moment: '2024-02-20T12:30:00.000Z',
    count: 20,
    big: '-5',
    ratio: 1.5,
    price: 20,
    active: false,
    state: 'draft',
  },
  {
    name: 'Gamma',
    code: 'CCC',
    notes: 'under_score and 50% off',
    contact: 'c@y.io',
    day: '2024-03-30',
    at: '18:45:00.000',
    moment: '2024-03-30T18:45:00.000Z',
    count: 300,
    big: '12',
    ratio: 2.5,
    price: 30.25,
    active: true,
    state: 'archived',
  },
  {
    name: 'delta',
    code: 'DDD',
    notes: null,
    contact: null,
    day: null,
    at: null,
    moment: null,
    count: null,
    big: null,
    ratio: null,
    price: null,
    active: false,
    state: 'live',
  },
];

for (const dialect of DIALECTS) {
  describe(`filters, docs/rest.md "Filters" [${dialect}]`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect, { project: fixture('all-types') });
      for (const row of rows) assert.equal((await server.api.post('/api/samples', { data: row })).status, 201);
    });
    after(() => server?.close());

    const names = async (query: string) => {
      const res = await server.api.get(`/api/samples?${query}&sort=name:asc&pagination[pageSize]=100`);
      assert.equal(res.status, 200, `${query}: ${JSON.stringify(res.body)}`);
      return res.body.data.map((d: any) => d.name);
    };
    const cases: [string, string[]][] = [
      ['filters[name][$eq]=Alpha', ['Alpha']],
      ['filters[name]=Alpha', ['Alpha']],
      ['filters[name][$eq]=alpha', []],
      ['filters[name][$eqi]=ALPHA', ['Alpha']],
      ['filters[name][$ne]=Alpha', ['Beta', 'Gamma', 'delta']],
      ['filters[name][$nei]=alpha', ['Beta', 'Gamma', 'delta']],
      ['filters[count][$lt]=20', ['Alpha']],
      ['filters[count][$lte]=20', ['Alpha', 'Beta']],
      ['filters[count][$gt]=1', ['Beta', 'Gamma']],
      ['filters[count][$gte]=20', ['Beta', 'Gamma']],
      ['filters[count][$in][0]=1&filters[count][$in][1]=300', ['Alpha', 'Gamma']],
      ['filters[count][$in]=20', ['Beta']],
      ['filters[count][$notIn][0]=1&filters[count][$notIn][1]=300', ['Beta']],
      ['filters[count][$between][0]=10&filters[count][$between][1]=300', ['Beta', 'Gamma']],
      ['filters[count][$null]=true', ['delta']],
      ['filters[count][$notNull]=true', ['Alpha', 'Beta', 'Gamma']],
      ['filters[count][$null]=false', ['Alpha', 'Beta', 'Gamma']],
      ['filters[notes][$contains]=lait', ['Alpha']],
      ['filters[notes][$contains]=LAIT', []],
      ['filters[notes][$containsi]=LAIT', ['Alpha']],
      ['filters[notes][$notContains]=lait', ['Beta', 'Gamma']],
      ['filters[notes][$notContainsi]=LAIT', ['Beta', 'Gamma']],
      ['filters[notes][$startsWith]=Caf', ['Alpha']],
      ['filters[notes][$startsWith]=caf', []],
      ['filters[notes][$startsWithi]=caf', ['Alpha']],
      ['filters[notes][$endsWith]=off', ['Gamma']],
      ['filters[notes][$endsWithi]=OFF', ['Gamma']],
      ['filters[notes][$containsi]=café', ['Alpha']],
      ['filters[notes][$containsi]=CAFÉ', ['Alpha']],
      ['filters[notes][$containsi]=école', ['Beta']],
      ['filters[notes][$contains]=École', []],
      ['filters[notes][$contains]=%25', ['Beta', 'Gamma']],
      ['filters[notes][$contains]=_', ['Gamma']],
      ['filters[notes][$contains]=0%25 off', ['Gamma']],
      ['filters[day][$gt]=2024-02-01', ['Beta', 'Gamma']],
      ['filters[day][$eq]=2024-02-20', ['Beta']],
      ['filters[moment][$lt]=2024-02-21T00:00:00.000Z', ['Alpha', 'Beta']],
      ['filters[at][$gte]=12:30:00', ['Beta', 'Gamma']],
      ['filters[big][$gt]=100', ['Alpha']],
      ['filters[big][$eq]=9007199254740993', ['Alpha']],
      ['filters[ratio][$gt]=1', ['Beta', 'Gamma']],
      ['filters[price][$lte]=20', ['Alpha', 'Beta']],
      ['filters[active][$eq]=true', ['Alpha', 'Gamma']],
      ['filters[active]=false', ['Beta', 'delta']],
      ['filters[state][$eq]=live', ['Alpha', 'delta']],
      ['filters[contact][$endsWith]=@x.io', ['Alpha', 'Beta']],
      ['filters[$or][0][name][$eq]=Alpha&filters[$or][1][count][$gt]=100', ['Alpha', 'Gamma']],
      ['filters[$and][0][active]=true&filters[$and][1][count][$gt]=1', ['Gamma']],
      ['filters[$not][name][$eq]=Alpha', ['Beta', 'Gamma', 'delta']],
      ['filters[name][$not][$eq]=Alpha', ['Beta', 'Gamma', 'delta']],
      [
        'filters[$or][0][$and][0][active]=true&filters[$or][0][$and][1][count][$lt]=10&filters[$or][1][$not][$or][0][state]=live&filters[$or][1][$not][$or][1][state]=draft',
        ['Alpha', 'Gamma'],
      ],
      ['filters[name][$gt]=B&filters[name][$lt]=G', ['Beta']],
    ];
    for (const [query, expected] of cases) {
      it(`${decodeURIComponent(query)} → ${expected.join(', ') || 'nothing'}`, async () => {
        assert.deepEqual(await names(query), expected);
      });
    }

    it('filters on id and documentId', async () => {
      const all = (await server.api.get('/api/samples?sort=name:asc')).body.data;
      assert.deepEqual(await names(`filters[id][$eq]=${all[1].id}`), ['Beta']);
      assert.deepEqual(await names(`filters[documentId][$eq]=${all[2].documentId}`), ['Gamma']);
      assert.deepEqual(
        await names(
          `filters[documentId][$in][0]=${all[0].documentId}&filters[documentId][$in][1]=${all[3].documentId}`,
        ),
        ['Alpha', 'delta'],
      );
    });

    for (const [query, path] of [
      // As Strapi 5: `path` names the attributes leading to the key, null at the top level.
      ['filters[nme][$eq]=x', null],
      ['filters[name][$like]=x', 'name'],
      ['filters[count][$gt]=many', 'count'],
      ['filters[count][$gt]=1e400', 'count'],
      ['filters[secret][$eq]=x', null],
      ['filters[internal][$eq]=x', null],
      ["filters[name' OR 1=1 --][$eq]=x", null],
    ] as const) {
      it(`400 ValidationError for ${query}, naming ${path}`, async () => {
        const res = await server.api.get(`/api/samples?${query.replace(/ /g, '%20')}`);
        assert.equal(res.status, 400, JSON.stringify(res.body));
        assert.equal(res.body.error.name, 'ValidationError');
        assert.equal(res.body.error.details.param, 'filters');
        assert.equal(res.body.error.details.path, path);
      });
    }

    it('SQL-looking values are plain values', async () => {
      assert.deepEqual(await names("filters[name][$eq]=Alpha' OR '1'='1"), []);
      assert.deepEqual(await names('filters[name][$contains]=%27%3B DROP TABLE samples%3B--'), []);
      assert.equal((await server.api.get('/api/samples')).body.data.length, 4);
    });
  });

  describe(`deep filters through relations and components [${dialect}]`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect);
      const api = server.api;
      const ann = (await api.post('/api/authors', { data: { name: 'Ann Lee' } })).body.data.documentId;
      const bob = (await api.post('/api/authors', { data: { name: 'Bob Stone' } })).body.data.documentId;
      const red = (await api.post('/api/tags', { data: { name: 'red' } })).body.data.documentId;
      const blue = (await api.post('/api/tags', { data: { name: 'blue' } })).body.data.documentId;
      const cat = (await api.post('/api/categories', { data: { name: 'News' } })).body.data.documentId;
      await api.post('/api/articles', {
        data: { title: 'A1', author: ann, tags: [red, blue], category: cat, seo: { metaTitle: 'first' } },
      });
      await api.post('/api/articles', {
        data: {
          title: 'A2',
          author: bob,
          tags: [blue],
          seo: { metaTitle: 'second' },
          links: [{ label: 'x', url: 'https://x' }],
        },
      });
      await api.post('/api/articles', { data: { title: 'A3' } });
    });
    after(() => server?.close());
    // The page reads relations with correlated EXISTS, the count with a semi-join: both must agree.
    const titles = async (query: string) => {
      const res = await server.api.get(`/api/articles?${query}&sort=title:asc`);
      assert.equal(res.status, 200, `${query}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.meta.pagination.total, res.body.data.length, `${query}: total`);
      return res.body.data.map((d: any) => d.title);
    };

    it('through a to-one relation', async () => {
      assert.deepEqual(await titles('filters[author][name][$containsi]=ann'), ['A1']);
      assert.deepEqual(await titles('filters[author][name][$eq]=Bob Stone'), ['A2']);
    });
    it('through a to-many relation', async () => {
      assert.deepEqual(await titles('filters[tags][name][$eq]=blue'), ['A1', 'A2']);
      assert.deepEqual(await titles('filters[tags][name][$eq]=red'), ['A1']);
    });
    it('through two relations (article → category → articles)', async () => {
      assert.deepEqual(await titles('filters[category][articles][title][$eq]=A1'), ['A1']);
    });
    it('from the inverse side', async () => {
      const res = await server.api.get('/api/authors?filters[articles][title][$eq]=A2');
      assert.deepEqual(
        res.body.data.map((a: any) => a.name),
        ['Bob Stone'],
      );
      assert.equal(res.body.meta.pagination.total, 1);
      const either = await server.api.get(
        '/api/authors?filters[$or][0][articles][title][$eq]=A1&filters[$or][1][articles][tags][name][$eq]=blue',
      );
      assert.deepEqual(either.body.data.map((a: any) => a.name).sort(), ['Ann Lee', 'Bob Stone']);
      assert.equal(either.body.meta.pagination.total, 2);
    });
    it('through components', async () => {
      assert.deepEqual(await titles('filters[seo][metaTitle][$eq]=second'), ['A2']);
      assert.deepEqual(await titles('filters[links][url][$startsWith]=https'), ['A2']);
    });
    it('a missing relation with $null', async () => {
      assert.deepEqual(await titles('filters[$not][author][id][$notNull]=true'), ['A3']);
      assert.deepEqual(await titles('filters[$not][tags][name][$eq]=blue'), ['A3']);
    });
    it('unknown fields deep down name their path', async () => {
      const res = await server.api.get('/api/articles?filters[author][nme][$eq]=x');
      assert.equal(res.status, 400);
      assert.equal(res.body.error.details.path, 'author');
      assert.equal(res.body.error.details.key, 'nme');
    });
    it('filtering on media and dynamic zones is a clear 400', async () => {
      for (const field of ['cover', 'blocks']) {
        const res = await server.api.get(`/api/articles?filters[${field}][$null]=true`);
        assert.equal(res.status, 400);
        assert.match(res.body.error.message, new RegExp(field));
      }
    });
  });
}
