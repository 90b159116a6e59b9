import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';

for (const dialect of DIALECTS) {
  describe(`draft and publish, docs/rest.md "Drafts and publishing" [${dialect}]`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect);
    });
    after(() => server?.close());
    const api = () => server.api;
    const titles = async (query: string) =>
      (await api().get(`/api/articles?${query}`)).body.data.map((d: any) => d.title).sort();

    it('POST without status creates and publishes: both versions exist', async () => {
      const res = await api().post('/api/articles', { data: { title: 'Live one' } });
      assert.equal(res.status, 201);
      assert.ok(res.body.data.publishedAt);
      const { documentId } = res.body.data;
      const published = await api().get(`/api/articles/${documentId}`);
      const draft = await api().get(`/api/articles/${documentId}?status=draft`);
      assert.ok(published.body.data.publishedAt);
      assert.equal(draft.body.data.publishedAt, null);
      assert.equal(draft.body.data.documentId, documentId);
      assert.equal(draft.body.data.title, 'Live one');
    });

    it('POST ?status=draft creates a draft only, invisible to published reads', async () => {
      const res = await api().post('/api/articles?status=draft', { data: { title: 'Draft only' } });
      assert.equal(res.status, 201);
      assert.equal(res.body.data.publishedAt, null);
      const { documentId } = res.body.data;
      assert.equal((await api().get(`/api/articles/${documentId}`)).status, 404);
      assert.equal((await api().get(`/api/articles/${documentId}?status=published`)).status, 404);
      assert.equal((await api().get(`/api/articles/${documentId}?status=draft`)).body.data.title, 'Draft only');
      assert.ok(!(await titles('')).includes('Draft only'));
      assert.ok((await titles('status=draft')).includes('Draft only'));
    });

    it('PUT ?status=draft edits the draft only; the published version stays until publish', async () => {
      const { documentId } = (await api().post('/api/articles', { data: { title: 'Version 1' } })).body.data;
      const edited = await api().put(`/api/articles/${documentId}?status=draft`, { data: { title: 'Version 2' } });
      assert.equal(edited.status, 200);
      assert.equal(edited.body.data.title, 'Version 2');
      assert.equal(edited.body.data.publishedAt, null);
      assert.equal((await api().get(`/api/articles/${documentId}`)).body.data.title, 'Version 1');
      assert.equal((await api().get(`/api/articles/${documentId}?status=draft`)).body.data.title, 'Version 2');

      const published = await api().post(`/api/articles/${documentId}/actions/publish`);
      assert.equal(published.status, 200);
      assert.equal(published.body.data.title, 'Version 2');
      assert.equal((await api().get(`/api/articles/${documentId}`)).body.data.title, 'Version 2');
    });

    it('PUT without status writes and publishes', async () => {
      const { documentId } = (await api().post('/api/articles?status=draft', { data: { title: 'Was draft' } })).body
        .data;
      const res = await api().put(`/api/articles/${documentId}`, { data: { title: 'Now live' } });
      assert.ok(res.body.data.publishedAt);
      assert.equal((await api().get(`/api/articles/${documentId}`)).body.data.title, 'Now live');
    });

    it('publishing again updates the published version in place: its id, and its components where they sit, stay', async () => {
      const author = (await api().post('/api/authors', { data: { name: 'In place' } })).body.data.documentId;
      const body = (title: string, links: string[], blocks: object[]) => ({
        data: {
          title,
          author,
          seo: { metaTitle: title },
          links: links.map((label) => ({ label, url: `https://example.test/${label}` })),
          blocks,
        },
      });
      const quote = { __component: 'shared.quote', title: 'Q', body: 'said' };
      const text = { __component: 'shared.rich-text', body: 'text' };
      const populate = 'populate[author]=true&populate[seo]=true&populate[links]=true&populate[blocks]=true';
      const first = await api().post(`/api/articles?${populate}`, body('Place 1', ['a', 'b'], [quote, text]));
      assert.equal(first.status, 201, JSON.stringify(first.body));
      const { documentId } = first.body.data;
      const second = await api().put(
        `/api/articles/${documentId}?${populate}`,
        body('Place 2', ['a', 'c'], [quote, text]),
      );
      assert.equal(second.status, 200, JSON.stringify(second.body));
      const published = second.body.data;
      assert.equal(published.id, first.body.data.id);
      assert.equal(published.title, 'Place 2');
      assert.equal(published.author.name, 'In place');
      assert.equal(published.seo.id, first.body.data.seo.id);
      assert.equal(published.seo.metaTitle, 'Place 2');
      assert.deepEqual(
        published.links.map((link: any) => [link.id, link.label]),
        [
          [first.body.data.links[0].id, 'a'],
          [first.body.data.links[1].id, 'c'],
        ],
      );
      assert.deepEqual(
        published.blocks.map((block: any) => block.id),
        first.body.data.blocks.map((block: any) => block.id),
      );
      // Components placed otherwise (another zone order, one link fewer) are replaced by copies.
      const third = await api().put(`/api/articles/${documentId}?${populate}`, body('Place 3', ['d'], [text, quote]));
      assert.equal(third.status, 200, JSON.stringify(third.body));
      assert.equal(third.body.data.id, first.body.data.id);
      assert.deepEqual(
        third.body.data.blocks.map((block: any) => block.__component),
        ['shared.rich-text', 'shared.quote'],
      );
      assert.deepEqual(
        third.body.data.links.map((link: any) => link.label),
        ['d'],
      );
      const draft = (await api().get(`/api/articles/${documentId}?status=draft&${populate}`)).body.data;
      const strip = (value: any): any =>
        Array.isArray(value)
          ? value.map(strip)
          : value && typeof value === 'object'
            ? Object.fromEntries(
                Object.entries(value)
                  .filter(([key]) => !['id', 'publishedAt', 'updatedAt'].includes(key))
                  .map(([key, item]) => [key, strip(item)]),
              )
            : value;
      assert.deepEqual(strip(third.body.data), strip(draft));
      // One published version, one draft: nothing left behind.
      const rows = await server.vellum.documents.engine
        .query('api::article.article')
        .findMany({ where: { documentId }, select: ['id'] });
      assert.equal(rows.length, 2);
    });

    it('publishing again rewrites only the relation and media links that differ from the draft', async () => {
      const make = async (path: string, data: object) => (await api().post(path, { data })).body.data.documentId;
      const author = await make('/api/authors', { name: 'Links kept' });
      const t1 = await make('/api/tags', { name: 'kept 1' });
      const t2 = await make('/api/tags', { name: 'kept 2' });
      const t3 = await make('/api/tags', { name: 'kept 3' });
      const file = await server.vellum.documents.engine.query('plugin::upload.file').create({
        data: {
          name: 'kept.png',
          hash: 'kept',
          ext: '.png',
          mime: 'image/png',
          size: 1,
          url: '/uploads/kept.png',
          provider: 'local',
        },
      });
      const populate = 'populate[author]=true&populate[tags]=true&populate[cover]=true&populate[seo][populate]=*';
      const created = await api().post(`/api/articles?${populate}`, {
        data: {
          title: 'Links 1',
          author,
          tags: [t1, t2],
          cover: file.id,
          seo: { metaTitle: 'm', shareImage: file.id },
        },
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const { documentId } = created.body.data;
      /** Publishes the draft after `data` went into it; the link tables the publish wrote, and the published version. */
      const publish = async (data: object) => {
        assert.equal((await api().put(`/api/articles/${documentId}?status=draft`, { data })).status, 200);
        const written = new Set<string>();
        const stop = server.vellum.database.observe((text) => {
          const table = /^\s*(?:delete from|insert into) [`"]?(\w+_lnk|files_related_mph)[`"]?/i.exec(text)?.[1];
          if (table) written.add(table);
        });
        const res = await api().post(`/api/articles/${documentId}/actions/publish?${populate}`);
        stop();
        assert.equal(res.status, 200, JSON.stringify(res.body));
        return { written: [...written].sort(), published: res.body.data };
      };
      const unchanged = await publish({ title: 'Links 2' });
      assert.deepEqual(unchanged.written, []);
      assert.equal(unchanged.published.author.documentId, author);
      assert.deepEqual(
        unchanged.published.tags.map((tag: any) => tag.documentId),
        [t1, t2],
      );
      assert.equal(unchanged.published.cover.id, file.id);
      assert.equal(unchanged.published.seo.shareImage.id, file.id);

      // Another tag and another order: only the tags are rewritten, in the draft's order.
      const reordered = await publish({ tags: [t3, t1] });
      assert.deepEqual(reordered.written, ['articles_tags_lnk']);
      assert.deepEqual(
        reordered.published.tags.map((tag: any) => tag.documentId),
        [t3, t1],
      );
      assert.equal(reordered.published.author.documentId, author);

      // Media and a relation removed: their links go, the others stay.
      const removed = await publish({ cover: null, author: null });
      assert.deepEqual(removed.written, ['articles_author_lnk', 'files_related_mph']);
      assert.equal(removed.published.cover, null);
      assert.equal(removed.published.author, null);
      assert.equal(removed.published.seo.shareImage.id, file.id);
      const draft = (await api().get(`/api/articles/${documentId}?status=draft&${populate}`)).body.data;
      const strip = (value: any): any =>
        Array.isArray(value)
          ? value.map(strip)
          : value && typeof value === 'object'
            ? Object.fromEntries(
                Object.entries(value)
                  .filter(([key]) => !['id', 'publishedAt', 'updatedAt'].includes(key))
                  .map(([key, item]) => [key, strip(item)]),
              )
            : value;
      assert.deepEqual(strip(removed.published), strip(draft));
    });

    it('a create that publishes copies what it inserted, without reading it back or looking for what a new document cannot have', async () => {
      const statements = async (write: () => Promise<{ status: number }>): Promise<number> => {
        const before = server.vellum.database.statementCount;
        const res = await write();
        assert.ok(res.status < 300, String(res.status));
        return server.vellum.database.statementCount - before;
      };
      // Whatever the dialect's transaction statements: the same write as a draft is the baseline.
      const draft = await statements(() => api().post('/api/articles?status=draft', { data: { title: 'Counted' } }));
      const published = await statements(() => api().post('/api/articles', { data: { title: 'Counted' } }));
      // The published copy: its uniqueness check (the slug among published versions) and its insert.
      assert.equal(published - draft, 2);
    });

    it('unpublish removes the published version and keeps the draft', async () => {
      const { documentId } = (await api().post('/api/articles', { data: { title: 'To unpublish' } })).body.data;
      const res = await api().post(`/api/articles/${documentId}/actions/unpublish`);
      assert.equal(res.status, 200);
      assert.equal(res.body.data.publishedAt, null);
      assert.equal((await api().get(`/api/articles/${documentId}`)).status, 404);
      assert.equal((await api().get(`/api/articles/${documentId}?status=draft`)).body.data.title, 'To unpublish');
    });

    it('discard-draft restores the draft from the published version', async () => {
      const { documentId } = (
        await api().post('/api/articles', { data: { title: 'Stable', seo: { metaTitle: 'kept' } } })
      ).body.data;
      await api().put(`/api/articles/${documentId}?status=draft`, {
        data: { title: 'Scratch', seo: { metaTitle: 'scratch' } },
      });
      const res = await api().post(`/api/articles/${documentId}/actions/discard-draft?populate=seo`);
      assert.equal(res.status, 200);
      assert.equal(res.body.data.title, 'Stable');
      assert.equal(res.body.data.seo.metaTitle, 'kept');
      assert.equal((await api().get(`/api/articles/${documentId}?status=draft`)).body.data.title, 'Stable');
    });

    it('unpublish and discard-draft of a never-published draft are 404s, as Strapi 5.54; actions on unknown documents are 404', async () => {
      const { documentId } = (await api().post('/api/articles?status=draft', { data: { title: 'Never published' } }))
        .body.data;
      for (const action of ['discard-draft', 'unpublish']) {
        const res = await api().post(`/api/articles/${documentId}/actions/${action}`);
        assert.equal(res.status, 404, action);
        assert.equal(res.body.error.name, 'NotFoundError');
      }
      assert.equal(
        (await api().get(`/api/articles/${documentId}?status=draft`)).body.data.title,
        'Never published',
        'the draft stays',
      );
      assert.equal((await api().post('/api/articles/doesnotexist000000000000/actions/publish')).status, 404);
      assert.equal(
        (await api().post('/api/tags/doesnotexist000000000000/actions/publish')).status,
        400,
        'tags have no draft and publish',
      );
    });

    it('filters apply to the version of the requested status', async () => {
      const { documentId } = (await api().post('/api/articles', { data: { title: 'Filter me', views: 10 } })).body.data;
      await api().put(`/api/articles/${documentId}?status=draft`, { data: { views: 20 } });
      const published = await api().get('/api/articles?filters[views][$eq]=20&filters[title][$eq]=Filter me');
      const draft = await api().get('/api/articles?status=draft&filters[views][$eq]=20&filters[title][$eq]=Filter me');
      assert.equal(published.body.data.length, 0);
      assert.equal(draft.body.data.length, 1);
    });

    it('a populated relation shows the version matching the request status', async () => {
      const author = (await api().post('/api/authors', { data: { name: 'Populated' } })).body.data;
      const { documentId } = (
        await api().post('/api/articles?status=draft', { data: { title: 'Hidden article', author: author.documentId } })
      ).body.data;
      const published = await api().get(`/api/authors/${author.documentId}?populate=articles`);
      assert.deepEqual(published.body.data.articles, []);
      const draft = await api().get(`/api/authors/${author.documentId}?populate=articles&status=draft`);
      assert.deepEqual(
        draft.body.data.articles.map((a: any) => a.documentId),
        [documentId],
      );
      await api().post(`/api/articles/${documentId}/actions/publish`);
      const after = await api().get(`/api/authors/${author.documentId}?populate=articles`);
      assert.deepEqual(
        after.body.data.articles.map((a: any) => a.title),
        ['Hidden article'],
      );
      assert.ok(after.body.data.articles[0].publishedAt);
    });

    it('types without draft and publish are always published and ignore status', async () => {
      const res = await api().post('/api/tags?status=draft', { data: { name: 'always live' } });
      assert.ok(res.body.data.publishedAt);
      assert.equal((await api().get(`/api/tags/${res.body.data.documentId}`)).status, 200);
      assert.equal((await api().get(`/api/tags/${res.body.data.documentId}?status=draft`)).status, 200);
    });

    it('DELETE removes every version', async () => {
      const { documentId } = (await api().post('/api/articles', { data: { title: 'Doomed' } })).body.data;
      await api().put(`/api/articles/${documentId}?status=draft`, { data: { title: 'Doomed draft' } });
      assert.equal((await api().delete(`/api/articles/${documentId}`)).status, 204);
      assert.equal((await api().get(`/api/articles/${documentId}`)).status, 404);
      assert.equal((await api().get(`/api/articles/${documentId}?status=draft`)).status, 404);
    });

    it('an invalid status is a 400 naming the parameter', async () => {
      const res = await api().get('/api/articles?status=preview');
      assert.equal(res.status, 400);
      assert.equal(res.body.error.details.param, 'status');
    });
  });
}
