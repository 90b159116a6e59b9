import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, fixture, startServer, type TestServer } from '../helpers/server.js';

/**
 * Populate forms as Strapi 5.54 answers them (issue 14, point 10): `*` includes `localizations`
 * of localized types, a zone populated with `on` lists only the components named there, and
 * components take filters, sort and count like relations.
 */
for (const dialect of DIALECTS) {
  describe(`populate forms [${dialect}]`, () => {
    let server: TestServer;
    let tag: string;
    let owner: string;
    let page: string;
    before(async () => {
      server = await startServer(dialect, { project: fixture('relation-matrix') });
      tag = `pf-${randomUUID().slice(0, 8)}`;
      const ok = async (promise: Promise<{ status: number; body: any }>) => {
        const res = await promise;
        assert.ok(res.status === 200 || res.status === 201, JSON.stringify(res.body));
        return res.body.data.documentId as string;
      };
      const target = await ok(server.api.post('/api/targets', { data: { name: `${tag}-t` } }));
      const label = await ok(server.api.post('/api/labels', { data: { name: `${tag}-label` } }));
      await ok(server.api.put(`/api/labels/${label}?locale=fr`, { data: { name: `${tag}-label-fr` } }));
      owner = await ok(
        server.api.post('/api/owners', {
          data: {
            name: `${tag}-o`,
            labels: [label],
            block: { caption: 'c', manyToOne: target },
            blocks: [{ caption: 'c1' }, { caption: 'c2', manyToMany: [target] }, { caption: 'c3' }],
            zone: [
              { __component: 'matrix.links', caption: 'z1', manyToOne: target },
              { __component: 'matrix.nested', heading: 'h', links: [{ caption: 'n1', oneToOne: target }] },
              { __component: 'matrix.links', caption: 'z2' },
            ],
          },
        }),
      );
      page = await ok(server.api.post('/api/pages', { data: { title: `${tag}-p` } }));
      await ok(server.api.put(`/api/pages/${page}?locale=fr`, { data: { title: `${tag}-p-fr` } }));
    });
    after(() => server?.close());

    const get = async (path: string) => {
      const res = await server.api.get(path);
      assert.equal(res.status, 200, `${path}: ${JSON.stringify(res.body)}`);
      return res.body.data;
    };
    const ownerWith = (query: string) => get(`/api/owners/${owner}?${query}`);

    it('populate=* includes localizations on localized types, at any level', async () => {
      const doc = await get(`/api/pages/${page}?populate=*`);
      assert.deepEqual(
        doc.localizations.map((l: { title: string; locale: string }) => [l.title, l.locale]),
        [[`${tag}-p-fr`, 'fr']],
      );
      const list = await get(`/api/pages?filters[title][$startsWith]=${tag}&populate=*`);
      assert.equal(list[0].localizations.length, 1);
      const nested = await ownerWith('populate[labels][populate]=*');
      assert.deepEqual(
        nested.labels[0].localizations.map((l: { name: string }) => l.name),
        [`${tag}-label-fr`],
      );
      assert.deepEqual(nested.labels[0].pages, []);
      const plain = await ownerWith('populate=*');
      assert.equal('localizations' in plain, false, 'owner has no i18n');
    });

    it('a zone populated with on lists only the components named there', async () => {
      const links = await ownerWith('populate[zone][on][matrix.links][fields][0]=caption');
      assert.deepEqual(
        links.zone.map((c: any) => [c.__component, c.caption]),
        [
          ['matrix.links', 'z1'],
          ['matrix.links', 'z2'],
        ],
      );
      const nested = await ownerWith('populate[zone][on][matrix.nested][populate][links][populate]=*');
      assert.equal(nested.zone.length, 1);
      assert.equal(nested.zone[0].__component, 'matrix.nested');
      assert.equal(nested.zone[0].links[0].oneToOne.name, `${tag}-t`);
      const toggled = await ownerWith('populate[zone][on][matrix.nested]=true');
      assert.deepEqual(
        toggled.zone.map((c: any) => c.__component),
        ['matrix.nested'],
      );
      const withShared = await ownerWith(
        'populate[zone][populate]=*&populate[zone][on][matrix.links][fields][0]=caption',
      );
      assert.deepEqual(
        withShared.zone.map((c: any) => c.caption),
        ['z1', 'z2'],
      );
    });

    it('on entries take filters; sort and count there are accepted and leave the zone as it is', async () => {
      assert.deepEqual(
        (await ownerWith('populate[zone][on][matrix.links][filters][caption]=z2')).zone.map((c: any) => c.caption),
        ['z2'],
      );
      assert.deepEqual((await ownerWith('populate[zone][on][matrix.links][filters][caption]=zz')).zone, []);
      assert.deepEqual(
        (await ownerWith('populate[zone][on][matrix.links][sort]=caption:desc')).zone.map((c: any) => c.caption),
        ['z1', 'z2'],
      );
      assert.deepEqual(
        (await ownerWith('populate[zone][on][matrix.links][count]=true')).zone.map((c: any) => c.caption),
        ['z1', 'z2'],
      );
      assert.equal((await ownerWith('populate[zone][count]=true')).zone.length, 3);
    });

    it('components take filters, sort and count', async () => {
      assert.deepEqual(
        (await ownerWith('populate[blocks][filters][caption][$ne]=c2')).blocks.map((b: any) => b.caption),
        ['c1', 'c3'],
      );
      assert.deepEqual(
        (await ownerWith('populate[blocks][filters][manyToMany][name][$eq]=' + `${tag}-t`)).blocks.map(
          (b: any) => b.caption,
        ),
        ['c2'],
      );
      assert.deepEqual(
        (await ownerWith('populate[blocks][sort]=caption:desc&populate[blocks][fields][0]=caption')).blocks,
        [
          (await ownerWith('populate[blocks][filters][caption]=c3')).blocks[0],
          (await ownerWith('populate[blocks][filters][caption]=c2')).blocks[0],
          (await ownerWith('populate[blocks][filters][caption]=c1')).blocks[0],
        ],
      );
      assert.deepEqual((await ownerWith('populate[blocks][count]=true')).blocks, { count: 3 });
      assert.deepEqual(
        (await ownerWith('populate[blocks][count]=true&populate[blocks][filters][caption][$ne]=c2')).blocks,
        { count: 2 },
      );
      assert.deepEqual((await ownerWith('populate[block][count]=true')).block, { count: 1 });
      assert.equal((await ownerWith('populate[block][filters][caption]=zz')).block, null);
      assert.equal((await ownerWith('populate[block][filters][caption]=c')).block.caption, 'c');
    });

    it('boolean-like toggles and * below an attribute', async () => {
      for (const value of ['true', '1', 't'])
        assert.equal((await ownerWith(`populate[block]=${value}`)).block.caption, 'c', value);
      for (const value of ['false', '0', 'f'])
        assert.equal('block' in (await ownerWith(`populate[block]=${value}`)), false, value);
      const star = await ownerWith('populate[block][populate]=*');
      assert.equal(star.block.manyToOne.name, `${tag}-t`);
      // Strapi 5.54 reads a text value of `populate` below an attribute as attribute names:
      // `populate[block][populate]=true` is "Invalid key true" there, and here.
      const refused = await server.api.get(`/api/owners/${owner}?populate[block][populate]=true`);
      assert.equal(refused.status, 400);
      assert.match(refused.body.error.message, /Invalid key true/);
    });
  });
}
