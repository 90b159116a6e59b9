/**
 * Preview (docs/admin-panel.md "Preview"), on every dialect: `config/admin`'s `preview` checked at
 * start-up, and `GET /content-manager/preview/url/:uid` calling the project's handler with Strapi
 * 5.54's arguments, `{ data: { url } }` or a 204, read on the type required.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { HttpClient } from '../helpers/http.js';
import { registerFirstAdmin } from '../helpers/admins.js';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';

const ARTICLES = '/content-manager/collection-types/api::article.article';
const URL_OF = '/content-manager/preview/url';

/** What the handler was called with, each call. */
const calls: unknown[][] = [];
const preview = {
  enabled: true,
  config: {
    allowedOrigins: ['http://127.0.0.1:4000'],
    handler: (uid: string, params: { documentId: string; locale?: string | null; status: string }) => {
      calls.push([uid, params]);
      if (uid === 'api::tag.tag') return undefined;
      return `http://127.0.0.1:4000/preview/${params.documentId}?locale=${params.locale ?? ''}&status=${params.status}`;
    },
  },
};

for (const dialect of DIALECTS) {
  describe(`preview URLs (${dialect})`, () => {
    let server: TestServer;
    let root: HttpClient;

    before(async () => {
      server = await startServer(dialect, { config: { admin: { preview } } });
      root = (await registerFirstAdmin(server)).client;
    });
    after(() => server?.close());

    it('answers the handler’s URL, with Strapi’s arguments', async () => {
      const id = (await root.post(`${ARTICLES}?locale=en`, { title: 'Previewed' })).body.data.documentId as string;
      calls.length = 0;
      const answer = await root.get(`${URL_OF}/api::article.article?documentId=${id}&locale=en`);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      const url = new URL(answer.body.data.url);
      assert.equal(`${url.origin}${url.pathname}`, `http://127.0.0.1:4000/preview/${id}`);
      assert.deepEqual([url.searchParams.get('locale'), url.searchParams.get('status')], ['en', 'draft']);
      assert.deepEqual(calls, [['api::article.article', { documentId: id, locale: 'en', status: 'draft' }]]);

      // The token the URL carries reads the type's drafts through the content API, and nothing else.
      const token = url.searchParams.get('previewToken')!;
      const front = new HttpClient(server.url, { authorization: `Bearer ${token}` });
      const draft = await front.get(`/api/articles/${id}?status=draft&locale=en`);
      assert.equal(draft.status, 200, JSON.stringify(draft.body));
      assert.equal(draft.body.data.title, 'Previewed');
      assert.equal((await front.get(`/api/articles?status=draft&locale=en`)).status, 200);
      assert.equal((await front.get('/api/tags')).status, 403);
      assert.equal((await front.put(`/api/articles/${id}?locale=en`, { data: { title: 'x' } })).status, 403);
      const altered = new HttpClient(server.url, { authorization: `Bearer ${token.slice(0, -2)}xx` });
      assert.equal((await altered.get(`/api/articles/${id}?status=draft`)).status, 401);
      // Without it, the draft is not the public's to read.
      assert.equal((await server.publicApi.get(`/api/articles/${id}?status=draft&locale=en`)).status, 403);
      // A type without draft and publish: published; a single type: its one document.
      await root.put('/content-manager/single-types/api::global.global', { siteName: 'Site' });
      const single = await root.get(`${URL_OF}/api::global.global`);
      assert.match(single.body.data.url, /status=published&previewToken=vpt\./);
    });

    it('answers 204 when the handler returns nothing, and refuses what Strapi refuses', async () => {
      const tag = (await root.post('/content-manager/collection-types/api::tag.tag', { name: 'p' })).body.data
        .documentId as string;
      const none = await root.get(`${URL_OF}/api::tag.tag?documentId=${tag}`);
      assert.equal(none.status, 204);
      assert.equal(none.text, '');
      const noId = await root.get(`${URL_OF}/api::article.article`);
      assert.deepEqual([noId.status, noId.body.error.message], [400, 'documentId is required for Collection Types']);
      const unknown = await root.get(`${URL_OF}/api::nope.nope?documentId=x`);
      assert.deepEqual([unknown.status, unknown.body.error.message], [400, 'Invalid content type']);
      assert.equal((await server.publicApi.get(`${URL_OF}/api::article.article?documentId=x`)).status, 401);
    });
  });
}

describe('preview configuration at start-up', () => {
  it('stops on a handler that is not a function, naming the key', async () => {
    await assert.rejects(
      startServer(DIALECTS[0]!, { config: { admin: { preview: { config: { handler: 'http://front' } } } } }),
      /config\/admin: preview\.config\.handler must be a function/,
    );
    await assert.rejects(
      startServer(DIALECTS[0]!, { config: { admin: { preview: { enabled: 'yes' } } } }),
      /config\/admin: preview\.enabled must be true or false/,
    );
  });
});
