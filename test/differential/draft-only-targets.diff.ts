/**
 * Relations from types without draft and publish to targets that have only a draft, side by side
 * with Strapi 5.54 (issue 30): the Document Service's filters and populate in both statuses, and
 * REST's. On demand: `npm run test:strapi -- draft-only-targets`. Pinned in
 * test/strapi/draft-only-targets.test.ts.
 */
import { after, before, test } from 'node:test';
import { fixture } from '../helpers/paths.js';
import { diffName, openDifferential, type Differential } from './harness.js';

let diff: Differential;
before(async () => {
  diff = await openDifferential({
    name: diffName(import.meta.filename),
    project: fixture('draft-only-targets'),
    readyPath: '/api/badges',
  });
});
after(() => diff?.close());

const run = Date.now().toString(36);
const ignored = { ignoreKeys: ['id', 'documentId', 'createdAt', 'updatedAt', 'publishedAt'] };

test('the Document Service: filters find a draft-only target in either status; populate shows the status read', async () => {
  await diff.same(async (api) => [await api.post(`/api/probe/draft-only-targets/p${run}`, {})], ignored);
});

test('REST: filters through the relation find the row; populate shows the version of the status read', async () => {
  await diff.same(async (api) => {
    const name = `r${run}`;
    const holder = await api.post('/api/holders?status=draft', { data: { name } });
    const badge = await api.post('/api/badges', { data: { name, holder: holder.body?.data?.documentId } });
    const page = await api.post('/api/pages?status=draft', { data: { title: name } });
    const label = await api.post('/api/labels', { data: { name, pages: [page.body?.data?.documentId] } });
    return [
      holder,
      badge,
      page,
      label,
      await api.get(`/api/badges?filters[holder][name][$eq]=${name}&populate=holder`),
      await api.get(`/api/badges?filters[holder][name][$eq]=${name}&populate=holder&status=draft`),
      await api.get(`/api/labels?filters[pages][title][$eq]=${name}&populate=pages`),
      await api.get(`/api/labels?filters[pages][title][$eq]=${name}&populate=pages&status=draft`),
      await api.get(`/api/holders?filters[name][$eq]=${name}&status=draft`),
    ];
  }, ignored);
});

test('the query engine populates every linked row; a relation inside a component of such a type', async () => {
  await diff.same(async (api) => [await api.post(`/api/probe/engine-reads/e${run}`, {})], ignored);
});
