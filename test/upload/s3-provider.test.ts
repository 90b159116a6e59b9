/**
 * Strapi's S3 provider (`@strapi/provider-upload-aws-s3`), unchanged, against a real S3-compatible
 * server started here (s3rver, on an ephemeral port, objects in a temporary folder): the config a
 * Strapi project writes in `config/plugins` (`provider: 'aws-s3'`, `providerOptions.s3Options`),
 * originals and formats stored in the bucket, their URLs answered by every node of the database
 * (a second node on PostgreSQL and MariaDB; SQLite runs one), deletion through another node.
 * Both packages are devDependencies; without them (a checkout not installed yet) the file is
 * skipped with the reason, except under CI.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';
import { png, startUploadServer, upload, type UploadServer } from '../helpers/uploads.js';

const require = createRequire(import.meta.url);
const missing = ['s3rver', '@strapi/provider-upload-aws-s3'].filter((name) => {
  try {
    require.resolve(name);
    return false;
  } catch {
    return true;
  }
});
const skip = missing.length > 0 && !process.env.CI ? `not installed: ${missing.join(', ')} (devDependencies)` : false;

interface S3rverInstance {
  run(): Promise<{ port: number }>;
  close(): Promise<void>;
}

const BUCKET = 'vellum-media';

for (const dialect of DIALECTS) {
  describe(`Strapi's S3 upload provider against an S3 server [${dialect}]`, { skip }, () => {
    let s3: S3rverInstance;
    let objectsDir: string;
    let endpoint: string;
    let server: UploadServer;
    let other: TestServer | undefined;

    before(async () => {
      objectsDir = mkdtempSync(join(tmpdir(), 'vellum-s3-'));
      const S3rver = require('s3rver') as new (options: Record<string, unknown>) => S3rverInstance;
      s3 = new S3rver({
        port: 0,
        address: '127.0.0.1',
        silent: true,
        directory: objectsDir,
        configureBuckets: [{ name: BUCKET }],
      });
      const { port } = await s3.run();
      endpoint = `http://127.0.0.1:${port}`;
      // As a Strapi project's config/plugins writes it.
      server = await startUploadServer(dialect, {
        provider: 'aws-s3',
        providerOptions: {
          rootPath: dialect,
          s3Options: {
            endpoint,
            forcePathStyle: true,
            region: 'us-east-1',
            credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
            params: { Bucket: BUCKET },
          },
        },
      });
      if (dialect !== 'sqlite')
        other = await startServer(dialect, {
          nodeOf: server,
          config: {
            plugins: {
              upload: {
                config: {
                  provider: 'aws-s3',
                  providerOptions: {
                    rootPath: dialect,
                    s3Options: {
                      endpoint,
                      forcePathStyle: true,
                      region: 'us-east-1',
                      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
                      params: { Bucket: BUCKET },
                    },
                  },
                },
              },
            },
          },
        });
    });
    after(async () => {
      await other?.close();
      await server?.close();
      await s3?.close();
      if (objectsDir) rmSync(objectsDir, { recursive: true, force: true });
    });

    it('stores originals and formats in the bucket; every node answers their URLs; a delete through another node removes them', async () => {
      const bytes = await png(600, 400);
      const res = await upload(server, [{ name: 'bucket.png', bytes }]);
      assert.equal(res.status, 201, JSON.stringify(res.body));
      const [file] = res.body;
      assert.equal(file.provider, 'aws-s3');
      assert.equal(file.url, `${endpoint}/${BUCKET}/${dialect}/${file.hash}.png`);
      const fetched = await fetch(file.url);
      assert.equal(fetched.status, 200);
      assert.deepEqual(Buffer.from(await fetched.arrayBuffer()), bytes);
      assert.equal(fetched.headers.get('content-type'), 'image/png');
      assert.deepEqual(Object.keys(file.formats).sort(), ['small', 'thumbnail']);
      for (const format of Object.values(file.formats) as { url: string }[])
        assert.equal((await fetch(format.url)).status, 200, format.url);

      // Another node of the database reads the same file and the same URLs.
      const reader = other ?? server;
      const read = await reader.api.get(`/api/upload/files/${file.id}`);
      assert.equal(read.status, 200, read.text);
      assert.equal(read.body.url, file.url);
      assert.deepEqual(read.body.formats, file.formats);

      const removed = await reader.api.delete(`/api/upload/files/${file.id}`);
      assert.equal(removed.status, 200, removed.text);
      assert.equal((await fetch(file.url)).status, 404);
      for (const format of Object.values(file.formats) as { url: string }[])
        assert.equal((await fetch(format.url)).status, 404, format.url);
    });
  });
}
