/**
 * The relation-matrix fixture (every relation kind, in components and zones, localized types)
 * side by side with Strapi 5.54. On demand: `npm run test:strapi -- relation-matrix`.
 */
import { after, before, test } from 'node:test';
import { fixture } from '../helpers/server.js';
import { diffName, openDifferential, type Differential } from './harness.js';

let diff: Differential;
before(async () => {
  diff = await openDifferential({ name: diffName(import.meta.filename), project: fixture('relation-matrix') });
});
after(() => diff?.close());

test('the fixture starts on both and lists the same empty shapes', async () => {
  await diff.same(async (api) => [
    await api.get('/api/owners?populate=*'),
    await api.get('/api/targets?populate=*'),
    await api.get('/api/pages?populate=*'),
    await api.get('/api/labels?populate=*'),
  ]);
});

test('an owner created with every relation kind and components, populated', async () => {
  await diff.same(async (api) => {
    const t = (await api.post('/api/targets', { data: { name: 'rm-1' } })).body.data.documentId;
    const links = { caption: 'c', oneToOne: t, oneToMany: [t], manyToOne: t, manyToMany: [t] };
    const created = await api.post('/api/owners', {
      data: {
        name: 'rm-1',
        oneToOneBi: t,
        oneToOneUni: t,
        oneToManyBi: [t],
        oneToManyUni: [t],
        manyToOneBi: t,
        manyToOneUni: t,
        manyToManyBi: [t],
        manyToManyUni: [t],
        block: links,
        blocks: [links],
        zone: [{ __component: 'matrix.links', ...links }],
      },
    });
    const populate =
      'populate[block][populate]=*&populate[blocks][populate]=*&populate[zone][populate]=*&populate[oneToOneBi]=true&populate[manyToManyBi]=true';
    return [
      created,
      await api.get(`/api/owners?filters[name][$eq]=rm-1&${populate}`),
      await api.get(`/api/targets?filters[name][$eq]=rm-1&populate=*`),
    ];
  });
});
