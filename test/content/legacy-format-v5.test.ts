import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, fixture, startServer, type TestServer } from '../helpers/server.js';

const V4 = { headers: { 'Strapi-Response-Format': 'v4' } };

/**
 * The earlier response format as Strapi 5.54 answers it (issue 14, point 11): `documentId` beside
 * `id`, `fields` inside `attributes`, a count wrapped like an entry; DELETE answers the deleted
 * entry (docs/rest.md "Earlier response format (v4)"; Strapi 5.54 answers 204 there). GraphQL's `publicationState: LIVE` lists
 * published versions only.
 */
for (const dialect of DIALECTS) {
  describe(`earlier response format, Strapi 5 details [${dialect}]`, () => {
    let server: TestServer;
    let tag: string;
    let target: string;
    before(async () => {
      server = await startServer(dialect, { project: fixture('relation-matrix') });
      tag = `lv-${randomUUID().slice(0, 8)}`;
      target = (await server.api.post('/api/targets', { data: { name: `${tag}-t` } })).body.data.documentId;
    });
    after(() => server?.close());

    const createOwner = async (name: string) => {
      const res = await server.api.post(
        '/api/owners',
        { data: { name, manyToOneBi: target, block: { caption: 'c', manyToOne: target } } },
        V4,
      );
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body.data;
    };

    it('documentId sits beside id, at every level', async () => {
      const created = await createOwner(`${tag}-o1`);
      assert.equal(typeof created.documentId, 'string');
      assert.equal('documentId' in created.attributes, false);
      const res = await server.api.get(
        `/api/owners/${created.documentId}?populate[manyToOneBi]=true&populate[block][populate]=manyToOne`,
        V4,
      );
      const { data } = res.body;
      assert.deepEqual(Object.keys(data), ['id', 'documentId', 'attributes']);
      assert.equal(data.attributes.manyToOneBi.data.documentId, target);
      assert.equal('documentId' in data.attributes.manyToOneBi.data.attributes, false);
      assert.equal(data.attributes.block.manyToOne.data.documentId, target);
    });

    it('fields apply inside attributes, in lists, single documents and writes', async () => {
      const created = await createOwner(`${tag}-o2`);
      const one = await server.api.get(`/api/owners/${created.documentId}?fields[0]=name`, V4);
      assert.deepEqual(one.body.data.attributes, { name: `${tag}-o2` });
      assert.equal(one.body.data.documentId, created.documentId);
      const list = await server.api.get(`/api/owners?filters[name][$eq]=${tag}-o2&fields[0]=name`, V4);
      assert.deepEqual(
        list.body.data.map((d: any) => [d.documentId, d.attributes]),
        [[created.documentId, { name: `${tag}-o2` }]],
      );
      const put = await server.api.put(
        `/api/owners/${created.documentId}?fields[0]=name`,
        { data: { name: `${tag}-o2b` } },
        V4,
      );
      assert.deepEqual(put.body.data.attributes, { name: `${tag}-o2b` });
    });

    it('a count is wrapped like an entry', async () => {
      const created = await createOwner(`${tag}-o3`);
      const res = await server.api.get(`/api/owners/${created.documentId}?populate[manyToManyBi][count]=true`, V4);
      assert.deepEqual(res.body.data.attributes.manyToManyBi, { data: { attributes: { count: 0 } } });
    });

    it('DELETE answers the deleted entry; without the header 204', async () => {
      const created = await createOwner(`${tag}-o4`);
      const res = await server.api.delete(`/api/owners/${created.documentId}?populate=manyToOneBi`, V4);
      assert.equal(res.status, 200);
      assert.equal(res.body.data.documentId, created.documentId);
      assert.equal(res.body.data.attributes.name, `${tag}-o4`);
      assert.equal(res.body.data.attributes.manyToOneBi.data.documentId, target);
      assert.deepEqual(res.body.meta, {});
      assert.equal((await server.api.get(`/api/owners/${created.documentId}`)).status, 404);
      assert.equal((await server.api.delete(`/api/owners/${created.documentId}`, V4)).status, 404);
      const draft = (await server.api.post('/api/owners?status=draft', { data: { name: `${tag}-o5` } })).body.data
        .documentId;
      const deletedDraft = await server.api.delete(`/api/owners/${draft}`, V4);
      assert.equal(deletedDraft.body.data.attributes.publishedAt, null, 'a document never published answers its draft');
      const plain = await createOwner(`${tag}-o6`);
      const current = await server.api.delete(`/api/owners/${plain.documentId}`);
      assert.equal(current.status, 204);
      assert.equal(current.text, '');
    });

    it('DELETE of one locale answers that locale', async () => {
      const label = (await server.api.post('/api/labels', { data: { name: `${tag}-l-en` } })).body.data.documentId;
      await server.api.put(`/api/labels/${label}?locale=fr`, { data: { name: `${tag}-l-fr` } });
      const res = await server.api.delete(`/api/labels/${label}?locale=fr`, V4);
      assert.equal(res.status, 200);
      assert.equal(res.body.data.attributes.name, `${tag}-l-fr`);
      assert.equal((await server.api.get(`/api/labels/${label}`)).body.data.name, `${tag}-l-en`);
    });

    it('GraphQL publicationState: LIVE lists published versions only, PREVIEW drafts', async () => {
      const published = (await server.api.post('/api/targets', { data: { name: `${tag}-live` } })).body.data.documentId;
      await server.api.put(`/api/targets/${published}?status=draft`, { data: { name: `${tag}-live-edited` } });
      const draftOnly = (await server.api.post('/api/targets?status=draft', { data: { name: `${tag}-draft` } })).body
        .data.documentId;
      const owner = await server.api.post('/api/owners', {
        data: { name: `${tag}-gql`, manyToManyBi: [published, draftOnly] },
      });
      assert.equal(owner.status, 201);
      const names = async (state: string, extra = '') => {
        const res = await server.api.post('/graphql', {
          query: `{ targets(filters: { name: { startsWith: "${tag}-" }${extra} }, sort: "name"${state}) { data { attributes { name publishedAt } } } }`,
        });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        return res.body.data.targets.data.map((d: any) => d.attributes.name);
      };
      assert.deepEqual(await names(', publicationState: LIVE'), [`${tag}-live`, `${tag}-t`]);
      assert.deepEqual(await names(''), [`${tag}-live`, `${tag}-t`]);
      assert.deepEqual(await names(', publicationState: LIVE', ', publishedAt: { null: true }'), []);
      assert.deepEqual(await names(', publicationState: PREVIEW'), [`${tag}-draft`, `${tag}-live-edited`, `${tag}-t`]);
      // The earlier format's drafts-only query: PREVIEW with publishedAt null finds documents never published.
      assert.deepEqual(await names(', publicationState: PREVIEW', ', publishedAt: { null: true }'), [`${tag}-draft`]);
      assert.deepEqual(await names(', publicationState: PREVIEW', ', publishedAt: { notNull: true }'), [
        `${tag}-live-edited`,
        `${tag}-t`,
      ]);
      const nested = await server.api.post('/graphql', {
        query: `{ owners(filters: { name: { eq: "${tag}-gql" } }, publicationState: LIVE) { data { attributes { manyToManyBi { data { attributes { name } } } } } } }`,
      });
      assert.deepEqual(
        nested.body.data.owners.data[0].attributes.manyToManyBi.data.map((d: any) => d.attributes.name),
        [`${tag}-live`],
      );
    });
  });
}
