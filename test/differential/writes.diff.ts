/**
 * Writes side by side with Strapi 5.54 on test/fixtures/relation-matrix: which owners keep a
 * target (relation exclusivity), translations sharing their non-localized attributes, relations
 * by numeric id, and DELETE with and without a locale. On demand: `npm run test:strapi -- writes`.
 * What differs on purpose is marked `deliberate` (docs/coming-from-strapi.md says why); the findings are pinned
 * in test/content/relation-exclusivity, translations, relation-ids and delete-locales.
 */
import { after, before, test } from 'node:test';
import type { HttpClient, Response } from '../helpers/http.js';
import { fixture } from '../helpers/server.js';
import { diffName, openDifferential, type Differential } from './harness.js';

let diff: Differential;
before(async () => {
  diff = await openDifferential({
    name: diffName(import.meta.filename),
    project: fixture('relation-matrix'),
    readyPath: '/api/owners',
  });
});
after(() => diff?.close());

/** Row ids differ between the servers (and collide across tables): compare names and documentIds. */
const options = { ignoreKeys: ['id'] };
const TO_MANY = new Set([
  'oneToManyBi',
  'oneToManyUni',
  'manyToManyBi',
  'manyToManyUni',
  'manyWay',
  'oneToMany',
  'manyToMany',
]);
const valueFor = (attribute: string, documentId: string) => (TO_MANY.has(attribute) ? [documentId] : documentId);
const documentIdOf = (res: Response) => res.body.data.documentId as string;

async function create(api: HttpClient, plural: string, data: Record<string, unknown>, query = ''): Promise<string> {
  const res = await api.post(`/api/${plural}${query}`, { data });
  if (res.status !== 201) throw new Error(`${plural}: ${JSON.stringify(res.body)}`);
  return documentIdOf(res);
}

/** The draft and the published version of one attribute. */
const versions = async (api: HttpClient, plural: string, documentId: string, attribute: string, extra = '') => [
  await api.get(`/api/${plural}/${documentId}?status=draft&populate=${attribute}${extra}`),
  await api.get(`/api/${plural}/${documentId}?populate=${attribute}${extra}`),
];

test('every relation kind of a content-type: which owners keep a target another owner connects', async () => {
  // Strapi's oneWay and manyWay are oneToOneUni and oneToManyUni (the harness strips Vellum's literal kinds).
  const attributes = [
    'oneToOneBi',
    'oneToOneUni',
    'oneToManyBi',
    'oneToManyUni',
    'manyToOneBi',
    'manyToOneUni',
    'manyToManyBi',
    'manyToManyUni',
    'badge',
  ];
  await diff.same(async (api) => {
    const answers: Response[] = [];
    for (const attribute of attributes) {
      const plural = attribute === 'badge' ? 'badges' : 'targets';
      const t = await create(api, plural, { name: `dw-kind-${attribute}` });
      const first = await create(api, 'owners', {
        name: `dw-kind-${attribute}-1`,
        [attribute]: valueFor(attribute, t),
      });
      await create(api, 'owners', { name: `dw-kind-${attribute}-2`, [attribute]: valueFor(attribute, t) });
      const third = await create(api, 'owners', { name: `dw-kind-${attribute}-3` });
      await api.put(`/api/owners/${third}?status=draft`, { data: { [attribute]: valueFor(attribute, t) } });
      answers.push(
        ...(await versions(api, 'owners', first, attribute)),
        ...(await versions(api, 'owners', third, attribute)),
      );
    }
    return answers;
  }, options);
});

test('bidirectional relations across drafts and publication, from both sides', async () => {
  await diff.same(async (api) => {
    const answers: Response[] = [];
    for (const [attribute, inverse] of [
      ['oneToOneBi', 'oneToOneInv'],
      ['oneToManyBi', 'manyToOneInv'],
      ['manyToOneBi', 'oneToManyInv'],
      ['manyToManyBi', 'manyToManyInv'],
    ]) {
      const t0 = await create(api, 'targets', { name: `dw-bi-${attribute}-t0` });
      const t1 = await create(api, 'targets', { name: `dw-bi-${attribute}-t1` });
      const owner = await create(api, 'owners', { name: `dw-bi-${attribute}-o`, [attribute]: valueFor(attribute, t0) });
      const other = await create(api, 'owners', { name: `dw-bi-${attribute}-other` });
      // An owner's draft takes t0, then is published.
      await api.put(`/api/owners/${other}?status=draft`, { data: { [attribute]: valueFor(attribute, t0) } });
      answers.push(
        ...(await versions(api, 'owners', owner, attribute)),
        ...(await versions(api, 'targets', t0, inverse)),
      );
      await api.put(`/api/owners/${other}`, { data: {} });
      answers.push(
        ...(await versions(api, 'owners', owner, attribute)),
        ...(await versions(api, 'targets', t0, inverse)),
      );
      // A target's draft connects the owner from the inverse side, then is published.
      const inverseMany = inverse === 'oneToManyInv' || inverse === 'manyToManyInv';
      await api.put(`/api/targets/${t1}?status=draft`, {
        data: { [inverse]: inverseMany ? { connect: [owner] } : owner },
      });
      answers.push(
        ...(await versions(api, 'owners', owner, attribute)),
        ...(await versions(api, 'targets', t1, inverse)),
      );
      await api.put(`/api/targets/${t1}`, { data: {} });
      answers.push(
        ...(await versions(api, 'owners', owner, attribute)),
        ...(await versions(api, 'targets', t1, inverse)),
      );
    }
    return answers;
  }, options);
});

test('publishing a target keeps its place in its owners lists', async () => {
  await diff.same(async (api) => {
    const t0 = await create(api, 'targets', { name: 'dw-order-t0' });
    const t1 = await create(api, 'targets', { name: 'dw-order-t1' });
    const owner = await create(api, 'owners', { name: 'dw-order-o', manyToManyBi: [t0, t1], oneToManyBi: [t0, t1] });
    await api.put(`/api/targets/${t0}`, { data: { name: 'dw-order-t0 edited' } });
    return [
      ...(await versions(api, 'owners', owner, 'manyToManyBi')),
      ...(await versions(api, 'owners', owner, 'oneToManyBi')),
    ];
  }, options);
});

test('relations inside components, repeatable components and zone entries never leave other owners', async () => {
  const populate =
    '&populate[block][populate]=*&populate[blocks][populate]=*&populate[zone][on][matrix.links][populate]=*&populate[zone][on][matrix.nested][populate][links][populate]=*';
  await diff.same(async (api) => {
    const answers: Response[] = [];
    for (const attribute of ['oneToOne', 'oneToMany', 'manyToOne', 'manyToMany']) {
      const t = await create(api, 'targets', { name: `dw-cmp-${attribute}` });
      const v = valueFor(attribute, t);
      const data = {
        block: { [attribute]: v },
        blocks: [{ [attribute]: v }, { [attribute]: v }],
        zone: [
          { __component: 'matrix.links', [attribute]: v },
          { __component: 'matrix.nested', links: [{ [attribute]: v }] },
        ],
      };
      const first = await create(api, 'owners', { name: `dw-cmp-${attribute}-1`, ...data });
      await create(api, 'owners', { name: `dw-cmp-${attribute}-2`, ...data });
      answers.push(
        await api.get(`/api/owners/${first}?fields[0]=name${populate}`),
        await api.get(`/api/owners/${first}?status=draft&fields[0]=name${populate}`),
      );
    }
    return answers;
  }, options);
});

const PAGE_POPULATE =
  '&populate[hero]=true&populate[target]=true&populate[labels]=true&populate[links][populate]=*&populate[sections][on][matrix.links][populate]=*&populate[sections][on][matrix.nested][populate]=*&populate[body][populate]=*';

test('a new locale takes the shared attributes from the others; relations stay per locale', async () => {
  await diff.same(async (api) => {
    const t = await create(api, 'targets', { name: 'dw-tr-t' });
    const label = await create(api, 'labels', { name: 'dw-tr-label' });
    const page = await create(api, 'pages', {
      title: 'dw-tr en',
      code: 'c1',
      note: 'n1',
      target: t,
      labels: [label],
      links: { caption: 'cap', oneToOne: t },
      sections: [{ __component: 'matrix.links', caption: 'sec' }],
      body: [{ __component: 'matrix.links', caption: 'body en' }],
    });
    const created = await api.put(`/api/pages/${page}?locale=fr`, { data: { title: 'dw-tr fr' } });
    return [
      created,
      await api.get(`/api/pages/${page}?locale=fr${PAGE_POPULATE}`),
      await api.get(`/api/pages/${page}?locale=fr&status=draft${PAGE_POPULATE}`),
      await api.put(`/api/pages/${page}?locale=fr&status=draft`, {
        data: { code: 'c2', note: 'n2', links: { caption: 'cap2' } },
      }),
      await api.get(`/api/pages/${page}?locale=en&status=draft${PAGE_POPULATE}`),
      await api.get(`/api/pages/${page}?locale=en${PAGE_POPULATE}`),
    ];
  }, options);
});

test('a publishing write in one locale: the other locales published versions', async () => {
  await diff.same(async (api) => {
    const page = await create(api, 'pages', { title: 'dw-pub en', code: 'c1', links: { caption: 'cap' } });
    await api.put(`/api/pages/${page}?locale=fr`, { data: { title: 'dw-pub fr' } });
    await api.put(`/api/pages/${page}`, { data: { code: 'c2', links: { caption: 'cap2' } } });
    return [await api.get(`/api/pages/${page}?locale=fr${PAGE_POPULATE}`)];
  }, options);
});

test('a publishing write in one locale: the other locales drafts', async () => {
  await diff.same(
    async (api) => {
      const page = await create(api, 'pages', { title: 'dw-pubd en', code: 'c1' });
      await api.put(`/api/pages/${page}?locale=fr`, { data: { title: 'dw-pubd fr' } });
      await api.put(`/api/pages/${page}`, { data: { code: 'c2' } });
      return [await api.get(`/api/pages/${page}?locale=fr&status=draft`)];
    },
    {
      ...options,
      deliberate:
        "Strapi leaves the other locales' drafts with the old shared values; Vellum syncs drafts on every write",
    },
  );
});

test('between localized types the writing locale is linked', async () => {
  await diff.same(async (api) => {
    const label = await create(api, 'labels', { name: 'dw-loc en' });
    await api.put(`/api/labels/${label}?locale=fr`, { data: { name: 'dw-loc fr' } });
    const page = await api.post('/api/pages?locale=fr', {
      data: { title: 'dw-loc page', labels: [{ documentId: label, locale: 'en' }] },
    });
    return [
      await api.get(`/api/pages/${documentIdOf(page)}?locale=fr&populate=labels`),
      await api.post('/api/owners', {
        data: { name: 'dw-loc owner', labels: [label, { documentId: label, locale: 'fr' }] },
      }),
    ];
  }, options);
  await diff.same(
    async (api) => {
      const enOnly = await create(api, 'labels', { name: 'dw-loc en only 2' });
      return api.post('/api/pages?locale=fr', { data: { title: 'dw-loc page 2', labels: [enOnly] } });
    },
    {
      ...options,
      deliberate: 'same 400 ValidationError; Strapi has empty details, Vellum names the path in details.errors',
    },
  );
});

test('relations by numeric id: the forms of docs/rest.md "Relations in request bodies" with draft ids', async () => {
  await diff.same(async (api) => {
    const ids: Record<string, number> = {};
    const docs: Record<string, string> = {};
    for (const name of ['a', 'b', 'c']) {
      docs[name] = await create(api, 'targets', { name: `dw-id-${name}` });
      ids[name] = (await api.get(`/api/targets/${docs[name]}?status=draft`)).body.data.id;
    }
    const answers: Response[] = [];
    for (const [attribute, value] of [
      ['manyToOneUni', ids.a],
      ['manyToOneUni', String(ids.a)],
      ['manyToOneUni', { id: ids.a }],
      ['manyToManyUni', [ids.b, ids.a]],
      ['manyToManyUni', [{ id: ids.b }, docs.a]],
      ['manyToManyUni', { connect: [{ id: ids.a }, { id: ids.b, position: { before: ids.a } }] }],
      ['manyToManyUni', { set: [ids.c, ids.a] }],
    ] as const) {
      const owner = await create(api, 'owners', { name: `dw-id-${attribute}`, [attribute]: value });
      answers.push(...(await versions(api, 'owners', owner, attribute)));
    }
    const owner = await create(api, 'owners', { name: 'dw-id-disconnect', manyToManyUni: [docs.a, docs.b, docs.c] });
    answers.push(await api.put(`/api/owners/${owner}`, { data: { manyToManyUni: { disconnect: [ids.b, 999999] } } }));
    answers.push(...(await versions(api, 'owners', owner, 'manyToManyUni')));
    return answers;
  }, options);
});

test('relations by numeric id: a published id from a published write', async () => {
  await diff.same(
    async (api) => {
      const t = await api.post('/api/targets', { data: { name: 'dw-idp' } });
      const owner = await create(api, 'owners', { name: 'dw-idp-owner', manyToOneUni: t.body.data.id });
      return versions(api, 'owners', owner, 'manyToOneUni');
    },
    {
      ...options,
      deliberate:
        'Strapi links the published row to the draft too, which the draft does not show; Vellum links the document in both versions',
    },
  );
});

test('relations by numeric id: unknown and invalid ids', async () => {
  await diff.same(
    async (api) => [
      await api.post('/api/owners', { data: { name: 'dw-idx-1', manyToOneUni: 999999 } }),
      await api.post('/api/owners', { data: { name: 'dw-idx-2', manyToManyUni: { connect: [{ id: 999999 }] } } }),
      await api.post('/api/owners', { data: { name: 'dw-idx-3', manyToOneUni: 0 } }),
    ],
    { ...options, deliberate: 'same status and error name; Vellum names the attribute path in details.errors' },
  );
});

test('DELETE with and without a locale', async () => {
  const states = async (api: HttpClient, documentId: string) => {
    const out: Response[] = [];
    for (const locale of ['en', 'fr'])
      for (const status of ['draft', 'published'])
        out.push(await api.get(`/api/pages/${documentId}?locale=${locale}&status=${status}`));
    return out;
  };
  await diff.same(async (api) => {
    const answers: Response[] = [];
    for (const query of ['', '?locale=fr', '?locale=*', '?status=published']) {
      const page = await create(api, 'pages', { title: `dw-del${query}` });
      await api.put(`/api/pages/${page}?locale=fr`, { data: { title: `dw-del fr${query}` } });
      answers.push(await api.delete(`/api/pages/${page}${query}`), ...(await states(api, page)));
    }
    const label = await create(api, 'labels', { name: 'dw-del label' });
    await api.put(`/api/labels/${label}?locale=fr`, { data: { name: 'dw-del label fr' } });
    answers.push(
      await api.delete(`/api/labels/${label}`),
      await api.get(`/api/labels/${label}?locale=fr`),
      await api.get(`/api/labels/${label}`),
    );
    return answers;
  }, options);
});

test('DELETE: unknown document or locale, and status=draft', async () => {
  await diff.same(
    async (api) => {
      const page = await create(api, 'pages', { title: 'dw-delx' }, '?locale=fr');
      return [
        await api.delete(`/api/pages/${page}`),
        await api.delete(`/api/pages/${page}?locale=xx`),
        await api.delete(`/api/pages/${page}?status=draft`),
        await api.delete('/api/pages/doesnotexist0000000000000'),
        await api.get(`/api/pages/${page}?locale=fr`),
      ];
    },
    {
      ...options,
      deliberate:
        'Strapi: 204 deleting nothing (unknown document or locale), 500 for status=draft; Vellum: 404, 400, 400',
    },
  );
});
