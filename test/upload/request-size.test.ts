/**
 * The total of a multipart request is capped: its files together (Strapi's `strapi::body`
 * `formidable.maxFileSize`, default the upload `sizeLimit`) and its other fields together
 * (`server.bodyLimit`); over either, a 413 PayloadTooLargeError as Strapi answers, and nothing is
 * stored. (Issue 17, point 4: a request could carry 100 files of `sizeLimit` each.)
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS } from '../helpers/server.js';
import { startUploadServer, upload, type UploadServer } from '../helpers/uploads.js';

const LIMIT = 256 * 1024;
const file = (name: string, size: number) => ({ name, bytes: Buffer.alloc(size, 7) });

for (const dialect of DIALECTS) {
  describe(`upload request size [${dialect}]`, () => {
    let server: UploadServer;
    /** The same limits per file, with `formidable.maxFileSize` raised to 1 MB. */
    let raised: UploadServer;

    before(async () => {
      server = await startUploadServer(dialect, { sizeLimit: LIMIT });
      const middlewares = [{ name: 'strapi::body', config: { formidable: { maxFileSize: 1024 * 1024 } } }];
      raised = await startUploadServer(
        dialect,
        { sizeLimit: LIMIT },
        { nodeOf: server, config: { middlewares } as never },
      );
    });
    after(async () => {
      await raised?.close();
      await server?.close();
    });

    it('refuses files over sizeLimit together, though each is under it: 413, nothing stored', async () => {
      const before = server.stored();
      const count = (await server.api.get('/api/upload/files')).body.length;
      const res = await upload(server, [
        file('a.bin', 200 * 1024),
        file('b.bin', 200 * 1024),
        file('c.bin', 200 * 1024),
      ]);
      assert.equal(res.status, 413, JSON.stringify(res.body));
      assert.equal(res.body.data, null);
      assert.equal(res.body.error.name, 'PayloadTooLargeError');
      assert.match(res.body.error.message, /FileTooBig/);
      assert.deepEqual(res.body.error.details, { limit: LIMIT });
      assert.deepEqual(server.stored(), before);
      assert.equal((await server.api.get('/api/upload/files')).body.length, count);
      // Files under the total pass.
      const fits = await upload(server, [file('a.bin', 100 * 1024), file('b.bin', 100 * 1024)]);
      assert.equal(fits.status, 201, JSON.stringify(fits.body));
    });

    it('takes the total from strapi::body formidable.maxFileSize, each file still within sizeLimit', async () => {
      const res = await upload(raised, [
        file('a.bin', 200 * 1024),
        file('b.bin', 200 * 1024),
        file('c.bin', 200 * 1024),
      ]);
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.equal(res.body.length, 3);
      const big = await upload(raised, [file('big.bin', LIMIT + 1)]);
      assert.equal(big.status, 413, 'sizeLimit still holds per file');
      const many = await upload(
        raised,
        Array.from({ length: 5 }, (_, i) => file(`${i}.bin`, 250 * 1024)),
      );
      assert.equal(many.status, 413, '1.25 MB together');
    });

    it('refuses form fields over server.bodyLimit together', async () => {
      const fileInfo = Array.from({ length: 30 }, () => JSON.stringify({ caption: 'c'.repeat(40 * 1024) }));
      const res = await upload(server, [file('a.bin', 10)], { fileInfo });
      assert.equal(res.status, 413, JSON.stringify(res.body));
      assert.equal(res.body.error.name, 'PayloadTooLargeError');
      assert.match(res.body.error.message, /server\.bodyLimit/);
    });
  });
}
