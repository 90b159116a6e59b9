/**
 * Schemas Strapi 5.54 starts on, side by side: test/fixtures/strapi-odd-schemas, and `/_health`;
 * a project's `.env` and its own `config/` files: test/fixtures/strapi-startup.
 * On demand: `npm run test:strapi -- startup`. Pinned for Vellum alone in
 * test/strapi/strapi-projects.test.ts, test/api/health.test.ts and src/core/config/*.test.ts.
 */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { parseDotenv } from '../../src/core/config/dotenv.js';
import { fixture } from '../helpers/server.js';
import { diffName, openDifferential, type Differential } from './harness.js';

let diff: Differential;
before(async () => {
  diff = await openDifferential({
    name: diffName(import.meta.filename),
    project: fixture('strapi-odd-schemas'),
    readyPath: '/api/notes',
  });
});
after(() => diff?.close());

test('/_health: 204, no body, on any method', async () => {
  const { strapi, vellum } = await diff.same(async (api) =>
    Promise.all(['GET', 'HEAD', 'POST', 'PUT', 'DELETE'].map((method) => api.request(method, '/_health'))),
  );
  for (const answers of [strapi, vellum] as (typeof strapi)[]) {
    for (const answer of answers as { headers: Headers }[])
      assert.equal(answer.headers.get('strapi'), 'You are so French!');
  }
});

test('an attribute named status on a type without draft and publish', async () => {
  await diff.same(async (api) => [
    await api.post('/api/notes', { data: { title: 'ds-note-1', meta: { a: 1 }, _internal: 'x' } }),
    await api.post('/api/notes', { data: { title: 'ds-note-2', status: 'closed' } }),
    await api.post('/api/notes', { data: { title: 'ds-note-3', status: 'shut' } }),
    await api.get('/api/notes?filters[title][$startsWith]=ds-note&filters[status][$eq]=closed'),
    await api.get('/api/notes?filters[title][$startsWith]=ds-note&sort=status:desc&fields[0]=title&fields[1]=status'),
  ]);
});

test('an attribute named status on a type with draft and publish', async () => {
  await diff.same(async (api) => [
    await api.post('/api/tickets?status=draft', { data: { subject: 'ds-ticket-1', status: 'waiting' } }),
    await api.get('/api/tickets?filters[subject]=ds-ticket-1'),
    await api.get('/api/tickets?status=draft&filters[subject]=ds-ticket-1&filters[status]=waiting'),
  ]);
});

test('a type whose mappedBy names nothing on the other side', async () => {
  // Strapi answers 500 to every write of the type; Vellum leaves the attribute out.
  await diff.same(
    async (api) => [
      await api.post('/api/lefts', { data: { name: 'ds-left-1' } }),
      await api.get('/api/lefts?filters[name]=ds-left-1'),
    ],
    {
      deliberate:
        'Strapi cannot write a type with a dangling mappedBy (500); Vellum leaves the attribute out and says so',
    },
  );
});

test('relations to admin::user, plugin::i18n.locale and morph relations', async () => {
  await diff.same(
    async (api) => {
      const created = await api.post('/api/memos', {
        data: { title: 'ds-memo-1', bits: [{ label: 'b', locale: 'fr' }] },
      });
      return [created, await api.get(`/api/memos/${created.body.data.documentId}?populate=*`)];
    },
    { deliberate: 'Strapi populates them (null, []); Vellum leaves them out and says so at start-up' },
  );
});

test('loose options: an enum default outside its values, a bad regex, numbers as strings', async () => {
  await diff.same(
    async (api) => [
      await api.post('/api/gadgets', { data: { name: 'ds-gadget-1', size: 'small', level: 3 } }),
      await api.post('/api/gadgets', { data: { name: 'ds-gadget-2', size: 'small', level: 11 } }),
    ],
    {
      deliberate:
        'Strapi applies the invalid default and 500s on the bad regex for every write; Vellum ignores both with a warning',
    },
  );
});

test('project types named user, file and role', async () => {
  await diff.same(async (api) => [
    ...(await Promise.all(
      ['users', 'files', 'roles'].map((plural) => api.post(`/api/${plural}`, { data: { name: `ds-${plural}-1` } })),
    )),
    await api.get('/api/users?filters[name]=ds-users-1'),
    await api.get('/api/files?filters[name]=ds-files-1'),
    await api.get('/api/roles?filters[name]=ds-roles-1'),
    await api.get('/api/users/count'),
  ]);
});

describe(".env and the project's own config/ files", () => {
  let config: Differential;
  before(async () => {
    // STARTUP_BOTH and STARTUP_EMPTY are in the fixture's .env too: the environment's values win.
    config = await openDifferential({
      name: `${diffName(import.meta.filename)}-config`,
      project: fixture('strapi-startup'),
      readyPath: '/api/startup-probe/config',
      env: { STARTUP_BOTH: 'from the environment', STARTUP_EMPTY: '' },
    });
  });
  after(() => config?.close());

  test(".env is read before the configuration, the environment wins; config/custom.js is strapi.config.get('custom')", async () => {
    const { vellum } = await config.same(async (api) => [await api.get('/api/startup-probe/config')]);
    assert.equal((vellum as { body: { custom: { both: string } } }[])[0]!.body.custom.both, 'from the environment');
  });

  test("Vellum's .env parser answers what Strapi's dotenv answers, on generated files", () => {
    const dotenv = createRequire(join(process.env.STRAPI_DIR ?? join(homedir(), 'strapi-reference'), 'package.json'))(
      'dotenv',
    ) as { parse(text: string): Record<string, string> };
    const pieces = [
      'A',
      'B_1',
      'x.y',
      'k-z',
      '=',
      ' = ',
      ': ',
      ':',
      ' ',
      '\t',
      '\n',
      '\r\n',
      '\r',
      '#',
      ' # c',
      '"',
      "'",
      '`',
      '\\"',
      '\\n',
      '\\',
      'export ',
      'v',
      'a b',
      '$X',
      '{',
      '}',
      ',',
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 30 }), (parts) => {
        const text = parts.join('');
        assert.deepEqual(parseDotenv(text), dotenv.parse(text), JSON.stringify(text));
      }),
      { numRuns: 20_000 },
    );
  });
});
