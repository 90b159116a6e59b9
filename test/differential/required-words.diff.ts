/**
 * A required attribute left empty in a published entry, side by side with Strapi 5.54
 * (test/fixtures/required-publish): each type's words, `value: null`, nested paths, on a published
 * create and a published update. Required relations and media on a published create are left out:
 * Vellum requires them on purpose (docs/rest.md "Bodies"). On demand: `npm run test:strapi -- required`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fixture } from '../helpers/server.js';
import { diffName, openDifferential, type Differential } from './harness.js';

let diff: Differential;
// Vellum's uploads in a temporary folder, not in the fixture.
const publicDir = mkdtempSync(join(tmpdir(), 'vellum-public-'));
before(async () => {
  diff = await openDifferential({
    name: diffName(import.meta.filename),
    project: fixture('required-publish'),
    readyPath: '/api/sheets',
    vellumConfig: { server: { dirs: { public: publicDir } } },
  });
});
after(async () => {
  await diff?.close();
  rmSync(publicDir, { recursive: true, force: true });
});

const run = Date.now().toString(36);
const SCALARS = [
  'title',
  'body',
  'email',
  'slug',
  'secret',
  'count',
  'big',
  'price',
  'ratio',
  'flag',
  'day',
  'at',
  'time',
  'kind',
  'meta',
  'content',
  'part',
];

test('published writes with required values null or missing: each type in its words', async () => {
  await diff.same(
    async (api) => {
      // Relations and media are given: Strapi ignores them here, Vellum requires them (docs/rest.md "Bodies").
      const person = (await api.post('/api/people', { data: { name: `p${run}` } })).body.data.documentId as string;
      const form = new FormData();
      form.append('files', new Blob([Buffer.from('a text file')], { type: 'text/plain' }), 'note.txt');
      const file = (
        (await (
          await fetch(`${api.baseUrl}/api/upload`, { method: 'POST', headers: api.defaultHeaders, body: form })
        ).json()) as { id: number }[]
      )[0]!.id;
      const given = { owner: person, friends: [person], cover: file, images: [file], parts: [], zone: [] };
      let n = 0;
      const complete = () => ({
        ...given,
        title: 't',
        body: 'b',
        email: 'a@example.com',
        slug: `s${run}${n++}`,
        secret: 'secret123',
        count: 1,
        big: '1',
        price: 1.5,
        ratio: 1.5,
        flag: true,
        day: '2020-01-01',
        at: '2020-01-01T00:00:00.000Z',
        time: '10:00:00.000',
        kind: 'a',
        meta: {},
        content: [{ type: 'paragraph', children: [{ type: 'text', text: 'x' }] }],
        part: { label: 'l', size: 1 },
      });
      const draft = await api.post('/api/sheets?status=draft', { data: { parts: [], zone: [] } });
      return [
        await api.post('/api/sheets?status=published', {
          data: { ...given, ...Object.fromEntries(SCALARS.map((name) => [name, null])) },
        }),
        await api.post('/api/sheets?status=published', { data: { ...complete(), title: null } }),
        draft,
        await api.put(`/api/sheets/${draft.body.data.documentId}?status=published`, { data: { title: null } }),
        await api.put(`/api/sheets/${draft.body.data.documentId}?status=published`, { data: {} }),
        await api.post('/api/sheets?status=published', {
          data: { ...complete(), part: { label: null, size: null }, parts: [{ size: 1 }] },
        }),
      ];
    },
    { messages: true, ignoreKeys: ['slug'] },
  );
});
