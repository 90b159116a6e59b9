import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, fixture, startServer, type TestServer } from '../helpers/server.js';

/**
 * Relations and components that are absent (issue 14, point 7): Strapi filters through them with a
 * LEFT JOIN, so `$null` on the relation or on a field of it finds the documents without one.
 */
for (const dialect of DIALECTS) {
  describe(`filters on absent relations and components [${dialect}]`, () => {
    let server: TestServer;
    let tag: string;
    let target: { id: number; documentId: string };
    before(async () => {
      server = await startServer(dialect, { project: fixture('relation-matrix') });
      tag = `nr-${randomUUID().slice(0, 8)}`;
      const create = async (plural: string, data: Record<string, unknown>, query = '') => {
        const res = await server.api.post(`/api/${plural}${query}`, { data });
        assert.equal(res.status, 201, JSON.stringify(res.body));
        return res.body.data as { id: number; documentId: string };
      };
      target = await create('targets', { name: `${tag}-t` });
      const draftOnly = await create('targets', { name: `${tag}-draft` }, '?status=draft');
      // A has everything; B nothing; C a block without relations and a relation to a draft-only target.
      await create('owners', {
        name: `${tag}-A`,
        manyToOneBi: target.documentId,
        manyToManyBi: [target.documentId],
        oneToOneBi: target.documentId,
        block: { caption: 'x', manyToOne: target.documentId },
        blocks: [{ caption: 'y', manyToMany: [target.documentId] }],
        zone: [{ __component: 'matrix.nested', heading: 'h', links: [{ caption: 'z', oneToOne: target.documentId }] }],
      });
      await create('owners', { name: `${tag}-B` });
      await create('owners', { name: `${tag}-C`, block: { caption: null }, manyToOneBi: draftOnly.documentId });
    });
    after(() => server?.close());

    /** The names' last letters of the owners of this test that match `filters`, in name order. */
    const owners = async (filters: string, extra = '') => {
      const res = await server.api.get(`/api/owners?filters[name][$startsWith]=${tag}&${filters}&sort=name${extra}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.data.map((d: { name: string }) => d.name.slice(-1)).join('');
    };

    it('$null and $notNull on a to-one relation, directly or on its id', async () => {
      assert.equal(
        await owners('filters[manyToOneBi][id][$null]=true'),
        'BC',
        'C links only a draft: no published target',
      );
      assert.equal(await owners('filters[manyToOneBi][$null]=true'), 'BC');
      assert.equal(await owners('filters[manyToOneBi][$notNull]=true'), 'A');
      assert.equal(await owners('filters[manyToOneBi][$null]=false'), 'A');
      assert.equal(await owners('filters[manyToOneBi][id][$notNull]=true'), 'A');
      assert.equal(await owners('filters[oneToOneBi][$null]=true'), 'BC');
      assert.equal(await owners('filters[manyToOneBi][documentId][$null]=true'), 'BC');
    });

    it('a null test on a related field also finds documents without the relation', async () => {
      assert.equal(await owners('filters[manyToOneBi][name][$null]=true'), 'BC');
      assert.equal(await owners('filters[manyToOneBi][name][$ne]=zz'), 'A', 'other operators need a related row');
      assert.equal(await owners('filters[manyToOneBi][$and][0][name][$null]=true'), 'BC');
      assert.equal(await owners('filters[$not][manyToOneBi][id][$null]=true'), 'A');
      assert.equal(await owners('filters[$or][0][manyToOneBi][$null]=true&filters[$or][1][name][$endsWith]=A'), 'ABC');
    });

    it('to-many relations, both sides', async () => {
      assert.equal(await owners('filters[manyToManyBi][id][$null]=true'), 'BC');
      assert.equal(await owners('filters[manyToManyBi][$null]=true'), 'BC');
      assert.equal(await owners('filters[manyToManyBi][$notNull]=true'), 'A');
      assert.equal(await owners('filters[oneToManyBi][$null]=true'), 'ABC');
      const res = await server.api.get(
        `/api/targets?filters[name][$startsWith]=${tag}&filters[manyToManyInv][$null]=true`,
      );
      assert.deepEqual(
        res.body.data.map((d: { name: string }) => d.name),
        [],
        'the target has an owner',
      );
      const notNull = await server.api.get(
        `/api/targets?filters[name][$startsWith]=${tag}&filters[manyToManyInv][id][$notNull]=true`,
      );
      assert.deepEqual(
        notNull.body.data.map((d: { name: string }) => d.name),
        [`${tag}-t`],
      );
    });

    it('components and relations inside components', async () => {
      assert.equal(await owners('filters[block][$null]=true'), 'B');
      assert.equal(await owners('filters[block][id][$null]=true'), 'B');
      assert.equal(await owners('filters[block][$notNull]=true'), 'AC');
      assert.equal(await owners('filters[blocks][$null]=true'), 'BC');
      assert.equal(await owners('filters[block][caption][$null]=true'), 'BC');
      assert.equal(await owners('filters[block][manyToOne][$null]=true'), 'BC');
      assert.equal(await owners('filters[block][manyToOne][id][$null]=true'), 'BC');
      assert.equal(await owners('filters[blocks][manyToMany][$null]=true'), 'BC');
    });

    it('an operator or a bare value on the relation applies to the related id', async () => {
      assert.equal(await owners(`filters[manyToOneBi]=${target.id}`), 'A');
      assert.equal(await owners(`filters[manyToOneBi][$eq]=${target.id}`), 'A');
      assert.equal(await owners(`filters[manyToOneBi][$in][0]=${target.id}`), 'A');
      assert.equal(await owners(`filters[manyToOneBi][$ne]=${target.id}`), '', 'a missing relation is not different');
    });

    it('the total counts the same documents as the page', async () => {
      const res = await server.api.get(
        `/api/owners?filters[name][$startsWith]=${tag}&filters[manyToManyBi][$null]=true&pagination[pageSize]=1`,
      );
      assert.equal(res.body.meta.pagination.total, 2);
      const block = await server.api.get(
        `/api/owners?filters[name][$startsWith]=${tag}&filters[block][caption][$null]=true&pagination[pageSize]=1`,
      );
      assert.equal(block.body.meta.pagination.total, 2);
    });

    it('operators beside field names, or two operators, on a relation are a 400', async () => {
      for (const query of [
        'filters[manyToOneBi][$null]=true&filters[manyToOneBi][name]=x',
        'filters[manyToOneBi][$null]=true&filters[manyToOneBi][$notNull]=false',
      ]) {
        const res = await server.api.get(`/api/owners?${query}`);
        assert.equal(res.status, 400, query);
        assert.equal(res.body.error.name, 'ValidationError');
        assert.equal(res.body.error.details.param, 'filters');
      }
    });
  });
}
