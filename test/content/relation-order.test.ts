/**
 * Relation order after several writes, as the real Strapi 5.54 answers the same requests (blog
 * example; each expectation was read back from Strapi). Found by random write sequences: a target
 * connected again without a position moves to the end; anchors may name items connected later in
 * the same list or disconnected by the same write; repeats are stored once; writing from the
 * inverse side keeps the owner's own order.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { insertFile } from '../helpers/files.js';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';

for (const dialect of DIALECTS) {
  describe(`relation order after sequences of writes, as Strapi 5.54 [${dialect}]`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect);
    });
    after(() => server?.close());

    let counter = 0;
    const tag = async (name: string) => {
      const res = await server.api.post('/api/tags', { data: { name: `${name}-${++counter}` } });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body.data.documentId as string;
    };
    /** Four tags a1..a4 and an article linked to the given ones. */
    const setup = async (linked: number[]) => {
      const t = [await tag('a1'), await tag('a2'), await tag('a3'), await tag('a4')];
      const res = await server.api.post('/api/articles', {
        data: { title: 'ordered', tags: linked.map((i) => t[i - 1]) },
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      const names = new Map(t.map((id, i) => [id, `a${i + 1}`]));
      return { t, id: res.body.data.documentId as string, names };
    };
    const put = async (id: string, tags: unknown) => {
      const res = await server.api.put(`/api/articles/${id}?populate=tags`, { data: { tags } });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    };
    const order = async (id: string, names: Map<string, string>, status = 'published') => {
      const res = await server.api.get(`/api/articles/${id}?populate=tags&status=${status}`);
      return res.body.data.tags.map((t: { documentId: string }) => names.get(t.documentId));
    };

    it('connecting a linked target without a position moves it to the end', async () => {
      const { t, id, names } = await setup([1, 2, 3]);
      await put(id, { connect: [t[0]] });
      assert.deepEqual(await order(id, names), ['a2', 'a3', 'a1']);
      assert.deepEqual(await order(id, names, 'draft'), ['a2', 'a3', 'a1']);
    });

    it('an item anchored on one connected later in the same list waits for it', async () => {
      const { t, id, names } = await setup([1]);
      await put(id, {
        connect: [
          { documentId: t[2], position: { after: t[1] } },
          { documentId: t[1], position: { start: true } },
        ],
      });
      assert.deepEqual(await order(id, names), ['a2', 'a3', 'a1']);
    });

    it('an anchor the same write disconnects is replaced by its surviving neighbour', async () => {
      const { t, id, names } = await setup([2, 3, 1]);
      await put(id, { connect: [{ documentId: t[3], position: { before: t[0] } }], disconnect: [t[0]] });
      assert.deepEqual(await order(id, names), ['a2', 'a3', 'a4']);
    });

    it('connecting and disconnecting the same target in one write is a move', async () => {
      const { t, id, names } = await setup([1, 2, 3]);
      await put(id, {
        connect: [
          { documentId: t[3], position: { start: true } },
          { documentId: t[1], position: { before: t[3] } },
        ],
        disconnect: [t[3]],
      });
      assert.deepEqual(await order(id, names), ['a2', 'a4', 'a1', 'a3']);
    });

    it('repeats in set, in connect and in a media list are stored once', async () => {
      const { t, id, names } = await setup([1]);
      await put(id, { connect: [t[1], t[1]] });
      assert.deepEqual(await order(id, names), ['a1', 'a2']);
      await put(id, [t[1], t[0], t[1]]);
      assert.deepEqual(await order(id, names), ['a2', 'a1']);
      const [f1, f2] = [await insertFile(server, 'one.png'), await insertFile(server, 'two.png')];
      const res = await server.api.put(`/api/articles/${id}?populate=gallery`, { data: { gallery: [f2, f1, f2] } });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(
        res.body.data.gallery.map((f: { id: number }) => f.id),
        [f2, f1],
      );
    });

    it("a set from the inverse side keeps the order of the owner's own list", async () => {
      const { t, id, names } = await setup([1, 2, 3]);
      // The link article-a1 exists: setting a1's articles to [article] must not move a1 in the article's tags.
      const res = await server.api.put(`/api/tags/${t[0]}`, { data: { articles: [id] } });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(await order(id, names), ['a1', 'a2', 'a3']);
      assert.deepEqual(await order(id, names, 'draft'), ['a1', 'a2', 'a3']);
    });

    it('connecting from the inverse side moves a linked owner to the end of the inverse list, not in its own list', async () => {
      const { t, id, names } = await setup([1, 2]);
      const other = (await server.api.post('/api/articles', { data: { title: 'other', tags: [t[0]] } })).body.data
        .documentId;
      const articlesOf = async () =>
        (await server.api.get(`/api/tags/${t[0]}?populate=articles`)).body.data.articles.map(
          (a: { documentId: string }) => a.documentId,
        );
      assert.deepEqual(await articlesOf(), [id, other]);
      assert.equal((await server.api.put(`/api/tags/${t[0]}`, { data: { articles: { connect: [id] } } })).status, 200);
      assert.deepEqual(await articlesOf(), [other, id]);
      assert.deepEqual(await order(id, names), ['a1', 'a2']);
    });

    it('an anchor neither linked nor connected is a 400 on either side (also when the write disconnects it); options.strict false puts the item at the end', async () => {
      const { t, id, names } = await setup([1]);
      const other = (await server.api.post('/api/articles', { data: { title: 'unlinked anchor' } })).body.data
        .documentId;
      const third = (await server.api.post('/api/articles', { data: { title: 'connected' } })).body.data.documentId;
      for (const [path, body] of [
        [`/api/articles/${id}`, { tags: { connect: [{ documentId: t[1], position: { after: t[2] } }] } }],
        [
          `/api/articles/${id}`,
          { tags: { connect: [{ documentId: t[1], position: { after: t[2] } }], disconnect: [t[2]] } },
        ],
        [`/api/tags/${t[0]}`, { articles: { connect: [{ documentId: third, position: { before: other } }] } }],
        [
          `/api/tags/${t[0]}`,
          { articles: { connect: [{ documentId: third, position: { before: other } }], disconnect: [other] } },
        ],
      ] as const) {
        const res = await server.api.put(path, { data: body });
        assert.equal(res.status, 400, JSON.stringify(res.body));
        assert.equal(res.body.error.name, 'ValidationError');
        assert.match(
          res.body.error.message,
          /^There was a problem connecting relation with id \w+ at position \{"(after|before)":"\w+"\}\. The relation with id \w+ needs to be connected first\.$/,
        );
      }
      // Nothing was written.
      assert.deepEqual(await order(id, names, 'draft'), ['a1']);
      const articlesOf = async () =>
        (await server.api.get(`/api/tags/${t[0]}?populate=articles`)).body.data.articles.map(
          (a: { documentId: string }) => a.documentId,
        );
      assert.deepEqual(await articlesOf(), [id]);
      await put(id, { connect: [{ documentId: t[1], position: { after: t[2] } }], options: { strict: false } });
      assert.deepEqual(await order(id, names), ['a1', 'a2']);
      assert.equal(
        (
          await server.api.put(`/api/tags/${t[0]}`, {
            data: {
              articles: { connect: [{ documentId: third, position: { before: other } }], options: { strict: false } },
            },
          })
        ).status,
        200,
      );
      assert.deepEqual(await articlesOf(), [id, third]);
    });

    it('connecting from a type without draft and publish links every version of the owner, also when its draft was linked already', async () => {
      const article = (await server.api.post('/api/articles', { data: { title: 'versions apart' } })).body.data
        .documentId;
      const category = (await server.api.post('/api/categories', { data: { name: `versions-${++counter}` } })).body.data
        .documentId;
      assert.equal((await server.api.put(`/api/articles/${article}?status=draft`, { data: { category } })).status, 200);
      const categoryOf = async (status: string) =>
        (await server.api.get(`/api/articles/${article}?status=${status}&populate=category`)).body.data.category
          ?.documentId ?? null;
      assert.deepEqual(
        [await categoryOf('draft'), await categoryOf('published')],
        [category, null],
        'a draft write links the draft only',
      );
      for (const articles of [
        { connect: [article] },
        { connect: [article, { documentId: article }], disconnect: [article] },
      ]) {
        const res = await server.api.put(`/api/categories/${category}`, { data: { articles } });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        assert.deepEqual(
          [await categoryOf('draft'), await categoryOf('published')],
          [category, category],
          JSON.stringify(articles),
        );
        await server.api.put(`/api/articles/${article}`, { data: { category: null } });
        await server.api.put(`/api/articles/${article}?status=draft`, { data: { category } });
      }
    });

    it('disconnecting an unknown document is a 400 naming it, as in Strapi, on either side', async () => {
      const { t, id } = await setup([1]);
      for (const [path, body] of [
        [`/api/articles/${id}`, { tags: { disconnect: ['doesnotexist000000000000'] } }],
        [`/api/tags/${t[0]}`, { articles: { disconnect: ['doesnotexist000000000000'] } }],
      ] as const) {
        const res = await server.api.put(path, { data: body });
        assert.equal(res.status, 400, JSON.stringify(res.body));
        assert.equal(res.body.error.name, 'ValidationError');
        assert.match(res.body.error.message, /doesnotexist000000000000/);
      }
    });
  });
}
