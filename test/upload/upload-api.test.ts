import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS } from '../helpers/server.js';
import { pdf, png, startUploadServer, upload, type UploadServer } from '../helpers/uploads.js';

const MEDIA_KEYS = [
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
];

for (const dialect of DIALECTS) {
  describe(`upload API [${dialect}]`, () => {
    let server: UploadServer;
    before(async () => {
      server = await startUploadServer(dialect);
    });
    after(() => server?.close());

    it('POST /api/upload answers an array of media objects (docs/media.md) and stores the bytes as sent', async () => {
      const bytes = await png(320, 200);
      const res = await upload(server, [{ name: 'hero.png', bytes, type: 'image/png' }], {
        fileInfo: JSON.stringify({ name: 'Homepage hero', alternativeText: 'A hero', caption: 'Caption' }),
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.ok(Array.isArray(res.body));
      const [file] = res.body;
      for (const key of MEDIA_KEYS) assert.ok(key in file, `missing ${key}`);
      assert.equal(typeof file.id, 'number');
      assert.equal(typeof file.documentId, 'string');
      assert.equal(file.name, 'Homepage hero');
      assert.equal(file.alternativeText, 'A hero');
      assert.equal(file.caption, 'Caption');
      assert.equal(file.width, 320);
      assert.equal(file.height, 200);
      assert.equal(file.mime, 'image/png');
      assert.equal(file.ext, '.png');
      assert.equal(file.size, Math.round((bytes.length / 1000) * 100) / 100);
      assert.equal(file.provider, 'local');
      assert.equal(file.previewUrl, null);
      assert.equal(file.provider_metadata, null);
      assert.equal(file.url, `/uploads/${file.hash}${file.ext}`);
      assert.deepEqual(server.storedBytes(file.url), bytes);
      const served = await fetch(server.url + file.url);
      assert.equal(served.status, 200);
      assert.equal(served.headers.get('content-type'), 'image/png');
      assert.equal(served.headers.get('x-content-type-options'), 'nosniff');
      assert.match(served.headers.get('cache-control') ?? '', /max-age=\d+/);
      assert.deepEqual(Buffer.from(await served.arrayBuffer()), bytes);
    });

    it('several files in one request, each with its fileInfo, in order', async () => {
      const res = await upload(
        server,
        [
          { name: 'a.png', bytes: await png(10, 10) },
          { name: 'doc.pdf', bytes: pdf(), type: 'application/pdf' },
        ],
        { fileInfo: [JSON.stringify({ caption: 'first' }), JSON.stringify({ caption: 'second' })] },
      );
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.deepEqual(
        res.body.map((f: any) => [f.name, f.caption, f.mime]),
        [
          ['a.png', 'first', 'image/png'],
          ['doc.pdf', 'second', 'application/pdf'],
        ],
      );
      assert.equal(res.body[1].formats, null);
      assert.equal(res.body[1].width, null);
    });

    it('GET /api/upload/files lists a plain array with filters, sort and pagination', async () => {
      for (const name of ['list-b.png', 'list-a.png', 'list-c.png']) {
        assert.equal((await upload(server, [{ name, bytes: await png(8, 8) }])).status, 201);
      }
      const all = await server.api.get('/api/upload/files?filters[name][$startsWith]=list-&sort=name:asc');
      assert.equal(all.status, 200, JSON.stringify(all.body));
      assert.ok(Array.isArray(all.body));
      assert.deepEqual(
        all.body.map((f: any) => f.name),
        ['list-a.png', 'list-b.png', 'list-c.png'],
      );
      const page = await server.api.get(
        '/api/upload/files?filters[name][$startsWith]=list-&sort=name:desc&pagination[page]=2&pagination[pageSize]=2',
      );
      assert.deepEqual(
        page.body.map((f: any) => f.name),
        ['list-a.png'],
      );
      const bad = await server.api.get('/api/upload/files?filters[nope][$eq]=1');
      assert.equal(bad.status, 400);
      assert.equal(bad.body.error.name, 'ValidationError');
    });

    it('GET /api/upload/files/:id answers the file; unknown ids are 404, malformed ones 400', async () => {
      const [file] = (await upload(server, [{ name: 'one.png', bytes: await png(8, 8) }])).body;
      const res = await server.api.get(`/api/upload/files/${file.id}`);
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, file);
      const missing = await server.api.get('/api/upload/files/999999');
      assert.equal(missing.status, 404);
      assert.equal(missing.body.error.name, 'NotFoundError');
      assert.equal((await server.api.get('/api/upload/files/abc')).status, 400);
    });

    it('POST /api/upload?id= updates the file info; with a file it replaces the stored bytes', async () => {
      const [file] = (await upload(server, [{ name: 'old.png', bytes: await png(300, 300) }])).body;
      const info = await upload(
        server,
        [],
        { fileInfo: JSON.stringify({ name: 'renamed.png', alternativeText: 'alt', caption: null }) },
        `/api/upload?id=${file.id}`,
      );
      assert.equal(info.status, 200, JSON.stringify(info.body));
      assert.equal(info.body.id, file.id);
      assert.equal(info.body.name, 'renamed.png');
      assert.equal(info.body.alternativeText, 'alt');
      assert.equal(info.body.url, file.url);
      const json = await server.api.post(`/api/upload?id=${file.id}`, { fileInfo: { caption: 'json body' } });
      assert.equal(json.status, 200, JSON.stringify(json.body));
      assert.equal(json.body.caption, 'json body');

      const bytes = await png(400, 100, '#00ff00');
      const replaced = await upload(server, [{ name: 'new.png', bytes }], {}, `/api/upload?id=${file.id}`);
      assert.equal(replaced.status, 200, JSON.stringify(replaced.body));
      assert.equal(replaced.body.id, file.id);
      assert.equal(replaced.body.width, 400);
      assert.notEqual(replaced.body.url, file.url);
      assert.deepEqual(server.storedBytes(replaced.body.url), bytes);
      assert.equal(server.isStored(file.url), false);
      assert.equal(server.isStored(file.formats.thumbnail.url), false);

      const missing = await upload(server, [], { fileInfo: '{}' }, '/api/upload?id=999999');
      assert.equal(missing.status, 404);
    });

    it('DELETE /api/upload/files/:id answers the deleted file and removes it and its formats from storage', async () => {
      const [file] = (await upload(server, [{ name: 'gone.png', bytes: await png(1200, 900) }])).body;
      const urls = [file.url, ...Object.values(file.formats).map((f: any) => f.url)];
      assert.equal(urls.length, 5);
      for (const url of urls) assert.ok(server.isStored(url), url);
      const res = await server.api.delete(`/api/upload/files/${file.id}`);
      assert.equal(res.status, 200);
      assert.equal(res.body.id, file.id);
      assert.equal(res.body.name, 'gone.png');
      for (const url of urls) assert.equal(server.isStored(url), false, url);
      assert.equal((await server.api.get(`/api/upload/files/${file.id}`)).status, 404);
      assert.equal((await server.api.delete(`/api/upload/files/${file.id}`)).status, 404);
      assert.equal((await fetch(server.url + file.url)).status, 404);
    });

    it('bad requests are 400 in the envelope', async () => {
      const none = await upload(server, []);
      assert.equal(none.status, 400);
      assert.equal(none.body.data, null);
      assert.equal(none.body.error.name, 'ValidationError');
      const badInfo = await upload(server, [{ name: 'x.png', bytes: await png(4, 4) }], { fileInfo: '{not json' });
      assert.equal(badInfo.status, 400);
      const wrongType = await upload(server, [{ name: 'x.png', bytes: await png(4, 4) }], {
        fileInfo: JSON.stringify({ name: 42 }),
      });
      assert.equal(wrongType.status, 400);
      assert.deepEqual(wrongType.body.error.details.errors[0].path, ['fileInfo', 0, 'name']);
      const json = await server.api.post('/api/upload', { hello: 'world' });
      assert.equal(json.status, 400);
      for (const [contentType, body] of [
        ['multipart/form-data; boundary=x', 'garbage'],
        ['multipart/form-data', 'garbage'],
        [
          'multipart/form-data; boundary=x',
          '--x\r\nContent-Disposition: form-data; name="files"; filename="a.txt"\r\n\r\nabc',
        ],
      ]) {
        const malformed = await server.api.request('POST', '/api/upload', {
          rawBody: body,
          headers: { 'content-type': contentType! },
        });
        assert.equal(malformed.status, 400, `${contentType}: ${malformed.text}`);
        assert.equal(malformed.body.error.name, 'ValidationError');
      }
      const partialLink = await upload(server, [{ name: 'x.png', bytes: await png(4, 4) }], {
        ref: 'api::article.article',
      });
      assert.equal(partialLink.status, 400);
    });
  });
}
