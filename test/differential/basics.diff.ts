/**
 * The blog example, side by side with Strapi 5.54: CRUD answers, statuses and error names.
 * On demand: `npm run test:strapi -- basics`.
 */
import { after, before, test } from 'node:test';
import { BLOG } from '../helpers/server.js';
import { diffName, openDifferential, type Differential } from './harness.js';

let diff: Differential;
before(async () => {
  diff = await openDifferential({ name: diffName(import.meta.filename), project: BLOG });
});
after(() => diff?.close());

test('create, read, update and delete a category', async () => {
  await diff.same(async (api) => {
    const created = await api.post('/api/categories', { data: { name: 'db-basic-1', description: 'first' } });
    const id = created.body.data.documentId;
    return [
      created,
      await api.get(`/api/categories/${id}`),
      await api.put(`/api/categories/${id}`, { data: { description: 'second' } }),
      await api.get('/api/categories?filters[name][$eq]=db-basic-1'),
      await api.delete(`/api/categories/${id}`),
      await api.get(`/api/categories/${id}`),
    ];
  });
});

test('an article with relations, a component and a zone entry, populated', async () => {
  await diff.same(async (api) => {
    const category = await api.post('/api/categories', { data: { name: 'db-basic-2' } });
    const tag = await api.post('/api/tags', { data: { name: 'db-basic-2' } });
    const article = await api.post('/api/articles', {
      data: {
        title: 'db-basic-2',
        category: category.body.data.documentId,
        tags: [tag.body.data.documentId],
        seo: { metaTitle: 'meta', metaDescription: 'description' },
        blocks: [{ __component: 'shared.quote', title: 'q', body: 'quoted' }],
      },
    });
    return [article, await api.get(`/api/articles?filters[title][$eq]=db-basic-2&populate=*`)];
  });
});

test('errors: unknown document, bad filter, missing data, mixed pagination, malformed JSON', async () => {
  await diff.same(async (api) => [
    await api.get('/api/articles/doesnotexist000000000000'),
    await api.get('/api/articles?filters[nope][$eq]=1'),
    await api.get('/api/articles?sort=nope'),
    await api.post('/api/categories', { name: 'no data wrapper' }),
    await api.get('/api/articles?pagination[page]=1&pagination[start]=0'),
    await api.request('POST', '/api/categories', { rawBody: '{"data":', headers: { 'content-type': 'application/json' } }),
    await api.post('/api/categories', { data: { description: 'name is required' } }),
  ]);
});
