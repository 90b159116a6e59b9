import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';
import { insertFile } from '../helpers/files.js';
import { unique } from '../helpers/unique.js';

for (const dialect of DIALECTS) {
  describe(`populate, docs/rest.md "Populate" [${dialect}]`, () => {
    let server: TestServer;
    let articleId: string;
    let fileIds: number[];
    before(async () => {
      // The no-N+1 test reads each of 100 articles' tags' articles: ~32,000 items, over the default costLimit.
      server = await startServer(dialect, { config: { api: { rest: { costLimit: 100_000 } } } });
      const api = server.api;
      fileIds = [
        await insertFile(server, 'cover.png'),
        await insertFile(server, 'avatar.png'),
        await insertFile(server, 'share.png'),
      ];
      const author = (await api.post('/api/authors', { data: { name: 'Ann', avatar: fileIds[1] } })).body.data
        .documentId;
      const category = (await api.post('/api/categories', { data: { name: 'News' } })).body.data.documentId;
      const tags = [];
      for (const name of ['b-tag', 'a-tag', 'c-tag'])
        tags.push((await api.post('/api/tags', { data: { name } })).body.data.documentId);
      const res = await api.post('/api/articles', {
        data: {
          title: 'Full',
          author,
          category,
          tags,
          cover: fileIds[0],
          gallery: [fileIds[2], fileIds[0]],
          seo: { metaTitle: 'SEO', shareImage: fileIds[2] },
          links: [
            { label: 'l1', url: 'u1' },
            { label: 'l2', url: 'u2' },
          ],
          blocks: [
            { __component: 'shared.quote', title: 'Q', body: 'B' },
            { __component: 'shared.media', file: fileIds[0] },
            { __component: 'shared.rich-text', body: 'R' },
          ],
        },
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      articleId = res.body.data.documentId;
    });
    after(() => server?.close());
    const get = async (query: string) => {
      const res = await server.api.get(`/api/articles/${articleId}?${query}`);
      assert.equal(res.status, 200, `${query}: ${JSON.stringify(res.body)}`);
      return res.body.data;
    };

    it('nothing is populated by default', async () => {
      const doc = await get('');
      for (const key of ['author', 'category', 'tags', 'cover', 'gallery', 'seo', 'links', 'blocks'])
        assert.equal(key in doc, false, key);
    });

    it('* populates every relation, component, zone and media one level deep', async () => {
      const doc = await get('populate=*');
      assert.equal(doc.author.name, 'Ann');
      assert.equal('avatar' in doc.author, false, 'one level only');
      assert.equal(doc.category.name, 'News');
      assert.deepEqual(
        doc.tags.map((t: any) => t.name),
        ['b-tag', 'a-tag', 'c-tag'],
        'stored order',
      );
      assert.equal(doc.cover.name, 'cover.png');
      assert.deepEqual(
        doc.gallery.map((f: any) => f.name),
        ['share.png', 'cover.png'],
      );
      assert.equal(doc.seo.metaTitle, 'SEO');
      assert.equal(typeof doc.seo.id, 'number');
      assert.deepEqual(
        doc.links.map((l: any) => l.label),
        ['l1', 'l2'],
      );
      assert.deepEqual(
        doc.blocks.map((b: any) => b.__component),
        ['shared.quote', 'shared.media', 'shared.rich-text'],
      );
    });

    it('a name, a comma list, an array, object toggles', async () => {
      assert.equal((await get('populate=author')).author.name, 'Ann');
      const two = await get('populate=author,tags');
      assert.ok(two.author && two.tags && !two.category);
      const arr = await get('populate[0]=author&populate[1]=category');
      assert.ok(arr.author && arr.category && !arr.tags);
      for (const on of ['true', 't', '1']) assert.ok((await get(`populate[author]=${on}`)).author);
      for (const off of ['false', 'f', '0']) assert.equal('author' in (await get(`populate[author]=${off}`)), false);
    });

    it('to-one relations are an object or null, to-many an array', async () => {
      const bare = (await server.api.post('/api/articles?populate=author,tags', { data: { title: 'Bare' } })).body.data;
      assert.equal(bare.author, null);
      assert.deepEqual(bare.tags, []);
    });

    it('nested populate at any depth', async () => {
      const doc = await get(
        'populate[author][populate][avatar]=true&populate[author][populate][articles][populate][category]=true',
      );
      assert.equal(doc.author.avatar.name, 'avatar.png');
      assert.equal(doc.author.articles[0].category.name, 'News');
      const star = await get('populate[author][populate]=*');
      assert.equal(star.author.avatar.name, 'avatar.png');
    });

    it('component dot paths and nested component populate', async () => {
      assert.equal((await get('populate=seo.shareImage')).seo.shareImage.name, 'share.png');
      assert.equal((await get('populate[0]=seo.shareImage')).seo.shareImage.name, 'share.png');
      assert.equal((await get('populate[seo][populate]=shareImage')).seo.shareImage.name, 'share.png');
      assert.equal('shareImage' in (await get('populate=seo')).seo, false);
    });

    it('dynamic zones: shared strategy and detailed strategy with on', async () => {
      const shared = await get('populate[blocks][populate]=*');
      assert.equal(shared.blocks[1].file.name, 'cover.png');
      const detailed = await get(
        'populate[blocks][on][shared.media][populate]=file&populate[blocks][on][shared.quote][fields][0]=title',
      );
      assert.equal(detailed.blocks.find((b: any) => b.__component === 'shared.media').file.name, 'cover.png');
      const quote = detailed.blocks.find((b: any) => b.__component === 'shared.quote');
      assert.equal(quote.title, 'Q');
      assert.equal('body' in quote, false);
    });

    it('media objects carry the fields of docs/rest.md "Documents and the envelope"', async () => {
      const cover = (await get('populate=cover')).cover;
      for (const key of [
        'id',
        'documentId',
        'name',
        'alternativeText',
        'caption',
        'width',
        'height',
        'formats',
        'hash',
        'ext',
        'mime',
        'size',
        'url',
        'previewUrl',
        'provider',
        'provider_metadata',
        'createdAt',
        'updatedAt',
      ]) {
        assert.ok(key in cover, key);
      }
      assert.equal('folderPath' in cover, false);
    });

    it('fields, filters and sort inside a populate', async () => {
      const doc = await get(
        'populate[tags][fields][0]=name&populate[tags][sort]=name:asc&populate[tags][filters][name][$ne]=c-tag',
      );
      assert.deepEqual(
        doc.tags.map((t: any) => t.name),
        ['a-tag', 'b-tag'],
      );
      assert.equal('createdAt' in doc.tags[0] && 'slug' in doc.tags[0], false);
    });

    it('counts a relation', async () => {
      assert.deepEqual((await get('populate[tags][count]=true')).tags, { count: 3 });
    });

    it('errors name the populate path', async () => {
      for (const [query, path] of [
        // As Strapi 5: the attributes leading to the key, null at the top level.
        ['populate=nope', null],
        ['populate=title', null],
        ['populate[author][populate][nope]=true', 'author'],
        ['populate[blocks][on][shared.nope][populate]=*', 'blocks'],
      ] as [string, string | null][]) {
        const res = await server.api.get(`/api/articles?${query}`);
        assert.equal(res.status, 400, query);
        assert.equal(res.body.error.details.param, 'populate', query);
        assert.equal(res.body.error.details.path, path, query);
      }
    });

    it('the number of statements does not depend on the number of rows (no N+1)', async () => {
      const api = server.api;
      // Its own author, tags and articles: the seed stays as the other tests read it.
      const prefix = unique('bulk');
      const author = (await api.post('/api/authors', { data: { name: `${prefix} author`, avatar: fileIds[1] } })).body
        .data.documentId;
      const tags: string[] = [];
      for (const name of ['x', 'y'])
        tags.push((await api.post('/api/tags', { data: { name: `${prefix} ${name}` } })).body.data.documentId);
      const query = `filters[title][$startsWith]=${prefix}&populate[author][populate][avatar]=true&populate[tags][populate][articles]=true&populate[seo][populate]=*&populate[blocks][populate]=*&populate[cover]=true&pagination[pageSize]=100&pagination[withCount]=false`;
      // The response cache's change counters are read or not depending on how long ago the type last
      // moved (api/response-cache.ts `moving`): timing, not rows, so they are left out of the count.
      const count = async () => {
        const seen: string[] = [];
        const stop = server.vellum.database.observe((sql: string) => seen.push(sql));
        const res = await api.get(`/api/articles?${query}`);
        stop();
        assert.equal(res.status, 200);
        const statements = seen.filter((sql) => !/\bvellum_changes\b/.test(sql)).length;
        return { statements, rows: res.body.data.length };
      };
      const bulk = (i: number) =>
        api.post('/api/articles', {
          data: {
            title: `${prefix} ${i}`,
            author,
            tags,
            cover: fileIds[0],
            seo: { metaTitle: 's', shareImage: fileIds[1] },
            blocks: [
              { __component: 'shared.quote', title: 'q' },
              { __component: 'shared.media', file: fileIds[2] },
            ],
          },
        });
      await bulk(0);
      const small = await count();
      for (let i = 1; i < 100; i++) await bulk(i);
      const large = await count();
      assert.equal(small.rows, 1);
      assert.equal(large.rows, 100);
      assert.equal(
        large.statements,
        small.statements,
        `${small.statements} statements for ${small.rows} rows, ${large.statements} for ${large.rows}`,
      );
      assert.ok(large.statements <= 15, `${large.statements} statements`);
    });
  });
}
