/**
 * A Strapi project's own code, run unchanged (test/fixtures/project-code, CommonJS; and
 * test/fixtures/project-code-esm, ES modules): core routers with `only`/`except` and per-action `config`, custom routes and actions,
 * a controller override calling `super.find(ctx)`, service overrides and custom methods, global
 * and API policies, a route middleware setting the default populate, a global middleware of
 * `config/middlewares`, `auth: false`, errors thrown from project code, and a bootstrap seeding
 * through `strapi.documents`. Each answer is checked against what Strapi 5.54 answers
 * (test/differential/project-code.diff.ts runs the same fixture on both).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, fixture, startServer, type TestServer } from '../helpers/server.js';

const PROJECT = fixture('project-code');
const unique = (label: string) => `${label}-${randomUUID().slice(0, 8)}`;

for (const dialect of DIALECTS) {
  describe(`a project's routes, controllers, services, policies and middlewares [${dialect}]`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect, { project: PROJECT });
    });
    after(() => server?.close());

    const createArticle = async (fields: Record<string, unknown> = {}) => {
      const title = unique('article');
      const created = await server.api.post('/api/articles', { data: { title, body: 'one two three', ...fields } });
      assert.equal(created.status, 201, created.text);
      return created.body.data as { documentId: string; slug: string; title: string };
    };

    it('runs every file: no warning, nothing left out', () => {
      assert.deepEqual(server.vellum.warnings, []);
      assert.deepEqual(server.vellum.skippedCode, []);
    });

    it('bootstrap seeds through strapi.documents: create, then publish', async () => {
      const seeded = await server.api.get('/api/articles/slug/seeded-article');
      assert.equal(seeded.status, 200, seeded.text);
      assert.equal(seeded.body.data.title, 'Seeded article');
      assert.equal(typeof seeded.body.data.publishedAt, 'string', 'published');
      assert.equal(seeded.body.data.writer.name, 'Seed Writer');
      // sanitizeOutput takes out the Document Service's `locale: null`, as Strapi's does.
      assert.equal('locale' in seeded.body.data, false);
      assert.equal('locale' in seeded.body.data.writer, false);
    });

    it('the Document Service and entity service answer types without i18n with locale null at every level, except where fields select', async () => {
      const name = unique('shape');
      const res = await server.publicApi.post(`/api/probe/shapes/${name}`, {});
      assert.equal(res.status, 200, res.text);
      const { writer, article, page, published, pages, fields, first, updated, engine, entity } = res.body;
      for (const document of [
        writer,
        article,
        article.writer,
        page,
        page.writer,
        published.entries[0],
        pages[0],
        pages[0].writer,
        first,
        updated,
        engine,
        entity,
      ]) {
        assert.equal(document.locale, null, JSON.stringify(document));
        assert.ok('locale' in document);
      }
      // Components have no locale; a `fields` selection has what it names.
      assert.equal('locale' in page.seo, false);
      assert.deepEqual(Object.keys(fields[0]).sort(), ['documentId', 'id', 'name']);
    });

    it('a core controller override calls super.find(ctx) and changes the answer', async () => {
      const article = await createArticle();
      const list = await server.api.get(`/api/articles?filters[slug][$eq]=${article.slug}`);
      assert.equal(list.status, 200, list.text);
      assert.deepEqual(
        list.body.data.map((a: { slug: string }) => a.slug),
        [article.slug],
      );
      assert.equal(list.body.meta.note, 'listed by the project');
      assert.deepEqual(list.body.meta.pagination, { page: 1, pageSize: 25, pageCount: 1, total: 1 });
      // REST's own checks still apply inside super.find.
      const bad = await server.api.get('/api/articles?filters[nope][$eq]=1');
      assert.equal(bad.status, 400);
      assert.equal(bad.body.error.name, 'ValidationError');
      const paged = await server.api.get('/api/articles?page=2');
      assert.equal(paged.status, 400);
      assert.equal(paged.body.error.name, 'PaginationError');
    });

    it("a service override adds a key that reaches the answer; the envelope is REST's", async () => {
      const article = await createArticle({ body: 'word '.repeat(450) });
      const read = await server.api.get(`/api/articles/${article.documentId}?fields[0]=title&fields[1]=body`);
      assert.equal(read.status, 200, read.text);
      assert.equal(read.body.data.readingTime, 3);
      assert.deepEqual(read.body.meta, {});
      const legacy = await server.api.get(`/api/articles/${article.documentId}?fields[0]=title`, {
        headers: { 'strapi-response-format': 'v4' },
      });
      assert.equal(legacy.body.data.attributes.title, article.title);
      const missing = await server.api.get('/api/articles/doesnotexist');
      assert.equal(missing.status, 404);
      assert.equal(missing.body.error.name, 'NotFoundError');
    });

    it('a custom route and action, with a custom service method, granted to Public like a core action', async () => {
      const article = await createArticle();
      const read = await server.publicApi.get(`/api/articles/slug/${article.slug}`);
      assert.equal(read.status, 200, read.text);
      assert.equal(read.body.data.documentId, article.documentId);
      assert.equal('locale' in read.body.data, false);
      // sanitizeOutput answers a copy, as Strapi's: the entity the controller read is unchanged.
      assert.deepEqual(read.body.meta, { entityLocale: null });
      const none = await server.publicApi.get(`/api/articles/slug/${unique('none')}`);
      assert.equal(none.status, 404);
      assert.deepEqual(none.body.error, {
        status: 404,
        name: 'NotFoundError',
        message: 'No article with that slug',
        details: {},
      });
      // Public has bySlug, not find: each route needs its own action.
      assert.equal((await server.publicApi.get('/api/articles')).status, 403);
      assert.ok(server.vellum.auth.actions.includes('api::article.article.bySlug'));
      assert.ok(server.vellum.auth.actions.includes('api::article.article.like'));
    });

    it('a global policy: false is a 403 PolicyError; true lets the route and its action run', async () => {
      const article = await createArticle();
      const refused = await server.api.put(`/api/articles/${article.documentId}`, {
        data: { title: `${article.title}-x` },
      });
      assert.equal(refused.status, 403);
      assert.deepEqual(refused.body.error, { status: 403, name: 'PolicyError', message: 'Policy Failed', details: {} });
      const allowed = await server.api.put(
        `/api/articles/${article.documentId}`,
        { data: { title: `${article.title}-x` } },
        { headers: { 'x-allow': 'yes' } },
      );
      assert.equal(allowed.status, 200, allowed.text);
      assert.equal(allowed.body.data.title, `${article.title}-x`);
      const liked = await server.api.post(`/api/articles/${article.documentId}/like`, undefined, {
        headers: { 'x-allow': 'yes' },
      });
      assert.equal(liked.status, 200, liked.text);
      assert.deepEqual(liked.body.data, { documentId: article.documentId, views: 1 });
      assert.equal((await server.api.post(`/api/articles/${article.documentId}/like`)).status, 403);
    });

    it('an API policy with its config reads the document through strapi.documents', async () => {
      const popular = await createArticle({ views: 6 });
      const refused = await server.api.delete(`/api/articles/${popular.documentId}`);
      assert.equal(refused.status, 403);
      assert.equal(refused.body.error.name, 'PolicyError');
      const quiet = await createArticle({ views: 2 });
      assert.equal((await server.api.delete(`/api/articles/${quiet.documentId}`)).status, 204);
      assert.equal((await server.api.get(`/api/articles/${quiet.documentId}`)).status, 404);
    });

    it('a route middleware sets the default populate of a page (find and findOne)', async () => {
      const writer = await server.api.post('/api/writers', { data: { name: unique('writer') } });
      const title = unique('page');
      const page = await server.api.post('/api/pages', {
        data: { title, seo: { metaTitle: 'Meta' }, writer: writer.body.data.documentId },
      });
      assert.equal(page.status, 201, page.text);
      assert.equal(page.body.data.seo, undefined, 'create is not populated by the middleware');
      const one = await server.publicApi.get(`/api/pages/${page.body.data.documentId}`);
      assert.equal(one.status, 200, one.text);
      assert.equal(one.body.data.seo.metaTitle, 'Meta');
      assert.deepEqual(Object.keys(one.body.data.writer).sort(), ['documentId', 'id', 'name']);
      const list = await server.publicApi.get(`/api/pages?filters[title][$eq]=${title}`);
      assert.equal(list.body.data[0].writer.name, writer.body.data.name);
    });

    it("a global middleware of config/middlewares runs around every route, the project's and REST's", async () => {
      for (const path of ['/api/articles', '/api/writers', '/api/notes', '/api/nothing-here', '/_health']) {
        const response = await server.api.get(path);
        assert.equal(response.headers.get('x-stamp'), 'stamped', path);
      }
    });

    it('auth: false skips authentication (a bad token is no 401) and grants nothing else', async () => {
      const text = unique('note');
      assert.equal((await server.api.post('/api/notes', { data: { text } })).status, 201);
      for (const client of [server.publicApi, server.api]) {
        const list = await client.get(`/api/notes?filters[text][$eq]=${text}`, {
          headers: { authorization: 'Bearer not-a-token' },
        });
        assert.equal(list.status, 200, list.text);
        assert.equal(list.body.data.length, 1);
      }
      assert.equal(
        (await server.publicApi.post('/api/notes', { data: { text } })).status,
        403,
        'create is not granted to Public',
      );
    });

    it('auth: false reads no relation: Strapi finds no credentials to read them with', async () => {
      const writer = await server.api.post('/api/writers', { data: { name: unique('writer') } });
      const text = unique('note');
      await server.api.post('/api/notes', { data: { text, writer: writer.body.data.documentId } });
      for (const client of [server.publicApi, server.api]) {
        const list = await client.get(`/api/notes?filters[text][$eq]=${text}&populate=writer`);
        assert.equal(list.status, 200, list.text);
        assert.equal(list.body.data[0].writer, undefined);
      }
      // Elsewhere the relation is read with the caller's grants.
      const one = await server.api.get(
        `/api/notes/${(await server.api.get(`/api/notes?filters[text][$eq]=${text}`)).body.data[0].documentId}?populate=writer`,
      );
      assert.equal(one.body.data.writer.name, writer.body.data.name);
    });

    it('routes left out by only/except answer 405 with Allow, in plain text (GET and HEAD a 404)', async () => {
      const note = await server.api.post('/api/notes', { data: { text: unique('note') } });
      const put = await server.api.put(`/api/notes/${note.body.data.documentId}`, { data: { text: 'x' } });
      assert.equal(put.status, 405);
      assert.equal(put.headers.get('allow'), 'HEAD, GET');
      assert.equal(put.text, 'Method Not Allowed');
      const writer = await server.api.post('/api/writers', { data: { name: unique('writer') } });
      const removed = await server.api.delete(`/api/writers/${writer.body.data.documentId}`);
      assert.equal(removed.status, 405);
      assert.equal(removed.headers.get('allow'), 'HEAD, GET, PUT');
      assert.equal((await server.api.get(`/api/writers/${writer.body.data.documentId}`)).status, 200);
      // GET and HEAD of a path served only by another method are Strapi's 404, not a 405.
      const get = await server.api.get('/api/probe/echo/x');
      assert.equal(get.status, 404);
      assert.equal(get.body.error.name, 'NotFoundError');
      assert.equal((await server.api.request('HEAD', '/api/probe/echo/x')).status, 404);
      assert.equal((await server.api.request('PATCH', '/api/probe/echo/x')).status, 405);
    });

    it('errors thrown from project code answer as Strapi answers them', async () => {
      const error = async (path: string) => (await server.api.get(`/api/probe/${path}`)).body.error;
      assert.deepEqual(await error('application'), {
        status: 400,
        name: 'ApplicationError',
        message: 'Something is wrong',
        details: { reason: 'testing' },
      });
      assert.equal((await error('validation')).name, 'ValidationError');
      assert.deepEqual(await error('not-found'), {
        status: 404,
        name: 'NotFoundError',
        message: 'No such thing',
        details: {},
      });
      // Strapi's permission step catches these from what runs after it, and hides their message.
      assert.deepEqual(await error('forbidden'), {
        status: 403,
        name: 'ForbiddenError',
        message: 'Forbidden',
        details: {},
      });
      assert.deepEqual(await error('unauthorized'), {
        status: 401,
        name: 'UnauthorizedError',
        message: 'Unauthorized',
        details: {},
      });
      assert.deepEqual(await error('plain'), {
        status: 500,
        name: 'InternalServerError',
        message: 'Internal Server Error',
      });
      assert.deepEqual(await error('nothing'), {
        status: 404,
        name: 'NotFoundError',
        message: 'Not Found',
        details: {},
      });
      assert.deepEqual(await error('bad-request'), {
        status: 400,
        name: 'BadRequestError',
        message: 'Bad thing',
        details: { field: 'thing' },
      });
      assert.deepEqual(await error('throw'), { status: 409, name: 'ConflictError', message: 'Conflicting thing' });
      assert.deepEqual(await error('explained'), {
        status: 403,
        name: 'PolicyError',
        message: 'Explained refusal',
        details: { reason: 'a policy that always explains' },
      });
      const created = await server.api.get('/api/probe/created');
      assert.equal(created.status, 201);
      assert.deepEqual(created.body, { created: true });
    });

    it('a Koa-like ctx: params, query, body, headers in and out', async () => {
      const echo = await server.api.post(
        '/api/probe/echo/bob?x=1&y[z]=2',
        { hello: 'there' },
        { headers: { 'x-custom': 'c' } },
      );
      assert.equal(echo.status, 200, echo.text);
      assert.deepEqual(echo.body, {
        name: 'bob',
        query: { x: '1', y: { z: '2' } },
        body: { hello: 'there' },
        method: 'POST',
        path: '/api/probe/echo/bob',
        header: 'c',
      });
      assert.equal(echo.headers.get('x-echo'), 'bob');
    });

    it('ctx.state.user is the user of the JWT, with their role; an API token has none', async () => {
      const username = unique('reader');
      const registered = await server.publicApi.post('/api/auth/local/register', {
        username,
        email: `${username}@example.com`,
        password: 'secret123',
      });
      assert.equal(registered.status, 200, registered.text);
      const who = await server.publicApi.get('/api/probe/who', {
        headers: { authorization: `Bearer ${registered.body.jwt}` },
      });
      assert.equal(who.status, 200, who.text);
      assert.deepEqual(who.body, { user: { username, role: 'authenticated' }, strategy: 'users-permissions' });
      assert.deepEqual((await server.api.get('/api/probe/who')).body, { user: null, strategy: 'content-api-token' });
      assert.equal((await server.publicApi.get('/api/probe/who')).status, 403, 'Public is not granted who');
    });

    it('destroy runs when the node closes', async () => {
      const node = await startServer(dialect, { project: PROJECT, nodeOf: server });
      const before = (globalThis as { __projectCodeDestroyed?: number }).__projectCodeDestroyed ?? 0;
      await node.close();
      assert.equal((globalThis as { __projectCodeDestroyed?: number }).__projectCodeDestroyed, before + 1);
    });
  });
}

for (const dialect of DIALECTS) {
  describe(`a project's code written as ES modules [${dialect}]`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect, { project: fixture('project-code-esm') });
    });
    after(() => server?.close());

    it('imports @strapi/strapi and @strapi/utils (named and default) and finds every hook of src/index', async () => {
      assert.deepEqual(server.vellum.warnings, []);
      assert.equal((globalThis as { __esmProjectRegistered?: boolean }).__esmProjectRegistered, true);
      const list = await server.api.get('/api/things');
      assert.equal(list.status, 200, list.text);
      assert.deepEqual(
        list.body.data.map((t: { name: string }) => t.name),
        ['from bootstrap'],
      );
      assert.equal(list.body.meta.module, 'esm');
      const refused = await server.api.get('/api/things', { headers: { 'x-refuse': '1' } });
      assert.deepEqual(refused.body.error, {
        status: 403,
        name: 'PolicyError',
        message: 'Refused by an ES module',
        details: {},
      });
    });
  });
}
