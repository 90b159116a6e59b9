/**
 * A project's own code, side by side with Strapi 5.54: test/fixtures/project-code (core routers
 * with only/except and per-action config, custom routes and actions, controller and service
 * overrides, global and API policies, a populate route middleware, a global middleware, auth:
 * false, errors thrown from project code, a bootstrap seeding through strapi.documents). On demand:
 * `npm run test:strapi -- project-code`. Pinned for Vellum alone in test/strapi/project-code.test.ts.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Response } from '../helpers/http.js';
import { fixture } from '../helpers/server.js';
import { diffName, openDifferential, type Differential } from './harness.js';

let diff: Differential;
before(async () => {
  diff = await openDifferential({
    name: diffName(import.meta.filename),
    project: fixture('project-code'),
    readyPath: '/api/writers',
  });
});
after(() => diff?.close());

const allow = { 'x-allow': 'yes' };
/** A uid omitted in a create: Strapi stores null, Vellum generates it (docs/coming-from-strapi.md). */
const generatedSlug = { ignoreKeys: ['slug'] };

test('bootstrap seeds through strapi.documents: a custom route and service method read it', async () => {
  await diff.same(
    async (api) => [
      await api.get('/api/articles/slug/seeded-article'),
      await api.get('/api/articles/slug/nothing-here'),
    ],
    { messages: true },
  );
});

test('a controller override calls super.find(ctx) and adds to meta', async () => {
  await diff.same(async (api) => {
    const created = await api.post('/api/articles', { data: { title: 'Diff find one', body: 'a b c' } });
    return [
      created,
      await api.get('/api/articles?filters[title][$startsWith]=Diff find&fields[0]=title'),
      await api.get('/api/articles?filters[nope][$eq]=1'),
    ];
  }, generatedSlug);
});

test('a service override adds a key to findOne; the v4 format too', async () => {
  await diff.same(async (api) => {
    const created = await api.post('/api/articles', { data: { title: 'Diff reading', body: 'word '.repeat(450) } });
    const id = created.body.data.documentId;
    return [
      await api.get(`/api/articles/${id}?fields[0]=title`),
      await api.get(`/api/articles/${id}?fields[0]=title`, { headers: { 'strapi-response-format': 'v4' } }),
      await api.get('/api/articles/doesnotexist'),
    ];
  });
});

test('global and API policies: 403 PolicyError, or the route runs', async () => {
  await diff.same(
    async (api) => {
      const created = await api.post('/api/articles', { data: { title: 'Diff policy', views: 6 } });
      const id = created.body.data.documentId;
      const quiet = await api.post('/api/articles', { data: { title: 'Diff quiet' } });
      return [
        await api.put(`/api/articles/${id}`, { data: { title: 'Diff policy 2' } }),
        await api.put(`/api/articles/${id}`, { data: { title: 'Diff policy 2' } }, { headers: allow }),
        await api.post(`/api/articles/${id}/like`),
        await api.post(`/api/articles/${id}/like`, undefined, { headers: allow }),
        await api.delete(`/api/articles/${id}`),
        await api.delete(`/api/articles/${quiet.body.data.documentId}`),
      ];
    },
    { ...generatedSlug, messages: true },
  );
});

test('a route middleware sets the default populate of pages', async () => {
  await diff.same(async (api) => {
    const writer = await api.post('/api/writers', { data: { name: 'Diff writer' } });
    const page = await api.post('/api/pages', {
      data: { title: 'Diff page', seo: { metaTitle: 'Meta' }, writer: writer.body.data.documentId },
    });
    return [
      page,
      await api.get(`/api/pages/${page.body.data.documentId}`),
      await api.get('/api/pages?filters[title][$eq]=Diff page'),
    ];
  }, generatedSlug);
});

test('a global middleware stamps every answer', async () => {
  const { strapi, vellum } = await diff.both(async (api) => [
    await api.get('/api/writers'),
    await api.get('/api/articles'),
    await api.get('/api/nothing-here'),
  ]);
  for (const answers of [strapi, vellum] as Response[][])
    for (const answer of answers) assert.equal(answer.headers.get('x-stamp'), 'stamped');
});

test('auth: false skips authentication; only/except leave 405s with Allow', async () => {
  const { strapi, vellum } = await diff.same(async (api) => {
    const note = await api.post('/api/notes', { data: { text: 'diff note' } });
    const writer = await api.post('/api/writers', { data: { name: 'Diff writer 405' } });
    return [
      note,
      await api.get('/api/notes?filters[text][$eq]=diff note', { headers: { authorization: 'Bearer not-a-token' } }),
      await api.put(`/api/notes/${note.body.data.documentId}`, { data: { text: 'x' } }),
      await api.delete(`/api/writers/${writer.body.data.documentId}`),
      await api.request('PATCH', '/api/writers'),
    ];
  });
  for (const answers of [strapi, vellum] as Response[][]) {
    assert.equal(answers[2]!.text, 'Method Not Allowed');
    assert.equal(answers[2]!.headers.get('allow'), 'HEAD, GET');
    assert.equal(answers[3]!.headers.get('allow'), 'HEAD, GET, PUT');
    assert.equal(answers[4]!.headers.get('allow'), 'HEAD, GET, POST');
  }
});

test('errors thrown from project code', async () => {
  await diff.same(
    async (api) =>
      Promise.all(
        [
          'application',
          'validation',
          'not-found',
          'forbidden',
          'unauthorized',
          'plain',
          'nothing',
          'bad-request',
          'throw',
          'created',
          'explained',
        ].map((name) => api.get(`/api/probe/${name}`)),
      ),
    { messages: true },
  );
});

test('a Koa-like ctx: params, query, body and headers', async () => {
  const { strapi, vellum } = await diff.same(async (api) => [
    await api.post('/api/probe/echo/bob?x=1&y[z]=2', { hello: 'there' }, { headers: { 'x-custom': 'c' } }),
  ]);
  for (const answers of [strapi, vellum] as Response[][]) assert.equal(answers[0]!.headers.get('x-echo'), 'bob');
});

test('auth: false: what a populated relation shows without any credentials', async () => {
  await diff.same(async (api) => {
    const writer = await api.post('/api/writers', { data: { name: 'Diff populated writer' } });
    await api.post('/api/notes', { data: { text: 'diff populated note', writer: writer.body.data.documentId } });
    const path = '/api/notes?filters[text][$eq]=diff populated note&populate=writer';
    return [await api.get(path, { headers: { authorization: '' } }), await api.get(path)];
  });
});

test("strapi.db.query on Strapi's own models: the core store, administrators, roles, users, files", async () => {
  await diff.vellumServer.vellum.auth.admins.create('admin@example.com', 'Admin-Passw0rd!');
  const name = `diffmodels${Date.now()}`;
  await diff.same(
    async (api) => {
      const registered = await api.post('/api/auth/local/register', {
        username: name,
        email: `${name}@example.com`,
        password: 'Passw0rd!',
      });
      return [
        registered.status === 200 ? await api.get(`/api/probe/models?name=${name}`) : registered,
        await api.get(`/api/probe/store/${name}`),
        await api.get('/api/probe/admins?email=admin@example.com'),
      ];
    },
    { ignoreKeys: ['keys'] },
  );
  const { strapi, vellum } = await diff.both(async (api) => api.get('/api/probe/admins?email=admin@example.com'));
  // Every field of Strapi's administrator row but documentId (Vellum's administrators have none).
  assert.deepEqual(
    (vellum as Response).body.keys,
    (strapi as Response).body.keys.filter((key: string) => key !== 'documentId'),
  );
});

test("the Document Service's delete answers every row it deleted", async () => {
  const name = `Diff deleted ${Date.now()}`;
  await diff.same(async (api) => [
    await api.delete(`/api/probe/writers/${encodeURIComponent(name)}`),
    await api.delete(`/api/probe/articles/${encodeURIComponent(name)}`),
  ]);
});

test('the Document Service, entity service and query engine answer types without i18n with locale null, at every level', async () => {
  const name = `shape${Date.now().toString(36)}`;
  await diff.same(async (api) => [await api.post(`/api/probe/shapes/${name}`, {})], { ignoreKeys: ['id'] });
});

test('a core router with a prefix and except: served under the prefix only, 405 for what it leaves out', async () => {
  const { strapi, vellum } = await diff.same(async (api) => {
    const created = await api.post('/api/v2/labels', { data: { text: 'diff prefixed' } });
    const id = created.body?.data?.documentId ?? 'none';
    return [
      created,
      await api.get('/api/v2/labels?filters[text][$eq]=diff prefixed', {
        headers: { authorization: 'Bearer garbage' },
      }),
      await api.get(`/api/v2/labels/${id}`),
      await api.get('/api/labels'),
      await api.put(`/api/v2/labels/${id}`, { data: { text: 'x' } }),
      await api.delete(`/api/v2/labels/${id}`),
      await api.get('/api/probe/created', { headers: { authorization: 'Bearer garbage' } }),
    ];
  });
  for (const answers of [strapi, vellum] as Response[][]) {
    assert.equal(answers[4]!.headers.get('allow'), 'HEAD, GET');
    assert.equal(answers[5]!.headers.get('allow'), 'HEAD, GET');
  }
});
