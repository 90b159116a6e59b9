/**
 * Lifecycles, the query engine, the entity service, the core store and a Document Service
 * middleware, side by side with Strapi 5.54 on test/fixtures/lifecycles. The fixture's lifecycles
 * append what they see to the file LIFECYCLES_LOG names; each scenario returns the events its own
 * requests caused (found by their titles) beside the answers. On demand:
 * `npm run test:strapi -- lifecycles`. Pinned for Vellum alone in test/strapi/lifecycles.test.ts.
 */
import assert from 'node:assert/strict';
import { appendFileSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { HttpClient, type Response } from '../helpers/http.js';
import { fixture } from '../helpers/server.js';
import { diffName, openDifferential, type Differential } from './harness.js';

const LOG = join(tmpdir(), `vellum-lifecycles-diff-${process.pid}.jsonl`);
process.env.LIFECYCLES_LOG = LOG;

let diff: Differential;
before(async () => {
  rmSync(LOG, { force: true });
  appendFileSync(LOG, '');
  diff = await openDifferential({
    name: diffName(import.meta.filename),
    project: fixture('lifecycles'),
    readyPath: '/api/categories',
  });
});
after(async () => {
  await diff?.close();
  rmSync(LOG, { force: true });
});

interface LogEntry {
  source: string;
  uid: string;
  action: string;
  label?: string;
  labels?: string[];
}

const WRITES = /^(before|after)(Create|Update|Delete)$/;
const READS = /^(before|after)(FindOne|FindMany|Count)$/;
const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

/**
 * The events logged while `run` ran whose row is named `label`, of the actions `kinds` matches, as
 * one more answer: `before` and `after` events apart (Vellum fires every `before` event of a
 * write before its transaction and every `after` event once it has committed; Strapi interleaves
 * them row by row), each `create` marked draft or published.
 */
async function eventsOf(label: string, kinds: RegExp, run: () => Promise<Response[]>): Promise<Response[]> {
  // Strapi reads written entries again after answering (its webhook events): let them land first.
  await settle();
  const start = existsSync(LOG) ? readFileSync(LOG, 'utf8').length : 0;
  const answers = await run();
  await settle();
  const events = readFileSync(LOG, 'utf8')
    .slice(start)
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as LogEntry & { publishedAt?: unknown })
    .filter((entry) => (entry.label === label || entry.labels?.includes(label)) && kinds.test(entry.action))
    .map(
      (entry) =>
        `${entry.action}${'publishedAt' in entry ? `(${entry.publishedAt === null ? 'draft' : 'published'})` : ''}`,
    );
  const body = {
    before: events.filter((event) => event.startsWith('before')),
    after: events.filter((event) => event.startsWith('after')),
  };
  return [...answers, { status: 200, headers: new Headers(), body, text: '' }];
}

const publicClient = (api: HttpClient) => new HttpClient(api.baseUrl);

test('POST: a slug from beforeCreate, afterCreate and afterFindOne change the answer; one create per row', async () => {
  const { vellum } = await diff.same((api) =>
    eventsOf('Diff hello world', WRITES, async () => {
      const created = await api.post('/api/articles', { data: { title: 'Diff hello world', body: 'one two three' } });
      return [created, await api.get(`/api/articles/${created.body.data.documentId}`)];
    }),
  );
  const [created, read, events] = vellum as Response[];
  assert.equal(created!.body.data.slug, 'diff-hello-world');
  assert.equal(created!.body.data.wordCount, 3);
  assert.equal(created!.body.data.seenBy, 'afterFindOne');
  assert.equal(read!.body.data.wordCount, undefined);
  assert.deepEqual(events!.body.after, ['afterCreate(draft)', 'afterCreate(published)']);
});

test('POST a draft: one row, one create', async () => {
  await diff.same((api) =>
    eventsOf('Diff draft', WRITES, async () => [
      await api.post('/api/articles?status=draft', { data: { title: 'Diff draft' } }),
    ]),
  );
});

test('PUT that publishes: update of the draft, delete and create of the published row; PUT of a draft: one update', async () => {
  const { vellum } = await diff.same(async (api) => {
    const created = await api.post('/api/articles', { data: { title: 'Diff to update' } });
    const id = created.body.data.documentId;
    return [
      ...(await eventsOf('Diff updated', WRITES, async () => [
        await api.put(`/api/articles/${id}`, { data: { title: 'Diff updated' } }),
      ])),
      ...(await eventsOf('Diff updated draft', WRITES, async () => [
        await api.put(`/api/articles/${id}?status=draft`, { data: { title: 'Diff updated draft' } }),
      ])),
    ];
  });
  assert.equal((vellum as Response[])[0]!.body.data.slug, 'diff-updated');
});

test('DELETE: one delete per row', async () => {
  await diff.same(async (api) => {
    const created = await api.post('/api/articles', { data: { title: 'Diff deleted' } });
    return eventsOf('Diff deleted', WRITES, async () => [
      await api.delete(`/api/articles/${created.body.data.documentId}`),
    ]);
  });
});

test('reads: afterFindMany sees the list, afterFindOne the document', async () => {
  await diff.same(async (api) => {
    const created = await api.post('/api/articles', { data: { title: 'Diff read' } });
    return eventsOf('Diff read', READS, async () => [
      await api.get('/api/articles?filters[title][$eq]=Diff read'),
      await api.get(`/api/articles/${created.body.data.documentId}`),
    ]);
  });
});

test('a bootstrap grants Public find through strapi.db.query: anonymous reads succeed, writes do not', async () => {
  await diff.same(async (api) => {
    const anonymous = publicClient(api);
    await api.post('/api/articles', { data: { title: 'Diff public' } });
    return [
      await anonymous.get('/api/articles?filters[title][$eq]=Diff public&fields[0]=title'),
      await anonymous.post('/api/articles', { data: { title: 'x' } }),
      await anonymous.get('/api/categories'),
    ];
  });
});

test('a document middleware sets the default populate of pages (REST calls the Document Service)', async () => {
  await diff.same(async (api) => {
    await api.post('/api/pages', {
      data: { title: 'Diff page', seo: { metaTitle: 'Meta' }, sections: [{ metaTitle: 'S1' }] },
    });
    const anonymous = publicClient(api);
    return [
      await anonymous.get('/api/pages?filters[title][$eq]=Diff page'),
      await anonymous.get('/api/pages?filters[title][$eq]=Diff page&populate=sections'),
    ];
  });
});

test('the entity service seeded a category; the core store kept its values', async () => {
  await diff.same(async (api) => [
    await api.get('/api/categories?filters[name][$eq]=Seeded by the entity service&fields[0]=name'),
    await api.get('/api/setting?fields[0]=boots&fields[1]=stored&fields[2]=seededCategories&fields[3]=plugins'),
    await publicClient(api).get('/api/setting?fields[0]=boots'),
  ]);
});

test('an ApplicationError thrown by beforeCreate: 400, nothing written', async () => {
  await diff.same(
    async (api) => [
      await api.post('/api/articles', { data: { title: 'Forbidden diff' } }),
      await api.get('/api/articles?filters[title][$eq]=Forbidden diff&status=draft'),
    ],
    { messages: true },
  );
});

test('GraphQL resolversConfig names the project’s policy and middleware', async () => {
  await diff.same(
    async (api) => {
      const graphql = new HttpClient(api.baseUrl, api.defaultHeaders);
      await api.post('/api/categories', { data: { name: 'Diff marked' } });
      return [
        await graphql.post('/graphql', { query: '{ pages(filters: { title: { eq: "none" } }) { title } }' }),
        await graphql.post(
          '/graphql',
          { query: '{ pages(filters: { title: { eq: "none" } }) { title } }' },
          { headers: { 'x-allow': 'yes' } },
        ),
        await graphql.post('/graphql', { query: '{ categories(filters: { name: { eq: "Diff marked" } }) { name } }' }),
      ];
      // Vellum's GraphQL errors carry `locations`, Strapi's resolver errors do not: the error
      // formatter's difference, not project code's.
    },
    { ignoreKeys: ['locations'] },
  );
});
