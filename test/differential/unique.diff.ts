/**
 * Unique attributes side by side with Strapi 5.54 (test/fixtures/unique): the answer to a value
 * another document holds, and the scope of the check (published versions per locale; drafts and
 * empty text free). Concurrency itself is not compared (Strapi on SQLite serialises its writes):
 * test/database/unique.test.ts pins it against Vellum. On demand: `npm run test:strapi -- unique`.
 */
import { after, before, test } from 'node:test';
import { fixture } from '../helpers/server.js';
import { diffName, openDifferential, type Differential } from './harness.js';

let diff: Differential;
before(async () => {
  diff = await openDifferential({
    name: diffName(import.meta.filename),
    project: fixture('unique'),
    readyPath: '/api/items',
  });
});
after(() => diff?.close());

// Vellum fills an omitted uid from its targetField on create; Strapi's content API leaves it null.
const UID_FILLED = { ignoreKeys: ['slug'], messages: true };

/**
 * A publish of a published document: Strapi gives the published row a new `id`, Vellum updates it
 * in place (docs/coming-from-strapi.md, "Drafts and publishing"); the rest of the answer is compared.
 */
function withoutId<T extends { body: any }>(response: T): T {
  if (response.body?.data) delete response.body.data.id;
  return response;
}

test('a value another document holds: 400 naming the attribute, with its value', async () => {
  await diff.same(
    async (api) => [
      await api.post('/api/plains', { data: { name: 'du-1', code: 'DU-1', email: 'du-1@example.com' } }),
      await api.post('/api/plains', { data: { name: 'du-1b', code: 'DU-1' } }),
      await api.post('/api/plains', { data: { name: 'du-1c', code: 'DU-1', email: 'du-1@example.com' } }),
      await api.post('/api/plains', { data: { name: 'du-1d', email: 'DU-1@example.com' } }),
    ],
    UID_FILLED,
  );
});

test('empty text and null repeat freely', async () => {
  await diff.same(
    async (api) => [
      await api.post('/api/plains', { data: { name: 'du-2', code: '' } }),
      await api.post('/api/plains', { data: { name: 'du-2', code: '' } }),
      await api.post('/api/plains', { data: { name: 'du-2', code: null } }),
      await api.post('/api/plains', { data: { name: 'du-2', code: null } }),
    ],
    UID_FILLED,
  );
});

test('drafts may share a value; publishing the second is refused; another locale has its own', async () => {
  await diff.same(async (api) => {
    const first = await api.post('/api/items?status=draft', { data: { name: 'du-3a', code: 'DU-3' } });
    const second = await api.post('/api/items?status=draft', { data: { name: 'du-3b', code: 'DU-3' } });
    return [
      first,
      second,
      await api.put(`/api/items/${first.body.data.documentId}`, { data: { name: 'du-3a published' } }),
      await api.put(`/api/items/${second.body.data.documentId}`, { data: { name: 'du-3b published' } }),
      await api.get(`/api/items/${second.body.data.documentId}?status=draft`),
      await api.post('/api/items?locale=fr', { data: { name: 'du-3c', code: 'DU-3' } }),
      withoutId(await api.put(`/api/items/${first.body.data.documentId}`, { data: { name: 'du-3a again' } })),
    ];
  }, UID_FILLED);
});

test('integers and long text', async () => {
  const notes = `du-4 ${'x'.repeat(3000)}`;
  await diff.same(
    async (api) => [
      await api.post('/api/items', { data: { name: 'du-4a', sku: 4004, notes } }),
      await api.post('/api/items', { data: { name: 'du-4b', sku: 4004 } }),
      await api.post('/api/items', { data: { name: 'du-4c', notes } }),
      await api.post('/api/items', { data: { name: 'du-4d', notes: `${notes}y` } }),
    ],
    UID_FILLED,
  );
});

test('registering an email or username another user holds', async () => {
  // The first answer is not compared: Strapi's register also populates `user.role` (outside this
  // file's subject).
  await diff.same(
    async (api) => {
      await api.post('/api/auth/local/register', {
        username: 'du-5',
        email: 'du-5@example.com',
        password: 'secret123',
      });
      return [
        await api.post('/api/auth/local/register', {
          username: 'du-5b',
          email: 'DU-5@example.com',
          password: 'secret123',
        }),
        await api.post('/api/auth/local/register', {
          username: 'du-5',
          email: 'du-5c@example.com',
          password: 'secret123',
        }),
      ];
    },
    { messages: true },
  );
});
