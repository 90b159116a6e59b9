import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DIALECTS } from '../helpers/server.js';
import { pdf, png, startUploadServer, upload, type UploadServer } from '../helpers/uploads.js';
import { unique } from '../helpers/unique.js';

const LIMIT = 256 * 1024;
// A private temporary folder while this file's tests run, so that leftovers are ours to see (the
// process runs other files too: TMPDIR is put back after).
const TEMP = mkdtempSync(join(tmpdir(), 'vellum-safety-'));
const previousTmpdir = process.env.TMPDIR;
const tempUploads = () => readdirSync(TEMP).filter((name) => name.startsWith('vellum-upload-'));

for (const dialect of DIALECTS) {
  describe(`upload limits and safety [${dialect}]`, () => {
    let server: UploadServer;
    before(async () => {
      process.env.TMPDIR = TEMP;
      server = await startUploadServer(dialect, { sizeLimit: LIMIT });
    });
    after(async () => {
      await server?.close();
      if (previousTmpdir === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = previousTmpdir;
    });

    it('hostile names are sanitised; files are stored under unique hashes inside uploads/', async () => {
      const names = [
        '../../../etc/passwd.png',
        '..\\..\\win.png',
        '.hidden.png',
        'a\u0000b<script>.png',
        '/abs/../x.png',
      ];
      const bytes = await png(4, 4);
      const res = await upload(
        server,
        names.map((name) => ({ name, bytes })),
      );
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.deepEqual(
        res.body.map((f: any) => f.name),
        ['passwd.png', 'win.png', 'hidden.png', 'abscript.png', 'x.png'],
      );
      for (const file of res.body) {
        assert.match(file.url, /^\/uploads\/[A-Za-z0-9_]+\.png$/);
        assert.ok(server.isStored(file.url));
      }
      // The same name twice never overwrites.
      const again = await upload(server, [{ name: 'passwd.png', bytes: await png(5, 5) }]);
      assert.notEqual(again.body[0].hash, res.body[0].hash);
      assert.deepEqual(server.storedBytes(res.body[0].url), bytes);
      const traversal = await fetch(`${server.url}/uploads/..%2f..%2fetc%2fpasswd`);
      assert.ok([403, 404].includes(traversal.status), String(traversal.status));
    });

    it('an oversized file is a 413 in the envelope; nothing is stored or left behind', async () => {
      const before = server.stored();
      const count = (await server.api.get('/api/upload/files?pagination[pageSize]=100')).body.length;
      const big = Buffer.alloc(LIMIT * 4, 7);
      const res = await upload(server, [{ name: 'big.bin', bytes: big }]);
      assert.equal(res.status, 413, JSON.stringify(res.body));
      assert.equal(res.body.data, null);
      assert.equal(res.body.error.name, 'PayloadTooLargeError');
      assert.deepEqual(server.stored(), before);
      assert.equal((await server.api.get('/api/upload/files?pagination[pageSize]=100')).body.length, count);
      // A file at the limit passes.
      const atLimit = await upload(server, [{ name: 'ok.bin', bytes: Buffer.alloc(LIMIT, 7) }]);
      assert.equal(atLimit.status, 201, JSON.stringify(atLimit.body));
      assert.equal(atLimit.body[0].size, Math.round((LIMIT / 1000) * 100) / 100);
      assert.deepEqual(tempUploads(), [], 'temporary files are removed');
    });

    it('the MIME type comes from the content, not from the client', async () => {
      const res = await upload(server, [
        { name: 'photo.png', bytes: Buffer.from('just some text, not an image\n'), type: 'image/png' },
        { name: 'invoice.png', bytes: pdf(), type: 'image/png' },
        { name: 'page.html', bytes: Buffer.from('<html><script>alert(1)</script></html>'), type: 'text/html' },
        { name: 'real.txt', bytes: await png(300, 200), type: 'text/plain' },
        { name: 'blob', bytes: Buffer.from([0, 1, 2, 3, 255, 254, 0, 9]), type: 'image/jpeg' },
      ]);
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.deepEqual(
        res.body.map((f: any) => [f.mime, f.ext]),
        [
          ['text/plain', '.txt'],
          ['application/pdf', '.pdf'],
          ['text/plain', '.txt'],
          ['image/png', '.png'],
          ['application/octet-stream', '.bin'],
        ],
      );
      assert.equal(res.body[0].formats, null);
      assert.equal(res.body[3].width, 300);
      assert.ok(res.body[3].formats.thumbnail);
      const html = await fetch(server.url + res.body[2].url);
      assert.match(html.headers.get('content-type') ?? '', /^text\/plain/);
      assert.equal(html.headers.get('x-content-type-options'), 'nosniff');
    });

    it('a corrupt image is stored as it came, without formats, never a 500', async () => {
      const whole = await png(800, 600);
      const truncated = whole.subarray(0, 200);
      const res = await upload(server, [{ name: 'broken.png', bytes: truncated }]);
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.equal(res.body[0].mime, 'image/png');
      assert.equal(res.body[0].formats, null);
      assert.deepEqual(server.storedBytes(res.body[0].url), Buffer.from(truncated));
    });

    it('whatever put it under /uploads (an import), only media is shown inline; every file is sandboxed', async () => {
      const script = Buffer.from('<html><body><script>fetch("/api/users/me")</script></body></html>');
      for (const name of [
        'page.shtml',
        'page.xht',
        'style.xsl',
        'math.mml',
        'logo.svgz',
        'page.html',
        'data.xml',
        'noext',
      ]) {
        writeFileSync(join(server.publicDir, 'uploads', `${unique('active')}-${name}`), script);
      }
      writeFileSync(join(server.publicDir, 'uploads', `${unique('still')}-image.png`), await png(4, 4));
      for (const stored of server.stored().filter((n) => n.startsWith('active-') || n.startsWith('still-'))) {
        const served = await fetch(`${server.url}/uploads/${stored}`);
        assert.equal(served.status, 200, stored);
        assert.match(served.headers.get('content-security-policy') ?? '', /default-src 'none'.*sandbox/, stored);
        assert.equal(served.headers.get('x-content-type-options'), 'nosniff', stored);
        assert.equal(
          served.headers.get('content-disposition'),
          stored.startsWith('still-') ? null : 'attachment',
          stored,
        );
      }
    });

    it('SVG is served so that it cannot run script on the API origin', async () => {
      const svg = Buffer.from(
        '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(document.cookie)</script><rect width="10" height="10"/></svg>',
      );
      const [file] = (await upload(server, [{ name: 'logo.svg', bytes: svg, type: 'image/png' }])).body;
      assert.equal(file.mime, 'image/svg+xml');
      assert.equal(file.ext, '.svg');
      assert.equal(file.formats, null);
      const served = await fetch(server.url + file.url);
      assert.equal(served.status, 200);
      assert.equal(served.headers.get('content-type'), 'image/svg+xml');
      assert.match(served.headers.get('content-security-policy') ?? '', /default-src 'none'.*sandbox/);
      assert.equal(served.headers.get('x-content-type-options'), 'nosniff');
    });
  });
}

after(() => rmSync(TEMP, { recursive: true, force: true }));
