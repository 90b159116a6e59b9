import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, fixture, startServer, type TestServer } from '../helpers/server.js';

/**
 * The other top-level parameters of Strapi 5.54's content API (issue 14, point 10): `_q`,
 * `publicationFilter` and `hasPublishedVersion` do what Strapi does; those Strapi refuses are
 * refused (never silently ignored); filters and `_q` apply to a single document too.
 */
for (const dialect of DIALECTS) {
  describe(`top-level query parameters [${dialect}]`, () => {
    let server: TestServer;
    let tag: string;
    const ids: Record<string, { id: number; documentId: string }> = {};
    before(async () => {
      server = await startServer(dialect, { project: fixture('relation-matrix') });
      tag = `qp-${randomUUID().slice(0, 8)}`;
      const create = async (plural: string, data: Record<string, unknown>, query = '') => {
        const res = await server.api.post(`/api/${plural}${query}`, { data });
        assert.equal(res.status, 201, JSON.stringify(res.body));
        return res.body.data as { id: number; documentId: string };
      };
      ids.A = await create('targets', { name: `${tag} Alpha one` });
      ids.B = await create('targets', { name: `${tag} beta 50%_off` });
      const edited = await server.api.put(`/api/targets/${ids.B.documentId}?status=draft`, {
        data: { name: `${tag} beta 50%_off` },
      });
      assert.equal(edited.status, 200);
      ids.C = await create('targets', { name: `${tag} gamma draft` }, '?status=draft');
      ids.O = await create(
        'owners',
        { name: `${tag} owner`, manyToManyBi: [ids.A.documentId, ids.B.documentId, ids.C.documentId] },
        '?status=draft',
      );
      ids.P = await create('pages', { title: `${tag} page` });
      const fr = await server.api.put(`/api/pages/${ids.P.documentId}?locale=fr&status=draft`, {
        data: { title: `${tag} page fr` },
      });
      assert.equal(fr.status, 200);
      ids.Q = await create('pages', { title: `${tag} page never` }, '?status=draft');
    });
    after(() => server?.close());

    /** Last words of this test's targets matching `query`, in name order. */
    const targets = async (query: string) => {
      const res = await server.api.get(`/api/targets?filters[name][$startsWith]=${tag}&sort=name&${query}`);
      assert.equal(res.status, 200, `${query}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.meta.pagination.total, res.body.data.length);
      return res.body.data.map((d: { name: string }) => d.name.slice(tag.length + 1).split(' ')[0]).join(' ');
    };

    it('_q finds text in text attributes, ignoring case, literally', async () => {
      assert.equal(await targets('_q=alpha'), 'Alpha');
      assert.equal(await targets('_q=ALPHA%20ONE'), 'Alpha');
      assert.equal(await targets(`_q=${tag}`), 'Alpha beta');
      assert.equal(await targets(`_q=${tag}%20one`), '', 'the whole text, not each word');
      assert.equal(await targets('_q=50%25_off'), 'beta');
      assert.equal(await targets('_q=50%25'), 'beta');
      assert.equal(await targets('_q=a%25a'), '', '% is no wildcard');
      assert.equal(await targets('_q='), 'Alpha beta', 'an empty search matches everything');
      assert.equal(await targets('_q=draft&status=draft'), 'gamma');
    });

    it('_q finds the documentId and the id, and applies to the count', async () => {
      assert.equal(await targets(`_q=${ids.A.documentId}`), 'Alpha');
      assert.equal(await targets(`_q=${ids.A.id}&filters[id]=${ids.A.id}`), 'Alpha');
      const res = await server.api.get(
        `/api/targets?filters[name][$startsWith]=${tag}&_q=${tag}&pagination[pageSize]=1`,
      );
      assert.equal(res.body.meta.pagination.total, 2);
      const bad = await server.api.get('/api/targets?_q[0]=x');
      assert.equal(bad.status, 400);
      assert.equal(bad.body.error.details.param, '_q');
    });

    it('_q searches the locale of localized types', async () => {
      const res = await server.api.get(
        `/api/pages?filters[title][$startsWith]=${tag}&_q=fr&locale=*&status=draft&sort=locale`,
      );
      // _q also searches documentIds: a random one may contain "fr", then the English version matches too.
      const viaDocumentId = ids.P!.documentId.includes('fr') ? [`${tag} page`] : [];
      const neverViaDocumentId = ids.Q!.documentId.includes('fr') ? [`${tag} page never`] : [];
      assert.deepEqual(
        res.body.data.map((d: { title: string }) => d.title).sort(),
        [...viaDocumentId, ...neverViaDocumentId, `${tag} page fr`].sort(),
      );
    });

    it('hasPublishedVersion and publicationFilter keep a cohort of versions', async () => {
      assert.equal(await targets('hasPublishedVersion=true'), 'Alpha beta');
      assert.equal(await targets('hasPublishedVersion=false'), '');
      assert.equal(await targets('status=draft&hasPublishedVersion=false'), 'gamma');
      assert.equal(await targets('status=draft&hasPublishedVersion=true'), 'Alpha beta');
      assert.equal(await targets('status=draft&publicationFilter=never-published'), 'gamma');
      assert.equal(await targets('publicationFilter=published-with-draft'), 'Alpha beta');
      assert.equal(await targets('publicationFilter=published-without-draft'), '');
      assert.equal(await targets('status=draft&publicationFilter=published-with-draft'), '');
      assert.equal(await targets('publicationFilter=never-published'), '');
      // modified / unmodified compare the draft's updatedAt with the published one's.
      const [draft, published] = await Promise.all(
        ['draft', 'published'].map((s) => server.api.get(`/api/targets/${ids.B.documentId}?status=${s}`)),
      );
      const bModified = draft.body.data.updatedAt > published.body.data.updatedAt;
      assert.equal(await targets('status=draft&publicationFilter=modified'), bModified ? 'beta' : '');
      assert.equal(await targets('publicationFilter=unmodified'), bModified ? 'Alpha' : 'Alpha beta');
    });

    it('per locale, or per document', async () => {
      const pages = async (query: string) =>
        (
          await server.api.get(
            `/api/pages?filters[title][$startsWith]=${tag}&sort=title&locale=*&status=draft&${query}`,
          )
        ).body.data
          .map((d: { title: string }) => d.title.slice(tag.length + 1))
          .join(', ');
      assert.equal(await pages('publicationFilter=never-published'), 'page fr, page never');
      assert.equal(await pages('publicationFilter=never-published-document'), 'page never');
      assert.equal(await pages('publicationFilter=has-published-version-document'), 'page, page fr');
      assert.equal(await pages('hasPublishedVersion=true'), 'page, page fr');
    });

    it('the cohort applies to populated relations too', async () => {
      const res = await server.api.get(
        `/api/owners?filters[name][$eq]=${tag} owner&status=draft&hasPublishedVersion=false&populate=manyToManyBi`,
      );
      assert.deepEqual(
        res.body.data.map((o: any) => o.manyToManyBi.map((t: { name: string }) => t.name)),
        [[`${tag} gamma draft`]],
      );
    });

    it('bad cohort values are a 400', async () => {
      // Details as Strapi's: the parameter for publicationFilter, nothing for hasPublishedVersion.
      for (const [query, details] of [
        ['publicationFilter=xx', { source: 'query', param: 'publicationFilter' }],
        ['hasPublishedVersion=1', {}],
      ] as const) {
        const res = await server.api.get(`/api/targets?${query}`);
        assert.equal(res.status, 400, query);
        assert.equal(res.body.error.name, 'ValidationError');
        assert.deepEqual(res.body.error.details, details);
      }
    });

    it('a single document honours filters, _q and the cohort', async () => {
      const one = (query: string) => server.api.get(`/api/targets/${ids.A.documentId}?${query}`);
      assert.equal((await one(`filters[name][$eq]=${tag} Alpha one`)).status, 200);
      assert.equal((await one('filters[name][$eq]=zz')).status, 404);
      assert.equal((await one('_q=alpha')).status, 200);
      // Not 'zz': _q also searches documentIds, which are [a-z0-9] and held it about once in 50 runs.
      assert.equal((await one('_q=z~z')).status, 404);
      assert.equal((await one('publicationFilter=never-published')).status, 404);
    });

    it('parameters Strapi refuses are refused', async () => {
      for (const query of ['page=2', 'pageSize=1', 'pagination[page]=1&page=1']) {
        const res = await server.api.get(`/api/targets?${query}`);
        assert.equal(res.status, 400, query);
        assert.equal(res.body.error.name, 'PaginationError', query);
      }
      for (const path of ['/api/targets?lookup[name]=x', `/api/targets/${ids.A.documentId}?lookup=x`]) {
        const res = await server.api.get(path);
        assert.equal(res.status, 400, path);
        assert.equal(res.body.error.message, "Invalid params: 'lookup'");
      }
      const write = await server.api.put(`/api/targets/${ids.A.documentId}?lookup=x`, {
        data: { name: `${tag} Alpha one` },
      });
      assert.equal(write.status, 400);
      const single = await server.api.get(`/api/targets/${ids.A.documentId}?pageSize=x`);
      assert.equal(single.status, 400);
      assert.equal(single.body.error.name, 'PaginationError');
      assert.equal((await server.api.get(`/api/targets/${ids.A.documentId}?start=-3`)).status, 400);
      assert.equal(
        (await server.api.get(`/api/targets/${ids.A.documentId}?page=2`)).status,
        200,
        'a single document ignores a valid page',
      );
    });

    it('parameters Strapi ignores are ignored', async () => {
      for (const query of ['foo=bar', 'start=1', 'limit=1', 'count=true', 'publicationState=preview']) {
        assert.equal(await targets(query), 'Alpha beta', query);
      }
    });
  });

  describe(`api.rest.strictParams [${dialect}]`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect, {
        project: fixture('relation-matrix'),
        config: { api: { rest: { strictParams: true } } },
      });
    });
    after(() => server?.close());

    it('an unknown parameter is a 400 naming it; known ones pass', async () => {
      const res = await server.api.get('/api/targets?foo=bar');
      assert.equal(res.status, 400);
      assert.equal(res.body.error.message, 'Invalid key foo');
      assert.equal(res.body.error.details.param, 'foo');
      const ok = await server.api.get(
        '/api/targets?_q=x&status=draft&locale=en&count=true&pagination[page]=1&hasPublishedVersion=true',
      );
      assert.equal(ok.status, 200, JSON.stringify(ok.body));
    });
  });
}
