/**
 * The response cache of content API reads (rest/response-cache.ts): a repeated read is answered
 * without querying the content, and every committed write — through the API, by another node, in
 * plain SQL, to permissions — is seen by the next request. MariaDB offers no change signal that is
 * safe to rely on, so there every read queries. PostgreSQL's signal is the cluster's snapshot, which
 * other test files' writes move too: a hit is awaited over a few reads rather than expected at once.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';
import type { HttpClient } from '../helpers/http.js';
import { unique } from '../helpers/unique.js';
import { jsonBody } from '../../src/http/json-body.js';
import { ResponseCache } from '../../src/rest/response-cache.js';

describe('response cache: memory bound', () => {
  it('keeps the least recently used out once bodies and keys exceed maxBytes; a new state empties it', () => {
    const cache = new ResponseCache(128 * 1024);
    const body = jsonBody({ data: 'x'.repeat(1000) });
    const longUrl = (i: number) => `/api/articles?filters[title][$eq]=${i}${'y'.repeat(4000)}`;
    for (let i = 0; i < 100; i++) {
      cache.lookup(longUrl(i), 's1');
      cache.store(longUrl(i), 's1', body);
    }
    // Each entry weighs ~9 KB (1 KB of body, 8 KB of key): 13 fit in 128 KB.
    assert.ok(cache.size > 0 && cache.size <= 14, `${cache.size} entries`);
    assert.ok(cache.lookup(longUrl(99), 's1'), 'the newest is kept');
    assert.equal(cache.lookup(longUrl(0), 's1'), undefined, 'the oldest is gone');
    cache.store('/big', 's1', jsonBody({ data: 'z'.repeat(20000) }));
    assert.equal(cache.lookup('/big', 's1'), undefined, 'an answer above an eighth of the budget is not kept');
    assert.equal(cache.lookup(longUrl(99), 's2'), undefined);
    assert.equal(cache.size, 0);
    cache.store('/late', 's1', body);
    assert.equal(cache.lookup('/late', 's2'), undefined, 'an answer computed under an older state is not kept');
  });
});

for (const dialect of DIALECTS) {
  describe(`response cache [${dialect}]`, () => {
    const caches = dialect !== 'mysql';
    let server: TestServer;
    let documentId: string;

    before(async () => {
      server = await startServer(dialect);
      const author = (await server.api.post('/api/authors', { data: { name: 'Ann' } })).body.data.documentId;
      documentId = (await server.api.post('/api/articles', { data: { title: 'first', author } })).body.data.documentId;
      await server.api.post('/api/articles', { data: { title: 'second', author } });
    });
    after(() => server?.close());

    /** Answers a GET and the statements it ran. */
    const read = async (path: string, client: HttpClient = server.api) => {
      const statements: string[] = [];
      const stop = server.vellum.database.observe((sql) => statements.push(sql));
      const response = await client.get(path);
      stop();
      assert.equal(response.status, 200, response.text);
      return { response, statements, readsArticles: statements.some((sql) => /articles/.test(sql)) };
    };
    /**
     * Reads `path` until an answer comes from the cache; undefined if none does within 10 s (where
     * the dialect caches) or 3 reads (where it does not).
     */
    const untilCached = async (path: string) => {
      const deadline = Date.now() + 10_000;
      for (let i = 0; caches ? Date.now() < deadline : i < 3; i++) {
        const again = await read(path);
        if (!again.readsArticles) return again;
      }
      return undefined;
    };
    const titles = (body: { data: { title: string }[] }) => body.data.map((article) => article.title);
    /** A published article of the test's own; its documentId. */
    const article = async (title: string) => {
      const res = await server.api.post('/api/articles', { data: { title } });
      assert.equal(res.status, 201, res.text);
      return res.body.data.documentId as string;
    };

    it('a repeated read is answered from the cache: the same bytes, without querying the content', async () => {
      const path = '/api/articles?populate=*&sort=title:desc';
      const first = await read(path);
      assert.ok(first.readsArticles);
      const cached = await untilCached(path);
      assert.equal(Boolean(cached), caches);
      if (cached) {
        assert.equal(cached.response.text, first.response.text);
        assert.equal(cached.response.headers.get('content-length'), first.response.headers.get('content-length'));
        assert.deepEqual(cached.statements.length, 2, `token and change signal only:\n${cached.statements.join('\n')}`);
      }
      const one = `/api/articles/${documentId}?fields[0]=title`;
      assert.equal((await read(one)).response.body.data.title, 'first');
      assert.equal(Boolean(await untilCached(one)), caches);
    });

    it('a write through the API is seen by the next read', async () => {
      const prefix = unique('api');
      const own = await article(`${prefix} first`);
      await article(`${prefix} second`);
      const path = `/api/articles?filters[title][$startsWith]=${prefix}&sort=title&fields[0]=title`;
      assert.deepEqual(titles((await read(path)).response.body), [`${prefix} first`, `${prefix} second`]);
      await server.api.put(`/api/articles/${own}`, { data: { title: `${prefix} zeroth` } });
      assert.deepEqual(titles((await read(path)).response.body), [`${prefix} second`, `${prefix} zeroth`]);
    });

    it('a write by another node on the same database is seen by the next read', async () => {
      const own = await article(unique('node'));
      const other = await startServer(dialect, { nodeOf: server });
      try {
        const path = `/api/articles/${own}?fields[0]=views`;
        await read(path);
        assert.equal(Boolean(await untilCached(path)), caches, 'answered from the cache before the write');
        await other.api.put(`/api/articles/${own}`, { data: { views: 41 } });
        const after = await read(path);
        assert.equal(after.response.body.data.views, 41);
        assert.ok(after.readsArticles);
      } finally {
        await other.close();
      }
    });

    it('a write in plain SQL, outside the document service, is seen by the next read', async () => {
      const own = await article(unique('sql'));
      const path = `/api/articles/${own}?fields[0]=views`;
      await read(path);
      assert.equal(Boolean(await untilCached(path)), caches);
      await server.vellum.database.db.updateTable('articles').set({ views: 77 }).where('document_id', '=', own).execute();
      assert.equal((await read(path)).response.body.data.views, 77);
    });

    it('callers with different grants never share an answer; a revoke applies to the next request', async () => {
      // The seed's two articles (other tests write their own).
      const path = '/api/articles?filters[title][$in][0]=first&filters[title][$in][1]=second&populate[author]=true&sort=title&fields[0]=title';
      const full = (await read(path)).response.body;
      assert.equal(full.data[0].author.name, 'Ann');
      const publicRole = (await server.vellum.auth.roles.get('public')).documentId;
      await server.vellum.auth.roles.revoke(publicRole, ['api::author.author.find']);
      const shown = (await read(path, server.publicApi)).response.body;
      assert.deepEqual(titles(shown), ['first', 'second']);
      assert.equal(shown.data[0].author, undefined, 'Public may not read authors');
      assert.equal((await read(path)).response.body.data[0].author.name, 'Ann', 'the full-access answer is still its own');
      await server.vellum.auth.roles.revoke(publicRole, ['api::article.article.find']);
      assert.equal((await server.publicApi.get(path)).status, 403);
      await server.vellum.auth.roles.grant(publicRole, ['api::article.article.find', 'api::author.author.find']);
    });

    it('the earlier response format is its own answer', async () => {
      const path = `/api/articles/${documentId}?fields[0]=title`;
      await read(path);
      const legacy = await server.api.get(path, { headers: { 'Strapi-Response-Format': 'v4' } });
      assert.equal(legacy.body.data.attributes.title, 'first');
      assert.equal((await read(path)).response.body.data.title, 'first');
    });
  });

  describe(`response cache switched off [${dialect}]`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect, { config: { api: { rest: { cache: { enabled: false } } } } });
      await server.api.post('/api/articles', { data: { title: 'only' } });
    });
    after(() => server?.close());

    it('rest.cache.enabled: false queries on every read', async () => {
      for (let i = 0; i < 2; i++) {
        const statements: string[] = [];
        const stop = server.vellum.database.observe((sql) => statements.push(sql));
        assert.equal((await server.api.get('/api/articles')).status, 200);
        stop();
        assert.ok(statements.some((sql) => /articles/.test(sql)), `read ${i + 1} queries`);
      }
    });
  });
}
