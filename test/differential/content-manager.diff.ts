/**
 * The content manager's admin API at Strapi 5.54's paths (`/content-manager/collection-types/:uid`,
 * `/content-manager/single-types/:uid`, their `actions/publish|unpublish|discard`), side by side
 * with Strapi: the same requests from an administrator, the same answers (issue 34). On demand:
 * `npm run test:strapi -- content-manager`.
 */
import { after, before, test } from 'node:test';
import { HttpClient, type Response } from '../helpers/http.js';
import { diffName, adminSessions, openDifferential, type Differential, type Side } from './harness.js';

const ARTICLES = '/content-manager/collection-types/api::article.article';
const TAGS = '/content-manager/collection-types/api::tag.tag';
const GLOBAL = '/content-manager/single-types/api::global.global';

let diff: Differential;
const sessions: Partial<Record<Side, HttpClient>> = {};

before(async () => {
  diff = await openDifferential({ name: diffName(import.meta.filename) });
  Object.assign(sessions, await adminSessions(diff));
});
after(() => diff?.close());

const run = Date.now().toString(36);

test('a collection type: create, read, update, publish, edit, discard, list, delete', async () => {
  await diff.same(
    async (_api, side) => {
      const client = sessions[side]!;
      const answers: Record<string, Response> = {};
      answers.tag = await client.post(TAGS, { name: `cm-${run}` });
      answers.created = await client.post(ARTICLES, { title: `CM ${run}`, seo: { metaTitle: 'm' }, views: 3 });
      const id = answers.created.body.data.documentId as string;
      answers.read = await client.get(`${ARTICLES}/${id}`);
      answers.updated = await client.put(`${ARTICLES}/${id}`, { title: `CM ${run} 2` });
      answers.published = await client.post(`${ARTICLES}/${id}/actions/publish`, {});
      answers.edited = await client.put(`${ARTICLES}/${id}`, { title: `CM ${run} 3` });
      answers.readModified = await client.get(`${ARTICLES}/${id}`);
      answers.discarded = await client.post(`${ARTICLES}/${id}/actions/discard`, {});
      answers.list = await client.get(`${ARTICLES}?filters[title][$startsWith]=CM ${run}`);
      answers.missing = await client.get(`${ARTICLES}/nope`);
      answers.deleted = await client.delete(`${ARTICLES}/${id}`);
      answers.gone = await client.get(`${ARTICLES}/${id}`);
      return answers;
    },
    // Vellum fills a uid from its target field when a write leaves it out (docs/coming-from-strapi.md).
    { messages: true, ignoreKeys: ['slug'] },
  );
});

test('unpublishing answers the draft', async () => {
  await diff.same(
    async (_api, side) => {
      const client = sessions[side]!;
      const created = await client.post(ARTICLES, { title: `Unpublished ${run}` });
      const id = created.body.data.documentId as string;
      await client.post(`${ARTICLES}/${id}/actions/publish`, {});
      return client.post(`${ARTICLES}/${id}/actions/unpublish`, {});
    },
    {
      messages: true,
      ignoreKeys: ['slug'],
      deliberate:
        'Strapi answers the published version it removed, with the draft among its localizations; Vellum the draft left, status draft',
    },
  );
});

test('a single type: read empty, write, read', async () => {
  await diff.same(
    async (_api, side) => {
      const client = sessions[side]!;
      const answers: Record<string, Response> = {};
      answers.empty = await client.get(GLOBAL);
      answers.written = await client.put(GLOBAL, { siteName: `Site ${run}` });
      answers.read = await client.get(GLOBAL);
      return answers;
    },
    { messages: true },
  );
});

test('publishing a type without draft and publish', async () => {
  await diff.same(async (_api, side) => sessions[side]!.post(`${GLOBAL}/actions/publish`, {}), {
    messages: true,
    deliberate: 'Strapi answers a 500 InternalServerError; Vellum a 400 naming the problem',
  });
});

test('create and publish at once', async () => {
  await diff.same(
    async (_api, side) => {
      const client = sessions[side]!;
      const published = await client.post(`${ARTICLES}/actions/publish`, { title: `At once ${run}`, views: 4 });
      const id = published.body.data?.documentId as string;
      return {
        published,
        read: await client.get(`${ARTICLES}/${id}`),
        list: await client.get(`${ARTICLES}?filters[title][$eq]=At once ${run}`),
      };
    },
    { messages: true, ignoreKeys: ['slug'] },
  );
});

test('create and publish at once: a type without draft and publish', async () => {
  await diff.same(async (_api, side) => sessions[side]!.post(`${TAGS}/actions/publish`, { name: `t-${run}` }), {
    messages: true,
    deliberate: 'Strapi answers a 500 InternalServerError; Vellum a 400 naming the problem',
  });
});
