/**
 * Localizations of one document share their non-localized attributes, as in Strapi 5.54 (observed
 * on the real server with test/fixtures/relation-matrix): a new locale needs only the localized
 * attributes and takes the others (scalars, media, components, zones) from the document's other
 * locales; attributes without an i18n option are shared; relations always belong to one locale,
 * even when their schema says `localized: false` (Strapi ignores it). Shared values written in one
 * locale reach every other locale's draft, and their published versions when published.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { insertFile } from '../helpers/files.js';
import { DIALECTS, fixture, startServer, type TestServer } from '../helpers/server.js';

const PAGE_POPULATE =
  'populate[hero]=true&populate[target]=true&populate[labels]=true&populate[links][populate]=*&populate[sections][on][matrix.links][populate]=*&populate[sections][on][matrix.nested][populate]=*&populate[body][populate]=*';

/** What a page holds, names instead of ids. */
const summary = (page: any) => ({
  title: page.title,
  code: page.code,
  note: page.note,
  hero: page.hero?.name ?? null,
  target: page.target?.name ?? null,
  labels: page.labels.map((l: any) => l.name),
  links: page.links && { caption: page.links.caption, oneWay: page.links.oneWay?.name ?? null },
  sections: page.sections.map((s: any) => s.caption ?? s.heading),
  body: page.body.map((s: any) => s.caption),
});

for (const dialect of DIALECTS) {
  describe(`translations share their non-localized attributes, as Strapi 5 [${dialect}]`, () => {
    let server: TestServer;
    let files: number[];
    before(async () => {
      server = await startServer(dialect, { project: fixture('relation-matrix') });
      files = [await insertFile(server, 'one.png'), await insertFile(server, 'two.png')];
    });
    after(() => server?.close());

    const unique = (label: string) => `${label}-${randomUUID().slice(0, 8)}`;
    const create = async (plural: string, data: Record<string, unknown>, query = '') => {
      const res = await server.api.post(`/api/${plural}${query}`, { data });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body.data as { documentId: string; name: string };
    };
    const put = async (plural: string, documentId: string, query: string, data: Record<string, unknown>) => {
      const res = await server.api.put(`/api/${plural}/${documentId}?${query}`, { data });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.data;
    };
    const page = async (documentId: string, query: string) => {
      const res = await server.api.get(`/api/pages/${documentId}?${query}&${PAGE_POPULATE}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return summary(res.body.data);
    };
    const fullPage = async () => {
      const t = await create('targets', { name: unique('t') });
      const label = await create('labels', { name: unique('label') });
      const en = await create('pages', {
        title: 'en title',
        code: 'c1',
        note: 'n1',
        hero: files[0],
        target: t.documentId,
        labels: [label.documentId],
        links: { caption: 'cap', oneWay: t.documentId },
        sections: [
          { __component: 'matrix.links', caption: 'sec' },
          { __component: 'matrix.nested', heading: 'nested' },
        ],
        body: [{ __component: 'matrix.links', caption: 'body en' }],
      });
      return { id: en.documentId, t };
    };

    it('PUT ?locale=fr creating a localization needs only the localized attributes: the shared ones come from the other locale', async () => {
      const { id, t } = await fullPage();
      const answer = await put('pages', id, 'locale=fr', { title: 'fr title' });
      assert.equal(answer.code, 'c1');
      const expected = {
        title: 'fr title',
        code: 'c1',
        note: 'n1',
        hero: 'one.png',
        target: null,
        labels: [],
        links: { caption: 'cap', oneWay: t.name },
        sections: ['sec', 'nested'],
        body: [],
      };
      assert.deepEqual(await page(id, 'locale=fr'), expected);
      assert.deepEqual(await page(id, 'locale=fr&status=draft'), expected);
      assert.equal((await page(id, 'locale=en')).target, t.name, 'the en relation is untouched');
    });

    it('a new locale may leave out required shared attributes, or send them as null: they are taken from the others', async () => {
      const base = {
        code: 'G1',
        cover: files[0],
        block: { caption: 'b' },
        steps: [{ __component: 'matrix.links', caption: 's1' }],
      };
      const guide = await create('guides', { title: 'g en', ...base });
      assert.equal((await put('guides', guide.documentId, 'locale=fr', { title: 'g fr' })).code, 'G1');
      const other = await create('guides', { title: 'g2 en', ...base });
      await put('guides', other.documentId, 'locale=fr', {
        title: 'g2 fr',
        code: null,
        cover: null,
        block: null,
        steps: null,
      });
      for (const [documentId, locale] of [
        [guide.documentId, 'fr'],
        [other.documentId, 'fr'],
        [other.documentId, 'en'],
      ]) {
        const res = await server.api.get(`/api/guides/${documentId}?locale=${locale}&populate=*`);
        const data = res.body.data;
        assert.deepEqual(
          [data.code, data.cover?.name, data.block?.caption, data.steps.map((s: any) => s.caption)],
          ['G1', 'one.png', 'b', ['s1']],
        );
      }
      // A new document has nothing to inherit: its required attributes are required.
      const fresh = await server.api.post('/api/guides?locale=fr', { data: { title: 'only fr' } });
      assert.equal(fresh.status, 400);
      // An existing locale cannot clear a required shared attribute.
      assert.equal(
        (await server.api.put(`/api/guides/${guide.documentId}?locale=en`, { data: { code: null } })).status,
        400,
      );
    });

    it('a new locale given shared values keeps them and gives them to the other locales', async () => {
      const { id, t } = await fullPage();
      const t2 = await create('targets', { name: unique('t2') });
      await put('pages', id, 'locale=fr', {
        title: 'fr',
        code: 'c2',
        hero: files[1],
        target: t2.documentId,
        links: { caption: 'fr cap' },
      });
      const en = await page(id, 'locale=en');
      const fr = await page(id, 'locale=fr');
      assert.deepEqual([en.code, en.hero, en.links], ['c2', 'two.png', { caption: 'fr cap', oneWay: null }]);
      assert.deepEqual(
        [fr.code, fr.hero, fr.links, fr.sections],
        ['c2', 'two.png', { caption: 'fr cap', oneWay: null }, ['sec', 'nested']],
      );
      assert.deepEqual([en.target, fr.target], [t.name, t2.name], 'relations stay per locale');
    });

    it('shared scalars, media, components and zones reach the other locales: drafts always, published versions when published', async () => {
      const { id } = await fullPage();
      await put('pages', id, 'locale=fr', { title: 'fr' });
      const shared = {
        code: 'c2',
        note: 'n2',
        hero: files[1],
        links: { caption: 'cap2' },
        sections: [{ __component: 'matrix.links', caption: 'sec2' }],
      };
      await put('pages', id, 'locale=en', shared);
      const after = {
        code: 'c2',
        note: 'n2',
        hero: 'two.png',
        links: { caption: 'cap2', oneWay: null },
        sections: ['sec2'],
      };
      const pick = (p: ReturnType<typeof summary>) => ({
        code: p.code,
        note: p.note,
        hero: p.hero,
        links: p.links,
        sections: p.sections,
      });
      for (const query of ['locale=fr', 'locale=fr&status=draft'])
        assert.deepEqual(pick(await page(id, query)), after, query);

      // A draft write reaches the other drafts only ...
      await put('pages', id, 'locale=fr&status=draft', {
        code: 'c3',
        hero: files[0],
        links: { caption: 'cap3' },
        sections: [],
      });
      const draft = { code: 'c3', note: 'n2', hero: 'one.png', links: { caption: 'cap3', oneWay: null }, sections: [] };
      assert.deepEqual(pick(await page(id, 'locale=en&status=draft')), draft);
      assert.deepEqual(pick(await page(id, 'locale=en')), after);
      // ... until that locale is published: every published version takes its shared values.
      assert.equal((await server.api.post(`/api/pages/${id}/actions/publish?locale=fr`)).status, 200);
      assert.deepEqual(pick(await page(id, 'locale=en')), draft);
      assert.deepEqual((await page(id, 'locale=en')).title, 'en title', 'localized attributes stay per locale');
    });

    it('discarding a locale draft gives the other drafts its published shared values back', async () => {
      const { id } = await fullPage();
      await put('pages', id, 'locale=fr', { title: 'fr' });
      await put('pages', id, 'locale=en&status=draft', { code: 'draft code', links: { caption: 'draft cap' } });
      assert.equal((await page(id, 'locale=fr&status=draft')).code, 'draft code');
      assert.equal((await server.api.post(`/api/pages/${id}/actions/discard-draft?locale=en`)).status, 200);
      for (const query of ['locale=fr&status=draft', 'locale=en&status=draft']) {
        const p = await page(id, query);
        assert.deepEqual([p.code, p.links?.caption], ['c1', 'cap'], query);
      }
    });

    it('relations belong to one locale, even when the schema says localized: false (as Strapi)', async () => {
      const { id, t } = await fullPage();
      const [t2, t3] = [
        await create('targets', { name: unique('t2') }),
        await create('targets', { name: unique('t3') }),
      ];
      await put('pages', id, 'locale=fr', { title: 'fr', target: t2.documentId });
      await put('pages', id, 'locale=en', { target: t3.documentId });
      assert.equal((await page(id, 'locale=fr')).target, t2.name);
      assert.equal((await page(id, 'locale=fr&status=draft')).target, t2.name);
      assert.equal((await page(id, 'locale=en')).target, t3.name);
      assert.notEqual(t.name, t3.name);
    });

    it('an attribute without i18n options is shared by the locales (Strapi: localized only when it says so)', async () => {
      const en = await create('pages', { title: 'en', note: 'shared note' });
      assert.equal((await put('pages', en.documentId, 'locale=fr', { title: 'fr' })).note, 'shared note');
      await put('pages', en.documentId, 'locale=fr', { note: 'changed in fr' });
      assert.equal((await page(en.documentId, 'locale=en')).note, 'changed in fr');
    });
  });
}
