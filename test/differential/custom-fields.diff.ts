/**
 * Custom fields side by side with Strapi 5.54 (test/fixtures/custom-fields-global: two custom
 * fields the project's register declares without a plugin): stored, validated, filtered and
 * answered as the registered type. A plugin's custom field needs the plugin installed in Strapi,
 * and an unregistered one stops Strapi at start-up: those are pinned for Vellum alone in
 * test/strapi/project-internals.test.ts. On demand: `npm run test:strapi -- custom-fields`.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Response } from '../helpers/http.js';
import { fixture } from '../helpers/server.js';
import { diffName, openDifferential, type Differential } from './harness.js';

let diff: Differential;
before(async () => {
  diff = await openDifferential({
    name: diffName(import.meta.filename),
    project: fixture('custom-fields-global'),
    readyPath: '/api/gauges',
  });
});
after(() => diff?.close());

test('custom fields are stored, validated and filtered as their registered types', async () => {
  await diff.same(async (api) => [
    await api.post('/api/gauges', { data: { name: 'diff gauge', rating: 4, code: 'ABC' } }),
    await api.post('/api/gauges', { data: { name: 'diff gauge bad', rating: 9 } }),
    await api.post('/api/gauges', { data: { name: 'diff gauge bad', code: 'abcd' } }),
    await api.post('/api/gauges', { data: { name: 'diff gauge bad', code: { x: 1 } } }),
    await api.get('/api/gauges?filters[name][$startsWith]=diff gauge&filters[rating][$gte]=3&sort=rating:desc'),
  ]);
});

test('a text for an integer custom field: 400 ValidationError on both', async () => {
  // Strapi's details carry value null (its number cast gives NaN), Vellum's the value sent: the
  // same for a plain integer attribute, so compared here by status and name only.
  const { strapi, vellum } = await diff.both(async (api) =>
    api.post('/api/gauges', { data: { name: 'diff gauge text', rating: 'four' } }),
  );
  for (const answer of [strapi, vellum] as Response[]) {
    assert.equal(answer.status, 400);
    assert.equal(answer.body.error.name, 'ValidationError');
    assert.deepEqual(
      answer.body.error.details.errors.map((error: { path: string[] }) => error.path),
      [['rating']],
    );
  }
});
