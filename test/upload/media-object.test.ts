import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS } from '../helpers/server.js';
import { png, startUploadServer, upload, type UploadServer } from '../helpers/uploads.js';

/** The fields of Strapi 5.54's media objects, in its order (issue 14, point 12). */
const MEDIA_FIELDS = [
  'id',
  'documentId',
  'name',
  'alternativeText',
  'caption',
  'focalPoint',
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
  'publishedAt',
];

for (const dialect of DIALECTS) {
  describe(`media objects as Strapi 5.54's [${dialect}]`, () => {
    let server: UploadServer;
    before(async () => {
      server = await startUploadServer(dialect);
    });
    after(() => server?.close());

    it('the upload API answers every field, focalPoint and isUrlSigned included', async () => {
      const res = await upload(server, [{ name: 'plain.png', bytes: await png(40, 30) }]);
      assert.equal(res.status, 201, JSON.stringify(res.body));
      const [file] = res.body;
      assert.deepEqual(Object.keys(file), [...MEDIA_FIELDS, 'isUrlSigned']);
      assert.equal(file.focalPoint, null);
      assert.equal(file.isUrlSigned, false);
      for (const path of [`/api/upload/files/${file.id}`, `/api/upload/files?filters[id]=${file.id}`]) {
        const read = await server.api.get(path);
        const answer = Array.isArray(read.body) ? read.body[0] : read.body;
        assert.deepEqual(Object.keys(answer), [...MEDIA_FIELDS, 'isUrlSigned'], path);
      }
      const removed = await server.api.delete(`/api/upload/files/${file.id}`);
      assert.equal(removed.body.isUrlSigned, false);
    });

    it('fileInfo sets the focal point; a null one keeps it', async () => {
      const res = await upload(server, [{ name: 'focus.png', bytes: await png(40, 30) }], {
        fileInfo: JSON.stringify({ focalPoint: { x: 25, y: 75.5 } }),
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      const [file] = res.body;
      assert.deepEqual(file.focalPoint, { x: 25, y: 75.5 });
      const kept = await upload(
        server,
        [],
        { fileInfo: JSON.stringify({ caption: 'c', focalPoint: null }) },
        `/api/upload?id=${file.id}`,
      );
      assert.equal(kept.status, 200, JSON.stringify(kept.body));
      assert.deepEqual(kept.body.focalPoint, { x: 25, y: 75.5 });
      const moved = await upload(
        server,
        [],
        { fileInfo: JSON.stringify({ focalPoint: { x: 0, y: 100 } }) },
        `/api/upload?id=${file.id}`,
      );
      assert.deepEqual(moved.body.focalPoint, { x: 0, y: 100 });
      const bad = await upload(server, [{ name: 'bad.png', bytes: await png(4, 3) }], {
        fileInfo: JSON.stringify({ focalPoint: { x: 120, y: 5 } }),
      });
      assert.equal(bad.status, 400);
    });

    it('a populated media object has the same fields, without isUrlSigned', async () => {
      const res = await upload(server, [{ name: 'cover.png', bytes: await png(40, 30) }], {
        fileInfo: JSON.stringify({ focalPoint: { x: 10, y: 20 } }),
      });
      const [file] = res.body;
      const article = await server.api.post('/api/articles?populate=cover', {
        data: { title: 'Focal', cover: file.id },
      });
      assert.equal(article.status, 201, JSON.stringify(article.body));
      assert.deepEqual(Object.keys(article.body.data.cover), MEDIA_FIELDS);
      assert.deepEqual(article.body.data.cover.focalPoint, { x: 10, y: 20 });
      const v4 = await server.api.get(`/api/articles/${article.body.data.documentId}?populate=cover`, {
        headers: { 'Strapi-Response-Format': 'v4' },
      });
      const media = v4.body.data.attributes.cover.data;
      assert.deepEqual(Object.keys(media), ['id', 'documentId', 'attributes']);
      assert.deepEqual(media.attributes.focalPoint, { x: 10, y: 20 });
    });
  });
}
