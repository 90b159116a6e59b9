import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { graphql } from '../helpers/graphql.js';
import { DIALECTS, fixture, startServer, type TestServer } from '../helpers/server.js';

/**
 * Drafts are work in progress (Strapi 5's entity validator with `isDraft`): a write with
 * `?status=draft` skips `required`, `minLength`, `regex`, `min`, the email and uid formats, the
 * item counts of repeatable components and zones, and `unique`; it still enforces types, `max`,
 * `maxLength` (255 for strings) and enumerations. Publishing checks the whole stored draft.
 */
const errorPaths = (res: { body: any }) => res.body.error.details.errors.map((e: any) => e.path.join('.')).sort();
const tag = () => randomUUID().slice(0, 6);
/** A document that passes every rule. */
const valid = () => ({ name: `ok ${tag()}`, part: { label: 'fine' } });

for (const dialect of DIALECTS) {
  describe(`draft validation [${dialect}]`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect, { project: fixture('input-rules') });
    });
    after(() => server?.close());

    it('a draft skips required, minLength, regex, min, formats and item counts', async () => {
      const data = {
        name: 'x',
        code: 'abc',
        level: 0,
        contact: 'not an email',
        slug: 'not a slug!',
        part: { weight: 1 },
        parts: [{ label: 'a' }, { label: 'bb' }, { label: 'cc' }, { label: 'dd' }],
        blocks: [
          { __component: 'rules.note' },
          { __component: 'rules.note', text: 'b' },
          { __component: 'rules.part', label: 'c' },
        ],
      };
      const res = await server.api.post('/api/entries?status=draft&populate=*', { data });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.equal(res.body.data.publishedAt, null);
      assert.equal(res.body.data.name, 'x');
      assert.equal(res.body.data.parts.length, 4);
      const empty = await server.api.post('/api/entries?status=draft', { data: {} });
      assert.equal(empty.status, 201, JSON.stringify(empty.body));
      const nulls = await server.api.put(`/api/entries/${empty.body.data.documentId}?status=draft`, {
        data: { name: null, part: null, blocks: [], parts: [] },
      });
      assert.equal(nulls.status, 200, JSON.stringify(nulls.body));
    });

    it('a draft still enforces types, max, maxLength and enumerations, inside components too', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ name: 'a name that is far too long' }, 'name'],
        [{ name: 'x'.repeat(256) }, 'name'],
        [{ level: 11 }, 'level'],
        [{ level: 'ten' }, 'level'],
        [{ kind: 'gamma' }, 'kind'],
        [{ big: '1.5' }, 'big'],
        [{ part: { weight: 9 } }, 'part.weight'],
        [{ parts: [{ label: 7 }] }, 'parts.0.label'],
        [{ blocks: [{ __component: 'rules.part', weight: 6 }] }, 'blocks.0.weight'],
        [{ blocks: [{ __component: 'rules.nope' }] }, 'blocks.0.__component'],
      ];
      for (const [data, path] of cases) {
        const res = await server.api.post('/api/entries?status=draft', { data });
        assert.equal(res.status, 400, `${JSON.stringify(data)}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.error.name, 'ValidationError');
        assert.deepEqual(errorPaths(res), [path], JSON.stringify(data));
      }
      const created = await server.api.post('/api/entries?status=draft', { data: {} });
      const put = await server.api.put(`/api/entries/${created.body.data.documentId}?status=draft`, {
        data: { level: 11 },
      });
      assert.equal(put.status, 400);
      assert.deepEqual(errorPaths(put), ['level']);
    });

    it('creating without status checks every rule, in components and zones too', async () => {
      const res = await server.api.post('/api/entries', {
        data: {
          name: 'x',
          code: 'abc',
          level: 0,
          contact: 'nope',
          slug: 'bad slug',
          part: { weight: 1 },
          parts: [{ label: 'aa' }, { label: 'bb' }, { label: 'cc' }, { label: 'dd' }],
          blocks: [{ __component: 'rules.note' }],
        },
      });
      assert.equal(res.status, 400);
      assert.deepEqual(errorPaths(res), [
        'blocks.0.text',
        'code',
        'contact',
        'level',
        'name',
        'part.label',
        'parts',
        'slug',
      ]);
      const missing = await server.api.post('/api/entries', { data: {} });
      assert.deepEqual(errorPaths(missing), ['name', 'part']);
      const zone = await server.api.post('/api/entries', {
        data: { ...valid(), blocks: [1, 2, 3].map((n) => ({ __component: 'rules.note', text: `${n}` })) },
      });
      assert.deepEqual(errorPaths(zone), ['blocks']);
    });

    it('the min of an optional repeatable component or zone applies to a non-empty list only', async () => {
      const empty = await server.api.post('/api/entries', { data: { ...valid(), parts: [], blocks: [] } });
      assert.equal(empty.status, 201, JSON.stringify(empty.body));
    });

    it('publishing a draft with PUT checks the whole stored draft and changes nothing when it fails', async () => {
      const draft = await server.api.post('/api/entries?status=draft', {
        data: { name: 'x', level: 0, part: { label: 'a' }, blocks: [{ __component: 'rules.note' }] },
      });
      const id = draft.body.data.documentId;
      const res = await server.api.put(`/api/entries/${id}`, { data: { kind: 'beta' } });
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.deepEqual(errorPaths(res), ['blocks.0.text', 'level', 'name', 'part.label']);
      const stored = await server.api.get(`/api/entries/${id}?status=draft`);
      assert.equal(stored.body.data.kind, null, 'the failed publish did not keep its edit');
      assert.equal((await server.api.get(`/api/entries/${id}`)).status, 404, 'not published');
      const fixed = await server.api.put(`/api/entries/${id}?populate=*`, {
        data: {
          name: 'fixed name',
          level: 1,
          part: { label: 'ab' },
          blocks: [{ __component: 'rules.note', text: 't' }],
        },
      });
      assert.equal(fixed.status, 200, JSON.stringify(fixed.body));
      assert.notEqual(fixed.body.data.publishedAt, null);
    });

    it('the publish action checks the draft as well', async () => {
      const draft = await server.api.post('/api/entries?status=draft', { data: { name: 'x' } });
      const id = draft.body.data.documentId;
      const res = await server.api.post(`/api/entries/${id}/actions/publish`);
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.deepEqual(errorPaths(res), ['name', 'part']);
      assert.equal((await server.api.get(`/api/entries/${id}`)).status, 404);
      await server.api.put(`/api/entries/${id}?status=draft`, { data: valid() });
      const ok = await server.api.post(`/api/entries/${id}/actions/publish`);
      assert.equal(ok.status, 200, JSON.stringify(ok.body));
    });

    it('unique holds among published documents: drafts may share a value until one is published', async () => {
      const code = tag()
        .replace(/[^a-z]/g, 'q')
        .slice(0, 3)
        .toUpperCase()
        .padEnd(3, 'Q');
      const first = await server.api.post('/api/entries', { data: { ...valid(), code } });
      assert.equal(first.status, 201, JSON.stringify(first.body));
      const second = await server.api.post('/api/entries?status=draft', { data: { ...valid(), code } });
      const third = await server.api.post('/api/entries?status=draft', { data: { ...valid(), code } });
      assert.equal(second.status, 201, JSON.stringify(second.body));
      assert.equal(third.status, 201);
      const publish = await server.api.put(`/api/entries/${second.body.data.documentId}`, { data: {} });
      assert.equal(publish.status, 400);
      assert.deepEqual(res(publish), {
        path: ['code'],
        message: 'This attribute must be unique',
        name: 'ValidationError',
        value: code,
      });
      const action = await server.api.post(`/api/entries/${third.body.data.documentId}/actions/publish`);
      assert.equal(action.status, 400);
      const direct = await server.api.post('/api/entries', { data: { ...valid(), code } });
      assert.equal(direct.status, 400);
      assert.deepEqual(errorPaths(direct), ['code']);
      // The published document keeps its own value when published again.
      const again = await server.api.put(`/api/entries/${first.body.data.documentId}`, { data: { name: 'renamed' } });
      assert.equal(again.status, 200, JSON.stringify(again.body));
    });

    it('GraphQL: a draft mutation skips the same rules, publishing checks them', async () => {
      const draft = await graphql(
        server,
        'mutation { createEntry(data: { name: "x", publishedAt: null }) { data { id } } }',
      );
      assert.equal(draft.body.errors, undefined, JSON.stringify(draft.body));
      const published = await graphql(server, 'mutation { createEntry(data: { name: "x" }) { data { id } } }');
      assert.ok(published.body.errors?.length, JSON.stringify(published.body));
      assert.equal(
        published.body.errors![0].extensions?.error?.name ?? published.body.errors![0].extensions?.code,
        'ValidationError',
      );
    });
  });
}

const res = (r: { body: any }) => r.body.error.details.errors[0];

for (const dialect of DIALECTS) {
  describe(`publishing re-reads every scalar type [${dialect}]`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect, { project: fixture('input-rules') });
    });
    after(() => server?.close());

    it('a draft holding every scalar type (a password, a private value) publishes with its values intact', async () => {
      const data = {
        name: `Every ${tag()}`,
        code: 'EVR',
        notes: 'Long text',
        body: '# rich',
        content: [{ type: 'paragraph', children: [{ type: 'text', text: 'Hello' }] }],
        state: 'live',
        contact: 'someone@example.com',
        secret: 'a-long-secret',
        day: '2024-02-29',
        at: '13:45:30.250',
        moment: '2024-03-01T10:20:30.123Z',
        stamp: '2024-03-01T10:20:30.000Z',
        count: 42,
        big: '9007199254740993',
        ratio: 0.125,
        price: 19.99,
        active: false,
        extra: { nested: [1, 'two'] },
        internal: 'hidden',
      };
      const draft = await server.api.post('/api/records?status=draft', { data });
      assert.equal(draft.status, 201, JSON.stringify(draft.body));
      const published = await server.api.post(`/api/records/${draft.body.data.documentId}/actions/publish`);
      assert.equal(published.status, 200, JSON.stringify(published.body));
      const read = await server.api.get(`/api/records/${draft.body.data.documentId}`);
      const { secret: _s, internal: _i, ...visible } = data;
      // As the draft answered them (a timestamp reads back in Strapi's own format).
      for (const key of Object.keys(visible)) assert.deepEqual(read.body.data[key], draft.body.data[key], key);
      assert.equal(read.body.data.big, data.big);
      const missing = await server.api.post('/api/records?status=draft', { data: { name: `No secret ${tag()}` } });
      const refused = await server.api.post(`/api/records/${missing.body.data.documentId}/actions/publish`);
      assert.equal(refused.status, 400);
      assert.deepEqual(errorPaths(refused), ['secret']);
    });
  });
}
