/**
 * The admin panel's API (`GET /admin/content-types`, `/admin/content-manager/...`) on every
 * dialect, and how Vellum serves the panel's files beside the JSON admin routes.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { HttpClient } from '../helpers/http.js';
import { adminClient } from '../helpers/admins.js';
import sharp from 'sharp';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';
import { startUploadServer } from '../helpers/uploads.js';
import { unique } from '../helpers/unique.js';

const ARTICLES = '/admin/content-manager/collection-types/api::article.article';

for (const dialect of DIALECTS) {
  describe(`admin content API [${dialect}]`, () => {
    let server: TestServer;
    let admin: HttpClient;
    before(async () => {
      server = await startUploadServer(dialect);
      admin = (await adminClient(server)).client;
    });
    after(() => server?.close());

    it('answers administrators only', async () => {
      assert.equal((await server.publicApi.get('/admin/content-types')).status, 401);
      // A full-access content API token is no administrator.
      assert.equal((await server.api.get('/admin/content-types')).status, 401);
      assert.equal((await server.api.get(ARTICLES)).status, 401);
      assert.equal((await server.api.post(ARTICLES, { data: { title: 'x' } })).status, 401);
    });

    it("compresses the panel's large descriptions for clients that accept it, and only those", async () => {
      // Node's http, not fetch: fetch asks for compression itself and undoes it unseen.
      const raw = (path: string, acceptEncoding?: string) =>
        new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
          const headers: Record<string, string> = { authorization: admin.defaultHeaders.authorization! };
          if (acceptEncoding) headers['accept-encoding'] = acceptEncoding;
          httpRequest(`${server.url}${path}`, { headers }, (response) => {
            const chunks: Buffer[] = [];
            response.on('data', (chunk: Buffer) => chunks.push(chunk));
            response.on('end', () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
          })
            .on('error', reject)
            .end();
        });
      // The Super Admin's permissions (14 KB with the blog; 166 KB with 150 content-types).
      const path = '/admin/users/me/permissions';
      const plain = await raw(path);
      assert.equal(plain.headers['content-encoding'], undefined);
      const json = JSON.parse(plain.body.toString('utf8'));
      assert.ok(json.data.length > 0);
      const br = await raw(path, 'gzip, deflate, br');
      assert.equal(br.headers['content-encoding'], 'br');
      assert.equal(br.headers.vary, 'accept-encoding');
      assert.deepEqual(JSON.parse(brotliDecompressSync(br.body).toString('utf8')), json);
      assert.ok(br.body.length < plain.body.length / 4, `${br.body.length} of ${plain.body.length} bytes`);
      const gzip = await raw(path, 'gzip, br;q=0');
      assert.equal(gzip.headers['content-encoding'], 'gzip');
      assert.deepEqual(JSON.parse(gunzipSync(gzip.body).toString('utf8')), json);
      assert.equal((await raw(path, 'identity')).headers['content-encoding'], undefined);
      // The blog's schema is small (5 KB): it goes as it is.
      const schema = await raw('/admin/content-types', 'br');
      assert.equal(schema.headers['content-encoding'], undefined);
      assert.ok(JSON.parse(schema.body.toString('utf8')).data.contentTypes.length > 0);
    });

    it('describes the schema: content-types and components, attributes in order as the schema spells them', async () => {
      const res = await admin.get('/admin/content-types');
      assert.equal(res.status, 200);
      const { contentTypes, components } = res.body.data;
      const article = contentTypes.find((type: any) => type.uid === 'api::article.article');
      assert.deepEqual(
        {
          kind: article.kind,
          draftAndPublish: article.draftAndPublish,
          localized: article.localized,
          mainField: article.mainField,
          pluralName: article.pluralName,
        },
        { kind: 'collectionType', draftAndPublish: true, localized: true, mainField: 'title', pluralName: 'articles' },
      );
      assert.deepEqual(article.attributes.map((a: any) => a.name).slice(0, 10), [
        'title',
        'slug',
        'body',
        'content',
        'views',
        'rating',
        'featured',
        'publishDate',
        'kind',
        'metadata',
      ]);
      const byName = Object.fromEntries(article.attributes.map((a: any) => [a.name, a]));
      assert.deepEqual(byName.title, { name: 'title', type: 'string', required: true, localized: true });
      assert.equal(byName.slug.targetField, 'title');
      assert.deepEqual(byName.kind.enum, ['news', 'tutorial', 'opinion']);
      assert.deepEqual(
        { target: byName.tags.target, toMany: byName.tags.toMany },
        { target: 'api::tag.tag', toMany: true },
      );
      assert.deepEqual(byName.blocks.components, ['shared.quote', 'shared.rich-text', 'shared.media']);
      assert.equal(contentTypes.find((type: any) => type.uid === 'api::global.global').kind, 'singleType');
      // The built-in users and media files have screens of their own.
      assert.ok(!contentTypes.some((type: any) => type.uid.startsWith('plugin::')));
      assert.ok(components.some((component: any) => component.uid === 'shared.seo' && component.category === 'shared'));
    });

    it('lists drafts with server-side pagination, sort and filters, and their publication state', async () => {
      const prefix = unique('list');
      const ids: string[] = [];
      for (const title of ['b', 'a', 'c']) {
        const res = await admin.post(ARTICLES, { data: { title: `${prefix} ${title}` } });
        assert.equal(res.status, 201, JSON.stringify(res.body));
        ids.push(res.body.data.documentId);
      }
      assert.equal((await admin.post(`${ARTICLES}/${ids[1]}/actions/publish`)).status, 200);
      const page = await admin.get(
        `${ARTICLES}?filters[title][$startsWith]=${encodeURIComponent(prefix)}&sort=title:desc&pagination[pageSize]=2`,
      );
      assert.equal(page.status, 200);
      assert.deepEqual(
        page.body.data.map((d: any) => d.title),
        [`${prefix} c`, `${prefix} b`],
      );
      assert.deepEqual(page.body.meta.pagination, { page: 1, pageSize: 2, pageCount: 2, total: 3 });
      const second = await admin.get(
        `${ARTICLES}?filters[title][$containsi]=${encodeURIComponent(prefix.toUpperCase())}&sort=title:desc&pagination[pageSize]=2&pagination[page]=2`,
      );
      assert.deepEqual(
        second.body.data.map((d: any) => d.title),
        [`${prefix} a`],
      );
      assert.equal(second.body.data[0].publishedAt, null, 'the draft is listed');
      assert.deepEqual(Object.keys(second.body.meta.publication), [ids[1]]);
      assert.equal(second.body.meta.publication[ids[1]!].modified, false);
    });

    it('saves drafts, publishes with the API field errors, unpublishes, discards and deletes', async () => {
      const title = unique('article');
      // A draft skips the required checks; publishing does not.
      const created = await admin.post(ARTICLES, { data: { views: 7 } });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assert.deepEqual(created.body.meta, { publication: null });
      const id = created.body.data.documentId;
      const refused = await admin.post(`${ARTICLES}/${id}/actions/publish`);
      assert.equal(refused.status, 400);
      assert.equal(refused.body.error.name, 'ValidationError');
      assert.deepEqual(
        refused.body.error.details.errors.map((e: any) => e.path),
        [['title']],
      );
      assert.equal((await server.api.get(`/api/articles/${id}`)).status, 404);

      assert.equal((await admin.put(`${ARTICLES}/${id}`, { data: { title } })).status, 200);
      const published = await admin.post(`${ARTICLES}/${id}/actions/publish`);
      assert.equal(published.status, 200, JSON.stringify(published.body));
      assert.equal(published.body.data.title, title);
      assert.equal(published.body.meta.publication.modified, false);
      assert.ok(published.body.meta.publication.publishedAt);
      assert.equal((await server.api.get(`/api/articles/${id}`)).body.data.title, title);

      const edited = await admin.put(`${ARTICLES}/${id}`, { data: { views: 8 } });
      assert.equal(edited.body.meta.publication.modified, true);
      assert.equal(edited.body.data.title, title, 'an update changes the attributes it names only');
      assert.equal((await server.api.get(`/api/articles/${id}`)).body.data.views, 7);
      const discarded = await admin.post(`${ARTICLES}/${id}/actions/discard-draft`);
      assert.equal(discarded.body.data.views, 7);
      assert.equal(discarded.body.meta.publication.modified, false);

      const unpublished = await admin.post(`${ARTICLES}/${id}/actions/unpublish`);
      assert.equal(unpublished.status, 200);
      assert.equal(unpublished.body.meta.publication, null);
      assert.equal((await server.api.get(`/api/articles/${id}`)).status, 404);
      assert.equal((await admin.get(`${ARTICLES}/${id}`)).body.data.title, title);

      assert.equal((await admin.post(`${ARTICLES}/${id}/actions/nothing`)).status, 404);
      assert.equal((await admin.delete(`${ARTICLES}/${id}`)).status, 204);
      assert.equal((await admin.get(`${ARTICLES}/${id}`)).status, 404);
      assert.equal((await server.api.get(`/api/articles/${id}?status=draft`)).status, 404);
    });

    it('keeps a draft within its types and limits: a bad value is a 400 naming the field', async () => {
      const res = await admin.post(ARTICLES, { data: { title: 'x', kind: 'poem' } });
      assert.equal(res.status, 400);
      assert.deepEqual(
        res.body.error.details.errors.map((e: any) => e.path),
        [['kind']],
      );
      assert.equal((await admin.post(ARTICLES, {})).status, 400);
    });

    it("uploads to the media library under /admin/upload, the admin's way in", async () => {
      const name = `${unique('image')}.png`;
      const form = new FormData();
      form.append(
        'files',
        new Blob(
          [
            await sharp({ create: { width: 4, height: 4, channels: 3, background: '#fff' } })
              .png()
              .toBuffer(),
          ],
          { type: 'image/png' },
        ),
        name,
      );
      const send = (headers: Record<string, string>) =>
        fetch(`${server.url}/admin/upload`, { method: 'POST', headers, body: form });
      assert.equal((await send(server.authHeaders)).status, 401, 'a content API token is no administrator');
      const uploaded = await send(admin.defaultHeaders);
      assert.equal(uploaded.status, 201);
      const [file] = (await uploaded.json()) as any[];
      assert.equal(file.name, name);
      const listed = await admin.get(`/admin/upload/files?filters[name][$eq]=${encodeURIComponent(name)}`);
      assert.deepEqual(
        listed.body.results.map((f: any) => f.id),
        [file.id],
      );
      assert.equal((await server.api.get('/admin/upload/files')).status, 401);
      // Linked into a draft as the panel saves it: by id.
      const article = await admin.post(`${ARTICLES}?populate[cover]=true`, { data: { title: name, cover: file.id } });
      assert.equal(article.body.data.cover.id, file.id);
      assert.equal((await admin.delete(`/admin/upload/files/${file.id}`)).status, 200);
      assert.equal(
        (await admin.get(`${ARTICLES}/${article.body.data.documentId}?populate[cover]=true`)).body.data.cover,
        null,
      );
    });

    it('edits a single type, and refuses types it does not serve', async () => {
      const single = '/admin/content-manager/single-types/api::global.global';
      const siteName = unique('site');
      const saved = await admin.put(single, { data: { siteName } });
      assert.equal(saved.status, 200, JSON.stringify(saved.body));
      assert.equal(saved.body.data.siteName, siteName);
      assert.equal((await admin.get(single)).body.data.siteName, siteName);
      assert.equal((await server.api.get('/api/global')).body.data.siteName, siteName);
      assert.equal((await admin.post(`${single}/actions/publish`)).status, 400, 'no draft and publish');
      assert.equal((await admin.get('/admin/content-manager/collection-types/api::global.global')).status, 404);
      assert.equal((await admin.get('/admin/content-manager/collection-types/api::nothing.nothing')).status, 404);
      assert.equal(
        (await admin.get('/admin/content-manager/collection-types/plugin::users-permissions.user')).status,
        404,
      );
    });
  });
}

/**
 * A build as Vite lays it out (the real one is served in panel.test.ts): the page, hashed assets,
 * their brotli and gzip copies. Made here, so that this file never waits on or races a build.
 */
function fakeBuild(dir: string): string {
  mkdirSync(join(dir, 'assets'), { recursive: true });
  const page =
    '<!doctype html><html><head><script type="module" crossorigin src="/admin/assets/index-Ab12Cd34.js"></script><link rel="stylesheet" href="/admin/assets/index-Ef56Gh78.css"></head><body><div id="root"></div></body></html>';
  writeFileSync(join(dir, 'index.html'), page);
  for (const [name, text] of [
    ['index-Ab12Cd34.js', 'console.log("admin")'],
    ['index-Ef56Gh78.css', 'body{margin:0}'],
  ] as const) {
    writeFileSync(join(dir, 'assets', name), text);
    writeFileSync(join(dir, 'assets', `${name}.br`), brotliCompressSync(text));
    writeFileSync(join(dir, 'assets', `${name}.gz`), gzipSync(text));
  }
  return page;
}

describe('the admin panel files beside the admin API', () => {
  const dialect = DIALECTS[0]!;
  let server: TestServer;
  let unbuilt: TestServer;
  let built: string;
  let empty: string;
  let page: string;
  before(async () => {
    built = mkdtempSync(join(tmpdir(), 'vellum-admin-build-'));
    page = fakeBuild(built);
    empty = mkdtempSync(join(tmpdir(), 'vellum-no-admin-'));
    server = await startServer(dialect, { adminPanelDir: built });
    unbuilt = await startServer(dialect, { adminPanelDir: empty });
  });
  after(async () => {
    await server?.close();
    await unbuilt?.close();
    rmSync(built, { recursive: true, force: true });
    rmSync(empty, { recursive: true, force: true });
  });
  const html = { headers: { accept: 'text/html,application/xhtml+xml' } };

  it('serves the page uncached and the hashed assets cached for a year', async () => {
    const res = await server.publicApi.get('/admin', html);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type')!, /text\/html/);
    assert.equal(res.headers.get('cache-control'), 'no-cache');
    assert.equal(res.text, page);
    const assets = [...res.text.matchAll(/(?:src|href)="(\/admin\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    assert.ok(assets.length >= 2, 'a script and a style sheet');
    for (const asset of assets) {
      const file = await server.publicApi.get(asset, { headers: { 'accept-encoding': 'br, gzip' } });
      assert.equal(file.status, 200, asset);
      assert.equal(file.headers.get('cache-control'), 'public, max-age=31536000, immutable');
      // Compressed at build time: brotli when the browser takes it.
      assert.equal(file.headers.get('content-encoding'), 'br', asset);
    }
    const plain = await server.publicApi.get(assets[0]!, { headers: { 'accept-encoding': 'identity' } });
    assert.equal(plain.text, 'console.log("admin")');
    assert.equal((await server.publicApi.get('/admin/assets/nothing-1234.js')).status, 404);
  });

  it("answers the page at the app's client routes; the JSON routes keep priority", async () => {
    const route = await server.publicApi.get('/admin/content/api::article.article/abc', html);
    assert.equal(route.status, 200);
    assert.match(route.text, /<div id="root">/);
    // A JSON admin route answers JSON, even to a browser.
    const settings = await server.publicApi.get('/admin/settings', html);
    assert.equal(settings.status, 401);
    assert.equal(settings.body.error.name, 'UnauthorizedError');
    // A request that does not ask for HTML gets the JSON 404.
    const missing = await server.publicApi.get('/admin/nothing');
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error.name, 'NotFoundError');
  });

  it('says how to build the panel when its files are missing, never a 500', async () => {
    for (const path of ['/admin', '/admin/content/anything']) {
      const res = await unbuilt.publicApi.get(path, html);
      assert.equal(res.status, 503, path);
      assert.match(res.text, /npm run admin:build/);
    }
    assert.equal((await unbuilt.publicApi.get('/admin/assets/index.js')).status, 404);
  });
});
