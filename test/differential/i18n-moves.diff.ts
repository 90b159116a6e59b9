/**
 * i18n turned on and off between starts, side by side with Strapi 5.54 (test/fixtures/i18n-moves):
 * documents written with a type's i18n one way, the schema files edited on both sides, both
 * servers restarted on their databases, the same reads compared. Strapi moves the entries in its
 * core migration (`migrations/i18n.js`, run by the content-types sync at start); Vellum in
 * core/documents/localization-moves.ts (docs/configuration.md "Turning i18n on or off").
 * On demand: `npm run test:strapi -- i18n-moves`.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { HttpClient } from '../helpers/http.js';
import { fixture } from '../helpers/server.js';
import { diffName, openDifferential, type Answers, type Differential, type Side } from './harness.js';

let diff: Differential;
before(async () => {
  diff = await openDifferential({
    name: diffName(import.meta.filename),
    project: fixture('i18n-moves'),
    readyPath: '/api/articles',
    restartable: true,
  });
});
after(() => diff?.close());

type SchemaJson = { pluginOptions?: unknown; attributes: Record<string, Record<string, unknown>> };

/** Edits `<type>`'s schema.json in a project copy: i18n on (with every non-relation field) or off. */
const setLocalized = (type: string, on: boolean) => (project: string) => {
  const file = join(project, `src/api/${type}/content-types/${type}/schema.json`);
  const schema = JSON.parse(readFileSync(file, 'utf8')) as SchemaJson;
  if (on) schema.pluginOptions = { i18n: { localized: true } };
  else delete schema.pluginOptions;
  for (const attribute of Object.values(schema.attributes)) {
    if (attribute.type === 'relation') continue;
    if (on) attribute.pluginOptions = { i18n: { localized: true } };
    else delete attribute.pluginOptions;
  }
  writeFileSync(file, JSON.stringify(schema, null, 2));
};

const run = Date.now().toString(36);
const ids: Record<Side, Record<string, string>> = { strapi: {}, vellum: {} };

const created = async (answer: Promise<{ status: number; body: any }>) => {
  const { status, body } = await answer;
  if (status !== 200 && status !== 201) throw new Error(`${status}: ${JSON.stringify(body)}`);
  return body.data.documentId as string;
};

/** Everything the moves touch, read: both types in each locale, with their relations and components. */
const reads = async (api: HttpClient) => {
  const articles = (query: string) => api.get(`/api/articles?sort=title&populate=*&${query}`);
  const categories = (query: string) => api.get(`/api/categories?sort=name&populate=*&${query}`);
  // Every locale at once, without `localizations` (which Strapi 5.54 answers empty there, Vellum not).
  const all = (path: string, sort: string, populate: string[]) =>
    api.get(`/api/${path}?sort=${sort}&locale=*&${populate.map((p, i) => `populate[${i}]=${p}`).join('&')}`);
  return {
    articlesEn: await articles(''),
    articlesFr: await articles('locale=fr'),
    articleDraftsEn: await articles('status=draft'),
    articleDraftsFr: await articles('status=draft&locale=fr'),
    articlesAll: await all('articles', 'title', ['category', 'seo']),
    categoriesEn: await categories(''),
    categoriesFr: await categories('locale=fr'),
    categoriesAll: await all('categories', 'name', ['articles']),
  };
};

/** `name (locale)` of each listed entry, on both sides (the moves happened, not only alike). */
const listed = (answers: { strapi: Answers; vellum: Answers }, read: string, key: 'title' | 'name') =>
  (['strapi', 'vellum'] as const).map((side) =>
    ((answers[side] as Record<string, { body: { data: Record<string, unknown>[] } }>)[read]!.body.data ?? []).map(
      (entry) => `${String(entry[key]).replace(` ${run}`, '')} (${String(entry.locale ?? '-')})`,
    ),
  );

test('i18n on for a type, then off for both: the same entries, locales and links as Strapi', async () => {
  // Written with articles localized and categories not.
  await diff.same(async (api, side) => {
    const mine = ids[side];
    mine.food = await created(api.post('/api/categories', { data: { name: `Food ${run}` } }));
    mine.travel = await created(api.post('/api/categories', { data: { name: `Travel ${run}` } }));
    mine.both = await created(
      api.post('/api/articles?locale=en', {
        data: { title: `A both ${run}`, category: mine.food, seo: { metaTitle: `seo ${run}` } },
      }),
    );
    await api.put(`/api/articles/${mine.both}?locale=fr`, {
      data: { title: `A both (fr) ${run}`, category: mine.travel, seo: { metaTitle: `seo (fr) ${run}` } },
    });
    mine.frOnly = await created(
      api.post('/api/articles?locale=fr', { data: { title: `B fr only ${run}`, category: mine.food } }),
    );
    mine.draft = await created(
      api.post('/api/articles?locale=en&status=draft', { data: { title: `C draft ${run}`, category: mine.travel } }),
    );
    return reads(api);
  });

  await diff.restart(setLocalized('category', true));
  const on = await diff.same(async (api, side) => {
    const mine = ids[side];
    // A French version of a category that had none before.
    await api.put(`/api/categories/${mine.food}?locale=fr`, { data: { name: `Nourriture ${run}` } });
    return reads(api);
  });
  for (const names of listed(on, 'categoriesEn', 'name')) assert.deepEqual(names, ['Food (en)', 'Travel (en)']);
  for (const names of listed(on, 'categoriesFr', 'name')) assert.deepEqual(names, ['Nourriture (fr)']);

  await diff.restart(async (project) => {
    setLocalized('category', false)(project);
    setLocalized('article', false)(project);
  });
  const off = await diff.same(async (api) => reads(api));
  // The default locale's versions kept without a locale; the French-only article and category version gone.
  for (const titles of listed(off, 'articlesEn', 'title')) assert.deepEqual(titles, ['A both (-)']);
  for (const titles of listed(off, 'articleDraftsEn', 'title')) assert.deepEqual(titles, ['A both (-)', 'C draft (-)']);
  for (const names of listed(off, 'categoriesEn', 'name')) assert.deepEqual(names, ['Food (-)', 'Travel (-)']);
});
