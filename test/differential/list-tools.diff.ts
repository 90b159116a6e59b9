/**
 * The content manager's list tools at Strapi 5.54's paths, side by side with Strapi: bulk publish,
 * unpublish and delete (`actions/bulkPublish|bulkUnpublish|bulkDelete`), duplicating
 * (`clone/:sourceId`, `auto-clone/:sourceId`), their refusals. On demand:
 * `npm run test:strapi -- list-tools`.
 */
import { after, before, test } from 'node:test';
import { HttpClient, type Response } from '../helpers/http.js';
import { diffName, adminSessions, openDifferential, type Differential, type Side } from './harness.js';

const ARTICLES = '/content-manager/collection-types/api::article.article';
const TAGS = '/content-manager/collection-types/api::tag.tag';

let diff: Differential;
const sessions: Partial<Record<Side, HttpClient>> = {};

before(async () => {
  diff = await openDifferential({ name: diffName(import.meta.filename) });
  Object.assign(sessions, await adminSessions(diff));
});
after(() => diff?.close());

const run = Date.now().toString(36);

test('bulk publish, unpublish and delete of documents that allow it answer a count', async () => {
  await diff.same(
    async (_api, side) => {
      const client = sessions[side]!;
      const answers: Record<string, Response> = {};
      const ids: string[] = [];
      for (const n of [1, 2, 3])
        ids.push((await client.post(ARTICLES, { title: `Bulk ${run} ${n}` })).body.data.documentId as string);
      answers.published = await client.post(`${ARTICLES}/actions/bulkPublish`, { documentIds: ids });
      answers.list = await client.get(`${ARTICLES}?filters[title][$startsWith]=Bulk ${run}&sort=title:asc`);
      answers.unpublished = await client.post(`${ARTICLES}/actions/bulkUnpublish`, { documentIds: ids.slice(0, 2) });
      answers.deleted = await client.post(`${ARTICLES}/actions/bulkDelete`, { documentIds: ids });
      answers.gone = await client.get(`${ARTICLES}?filters[title][$startsWith]=Bulk ${run}`);
      return answers;
    },
    { messages: true, ignoreKeys: ['slug'] },
  );
});

test('bad batches', async () => {
  await diff.same(
    async (_api, side) => {
      const client = sessions[side]!;
      return {
        empty: await client.post(`${ARTICLES}/actions/bulkPublish`, {}),
        none: await client.post(`${ARTICLES}/actions/bulkUnpublish`, { documentIds: [] }),
      };
    },
    { messages: true },
  );
});

test('a batch of unknown documents', async () => {
  await diff.same(
    async (_api, side) => sessions[side]!.post(`${ARTICLES}/actions/bulkDelete`, { documentIds: ['nosuchdocument'] }),
    { messages: true },
  );
});

test('an unknown document in a batch', async () => {
  await diff.same(
    async (_api, side) => {
      const client = sessions[side]!;
      const id = (await client.post(ARTICLES, { title: `Mixed ${run}` })).body.data.documentId as string;
      return client.post(`${ARTICLES}/actions/bulkPublish`, { documentIds: [id, 'nosuchdocument'] });
    },
    { deliberate: 'Strapi counts what it did; Vellum also lists what it could not do, and why' },
  );
});

test('duplicating: clone, auto-clone refused on unique fields, auto-clone of a plain type', async () => {
  await diff.same(
    async (_api, side) => {
      const client = sessions[side]!;
      const answers: Record<string, Response> = {};
      const tag = (await client.post(TAGS, { name: `clone-${run}` })).body.data.documentId as string;
      const source = (
        await client.post(ARTICLES, {
          title: `Source ${run}`,
          slug: `source-${run}-${side}`,
          tags: [tag],
          seo: { metaTitle: 'meta' },
          links: [{ label: 'l', url: 'https://l.example' }],
        })
      ).body.data.documentId as string;
      answers.auto = await client.post(`${ARTICLES}/auto-clone/${source}`, {});
      answers.clone = await client.post(`${ARTICLES}/clone/${source}`, {
        slug: `copy-${run}-${side}`,
        title: `Copy ${run}`,
      });
      answers.tagAuto = await client.post(`${TAGS}/auto-clone/${tag}`, {});
      answers.missing = await client.post(`${ARTICLES}/clone/nosuchdocument`, {});
      return answers;
    },
    // The tag's copy links both articles (test/admin/list-tools.test.ts reads them); the content
    // manager counts a type without draft and publish's links to drafts as 0 where Strapi counts
    // them, a difference of every read there, not of the copy.
    { messages: true, ignoreKeys: ['slug', 'articles'] },
  );
});

test('the list’s status filter', async () => {
  await diff.same(
    async (_api, side) => {
      const client = sessions[side]!;
      const tag = `status-${run}`;
      const ids: string[] = [];
      for (const title of ['Never', 'Published', 'Modified'])
        ids.push((await client.post(ARTICLES, { title, body: tag })).body.data.documentId as string);
      await client.post(`${ARTICLES}/actions/bulkPublish`, { documentIds: ids.slice(1) });
      await new Promise((resolve) => setTimeout(resolve, 5));
      await client.put(`${ARTICLES}/${ids[2]}`, { title: 'Modified since' });
      const answers: Record<string, Response> = {};
      for (const status of ['draft', 'published', 'published-modified', 'published-unmodified'])
        answers[status] = await client.get(
          `${ARTICLES}?sort=title:asc&filters[$and][0][body][$eq]=${tag}&filters[$and][1][__status][$eq]=${status}`,
        );
      return answers;
    },
    { messages: true, ignoreKeys: ['slug'] },
  );
});
