import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, fixture, startServer, type TestServer } from '../helpers/server.js';

/**
 * Relations across locales (issue 14, point 8). Strapi links rows, so a relation lists the related
 * rows it was linked to, in their own locales, whatever locale the request reads: from `owner`
 * (no i18n) to `label` (localized), and below each label, its pages in the label's locale.
 */
for (const dialect of DIALECTS) {
  describe(`relations to localized types [${dialect}]`, () => {
    let server: TestServer;
    let tag: string;
    before(async () => {
      server = await startServer(dialect, { project: fixture('relation-matrix') });
      tag = `lr-${randomUUID().slice(0, 8)}`;
      const api = server.api;
      const ok = (res: { status: number; body: unknown }) => {
        assert.ok(res.status === 200 || res.status === 201, JSON.stringify(res.body));
        return (res.body as { data: { documentId: string } }).data;
      };
      const label = ok(await api.post('/api/labels', { data: { name: `${tag}-l1-en` } }));
      ok(await api.put(`/api/labels/${label.documentId}?locale=fr`, { data: { name: `${tag}-l1-fr` } }));
      const frOnly = ok(await api.post('/api/labels?locale=fr', { data: { name: `${tag}-l2-fr` } }));
      const page = ok(await api.post('/api/pages', { data: { title: `${tag}-p-en`, labels: [label.documentId] } }));
      ok(
        await api.put(`/api/pages/${page.documentId}?locale=fr`, {
          data: { title: `${tag}-p-fr`, labels: { connect: [{ documentId: label.documentId, locale: 'fr' }] } },
        }),
      );
      ok(
        await api.post('/api/pages?locale=fr', {
          data: { title: `${tag}-p2-fr`, labels: { connect: [{ documentId: label.documentId, locale: 'fr' }] } },
        }),
      );
      ok(
        await api.post('/api/owners', {
          data: {
            name: `${tag}-o`,
            labels: {
              connect: [
                { documentId: label.documentId, locale: 'en' },
                { documentId: label.documentId, locale: 'fr' },
                { documentId: frOnly.documentId, locale: 'fr' },
              ],
            },
          },
        }),
      );
    });
    after(() => server?.close());

    const ownerLabels = async (query: string) => {
      const res = await server.api.get(`/api/owners?filters[name][$eq]=${tag}-o&${query}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.data.length, 1);
      return res.body.data[0].labels;
    };

    it('lists the related documents of every locale, whatever ?locale says', async () => {
      for (const locale of ['', '&locale=fr', '&locale=en']) {
        const labels = await ownerLabels(`populate=labels${locale}`);
        assert.deepEqual(
          labels.map((l: { name: string; locale: string }) => `${l.name}|${l.locale}`),
          [`${tag}-l1-en|en`, `${tag}-l1-fr|fr`, `${tag}-l2-fr|fr`],
          locale,
        );
      }
      assert.deepEqual(await ownerLabels('populate[labels][count]=true'), { count: 3 });
    });

    it('below a related document, its own relations in its own locale', async () => {
      for (const locale of ['', '&locale=fr']) {
        const labels = await ownerLabels(`populate[labels][populate]=pages${locale}`);
        const pages = Object.fromEntries(
          labels.map((l: { name: string; pages: { title: string }[] }) => [l.name, l.pages.map((p) => p.title).sort()]),
        );
        assert.deepEqual(
          pages,
          {
            [`${tag}-l1-en`]: [`${tag}-p-en`],
            [`${tag}-l1-fr`]: [`${tag}-p-fr`, `${tag}-p2-fr`],
            [`${tag}-l2-fr`]: [],
          },
          locale,
        );
      }
    });

    it('filters follow the same links', async () => {
      for (const locale of ['', '&locale=fr']) {
        const res = await server.api.get(`/api/owners?filters[labels][pages][title][$eq]=${tag}-p2-fr${locale}`);
        assert.deepEqual(
          res.body.data.map((o: { name: string }) => o.name),
          [`${tag}-o`],
          locale,
        );
      }
    });

    it('GraphQL lists the same', async () => {
      const query = `{ owners(filters: { name: { eq: "${tag}-o" } }) { data { attributes { labels { data { attributes { name pages { data { attributes { title } } } } } } } } } }`;
      const res = await server.api.post('/graphql', { query });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const labels = res.body.data.owners.data[0].attributes.labels.data.map((l: any) => [
        l.attributes.name,
        l.attributes.pages.data.map((p: any) => p.attributes.title).sort(),
      ]);
      assert.deepEqual(labels, [
        [`${tag}-l1-en`, [`${tag}-p-en`]],
        [`${tag}-l1-fr`, [`${tag}-p-fr`, `${tag}-p2-fr`]],
        [`${tag}-l2-fr`, []],
      ]);
    });
  });
}
