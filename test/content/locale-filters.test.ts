import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, fixture, startServer, type TestServer } from '../helpers/server.js';

/**
 * The locale of a read (issue 14, point 9). Strapi merges `?locale` (default: the default locale)
 * with the filters, filters last: a `locale` key at the top of `filters` replaces the lookup.
 * `locale=*` reads every locale, `locale[0]=en&locale[1]=fr` several.
 */
for (const dialect of DIALECTS) {
  describe(`locale in filters [${dialect}]`, () => {
    let server: TestServer;
    let tag: string;
    let l1: string;
    let page: string;
    before(async () => {
      server = await startServer(dialect, { project: fixture('relation-matrix') });
      tag = `lf-${randomUUID().slice(0, 8)}`;
      const ok = async (promise: Promise<{ status: number; body: any }>) => {
        const res = await promise;
        assert.ok(res.status === 200 || res.status === 201, JSON.stringify(res.body));
        return res.body.data.documentId as string;
      };
      l1 = await ok(server.api.post('/api/labels', { data: { name: `${tag}-l1-en` } }));
      await ok(server.api.put(`/api/labels/${l1}?locale=fr`, { data: { name: `${tag}-l1-fr` } }));
      await ok(server.api.post('/api/labels?locale=fr', { data: { name: `${tag}-l2-fr` } }));
      await ok(server.api.post('/api/labels', { data: { name: `${tag}-l3-en` } }));
      page = await ok(server.api.post('/api/pages', { data: { title: `${tag}-p-en` } }));
      await ok(server.api.put(`/api/pages/${page}?locale=fr&status=draft`, { data: { title: `${tag}-p-fr` } }));
    });
    after(() => server?.close());

    /** Names (without the tag) of this test's labels matching `query`, in name order. */
    const labels = async (query: string) => {
      const res = await server.api.get(`/api/labels?filters[name][$startsWith]=${tag}&sort=name&${query}`);
      assert.equal(res.status, 200, `${query}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.meta.pagination.total, res.body.data.length);
      return res.body.data.map((d: { name: string }) => d.name.slice(tag.length + 1)).join(' ');
    };

    it('filters[locale] without ?locale selects that locale', async () => {
      assert.equal(await labels('filters[locale][$eq]=fr'), 'l1-fr l2-fr');
      assert.equal(await labels('filters[locale]=fr'), 'l1-fr l2-fr');
      assert.equal(await labels('filters[locale][$in][0]=fr&filters[locale][$in][1]=en'), 'l1-en l1-fr l2-fr l3-en');
      assert.equal(await labels('filters[locale][$ne]=en'), 'l1-fr l2-fr');
      assert.equal(await labels('filters[locale][$eqi]=FR'), 'l1-fr l2-fr');
      assert.equal(await labels('filters[locale][$null]=true'), '');
    });

    it('filters[locale] wins over ?locale', async () => {
      assert.equal(await labels('filters[locale][$eq]=fr&locale=en'), 'l1-fr l2-fr');
      assert.equal(await labels('filters[locale][$eq]=en&locale=fr'), 'l1-en l3-en');
    });

    it('a locale condition inside $and, $or or $not adds to the lookup', async () => {
      assert.equal(await labels('filters[$and][0][locale]=fr'), '');
      assert.equal(await labels('filters[$or][0][locale]=fr&filters[$or][1][name][$endsWith]=l3-en'), 'l3-en');
      assert.equal(await labels('filters[$not][locale]=en'), '');
    });

    it('locale=* reads every locale; a list of locales reads those', async () => {
      assert.equal(await labels('locale=*'), 'l1-en l1-fr l2-fr l3-en');
      assert.equal(await labels('locale[0]=en&locale[1]=fr'), 'l1-en l1-fr l2-fr l3-en');
      assert.equal(await labels('locale[0]=fr'), 'l1-fr l2-fr');
      assert.equal(await labels('locale=*&filters[locale]=fr'), 'l1-fr l2-fr');
    });

    it('draft and publish still apply', async () => {
      const published = await server.api.get(`/api/pages?filters[title][$startsWith]=${tag}&filters[locale]=fr`);
      assert.deepEqual(published.body.data, [], 'the French page is a draft');
      const drafts = await server.api.get(
        `/api/pages?filters[title][$startsWith]=${tag}&filters[locale]=fr&status=draft`,
      );
      assert.deepEqual(
        drafts.body.data.map((d: { title: string }) => d.title),
        [`${tag}-p-fr`],
      );
    });

    it('a single document: filters[locale] picks its locale, other filters may exclude it', async () => {
      const fr = await server.api.get(`/api/labels/${l1}?filters[locale]=fr`);
      assert.equal(fr.status, 200);
      assert.equal(fr.body.data.name, `${tag}-l1-fr`);
      const both = await server.api.get(`/api/labels/${l1}?locale=*&filters[locale]=fr`);
      assert.equal(both.body.data.name, `${tag}-l1-fr`);
      const excluded = await server.api.get(`/api/labels/${l1}?filters[name][$endsWith]=fr`);
      assert.equal(excluded.status, 404, 'the English version does not match');
      const star = await server.api.get(`/api/labels/${l1}?locale=*`);
      assert.equal(star.status, 400, 'a single document is read in one locale');
      assert.equal(star.body.error.details.param, 'locale');
    });

    it('GraphQL filters on locale select it too', async () => {
      const query = `{ labels(filters: { name: { startsWith: "${tag}" }, locale: { eq: "fr" } }, sort: "name") { data { attributes { name } } } }`;
      const res = await server.api.post('/graphql', { query });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(
        res.body.data.labels.data.map((d: any) => d.attributes.name),
        [`${tag}-l1-fr`, `${tag}-l2-fr`],
      );
    });
  });
}
