import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';

for (const dialect of DIALECTS) {
  describe(`relations in request bodies, docs/rest.md "Relations in request bodies" [${dialect}]`, () => {
    let server: TestServer;
    const tags: string[] = [];
    before(async () => {
      server = await startServer(dialect);
      for (const name of ['t0', 't1', 't2', 't3', 't4'])
        tags.push((await server.api.post('/api/tags', { data: { name } })).body.data.documentId);
    });
    after(() => server?.close());
    const api = () => server.api;
    const tagNames = async (documentId: string, status = '') =>
      (await api().get(`/api/articles/${documentId}?populate=tags${status}`)).body.data.tags.map((t: any) => t.name);
    const article = async (data: Record<string, unknown> = {}) => {
      const res = await api().post('/api/articles', { data: { title: `a ${Math.random()}`, ...data } });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body.data.documentId as string;
    };

    it('the omitted-key form sets the relation in the given order', async () => {
      const id = await article({ tags: [tags[2], tags[0], tags[1]] });
      assert.deepEqual(await tagNames(id), ['t2', 't0', 't1']);
    });

    it('set replaces, in shorthand and longhand', async () => {
      const id = await article({ tags: [tags[0]] });
      await api().put(`/api/articles/${id}`, { data: { tags: { set: [tags[3], tags[1]] } } });
      assert.deepEqual(await tagNames(id), ['t3', 't1']);
      await api().put(`/api/articles/${id}`, { data: { tags: { set: [{ documentId: tags[4] }] } } });
      assert.deepEqual(await tagNames(id), ['t4']);
      await api().put(`/api/articles/${id}`, { data: { tags: { set: [] } } });
      assert.deepEqual(await tagNames(id), []);
    });

    it('connect appends by default and disconnect removes', async () => {
      const id = await article({ tags: [tags[0]] });
      await api().put(`/api/articles/${id}`, { data: { tags: { connect: [tags[1], { documentId: tags[2] }] } } });
      assert.deepEqual(await tagNames(id), ['t0', 't1', 't2']);
      await api().put(`/api/articles/${id}`, { data: { tags: { disconnect: [tags[1]] } } });
      assert.deepEqual(await tagNames(id), ['t0', 't2']);
    });

    it('connect positions: start, end, before, after, in array order', async () => {
      const id = await article({ tags: [tags[0], tags[1]] });
      await api().put(`/api/articles/${id}`, {
        data: {
          tags: {
            connect: [
              { documentId: tags[2], position: { start: true } },
              { documentId: tags[3], position: { before: tags[1] } },
              { documentId: tags[4], position: { after: tags[2] } },
            ],
          },
        },
      });
      assert.deepEqual(await tagNames(id), ['t2', 't4', 't0', 't3', 't1']);
      await api().put(`/api/articles/${id}`, {
        data: { tags: { connect: [{ documentId: tags[2], position: { end: true } }] } },
      });
      assert.deepEqual(await tagNames(id), ['t4', 't0', 't3', 't1', 't2']);
    });

    it('to-one short form and null', async () => {
      const author = (await api().post('/api/authors', { data: { name: 'Short' } })).body.data.documentId;
      const id = await article({ author });
      assert.equal((await api().get(`/api/articles/${id}?populate=author`)).body.data.author.documentId, author);
      await api().put(`/api/articles/${id}`, { data: { author: null } });
      assert.equal((await api().get(`/api/articles/${id}?populate=author`)).body.data.author, null);
    });

    it('both sides of a bidirectional relation see the link, in order', async () => {
      // Its own tag: the other tests link the shared ones to their articles.
      const tag = (await api().post('/api/tags', { data: { name: 'both sides' } })).body.data.documentId;
      const a1 = await article({ tags: [tag] });
      const a2 = await article({ tags: [tag] });
      const inverse = await api().get(`/api/tags/${tag}?populate=articles`);
      const seen = inverse.body.data.articles.map((a: any) => a.documentId);
      assert.ok(seen.indexOf(a1) >= 0 && seen.indexOf(a1) < seen.indexOf(a2));
    });

    it('writing the inverse side is visible from the owner side', async () => {
      const author = (await api().post('/api/authors', { data: { name: 'Inverse' } })).body.data.documentId;
      const a1 = await article();
      const a2 = await article();
      const res = await api().put(`/api/authors/${author}`, { data: { articles: [a1, a2] } });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal((await api().get(`/api/articles/${a1}?populate=author`)).body.data.author.documentId, author);
      const list = (await api().get(`/api/authors/${author}?populate=articles`)).body.data.articles.map(
        (a: any) => a.documentId,
      );
      assert.deepEqual(list, [a1, a2]);
    });

    it('oneToMany keeps its cardinality: connecting an article to another author moves it', async () => {
      const ann = (await api().post('/api/authors', { data: { name: 'Ann M' } })).body.data.documentId;
      const bob = (await api().post('/api/authors', { data: { name: 'Bob M' } })).body.data.documentId;
      const a = await article({ author: ann });
      await api().put(`/api/authors/${bob}`, { data: { articles: { connect: [a] } } });
      assert.deepEqual((await api().get(`/api/authors/${ann}?populate=articles`)).body.data.articles, []);
      assert.equal((await api().get(`/api/articles/${a}?populate=author`)).body.data.author.documentId, bob);
    });

    it('deleting a document removes it from every relation', async () => {
      const doomed = (await api().post('/api/tags', { data: { name: 'doomed' } })).body.data.documentId;
      const id = await article({ tags: [tags[0], doomed] });
      await api().delete(`/api/tags/${doomed}`);
      assert.deepEqual(await tagNames(id), ['t0']);
    });

    for (const [name, data, path] of [
      [
        'the same entry at two positions in connect',
        {
          tags: {
            connect: [
              { documentId: 'X', position: { end: true } },
              { documentId: 'X', position: { start: true } },
            ],
          },
        },
        'tags.connect.1',
      ],
      ['a documentId that does not exist', { tags: { connect: ['doesnotexist000000000000'] } }, 'tags.connect.0'],
      ['set with connect', { tags: { set: ['X'], connect: ['X'] } }, 'tags'],
      [
        'position with two keys',
        { tags: { connect: [{ documentId: 'X', position: { start: true, end: true } }] } },
        'tags.connect.0.position',
      ],
      [
        'before naming a document that does not exist',
        { tags: { connect: [{ documentId: 'X', position: { before: 'doesnotexist000000000000' } }] } },
        'tags.connect.0.position',
      ],
      [
        'disconnecting a document that does not exist',
        { tags: { disconnect: ['doesnotexist000000000000'] } },
        'tags.disconnect.0',
      ],
      ['connect on a media attribute', { cover: { connect: [1] } }, 'cover'],
    ] as const) {
      it(`400 for ${name}, and nothing changes`, async () => {
        const id = await article({ tags: [tags[0]] });
        const body = JSON.parse(
          JSON.stringify(data).replaceAll('"X"', JSON.stringify(tags[1])).replaceAll('"Y"', JSON.stringify(tags[4])),
        );
        const res = await api().put(`/api/articles/${id}`, { data: { title: 'changed?', ...body } });
        assert.equal(res.status, 400, JSON.stringify(res.body));
        assert.equal(res.body.error.name, 'ValidationError');
        const paths = res.body.error.details.errors.map((e: any) => e.path.join('.'));
        assert.ok(paths.includes(path), `${paths.join(', ')} includes ${path}`);
        const read = (await api().get(`/api/articles/${id}?populate=tags`)).body.data;
        assert.notEqual(read.title, 'changed?');
        assert.deepEqual(
          read.tags.map((t: any) => t.name),
          ['t0'],
        );
      });
    }

    it('longhand items name a locale (default locale when omitted) and a status', async () => {
      const en = (await api().post('/api/articles', { data: { title: 'Localized target' } })).body.data.documentId;
      await api().put(`/api/articles/${en}?locale=fr`, { data: { title: 'Cible localisée' } });
      const author = (await api().post('/api/authors', { data: { name: 'Polyglot' } })).body.data.documentId;
      const res = await api().put(`/api/authors/${author}`, {
        data: { articles: { connect: [{ documentId: en, locale: 'fr', status: 'published' }] } },
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const fr = (await api().get(`/api/authors/${author}?populate=articles&locale=fr`)).body.data.articles;
      assert.deepEqual(
        fr.map((a: any) => a.title),
        ['Cible localisée'],
      );
      // The author has no i18n: it lists what it is linked to whatever ?locale says (as Strapi).
      const enList = (await api().get(`/api/authors/${author}?populate=articles`)).body.data.articles;
      assert.deepEqual(
        enList.map((a: any) => [a.title, a.locale]),
        [['Cible localisée', 'fr']],
        'the en version was not connected',
      );
      const bad = await api().put(`/api/authors/${author}`, {
        data: { articles: { connect: [{ documentId: en, locale: 'xx' }] } },
      });
      assert.equal(bad.status, 400);
    });

    it('parallel connects on one document end with a consistent, duplicate-free order', async () => {
      const id = await article();
      await Promise.all(tags.map((tag) => api().put(`/api/articles/${id}`, { data: { tags: { connect: [tag] } } })));
      const names = await tagNames(id);
      assert.equal(new Set(names).size, names.length);
      assert.deepEqual([...names].sort(), ['t0', 't1', 't2', 't3', 't4']);
    });
  });
}
