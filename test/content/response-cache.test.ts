/**
 * The response cache of content API reads (api/response-cache.ts): a repeated read is answered
 * without querying the content, and every committed write — through the API, by another node, in
 * plain SQL, to permissions — is seen by the next request. A write to one type drops only the
 * answers that read it (its own lists, and those populating or filtering through it): the change
 * counters are per content-type and component (core/database/changes.ts).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';
import type { HttpClient } from '../helpers/http.js';
import { unique } from '../helpers/unique.js';
import { jsonBody } from '../../src/api/json-body.js';

/** Answers right after a write are stored too (by default a moving type's answers wait a second). */
const HOLD_NOTHING = { api: { rest: { cache: { holdAfterWriteMs: 0 } } } };
import { ResponseCache } from '../../src/api/response-cache.js';

describe('response cache: memory bound', () => {
  const state = (articles: number, tags = 0) =>
    new Map([
      ['articles', articles],
      ['tags', tags],
    ]);
  it('stays within maxBytes: once full, a new answer takes the place of the least recently used one only if asked for more often', () => {
    const cache = new ResponseCache({ maxBytes: 128 * 1024, holdAfterWriteMs: 0 });
    const body = jsonBody({ data: 'x'.repeat(1000) });
    const longUrl = (i: number) => `/api/articles?filters[title][$eq]=${i}${'y'.repeat(4000)}`;
    for (let i = 0; i < 100; i++) {
      cache.lookup(longUrl(i), state(1));
      cache.store(longUrl(i), state(1), ['articles'], body);
    }
    // Each entry weighs ~9 KB (1 KB of body, 8 KB of key): 13 fit in 128 KB. Once full, a new
    // answer asked for no more often than the least recently used one is not let in.
    assert.ok(cache.size > 0 && cache.size <= 14, `${cache.size} entries`);
    const kept = cache.size;
    assert.ok(cache.lookup(longUrl(0), state(1)), 'the first answers are kept');
    assert.equal(cache.lookup(longUrl(50), state(1)), undefined, 'later ones, asked for as often, waited');
    // Asked for more often than the least recently used one: let in, that one out.
    for (let i = 0; i < 3; i++) cache.lookup(longUrl(99), state(1));
    cache.store(longUrl(99), state(1), ['articles'], body);
    assert.ok(cache.lookup(longUrl(99), state(1)), 'a popular answer is let in');
    assert.equal(cache.size, kept);
    assert.equal(cache.lookup(longUrl(1), state(1)), undefined, 'the least recently used one made room');
  });

  it('an answer is served while the groups it read have not moved', () => {
    const cache = new ResponseCache({ maxBytes: 128 * 1024, holdAfterWriteMs: 0 });
    const body = jsonBody({ data: 'x'.repeat(1000) });
    cache.store('/big', state(1), ['articles'], jsonBody({ data: 'z'.repeat(20000) }));
    assert.equal(cache.lookup('/big', state(1)), undefined, 'an answer above an eighth of the budget is not kept');
    cache.store('/articles', state(1), ['articles'], body);
    cache.store('/tags', state(1), ['tags'], body);
    assert.ok(cache.lookup('/articles', state(1, 2)), 'a change to tags keeps an answer that read articles only');
    assert.equal(cache.lookup('/tags', state(1, 2)), undefined, 'and drops the one that read tags');
    assert.equal(cache.lookup('/articles', state(2, 2)), undefined);
    cache.store('/late', state(1), ['articles'], body);
    assert.equal(cache.lookup('/late', state(2)), undefined, 'an answer computed under older counters is not served');
    cache.store('/unknown', state(1), ['nowhere'], body);
    cache.store('/nothing', state(1), [], body);
    assert.equal(cache.lookup('/unknown', state(1)), undefined, 'a group without a counter is never cached');
    assert.equal(cache.lookup('/nothing', state(1)), undefined, 'nor an answer that names no group');
  });

  it('holdAfterWriteMs: answers of a group seen moving within that time are not stored, the others are', () => {
    let now = 1_000;
    const cache = new ResponseCache({ maxBytes: 128 * 1024, holdAfterWriteMs: 500, now: () => now });
    const body = jsonBody({ data: [] });
    cache.store('/a', state(1), ['articles'], body);
    assert.ok(cache.lookup('/a', state(1)), 'a group first seen is stored');
    now += 10;
    cache.store('/a2', state(2), ['articles'], body);
    assert.equal(cache.lookup('/a2', state(2)), undefined, 'articles just moved: not stored');
    cache.store('/t', state(2, 0), ['tags'], body);
    assert.ok(cache.lookup('/t', state(2, 0)), 'tags did not move: stored');
    cache.store('/both', state(2, 0), ['articles', 'tags'], body);
    assert.equal(cache.lookup('/both', state(2, 0)), undefined, 'an answer reading a moving group: not stored');
    now += 499;
    cache.store('/a3', state(2), ['articles'], body);
    assert.equal(cache.lookup('/a3', state(2)), undefined, 'still within the hold');
    now += 1;
    cache.store('/a4', state(2), ['articles'], body);
    assert.ok(cache.lookup('/a4', state(2)), 'stored again once the group has been still for the hold');
  });
});

for (const dialect of DIALECTS) {
  describe(`response cache [${dialect}]`, () => {
    const caches = true;
    let server: TestServer;
    let documentId: string;

    before(async () => {
      server = await startServer(dialect, { config: HOLD_NOTHING });
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
    /** Reads `path` again: the answer if it came from the cache, undefined if it queried. */
    const untilCached = async (path: string) => {
      const again = await read(path);
      return again.readsArticles ? undefined : again;
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
      const other = await startServer(dialect, { nodeOf: server, config: HOLD_NOTHING });
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
      await server.vellum.database.db
        .updateTable('articles')
        .set({ views: 77 })
        .where('document_id', '=', own)
        .execute();
      assert.equal((await read(path)).response.body.data.views, 77);
    });

    it('callers with different grants never share an answer; a revoke applies to the next request', async () => {
      // The seed's two articles (other tests write their own).
      const path =
        '/api/articles?filters[title][$in][0]=first&filters[title][$in][1]=second&populate[author]=true&sort=title&fields[0]=title';
      const full = (await read(path)).response.body;
      assert.equal(full.data[0].author.name, 'Ann');
      const publicRole = (await server.vellum.auth.roles.get('public')).documentId;
      await server.vellum.auth.roles.revoke(publicRole, ['api::author.author.find']);
      const shown = (await read(path, server.publicApi)).response.body;
      assert.deepEqual(titles(shown), ['first', 'second']);
      assert.equal(shown.data[0].author, undefined, 'Public may not read authors');
      assert.equal(
        (await read(path)).response.body.data[0].author.name,
        'Ann',
        'the full-access answer is still its own',
      );
      await server.vellum.auth.roles.revoke(publicRole, ['api::article.article.find']);
      assert.equal((await server.publicApi.get(path)).status, 403);
      await server.vellum.auth.roles.grant(publicRole, ['api::article.article.find', 'api::author.author.find']);
    });

    it('a write to another type keeps the answers that cannot depend on it', async () => {
      const own = await article(unique('keep'));
      const paths = [
        `/api/articles/${own}?fields[0]=title`,
        `/api/articles?filters[title][$eq]=${own}&populate[author]=true`,
      ];
      for (const path of paths) {
        await read(path);
        assert.ok(await untilCached(path), `${path} is cached`);
      }
      // Tags: neither read reads them, nor the category, nor a component they do not populate.
      await server.api.post('/api/tags', { data: { name: unique('tag') } });
      await server.api.post('/api/categories', { data: { name: unique('cat') } });
      for (const path of paths) assert.ok(await untilCached(path), `${path} still answered from the cache`);
      // Articles: both.
      await server.api.put(`/api/articles/${own}`, { data: { views: 3 } });
      for (const path of paths) assert.equal(await untilCached(path), undefined, `${path} read again`);
    });

    it('a write to a type drops the answers that populate or filter through it', async () => {
      const name = unique('Populated');
      const author = (await server.api.post('/api/authors', { data: { name } })).body.data.documentId;
      const tag = (await server.api.post('/api/tags', { data: { name: unique('t') } })).body.data.documentId;
      const own = (await server.api.post('/api/articles', { data: { title: unique('dep'), author, tags: [tag] } })).body
        .data.documentId;
      const populated = `/api/articles/${own}?populate[author]=true&populate[tags]=true`;
      const filtered = `/api/articles?filters[author][name][$eq]=${name}&fields[0]=title`;
      const sorted = `/api/articles?filters[documentId][$eq]=${own}&sort=author.name:asc&fields[0]=title`;
      for (const path of [populated, filtered, sorted]) {
        await read(path);
        assert.ok(await untilCached(path), `${path} is cached`);
      }
      await server.api.put(`/api/tags/${tag}`, { data: { name: unique('renamed') } });
      assert.equal(await untilCached(populated), undefined, 'a tag write drops the answer populating tags');
      assert.ok(await untilCached(filtered), 'and keeps the one filtering through authors only');
      await server.api.put(`/api/authors/${author}`, { data: { name: `${name} renamed` } });
      assert.equal(
        await untilCached(filtered),
        undefined,
        'an author write drops the answer filtering through authors',
      );
      assert.equal(await untilCached(sorted), undefined, 'and the one sorted by the author');
      assert.equal((await read(filtered)).response.body.data.length, 0, 'which no longer matches');
      assert.equal((await read(populated)).response.body.data.author.name, `${name} renamed`);
      // Deleting the author (a write to authors only) shows in the article's populate at once.
      await read(populated);
      assert.ok(await untilCached(populated));
      await server.api.delete(`/api/authors/${author}`);
      assert.equal((await read(populated)).response.body.data.author, null);
    });

    it('a write to a related type by another node drops the answers that read it, at once', async () => {
      const tag = (await server.api.post('/api/tags', { data: { name: unique('remote') } })).body.data.documentId;
      const own = (await server.api.post('/api/articles', { data: { title: unique('remote'), tags: [tag] } })).body.data
        .documentId;
      const path = `/api/articles/${own}?populate[tags][fields][0]=name`;
      await read(path);
      assert.ok(await untilCached(path));
      const other = await startServer(dialect, { nodeOf: server, config: HOLD_NOTHING });
      try {
        const renamed = unique('renamed');
        await other.api.put(`/api/tags/${tag}`, { data: { name: renamed } });
        assert.equal((await read(path)).response.body.data.tags[0].name, renamed);
      } finally {
        await other.close();
      }
    });

    it('the earlier response format is its own answer', async () => {
      const path = `/api/articles/${documentId}?fields[0]=title`;
      await read(path);
      const legacy = await server.api.get(path, { headers: { 'Strapi-Response-Format': 'v4' } });
      assert.equal(legacy.body.data.attributes.title, 'first');
      assert.equal((await read(path)).response.body.data.title, 'first');
    });
  });

  describe(`response cache while a type moves [${dialect}]`, () => {
    let server: TestServer;
    before(async () => {
      // A hold no test outlasts: "moving" never depends on the test's timing.
      server = await startServer(dialect, { config: { api: { rest: { cache: { holdAfterWriteMs: 600_000 } } } } });
      await server.api.post('/api/articles', { data: { title: 'still' } });
      await server.api.post('/api/tags', { data: { name: unique('still') } });
    });
    after(() => server?.close());

    const statementsOf = async (path: string) => {
      const statements: string[] = [];
      const stop = server.vellum.database.observe((sql) => statements.push(sql));
      const response = await server.api.get(path);
      stop();
      assert.equal(response.status, 200, response.text);
      return { body: response.body, statements };
    };

    it('reads of a type seen moving skip the change counters and go to the database; other types stay cached', async () => {
      const path = '/api/articles?sort=title:asc&fields[0]=title';
      await statementsOf(path);
      await statementsOf('/api/tags?fields[0]=name');
      assert.deepEqual(
        (await statementsOf('/api/tags?fields[0]=name')).statements.length,
        2,
        'tags: token and change counters, answered from memory',
      );
      const title = unique('moved');
      await server.api.post('/api/articles', { data: { title } });
      // This read sees the articles' counter move: its answer is not stored.
      const seen = await statementsOf(path);
      assert.ok(seen.statements.some((sql) => /vellum_changes/.test(sql)));
      const next = await statementsOf(path);
      assert.ok(
        next.statements.every((sql) => !/vellum_changes/.test(sql)),
        `no counters read:\n${next.statements.join('\n')}`,
      );
      assert.ok(next.statements.some((sql) => /articles/.test(sql)));
      assert.ok(next.body.data.some((article: { title: string }) => article.title === title));
      const again = unique('moved');
      await server.api.post('/api/articles', { data: { title: again } });
      assert.ok((await statementsOf(path)).body.data.some((article: { title: string }) => article.title === again));
      assert.equal((await statementsOf('/api/tags?fields[0]=name')).statements.length, 2, 'tags still from memory');
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
        assert.ok(
          statements.some((sql) => /articles/.test(sql)),
          `read ${i + 1} queries`,
        );
      }
    });
  });
}
