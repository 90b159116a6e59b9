import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS } from '../helpers/server.js';
import { jpeg, pdf, png, startUploadServer, upload, type UploadServer } from '../helpers/uploads.js';

const POPULATE = 'populate[cover]=true&populate[gallery]=true&populate[seo][populate]=*&populate[blocks][populate]=*';

for (const dialect of DIALECTS) {
  describe(`media fields and upload links [${dialect}]`, () => {
    let server: UploadServer;
    let image: any;
    let photo: any;
    let doc: any;
    before(async () => {
      server = await startUploadServer(dialect);
      const res = await upload(server, [
        { name: 'image.png', bytes: await png(800, 600) },
        { name: 'photo.jpg', bytes: await jpeg(300, 300) },
        { name: 'doc.pdf', bytes: pdf() },
      ]);
      assert.equal(res.status, 201, JSON.stringify(res.body));
      [image, photo, doc] = res.body;
    });
    after(() => server?.close());

    const article = async (documentId: string, query = POPULATE) => {
      const res = await server.api.get(`/api/articles/${documentId}?${query}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.data;
    };
    const links = async (fileId: number) =>
      server.vellum.database.db.selectFrom('files_related_mph').selectAll().where('file_id', '=', fileId).execute();

    it('media attributes of content-types and components link files, keep order, and populate to the media object', async () => {
      const res = await server.api.post('/api/articles', {
        data: {
          title: 'With media',
          cover: image.id,
          gallery: [doc.id, image.id, photo.id],
          seo: { metaTitle: 'S', shareImage: photo.id },
          blocks: [{ __component: 'shared.media', file: doc.id }],
        },
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      const data = await article(res.body.data.documentId);
      // The upload API adds isUrlSigned; a populated media object does not carry it (as Strapi).
      const { isUrlSigned: _signed, ...media } = image;
      assert.deepEqual(data.cover, media);
      assert.deepEqual(
        data.gallery.map((f: any) => f.id),
        [doc.id, image.id, photo.id],
      );
      assert.deepEqual(data.gallery[1].formats, image.formats);
      assert.equal(data.seo.shareImage.id, photo.id);
      assert.equal(data.blocks[0].file.mime, 'application/pdf');
      const reordered = await server.api.put(`/api/articles/${res.body.data.documentId}?populate=gallery`, {
        data: { gallery: [photo.id, doc.id] },
      });
      assert.deepEqual(
        reordered.body.data.gallery.map((f: any) => f.id),
        [photo.id, doc.id],
      );
    });

    it('connect on a media attribute is a 400 (docs/rest.md "Relations in request bodies")', async () => {
      const res = await server.api.post('/api/articles', { data: { title: 'x', cover: { connect: [image.id] } } });
      assert.equal(res.status, 400);
      assert.deepEqual(res.body.error.details.errors[0].path, ['cover']);
    });

    it('allowedTypes is enforced when linking', async () => {
      const cover = await server.api.post('/api/articles', { data: { title: 'pdf cover', cover: doc.id } });
      assert.equal(cover.status, 400, JSON.stringify(cover.body));
      assert.deepEqual(cover.body.error.details.errors[0].path, ['cover']);
      const share = await server.api.post('/api/articles', { data: { title: 'pdf seo', seo: { shareImage: doc.id } } });
      assert.equal(share.status, 400);
      assert.deepEqual(share.body.error.details.errors[0].path, ['seo', 'shareImage']);
      const avatar = await server.api.post('/api/authors', { data: { name: 'No PDF', avatar: doc.id } });
      assert.equal(avatar.status, 400);
    });

    it('upload with ref, refId and field links the new file (single replaced, multiple appended, every version)', async () => {
      const author = (await server.api.post('/api/authors', { data: { name: 'Ann' } })).body.data;
      const first = await upload(server, [{ name: 'ann.png', bytes: await png(64, 64) }], {
        ref: 'api::author.author',
        refId: author.documentId,
        field: 'avatar',
      });
      assert.equal(first.status, 201, JSON.stringify(first.body));
      let read = (await server.api.get(`/api/authors/${author.documentId}?populate=avatar`)).body.data;
      assert.equal(read.avatar.id, first.body[0].id);
      const second = await upload(server, [{ name: 'ann2.png', bytes: await png(64, 64) }], {
        ref: 'api::author.author',
        refId: author.documentId,
        field: 'avatar',
      });
      read = (await server.api.get(`/api/authors/${author.documentId}?populate=avatar`)).body.data;
      assert.equal(read.avatar.id, second.body[0].id);

      const created = (await server.api.post('/api/articles', { data: { title: 'Gallery', gallery: [image.id] } })).body
        .data;
      const added = await upload(
        server,
        [
          { name: 'g1.png', bytes: await png(20, 20) },
          { name: 'g2.pdf', bytes: pdf() },
        ],
        { ref: 'api::article.article', refId: created.documentId, field: 'gallery' },
      );
      assert.equal(added.status, 201, JSON.stringify(added.body));
      const expected = [image.id, ...added.body.map((f: any) => f.id)];
      assert.deepEqual(
        (await article(created.documentId, 'populate=gallery')).gallery.map((f: any) => f.id),
        expected,
      );
      assert.deepEqual(
        (await article(created.documentId, 'populate=gallery&status=draft')).gallery.map((f: any) => f.id),
        expected,
      );
    });

    it('upload with ref to a component links the component row', async () => {
      const created = (await server.api.post('/api/articles', { data: { title: 'Seo', seo: { metaTitle: 'M' } } })).body
        .data;
      const seoId = (await article(created.documentId, 'populate=seo')).seo.id;
      const res = await upload(server, [{ name: 'share.png', bytes: await png(50, 40) }], {
        ref: 'shared.seo',
        refId: String(seoId),
        field: 'shareImage',
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.equal(
        (await article(created.documentId, 'populate[seo][populate]=shareImage')).seo.shareImage.id,
        res.body[0].id,
      );
    });

    it('a refused link stores nothing', async () => {
      const created = (await server.api.post('/api/articles', { data: { title: 'Refuse' } })).body.data;
      const stored = server.stored();
      const count = (await server.api.get('/api/upload/files?pagination[pageSize]=100')).body.length;
      const cases: [Record<string, string>, number][] = [
        [{ ref: 'api::article.article', refId: created.documentId, field: 'cover' }, 400], // a PDF is not an image
        [{ ref: 'api::nope.nope', refId: created.documentId, field: 'cover' }, 400],
        [{ ref: 'api::article.article', refId: created.documentId, field: 'title' }, 400],
        [{ ref: 'api::article.article', refId: 'doesnotexist', field: 'gallery' }, 404],
        [{ ref: 'plugin::upload.file', refId: '1', field: 'name' }, 400],
      ];
      for (const [fields, status] of cases) {
        const res = await upload(server, [{ name: 'refused.pdf', bytes: pdf() }], fields);
        assert.equal(res.status, status, `${JSON.stringify(fields)}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.data, null);
        if (fields.field === 'cover' && fields.ref === 'api::article.article')
          assert.match(res.body.error.message, /cover accepts images; refused\.pdf is application\/pdf/);
      }
      assert.deepEqual(server.stored(), stored);
      assert.equal((await server.api.get('/api/upload/files?pagination[pageSize]=100')).body.length, count);
    });

    it('deleting a file unlinks it from every document and component and cleans storage', async () => {
      const [victim, keep] = (
        await upload(server, [
          { name: 'victim.png', bytes: await png(900, 700) },
          { name: 'keep.png', bytes: await png(30, 30) },
        ])
      ).body;
      const a = (
        await server.api.post('/api/articles', {
          data: {
            title: 'Linked',
            cover: victim.id,
            gallery: [keep.id, victim.id, photo.id],
            seo: { shareImage: victim.id },
            blocks: [{ __component: 'shared.media', file: victim.id }],
          },
        })
      ).body.data;
      const author = (await server.api.post('/api/authors', { data: { name: 'Bo', avatar: victim.id } })).body.data;
      assert.ok((await links(victim.id)).length >= 6);

      const res = await server.api.delete(`/api/upload/files/${victim.id}`);
      assert.equal(res.status, 200);
      assert.deepEqual(await links(victim.id), []);
      for (const status of ['published', 'draft']) {
        const data = await article(a.documentId, `${POPULATE}&status=${status}`);
        assert.equal(data.cover, null);
        assert.deepEqual(
          data.gallery.map((f: any) => f.id),
          [keep.id, photo.id],
        );
        assert.equal(data.seo.shareImage, null);
        assert.equal(data.blocks[0].file, null);
      }
      assert.equal((await server.api.get(`/api/authors/${author.documentId}?populate=avatar`)).body.data.avatar, null);
      for (const url of [victim.url, ...Object.values(victim.formats).map((f: any) => f.url)])
        assert.equal(server.isStored(url), false, url);
      assert.ok(server.isStored(keep.url));
      // The documents themselves still work, and the file can no longer be linked.
      const relink = await server.api.put(`/api/articles/${a.documentId}`, { data: { cover: victim.id } });
      assert.equal(relink.status, 400);
    });
  });
}
