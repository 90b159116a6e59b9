import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';
import { insertFile } from '../helpers/files.js';
import { planTables } from '../../src/core/database/tables.js';

for (const dialect of DIALECTS) {
  describe(`components, dynamic zones and media in bodies [${dialect}]`, () => {
    let server: TestServer;
    let files: number[];
    before(async () => {
      server = await startServer(dialect);
      files = [
        await insertFile(server, 'one.png'),
        await insertFile(server, 'two.png'),
        await insertFile(server, 'three.png'),
      ];
    });
    after(() => server?.close());
    const api = () => server.api;
    const read = async (
      id: string,
      populate = 'populate[seo][populate]=*&populate[links]=true&populate[blocks][populate]=*&populate[gallery]=true&populate[cover]=true',
    ) => (await api().get(`/api/articles/${id}?${populate}`)).body.data;

    it('single and repeatable components round-trip, with nested media', async () => {
      const res = await api().post('/api/articles', {
        data: {
          title: 'C1',
          seo: { metaTitle: 'M', shareImage: files[0] },
          links: [
            { label: 'a', url: 'u1' },
            { label: 'b', url: 'u2' },
          ],
        },
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      const doc = await read(res.body.data.documentId);
      assert.equal(doc.seo.metaTitle, 'M');
      assert.equal(doc.seo.shareImage.name, 'one.png');
      assert.deepEqual(
        doc.links.map((l: any) => [l.label, l.url]),
        [
          ['a', 'u1'],
          ['b', 'u2'],
        ],
      );
    });

    it('PUT with ids updates those items; items left out are removed; new items are added', async () => {
      const id = (
        await api().post('/api/articles?status=draft', {
          data: { title: 'C2', links: [{ label: 'a' }, { label: 'b' }, { label: 'c' }] },
        })
      ).body.data.documentId;
      const before = (await api().get(`/api/articles/${id}?status=draft&populate=links`)).body.data.links;
      const res = await api().put(`/api/articles/${id}?status=draft&populate=links`, {
        data: { links: [{ id: before[2].id, label: 'c2' }, { label: 'new' }, { id: before[0].id }] },
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const links = res.body.data.links;
      assert.deepEqual(
        links.map((l: any) => l.label),
        ['c2', 'new', 'a'],
      );
      assert.equal(links[0].id, before[2].id);
      assert.equal(links[2].id, before[0].id);
    });

    it('null clears a component, [] a repeatable one; a single component is replaced by PUT', async () => {
      const id = (
        await api().post('/api/articles', {
          data: { title: 'C3', seo: { metaTitle: 'old', metaDescription: 'keep?' }, links: [{ label: 'x' }] },
        })
      ).body.data.documentId;
      await api().put(`/api/articles/${id}`, { data: { seo: { metaTitle: 'new' } } });
      const replaced = await read(id);
      assert.equal(replaced.seo.metaTitle, 'new');
      assert.equal(replaced.seo.metaDescription, null);
      await api().put(`/api/articles/${id}`, { data: { seo: null, links: [] } });
      const cleared = await read(id);
      assert.equal(cleared.seo, null);
      assert.deepEqual(cleared.links, []);
    });

    it('a PUT of whole components overwrites those in their places: changed columns written, what it leaves out cleared, nothing written when unchanged', async () => {
      const body = (metaTitle: string, extra: Record<string, unknown> = {}) => ({
        data: {
          title: 'C3b',
          seo: { metaTitle, ...extra },
          links: [{ label: 'a', url: 'u1' }, { label: 'b' }],
          blocks: [
            { __component: 'shared.rich-text', body: 'text' },
            { __component: 'shared.quote', title: 'Q' },
          ],
        },
      });
      const populate = 'populate[seo][populate]=*&populate[links]=true&populate[blocks]=true';
      const created = await api().post('/api/articles?status=draft', {
        data: { ...body('one', { metaDescription: 'gone next', shareImage: files[2] }).data },
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const id = created.body.data.documentId;
      const first = (await api().get(`/api/articles/${id}?status=draft&${populate}`)).body.data;
      assert.equal(first.seo.shareImage.name, 'three.png');
      const put = (data: object) => api().put(`/api/articles/${id}?status=draft&${populate}`, data);
      const second = await put(body('two'));
      assert.equal(second.status, 200, JSON.stringify(second.body));
      const doc = second.body.data;
      // The rows in place keep their ids; what the body left out is as a new component would have it.
      assert.equal(doc.seo.id, first.seo.id);
      assert.equal(doc.seo.metaTitle, 'two');
      assert.equal(doc.seo.metaDescription, null);
      assert.equal(doc.seo.shareImage, null);
      assert.deepEqual(
        doc.links.map((l: any) => [l.id, l.label, l.url]),
        [
          [first.links[0].id, 'a', 'u1'],
          [first.links[1].id, 'b', null],
        ],
      );
      assert.deepEqual(
        doc.blocks.map((b: any) => b.id),
        first.blocks.map((b: any) => b.id),
      );
      // The same body again writes no component row nor link: only reads, the draft's row and its history.
      const statements: string[] = [];
      const stop = server.vellum.database.observe((statement) => statements.push(statement));
      try {
        assert.equal((await put(body('two'))).status, 200);
      } finally {
        stop();
      }
      const writes = statements.filter((statement) =>
        /^\s*(insert into|update|delete from) ["`]?(components_|articles_cmps)/i.test(statement),
      );
      assert.deepEqual(writes, [], statements.join('\n'));
      // Another type in a place: that one is replaced, the others stay.
      const third = await put({
        data: {
          blocks: [
            { __component: 'shared.quote', title: 'Q2' },
            { __component: 'shared.quote', title: 'Q' },
          ],
        },
      });
      assert.equal(third.status, 200, JSON.stringify(third.body));
      assert.notEqual(third.body.data.blocks[0].id, first.blocks[0].id);
      assert.equal(third.body.data.blocks[1].id, first.blocks[1].id);
      assert.deepEqual(
        third.body.data.blocks.map((b: any) => [b.__component, b.title]),
        [
          ['shared.quote', 'Q2'],
          ['shared.quote', 'Q'],
        ],
      );
    });

    it('validation inside components names the path', async () => {
      const res = await api().post('/api/articles', {
        data: { title: 'C4', links: [{ label: 'ok' }, { label: 'bad', url: 42 }], seo: { metaTitle: 7 } },
      });
      assert.equal(res.status, 400);
      const paths = res.body.error.details.errors.map((e: any) => e.path.join('.')).sort();
      assert.deepEqual(paths, ['links.1.url', 'seo.metaTitle']);
      // An unknown key is refused on its own, before values are judged (as Strapi 5 does).
      const unknown = await api().post('/api/articles', {
        data: { title: 'C4', links: [{ label: 'bad', url: 42 }], seo: { nope: 1 } },
      });
      assert.equal(unknown.status, 400);
      assert.equal(unknown.body.error.message, 'Invalid key nope at seo');
      assert.deepEqual(unknown.body.error.details, { key: 'nope', path: 'seo', source: 'body' });
    });

    it('dynamic zones keep their order; PUT replaces the zone', async () => {
      const id = (
        await api().post('/api/articles', {
          data: {
            title: 'C5',
            blocks: [
              { __component: 'shared.rich-text', body: 'first' },
              { __component: 'shared.quote', title: 'second' },
              { __component: 'shared.media', file: files[1] },
            ],
          },
        })
      ).body.data.documentId;
      const doc = await read(id);
      assert.deepEqual(
        doc.blocks.map((b: any) => b.__component),
        ['shared.rich-text', 'shared.quote', 'shared.media'],
      );
      assert.equal(doc.blocks[2].file.name, 'two.png');
      await api().put(`/api/articles/${id}`, { data: { blocks: [{ __component: 'shared.quote', title: 'only' }] } });
      assert.deepEqual(
        (await read(id)).blocks.map((b: any) => b.title),
        ['only'],
      );
    });

    it('an unknown or disallowed __component is a 400', async () => {
      for (const block of [
        { __component: 'shared.nope' },
        { __component: 'shared.seo', metaTitle: 'x' },
        { title: 'no component' },
      ]) {
        const res = await api().post('/api/articles', { data: { title: 'C6', blocks: [block] } });
        assert.equal(res.status, 400, JSON.stringify(block));
        assert.ok(res.body.error.details.errors.some((e: any) => e.path[0] === 'blocks'));
      }
    });

    it('media attributes take a file id or an ordered list of ids; connect is a 400', async () => {
      const id = (
        await api().post('/api/articles', {
          data: { title: 'C7', cover: files[2], gallery: [files[1], files[0], files[2]] },
        })
      ).body.data.documentId;
      const doc = await read(id);
      assert.equal(doc.cover.name, 'three.png');
      assert.deepEqual(
        doc.gallery.map((f: any) => f.name),
        ['two.png', 'one.png', 'three.png'],
      );
      const bad = await api().put(`/api/articles/${id}`, { data: { gallery: { connect: [files[0]] } } });
      assert.equal(bad.status, 400);
      const missing = await api().put(`/api/articles/${id}`, { data: { cover: 999999 } });
      assert.equal(missing.status, 400);
      await api().put(`/api/articles/${id}`, { data: { cover: null, gallery: [] } });
      const cleared = await read(id);
      assert.equal(cleared.cover, null);
      assert.deepEqual(cleared.gallery, []);
    });

    it('deleting documents leaves nothing orphaned in any table', async () => {
      const api2 = api();
      const tag = (await api2.post('/api/tags', { data: { name: 'orphan-check' } })).body.data.documentId;
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await api2.post('/api/articles', {
          data: {
            title: `O${i}`,
            tags: [tag],
            cover: files[0],
            seo: { metaTitle: 's', shareImage: files[1] },
            links: [{ label: 'l' }],
            blocks: [
              { __component: 'shared.media', file: files[2] },
              { __component: 'shared.quote', title: 'q' },
            ],
          },
        });
        ids.push(res.body.data.documentId);
        await api2.put(`/api/articles/${res.body.data.documentId}?status=draft`, {
          data: { title: `O${i} draft`, links: [{ label: 'l2' }] },
        });
      }
      // Delete everything that exists, then every link and component table must be empty.
      for (const plural of ['articles', 'tags', 'authors', 'categories']) {
        const list = (await api2.get(`/api/${plural}?status=draft&pagination[pageSize]=100`)).body.data;
        for (const doc of list) assert.equal((await api2.delete(`/api/${plural}/${doc.documentId}`)).status, 204);
      }
      const { db } = server.vellum.database;
      const count = async (table: string) =>
        Number((await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(db)).rows[0]!.n);
      // Built-in types (files, roles) are not content the test deleted.
      const builtIn = new Set(
        [...server.vellum.schema.contentTypes.values()].filter((t) => t.builtIn).map((t) => t.table),
      );
      const tables = planTables(server.vellum.schema)
        .map((t) => t.name)
        .filter((name) => !builtIn.has(name) && name !== 'vellum_meta' && name !== 'vellum_changes');
      for (const table of tables) assert.equal(await count(table), 0, table);
      const mediaLinks = Number(
        (await sql<{ n: number }>`select count(*) as n from files_related_mph`.execute(db)).rows[0]!.n,
      );
      assert.equal(mediaLinks, 0);
    });
  });
}
