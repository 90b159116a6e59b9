import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, fixture, startServer, type TestServer } from '../helpers/server.js';
import { unique } from '../helpers/unique.js';

const valid = {
  name: 'Widget',
  code: 'ABC',
  notes: 'Long text\nwith lines',
  body: '# Markdown *rich* text',
  content: [{ type: 'paragraph', children: [{ type: 'text', text: 'Hello' }] }],
  state: 'live',
  contact: 'someone@example.com',
  secret: 'hunter22',
  day: '2024-02-29',
  at: '13:45:30.250',
  moment: '2024-03-01T10:20:30.123Z',
  stamp: '2024-03-01T10:20:30.000Z',
  count: 42,
  big: '9223372036854775807',
  ratio: 0.125,
  price: 19.99,
  active: false,
  extra: { nested: [1, 'two', { three: true }], unicode: 'ünïcødé ✓' },
  internal: 'hidden',
};

const errorPaths = (res: { body: any }) => res.body.error.details.errors.map((e: any) => e.path.join('.'));

for (const dialect of DIALECTS) {
  describe(`attribute types and constraints, docs/rest.md "Bodies" [${dialect}]`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect, { project: fixture('all-types') });
    });
    after(() => server?.close());

    it('stores and returns every scalar type faithfully', async () => {
      const res = await server.api.post('/api/samples', { data: valid });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      const doc = res.body.data;
      const { secret: _s, internal: _i, ...visible } = valid;
      // A timestamp is answered as Strapi 5.54 answers it: milliseconds since 1970, as a string.
      const expected = { ...visible, stamp: String(Date.parse(valid.stamp)) };
      for (const [key, value] of Object.entries(expected)) assert.deepEqual(doc[key], value, key);
      assert.equal(doc.slug, 'widget', 'uid generated from targetField');
      const read = await server.api.get(`/api/samples/${doc.documentId}`);
      assert.deepEqual(read.body.data, doc);
    });

    it('never returns passwords or private attributes', async () => {
      const res = await server.api.post('/api/samples', { data: { ...valid, code: 'PWD', name: 'Pw' } });
      assert.equal('secret' in res.body.data, false);
      assert.equal('internal' in res.body.data, false);
      const list = await server.api.get('/api/samples');
      for (const doc of list.body.data) {
        assert.equal('secret' in doc, false);
        assert.equal('internal' in doc, false);
      }
      assert.equal(list.text.includes('hunter22'), false);
    });

    it('biginteger keeps full precision as a string', async () => {
      const res = await server.api.post('/api/samples', { data: { name: 'Big', big: '-9223372036854775808' } });
      assert.equal(res.body.data.big, '-9223372036854775808');
      const number = await server.api.post('/api/samples', { data: { name: 'Big2', big: 12345 } });
      assert.equal(number.body.data.big, '12345');
    });

    it('applies defaults when attributes are omitted', async () => {
      const res = await server.api.post('/api/samples', { data: { name: 'Defaults' } });
      assert.equal(res.body.data.state, 'draft');
      assert.equal(res.body.data.active, true);
      assert.equal(res.body.data.count, null);
    });

    it('uids are generated unique and checked against their pattern', async () => {
      const a = await server.api.post('/api/samples', { data: { name: 'Same Name' } });
      const b = await server.api.post('/api/samples', { data: { name: 'Same Name' } });
      assert.equal(a.body.data.slug, 'same-name');
      assert.equal(b.body.data.slug, 'same-name-1');
      const bad = await server.api.post('/api/samples', { data: { name: 'Bad uid', slug: 'has spaces!' } });
      assert.equal(bad.status, 400);
      assert.deepEqual(errorPaths(bad), ['slug']);
      const taken = await server.api.post('/api/samples', { data: { name: 'Taken', slug: 'same-name' } });
      assert.equal(taken.status, 400);
      assert.deepEqual(errorPaths(taken), ['slug']);
    });

    it('a generated uid takes the first free numeric suffix, looked up by exact values', async () => {
      const name = unique('Suffix');
      const root = name.toLowerCase().replace(/[^a-z0-9._~]+/g, '-');
      const slugs: string[] = [];
      for (let i = 0; i < 10; i++) {
        const res = await server.api.post('/api/samples', { data: { name } });
        assert.equal(res.status, 201, JSON.stringify(res.body));
        slugs.push(res.body.data.slug);
      }
      assert.deepEqual(slugs, [root, ...Array.from({ length: 9 }, (_, i) => `${root}-${i + 1}`)]);
      // Past the first batch of candidates; no statement walks the locale with a pattern.
      const statements: string[] = [];
      const stop = server.vellum.database.observe((statement) => statements.push(statement));
      let res;
      try {
        res = await server.api.post('/api/samples', { data: { name } });
      } finally {
        stop();
      }
      assert.equal(res.body.data.slug, `${root}-10`);
      assert.deepEqual(
        statements.filter((statement) => / like /i.test(statement)),
        [],
      );
    });

    it('rejects wrong types with one error per attribute, each with its path', async () => {
      const res = await server.api.post('/api/samples', {
        data: {
          name: 42,
          content: 'not blocks',
          state: 'deleted',
          contact: 'not-an-email',
          day: '2024-13-45',
          at: '25:00',
          moment: 'yesterday',
          count: 1.5,
          big: '12abc',
          ratio: 'fast',
          price: 'cheap',
          active: 'yes',
        },
      });
      assert.equal(res.status, 400);
      assert.equal(res.body.error.name, 'ValidationError');
      assert.deepEqual(
        errorPaths(res).sort(),
        [
          'active',
          'at',
          'big',
          'contact',
          'content',
          'count',
          'day',
          'moment',
          'name',
          'price',
          'ratio',
          'state',
        ].sort(),
      );
      for (const error of res.body.error.details.errors) {
        assert.equal(typeof error.message, 'string');
        assert.equal(error.name, 'ValidationError');
      }
    });

    it('applies required, min/max, minLength/maxLength and regex', async () => {
      const missing = await server.api.post('/api/samples', { data: { notes: 'no name' } });
      assert.equal(missing.status, 400);
      assert.deepEqual(errorPaths(missing), ['name']);
      const bounds = await server.api.post('/api/samples', { data: { name: 'x', count: 1001, code: 'abcd' } });
      assert.equal(bounds.status, 400);
      assert.deepEqual(errorPaths(bounds).sort(), ['code', 'count', 'name']);
      const tooLong = await server.api.post('/api/samples', { data: { name: 'x'.repeat(21) } });
      assert.deepEqual(errorPaths(tooLong), ['name']);
      const negative = await server.api.post('/api/samples', { data: { name: 'ok', count: -1 } });
      assert.deepEqual(errorPaths(negative), ['count']);
      const nullRequired = await server.api.post('/api/samples', { data: { name: null } });
      assert.deepEqual(errorPaths(nullRequired), ['name']);
    });

    it('a required attribute cannot be cleared by PUT', async () => {
      const created = (await server.api.post('/api/samples', { data: { name: 'Keep' } })).body.data;
      const res = await server.api.put(`/api/samples/${created.documentId}`, { data: { name: null } });
      assert.equal(res.status, 400);
      assert.deepEqual(errorPaths(res), ['name']);
    });

    it('rejects a duplicate unique value, on create and on update', async () => {
      const first = await server.api.post('/api/samples', { data: { name: 'U1', code: 'UNQ' } });
      assert.equal(first.status, 201);
      const dup = await server.api.post('/api/samples', { data: { name: 'U2', code: 'UNQ' } });
      assert.equal(dup.status, 400);
      assert.deepEqual(errorPaths(dup), ['code']);
      const other = (await server.api.post('/api/samples', { data: { name: 'U3', code: 'OTH' } })).body.data;
      const update = await server.api.put(`/api/samples/${other.documentId}`, { data: { code: 'UNQ' } });
      assert.equal(update.status, 400);
      const self = await server.api.put(`/api/samples/${first.body.data.documentId}`, {
        data: { code: 'UNQ', name: 'U1b' },
      });
      assert.equal(self.status, 200, 'a document keeps its own unique value');
    });

    it('rejects unknown attributes, naming them', async () => {
      const res = await server.api.post('/api/samples', { data: { name: 'X1', colour: 'red' } });
      assert.equal(res.status, 400);
      assert.equal(res.body.error.message, 'Invalid key colour');
      assert.deepEqual(res.body.error.details, { key: 'colour', path: null, source: 'body' });
    });

    // Strapi 5 refuses a document echoed back (its `id` and `documentId`); earlier Vellum ignored them.
    it('refuses system keys echoed back by clients, as Strapi 5 does', async () => {
      const created = (await server.api.post('/api/samples', { data: { name: 'Echo' } })).body.data;
      const res = await server.api.put(`/api/samples/${created.documentId}`, { data: { ...created, name: 'Echo 2' } });
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.deepEqual(res.body.error.details, { key: 'id', source: 'body' });
      const read = await server.api.get(`/api/samples/${created.documentId}`);
      assert.equal(read.body.data.name, 'Echo');
    });

    it('single types of a project are served at their singular name', async () => {
      const res = await server.api.put('/api/setting', { data: { siteName: 'S' } });
      assert.equal(res.status, 200);
      const missing = await server.api.put('/api/setting', { data: { siteName: null } });
      assert.equal(missing.status, 400);
    });

    it('api.rest.defaultLimit from the project configuration sizes the default page', async () => {
      const list = await server.api.get('/api/samples');
      assert.equal(list.body.meta.pagination.pageSize, 10);
    });
  });
}
