import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ForbiddenError } from '../../src/core/errors.js';
import type { AccessControl, Permission } from '../../src/api/access.js';
import { DIALECTS, fixture } from '../helpers/server.js';
import { png, startUploadServer, upload, type UploadServer } from '../helpers/uploads.js';
// @ts-expect-error: a plain .mjs fixture without types
import { objects } from '../fixtures/upload-provider/memory-provider.mjs';

const stored = objects as Map<string, Buffer>;
const PROVIDER = fixture('upload-provider/memory-provider.mjs');

for (const dialect of DIALECTS) {
  describe(`upload providers [${dialect}]`, () => {
    let server: UploadServer;
    before(async () => {
      server = await startUploadServer(dialect, {
        provider: PROVIDER,
        providerOptions: { baseUrl: 'https://cdn.example.com', bucket: 'media', prefix: `${dialect}/` },
      });
    });
    after(() => server?.close());

    it('a provider package in Strapi shape stores originals and formats; delete removes them', async () => {
      const bytes = await png(600, 400);
      const res = await upload(server, [{ name: 'cloud.png', bytes }]);
      assert.equal(res.status, 201, JSON.stringify(res.body));
      const [file] = res.body;
      const key = `${dialect}/${file.hash}.png`;
      assert.equal(file.url, `https://cdn.example.com/${key}`);
      assert.deepEqual(file.provider_metadata, { bucket: 'media', key });
      assert.deepEqual(stored.get(key), bytes);
      assert.deepEqual(Object.keys(file.formats).sort(), ['small', 'thumbnail']);
      assert.ok(stored.has(`${dialect}/thumbnail_${file.hash}.png`));
      assert.equal((await fetch(`${server.url}/uploads/${file.hash}.png`)).status, 404, 'no local serving');

      assert.equal((await server.api.delete(`/api/upload/files/${file.id}`)).status, 200);
      assert.deepEqual(
        [...stored.keys()].filter((k) => k.startsWith(dialect)),
        [],
      );
    });
  });

  describe(`upload permissions [${dialect}]`, () => {
    let server: UploadServer;
    const asked: Permission[] = [];
    const access: AccessControl = {
      async authorize(headers, permission) {
        asked.push(permission);
        if (headers['x-deny'] === permission.action) throw new ForbiddenError();
        return {};
      },
    };
    before(async () => {
      server = await startUploadServer(dialect, {}, { access });
    });
    after(() => server?.close());

    it("each route asks for its permission on plugin::upload.content-api (replacing: update, not Strapi's upload)", async () => {
      asked.length = 0;
      const [file] = (await upload(server, [{ name: 'p.png', bytes: await png(4, 4) }])).body;
      await upload(server, [], { fileInfo: '{"caption":"c"}' }, `/api/upload?id=${file.id}`);
      await server.api.get('/api/upload/files');
      await server.api.get(`/api/upload/files/${file.id}`);
      await server.api.delete(`/api/upload/files/${file.id}`);
      assert.deepEqual(
        asked.map((p) => `${p.uid} ${p.action}`),
        [
          'plugin::upload.content-api upload',
          'plugin::upload.content-api update',
          'plugin::upload.content-api find',
          'plugin::upload.content-api findOne',
          'plugin::upload.content-api destroy',
        ],
      );
    });

    it('a refused upload is a 403 before anything is read or stored', async () => {
      const before = server.stored();
      const form = new FormData();
      form.append('files', new Blob([await png(4, 4)]), 'no.png');
      const res = await fetch(`${server.url}/api/upload`, {
        method: 'POST',
        body: form,
        headers: { 'x-deny': 'upload' },
      });
      assert.equal(res.status, 403);
      assert.equal((await res.json()).error.name, 'ForbiddenError');
      assert.deepEqual(server.stored(), before);
      const list = await fetch(`${server.url}/api/upload/files`, { headers: { 'x-deny': 'find' } });
      assert.equal(list.status, 403);
    });
  });
}
