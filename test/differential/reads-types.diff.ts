/**
 * Attribute values side by side with Strapi 5.54 (issue 14, point 12) on test/fixtures/all-types:
 * what each type accepts and how it is answered, bodies and filters. On demand:
 * `npm run test:strapi -- reads-types`. Pinned in test/content/types-as-strapi.test.ts.
 */
import { after, before, test } from 'node:test';
import { fixture } from '../helpers/server.js';
import { diffName, openDifferential, type Differential } from './harness.js';

let diff: Differential;
before(async () => {
  diff = await openDifferential({
    name: diffName(import.meta.filename),
    project: fixture('all-types'),
    readyPath: '/api/samples',
  });
});
after(() => diff?.close());

/** Values Strapi accepts, by attribute: Vellum must accept them and answer the same. */
const ACCEPTED: Record<string, unknown[]> = {
  at: ['10:20:30', '10:20:30.1', null],
  day: ['2024-02-29', '2024-01-05T23:30:00-05:00', '2024-01-05 10:00'],
  moment: [
    '2024-01-05T10:20:30+02',
    '2024',
    '2024-W02-3',
    '2024-005',
    '20240105T102030Z',
    '1704450030000',
    1704450030000,
  ],
  stamp: ['2024-01-05T10:20:30.123Z', '2024-01-05', 1704450030000, '0'],
  active: [1, '0', 'true'],
  contact: ['a@b.co'],
  count: ['5', '1e2', ' 7 '],
  price: ['1.50', 12345678.9],
};

/** Values Strapi refuses: Vellum refuses them too (a 400 ValidationError). */
const REFUSED: Record<string, unknown[]> = {
  at: ['10:20', '10:20:30.1234', '24:00:00', 12],
  day: ['2023-02-29', '2024-1-5', 1704412800000],
  moment: ['2024-02-30T00:00:00Z', '2024-01-05T10:20:30z'],
  stamp: ['abc'],
  active: ['t'],
  contact: [''],
  count: [5.5],
};

let n = 0;
const post = (api: { post: Function }, attribute: string, value: unknown) => {
  n += 1;
  return api.post(`/api/samples?fields[0]=${attribute}`, { data: { name: `t${attribute}${n}`, [attribute]: value } });
};

for (const [attribute, values] of Object.entries(ACCEPTED)) {
  test(`${attribute}: accepted input and answer`, async () => {
    await diff.same(async (api) => {
      const answers = [];
      for (const value of values) answers.push(await post(api, attribute, value));
      return answers;
    });
  });
}

// Strapi's date and time parsers answer these with empty details; Vellum lists details.errors[]
// with the path of the offending value, as for every attribute problem (docs/errors.md).
const DETAILS = 'Vellum names the offending value in details.errors[] (docs/errors.md); Strapi answers empty details';

for (const [attribute, values] of Object.entries(REFUSED)) {
  test(`${attribute}: refused input`, async () => {
    await diff.same(
      async (api) => {
        const answers = [];
        for (const value of values) answers.push(await post(api, attribute, value));
        return answers;
      },
      { deliberate: DETAILS },
    );
  });
}

test('filters take the same date and time values', async () => {
  await diff.same(async (api) => {
    await api.post('/api/samples', {
      data: {
        name: 'tfilter',
        at: '10:20:30',
        stamp: '2024-01-05T10:20:30Z',
        moment: '2024-01-05T10:20:30Z',
        day: '2024-01-05',
      },
    });
    const list = (filter: string) => api.get(`/api/samples?filters[name][$eq]=tfilter&fields[0]=name&${filter}`);
    return [
      await list('filters[at][$eq]=10:20:30.000'),
      await list('filters[stamp][$eq]=1704450030000'),
      await list('filters[moment][$eq]=1704450030000'),
      await list('filters[moment][$gt]=2024-01-05'),
      await list('filters[day][$eq]=2024-01-05T00:00:00Z'),
    ];
  });
});

test('filters refuse what bodies refuse', async () => {
  await diff.same(
    async (api) => [
      await api.get('/api/samples?filters[at][$eq]=10:20'),
      await api.get('/api/samples?filters[day][$gt]=2024-01'),
    ],
    {
      deliberate:
        'Vellum names the parameter and key of a bad filter value (docs/errors.md); Strapi answers empty details',
    },
  );
});
