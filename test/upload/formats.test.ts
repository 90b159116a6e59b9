import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS } from '../helpers/server.js';
import {
  dimensionsOf,
  jpeg,
  noisyJpeg,
  pdf,
  png,
  startUploadServer,
  upload,
  type UploadServer,
} from '../helpers/uploads.js';

const dims = (format: any) => [format.width, format.height];

for (const dialect of DIALECTS) {
  describe(`image formats [${dialect}]`, () => {
    let server: UploadServer;
    before(async () => {
      server = await startUploadServer(dialect);
    });
    after(() => server?.close());

    /** Every format's stored bytes have the dimensions and size the media object claims. */
    async function checkStored(file: any) {
      for (const [key, format] of Object.entries<any>(file.formats ?? {})) {
        const bytes = server.storedBytes(format.url);
        assert.deepEqual(await dimensionsOf(bytes), { width: format.width, height: format.height }, key);
        assert.equal(format.sizeInBytes, bytes.length, key);
        assert.equal(format.mime, file.mime);
        assert.equal(format.ext, file.ext);
        assert.equal(format.hash, `${key}_${file.hash}`);
        assert.equal(format.url, `/uploads/${key}_${file.hash}${file.ext}`);
        assert.equal(format.name, `${key}_${file.name}`);
      }
    }

    it('a large PNG gets thumbnail, small, medium and large, each fitted and stored', async () => {
      const res = await upload(server, [{ name: 'big.png', bytes: await png(1600, 1200) }]);
      assert.equal(res.status, 201, JSON.stringify(res.body));
      const [file] = res.body;
      assert.deepEqual(Object.keys(file.formats).sort(), ['large', 'medium', 'small', 'thumbnail']);
      assert.deepEqual(dims(file.formats.thumbnail), [208, 156]);
      assert.deepEqual(dims(file.formats.small), [500, 375]);
      assert.deepEqual(dims(file.formats.medium), [750, 563]);
      assert.deepEqual(dims(file.formats.large), [1000, 750]);
      await checkStored(file);
    });

    it('a mid-sized JPEG gets only the formats smaller than itself', async () => {
      const [file] = (await upload(server, [{ name: 'photo.jpg', bytes: await jpeg(600, 900) }])).body;
      assert.equal(file.mime, 'image/jpeg');
      assert.equal(file.ext, '.jpg');
      // 900 high: larger than small (500) and medium (750), not large (1000).
      assert.deepEqual(Object.keys(file.formats).sort(), ['medium', 'small', 'thumbnail']);
      assert.deepEqual(dims(file.formats.thumbnail), [104, 156]);
      assert.deepEqual(dims(file.formats.small), [333, 500]);
      assert.deepEqual(dims(file.formats.medium), [500, 750]);
      await checkStored(file);
    });

    it('a small image has no formats; a PDF is stored without formats', async () => {
      const [small] = (await upload(server, [{ name: 'icon.png', bytes: await png(200, 100) }])).body;
      assert.equal(small.formats, null);
      assert.equal(small.width, 200);
      const bytes = pdf();
      const [doc] = (await upload(server, [{ name: 'report.pdf', bytes }])).body;
      assert.equal(doc.mime, 'application/pdf');
      assert.equal(doc.ext, '.pdf');
      assert.equal(doc.formats, null);
      assert.equal(doc.width, null);
      assert.deepEqual(server.storedBytes(doc.url), bytes);
      const served = await fetch(server.url + doc.url);
      assert.equal(served.headers.get('content-type'), 'application/pdf');
    });

    it('EXIF orientation is applied: dimensions and formats are upright', async () => {
      // Stored 1200x600 with orientation 6 (rotate 90°): displayed 600x1200.
      const bytes = await jpeg(1200, 600, 6);
      const [file] = (await upload(server, [{ name: 'rotated.jpg', bytes }])).body;
      assert.equal(file.width, 600);
      assert.equal(file.height, 1200);
      assert.deepEqual(dims(file.formats.thumbnail), [78, 156]);
      assert.deepEqual(dims(file.formats.large), [500, 1000]);
      await checkStored(file);
      assert.deepEqual(server.storedBytes(file.url), bytes, 'the original is kept as uploaded');
    });

    it('other requests are answered while formats are generated', async () => {
      const bytes = await noisyJpeg(4000, 3000);
      const started = Date.now();
      const pending = upload(server, [{ name: 'noise.jpg', bytes }]);
      const latencies: number[] = [];
      let uploadDone = 0;
      void pending.then(() => (uploadDone = Date.now()));
      while (!uploadDone) {
        const t = Date.now();
        assert.equal((await server.api.get('/api/articles')).status, 200);
        latencies.push(Date.now() - t);
      }
      const res = await pending;
      assert.equal(res.status, 201);
      assert.equal(Object.keys(res.body[0].formats).length, 4);
      const total = (uploadDone || Date.now()) - started;
      // A blocked event loop would answer one or two GETs, late; here several are answered, none
      // waiting for the whole upload (a loose bound: the machine may be busy).
      const max = Math.max(...latencies);
      assert.ok(latencies.length >= 3 && max < total, `GET latencies ${latencies.join(',')} ms; upload ${total} ms`);
    });
  });

  describe(`image formats: configured breakpoints [${dialect}]`, () => {
    let server: UploadServer;
    before(async () => {
      server = await startUploadServer(dialect, { breakpoints: { xlarge: 1500, tiny: 300 } });
    });
    after(() => server?.close());

    it('config/plugins upload.config.breakpoints replaces the default sizes', async () => {
      const [file] = (await upload(server, [{ name: 'wide.png', bytes: await png(2000, 1000) }])).body;
      assert.deepEqual(Object.keys(file.formats).sort(), ['thumbnail', 'tiny', 'xlarge']);
      assert.deepEqual(dims(file.formats.tiny), [300, 150]);
      assert.deepEqual(dims(file.formats.xlarge), [1500, 750]);
    });
  });
}
