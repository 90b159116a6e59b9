import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, fixture, startServer, type TestServer } from '../helpers/server.js';

/**
 * Keys a body may not carry are refused as Strapi 5.54 refuses them (observed): one
 * ValidationError naming the first such key, `Invalid key <key>[ at <path>]`, with `details`
 * `{ key, path, source: 'body' }`; `id` and `documentId` at the root have no `path`, system fields
 * have their own name as `path`, unknown keys the attribute path of the object holding them (null
 * at the root). Nothing is written.
 */
const tag = () => randomUUID().slice(0, 8);

for (const dialect of DIALECTS) {
  describe(`unknown keys in bodies [${dialect}]`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect, { project: fixture('input-rules') });
    });
    after(() => server?.close());

    /** POSTs a draft `{ name, ...extra }` given as raw JSON text (so `__proto__` stays a key). */
    const post = (name: string, extra: string) =>
      server.api.request('POST', '/api/entries?status=draft', {
        rawBody: `{"data":{"name":"${name}",${extra}}}`,
        headers: { 'content-type': 'application/json' },
      });
    const count = async (name: string) =>
      (await server.api.get(`/api/entries?status=draft&filters[name][$eq]=${name}`)).body.meta.pagination.total;

    it('an unknown attribute, id, documentId, __proto__ and constructor are each a 400 naming the key', async () => {
      const cases: [string, string, Record<string, unknown>][] = [
        ['"colour":"red"', 'Invalid key colour', { key: 'colour', path: null, source: 'body' }],
        ['"id":5', 'Invalid key id', { key: 'id', source: 'body' }],
        ['"documentId":"abc"', 'Invalid key documentId', { key: 'documentId', source: 'body' }],
        ['"__proto__":{"polluted":true}', 'Invalid key __proto__', { key: '__proto__', path: null, source: 'body' }],
        ['"constructor":1', 'Invalid key constructor', { key: 'constructor', path: null, source: 'body' }],
        ['"toString":"x"', 'Invalid key toString', { key: 'toString', path: null, source: 'body' }],
        [
          '"createdAt":"2024-01-01T00:00:00.000Z"',
          'Invalid key createdAt',
          { key: 'createdAt', path: 'createdAt', source: 'body' },
        ],
        ['"updatedBy":1', 'Invalid key updatedBy', { key: 'updatedBy', path: 'updatedBy', source: 'body' }],
        ['"__component":"rules.part"', 'Invalid key __component', { key: '__component', path: null, source: 'body' }],
      ];
      for (const [extra, message, details] of cases) {
        const name = tag();
        const res = await post(name, extra);
        assert.equal(res.status, 400, `${extra}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.error.name, 'ValidationError');
        assert.equal(res.body.error.message, message);
        assert.deepEqual(res.body.error.details, details, extra);
        assert.equal(await count(name), 0, `${extra} wrote nothing`);
      }
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
    });

    it('the same keys are refused by PUT', async () => {
      const created = await server.api.post('/api/entries?status=draft', { data: { name: tag() } });
      const id = created.body.data.documentId;
      for (const key of ['id', 'documentId', 'colour']) {
        const res = await server.api.put(`/api/entries/${id}?status=draft`, { data: { name: 'changed', [key]: 1 } });
        assert.equal(res.status, 400, key);
        assert.equal(res.body.error.details.key, key);
      }
      const read = await server.api.get(`/api/entries/${id}?status=draft`);
      assert.equal(read.body.data.name, created.body.data.name);
    });

    it('publishedAt and locale are ignored (the query says status and locale)', async () => {
      const name = tag();
      const res = await post(name, '"publishedAt":"2024-01-01T00:00:00.000Z","locale":"en"');
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.equal(res.body.data.publishedAt, null);
    });

    it('the first refused key is named: id before system fields before unknown keys', async () => {
      const both = await post(tag(), '"colour":1,"createdAt":"x","id":3');
      assert.deepEqual(both.body.error.details, { key: 'id', source: 'body' });
      const system = await post(tag(), '"colour":1,"part":{"nope":1},"createdAt":"x"');
      assert.deepEqual(system.body.error.details, { key: 'createdAt', path: 'createdAt', source: 'body' });
      const first = await post(tag(), '"colour":1,"shade":2');
      assert.deepEqual(first.body.error.details, { key: 'colour', path: null, source: 'body' });
      // Before any value is judged.
      const withBadValue = await post(tag(), '"level":"ten","colour":1');
      assert.equal(withBadValue.body.error.message, 'Invalid key colour');
    });

    it('keys inside components and zone entries are named with the attribute path holding them', async () => {
      const cases: [string, string, string][] = [
        ['"part":{"label":"ok","nope":1}', 'nope', 'part'],
        ['"parts":[{"label":"ok"},{"label":"ok","nope":1}]', 'nope', 'parts'],
        ['"group":{"title":"t","inner":[{"label":"ok","nope":1}]}', 'nope', 'group.inner'],
        ['"blocks":[{"__component":"rules.note","text":"a","nope":1}]', 'nope', 'blocks'],
        ['"blocks":[{"__component":"rules.group","inner":[{"label":"ok","nope":1}]}]', 'nope', 'blocks.inner'],
        ['"part":{"label":"ok","__component":"rules.part"}', '__component', 'part'],
        ['"part":{"label":"ok","createdAt":"x"}', 'createdAt', 'part'],
        ['"part":{"label":"ok","constructor":1}', 'constructor', 'part'],
      ];
      for (const [extra, key, path] of cases) {
        const name = tag();
        const res = await post(name, extra);
        assert.equal(res.status, 400, `${extra}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.error.message, `Invalid key ${key} at ${path}`);
        assert.deepEqual(res.body.error.details, { key, path, source: 'body' });
        assert.equal(await count(name), 0);
      }
    });

    it('component items may carry id and documentId, zone entries __component', async () => {
      const res = await post(
        tag(),
        '"part":{"label":"ok","documentId":"x"},"blocks":[{"__component":"rules.note","text":"a","id":99999}]',
      );
      assert.equal(res.status, 201, JSON.stringify(res.body));
    });

    it("a component id updates that component; another entry's or an unknown id is a 400 and changes nothing", async () => {
      const a = await server.api.post('/api/entries?status=draft&populate=*', {
        data: { name: tag(), part: { label: 'one' }, parts: [{ label: 'p1' }, { label: 'p2' }] },
      });
      const b = await server.api.post('/api/entries?status=draft&populate=*', {
        data: { name: tag(), part: { label: 'bee' } },
      });
      const aId = a.body.data.documentId;
      const partId = a.body.data.part.id;
      const updated = await server.api.put(`/api/entries/${aId}?status=draft&populate=*`, {
        data: { part: { id: partId, label: 'two' }, parts: [{ id: a.body.data.parts[1].id }] },
      });
      assert.equal(updated.status, 200, JSON.stringify(updated.body));
      assert.deepEqual(updated.body.data.part, { id: partId, label: 'two', weight: null });
      assert.deepEqual(
        updated.body.data.parts.map((p: any) => [p.id, p.label]),
        [[a.body.data.parts[1].id, 'p2']],
      );
      for (const id of [partId, 999999]) {
        const stolen = await server.api.put(`/api/entries/${b.body.data.documentId}?status=draft&populate=*`, {
          data: { name: 'renamed', part: { id, label: 'stolen' } },
        });
        assert.equal(stolen.status, 400, JSON.stringify(stolen.body));
        assert.equal(stolen.body.error.name, 'ApplicationError');
        assert.equal(
          stolen.body.error.message,
          'Some of the provided components in part are not related to the entity',
        );
      }
      const bRead = await server.api.get(`/api/entries/${b.body.data.documentId}?status=draft&populate=*`);
      assert.equal(bRead.body.data.name, b.body.data.name);
      assert.equal(bRead.body.data.part.label, 'bee');
      const aRead = await server.api.get(`/api/entries/${aId}?status=draft&populate=*`);
      assert.deepEqual(aRead.body.data.part, { id: partId, label: 'two', weight: null });
    });
  });
}
