/**
 * Reads side by side with Strapi 5.54 (issue 14, points 7-11) on the relation-matrix fixture:
 * absent relations, relations across locales, locale in filters, populate forms, top-level
 * parameters, the earlier response format. On demand: `npm run test:strapi -- reads`.
 * What it found is pinned in test/content/{null-relations,locale-relations,locale-filters,
 * populate-forms,query-params,legacy-format-v5}.test.ts.
 */
import { after, before, test } from 'node:test';
import { fixture } from '../helpers/server.js';
import { diffName, openDifferential, type Differential } from './harness.js';

let diff: Differential;
before(async () => {
  diff = await openDifferential({ name: diffName(import.meta.filename), project: fixture('relation-matrix') });
});
after(() => diff?.close());

const V4 = { headers: { 'Strapi-Response-Format': 'v4' } };
const id = async (promise: Promise<{ body: any }>) => (await promise).body.data.documentId as string;

test('absent relations and components: $null, $notNull, through to-many relations and components', async () => {
  await diff.same(async (api) => {
    const t = await id(api.post('/api/targets', { data: { name: 'nr-t' } }));
    const draft = await id(api.post('/api/targets?status=draft', { data: { name: 'nr-draft' } }));
    await api.post('/api/owners', {
      data: {
        name: 'nr-A',
        manyToOneBi: t,
        manyToManyBi: [t],
        block: { caption: 'x', manyToOne: t },
        blocks: [{ caption: 'y', manyToMany: [t] }],
      },
    });
    await api.post('/api/owners', { data: { name: 'nr-B' } });
    await api.post('/api/owners', { data: { name: 'nr-C', block: { caption: null }, manyToOneBi: draft } });
    const list = (filters: string) =>
      api.get(`/api/owners?filters[name][$startsWith]=nr-&sort=name&fields[0]=name&${filters}`);
    return [
      await list('filters[manyToOneBi][id][$null]=true'),
      await list('filters[manyToOneBi][$null]=true'),
      await list('filters[manyToOneBi][$notNull]=true'),
      await list('filters[manyToManyBi][$null]=true'),
      await list('filters[manyToManyBi][id][$notNull]=true'),
      await list('filters[manyToOneBi][name][$null]=true'),
      await list('filters[manyToOneBi][name][$ne]=zz'),
      await list('filters[$not][manyToOneBi][id][$null]=true'),
      await list('filters[block][$null]=true'),
      await list('filters[block][caption][$null]=true'),
      await list('filters[blocks][$null]=true'),
      await list('filters[block][manyToOne][$null]=true'),
      await list('filters[blocks][manyToMany][id][$null]=true'),
      await list('filters[$or][0][manyToOneBi][$null]=true&filters[$or][1][name][$endsWith]=A'),
      await list('filters[manyToManyBi][$null]=true&pagination[pageSize]=1'),
    ];
  });
});

test('a type without i18n lists related documents of every locale, and below them their own links', async () => {
  await diff.same(async (api) => {
    const label = await id(api.post('/api/labels', { data: { name: 'lr-en' } }));
    await api.put(`/api/labels/${label}?locale=fr`, { data: { name: 'lr-fr' } });
    const page = await id(api.post('/api/pages', { data: { title: 'lr-p-en', labels: [label] } }));
    await api.put(`/api/pages/${page}?locale=fr`, {
      data: { title: 'lr-p-fr', labels: { connect: [{ documentId: label, locale: 'fr' }] } },
    });
    await api.post('/api/owners', {
      data: {
        name: 'lr-o',
        labels: {
          connect: [
            { documentId: label, locale: 'en' },
            { documentId: label, locale: 'fr' },
          ],
        },
      },
    });
    const owner = (query: string) => api.get(`/api/owners?filters[name][$eq]=lr-o&fields[0]=name&${query}`);
    return [
      await owner('populate=labels'),
      await owner('populate=labels&locale=fr'),
      await owner('populate[labels][populate][pages][fields][0]=title'),
      await owner('populate[labels][count]=true'),
      await api.get('/api/owners?filters[labels][pages][title][$eq]=lr-p-fr&fields[0]=name'),
    ];
  });
});

test('localizations below a related document: Strapi leaves out every locale of the batch', async () => {
  await diff.same(
    async (api) => {
      const label = await id(api.post('/api/labels', { data: { name: 'll-en' } }));
      await api.put(`/api/labels/${label}?locale=fr`, { data: { name: 'll-fr' } });
      await api.post('/api/owners', {
        data: {
          name: 'll-o',
          labels: {
            connect: [
              { documentId: label, locale: 'en' },
              { documentId: label, locale: 'fr' },
            ],
          },
        },
      });
      return api.get('/api/owners?filters[name][$eq]=ll-o&populate[labels][populate]=localizations');
    },
    {
      deliberate:
        'Vellum lists the other locales of each related document; Strapi excludes every row already loaded in the batch',
    },
  );
});

test('locale in filters replaces the locale lookup; locale=* and lists of locales', async () => {
  await diff.same(async (api) => {
    const l1 = await id(api.post('/api/labels', { data: { name: 'lf-l1-en' } }));
    await api.put(`/api/labels/${l1}?locale=fr`, { data: { name: 'lf-l1-fr' } });
    await api.post('/api/labels?locale=fr', { data: { name: 'lf-l2-fr' } });
    const list = (query: string) =>
      api.get(`/api/labels?filters[name][$startsWith]=lf-&sort=name&fields[0]=name&${query}`);
    return [
      await list('filters[locale][$eq]=fr'),
      await list('filters[locale]=fr'),
      await list('filters[locale][$eq]=fr&locale=en'),
      await list('filters[locale][$in][0]=fr&filters[locale][$in][1]=en'),
      await list('filters[$and][0][locale]=fr'),
      await list('locale=*'),
      await list('locale[0]=en&locale[1]=fr'),
      await api.get(`/api/labels/${l1}?filters[locale]=fr&fields[0]=name`),
      await api.get(`/api/labels/${l1}?filters[name][$endsWith]=fr`),
    ];
  });
});

test('populate forms: * with localizations, zones with on, components with filters, sort and count', async () => {
  await diff.same(async (api) => {
    const t = await id(api.post('/api/targets', { data: { name: 'pf-t' } }));
    const owner = await id(
      api.post('/api/owners', {
        data: {
          name: 'pf-o',
          block: { caption: 'c', manyToOne: t },
          blocks: [{ caption: 'c1' }, { caption: 'c2', manyToMany: [t] }, { caption: 'c3' }],
          zone: [
            { __component: 'matrix.links', caption: 'z1', manyToOne: t },
            { __component: 'matrix.nested', heading: 'h', links: [{ caption: 'n1', oneToOne: t }] },
          ],
        },
      }),
    );
    const page = await id(api.post('/api/pages', { data: { title: 'pf-p' } }));
    await api.put(`/api/pages/${page}?locale=fr`, { data: { title: 'pf-p-fr' } });
    const get = (query: string) => api.get(`/api/owners/${owner}?fields[0]=name&${query}`);
    return [
      await api.get(`/api/pages/${page}?populate=*`),
      await get('populate[zone][on][matrix.links][fields][0]=caption'),
      await get('populate[zone][on][matrix.nested][populate][links][populate]=*'),
      await get('populate[zone][on][matrix.links][filters][caption]=zz'),
      await get('populate[zone][count]=true'),
      await get('populate[blocks][filters][caption][$ne]=c2'),
      await get('populate[blocks][sort]=caption:desc'),
      await get('populate[blocks][count]=true'),
      await get('populate[block][count]=true'),
      await get('populate[block][filters][caption]=zz'),
      await get('populate[block][populate]=*'),
      await get('populate[block]=1'),
      await get('populate[block][populate]=true'),
    ];
  });
});

test('top-level parameters: _q, publication cohorts, and those Strapi refuses', async () => {
  await diff.same(async (api) => {
    const a = await id(api.post('/api/targets', { data: { name: 'qp Alpha one' } }));
    const b = await id(api.post('/api/targets', { data: { name: 'qp beta 50%' } }));
    await api.put(`/api/targets/${b}?status=draft`, { data: { name: 'qp beta 50%' } });
    await api.post('/api/targets?status=draft', { data: { name: 'qp gamma' } });
    const list = (query: string) =>
      api.get(`/api/targets?filters[name][$startsWith]=qp&sort=name&fields[0]=name&${query}`);
    return [
      await list('_q=alpha'),
      await list('_q=QP%20BETA'),
      await list('_q=50%25'),
      await list(`_q=${a}`),
      await list('status=draft&hasPublishedVersion=false'),
      await list('hasPublishedVersion=true'),
      await list('status=draft&publicationFilter=never-published'),
      await list('publicationFilter=published-with-draft'),
      await list('publicationFilter=xx'),
      await list('hasPublishedVersion=1'),
      await list('page=2'),
      await list('lookup[name]=x'),
      await list('foo=bar&start=1&count=true'),
      await api.get(`/api/targets/${a}?_q=zz`),
      await api.get(`/api/targets/${a}?filters[name][$eq]=zz`),
      await api.get(`/api/targets/${a}?pageSize=x`),
    ];
  });
});

test('the earlier response format: documentId beside id, fields inside attributes, counts', async () => {
  await diff.same(async (api) => {
    const t = await id(api.post('/api/targets', { data: { name: 'v4-t' } }));
    const created = await api.post(
      '/api/owners',
      { data: { name: 'v4-o', manyToOneBi: t, block: { caption: 'c', manyToOne: t } } },
      V4,
    );
    const owner = created.body.data.documentId as string;
    return [
      created,
      await api.get(`/api/owners/${owner}?populate[manyToOneBi]=true&populate[block][populate]=manyToOne`, V4),
      await api.get(`/api/owners/${owner}?fields[0]=name`, V4),
      await api.get('/api/owners?filters[name][$eq]=v4-o&fields[0]=name', V4),
      await api.get(`/api/owners/${owner}?populate[manyToManyBi][count]=true`, V4),
    ];
  });
});

test('the earlier response format: a PUT that publishes answers the published version', async () => {
  await diff.same(
    async (api) => {
      const created = await api.post('/api/owners', { data: { name: 'v4-p' } }, V4);
      const owner = created.body.data.documentId as string;
      return [created, await api.put(`/api/owners/${owner}?fields[0]=name`, { data: { name: 'v4-p2' } }, V4)];
    },
    // Vellum publishes in place: the published version keeps its id, where Strapi inserts a new
    // row (docs/coming-from-strapi.md). Everything else is compared.
    { ignoreKeys: ['id'] },
  );
});

test('DELETE in the earlier format answers the deleted entry (docs/rest.md "Earlier response format (v4)")', async () => {
  await diff.same(
    async (api) => {
      const owner = await id(api.post('/api/owners', { data: { name: 'v4-del' } }));
      return api.delete(`/api/owners/${owner}`, V4);
    },
    {
      deliberate:
        'docs/rest.md "Earlier response format (v4)": the earlier format answers the deleted entry; Strapi 5.54 answers 204',
    },
  );
});
