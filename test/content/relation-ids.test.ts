/**
 * Relation values that name entries by their numeric `id`, in every form of docs/rest.md "Relations in request bodies", as Strapi
 * 5.54 accepts them (observed on the real server): a number, a string of digits, `{id}`, arrays
 * of them mixed with documentIds, in `set`, `connect` (with positions before/after an id) and
 * `disconnect`. An id stands for its entry's document in that entry's locale; Vellum links the
 * document, so a draft and a published id both link the draft and the published version (Strapi
 * links the one row: a draft given a published id shows nothing). Unknown ids: 400 in set and
 * connect, nothing in disconnect. Between localized types the writing document's locale is linked,
 * whatever the id's or the ref's locale (Strapi's rule).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, fixture, startServer, type TestServer } from '../helpers/server.js';

interface Entry {
  documentId: string;
  name: string;
  /** Row ids of the published and draft versions. */
  published: number;
  draft: number;
}

for (const dialect of DIALECTS) {
  describe(`relations by numeric id, as Strapi 5 [${dialect}]`, () => {
    let server: TestServer;
    let a: Entry;
    let b: Entry;
    let c: Entry;
    const unique = (label: string) => `${label}-${randomUUID().slice(0, 8)}`;
    const target = async (label: string): Promise<Entry> => {
      const created = await server.api.post('/api/targets', { data: { name: unique(label) } });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const { documentId, name, id } = created.body.data;
      const draft = await server.api.get(`/api/targets/${documentId}?status=draft`);
      return { documentId, name, published: id, draft: draft.body.data.id };
    };
    before(async () => {
      server = await startServer(dialect, { project: fixture('relation-matrix') });
      [a, b, c] = [await target('a'), await target('b'), await target('c')];
      assert.notEqual(a.published, a.draft);
    });
    after(() => server?.close());

    const names = (value: any) => (value == null ? null : Array.isArray(value) ? value.map((v) => v.name) : value.name);
    /** A new owner with `data`; what `attribute` holds in its draft and published versions. */
    const owner = async (attribute: string, value: unknown, query = '') => {
      const res = await server.api.post(`/api/owners${query}`, { data: { name: unique('owner'), [attribute]: value } });
      return { res, documentId: res.body.data?.documentId as string };
    };
    const held = async (documentId: string, attribute: string) => {
      const draft = await server.api.get(`/api/owners/${documentId}?status=draft&populate=${attribute}`);
      const published = await server.api.get(`/api/owners/${documentId}?populate=${attribute}`);
      return {
        draft: names(draft.body.data[attribute]),
        published: published.status === 404 ? 'none' : names(published.body.data[attribute]),
      };
    };
    const both = (value: unknown) => ({ draft: value, published: value });

    it('a to-one relation takes a number, a string of digits, {id} or [id]; draft and published ids alike', async () => {
      for (const value of [
        a.published,
        a.draft,
        String(a.published),
        { id: a.published },
        { id: String(a.draft) },
        [a.published],
      ]) {
        const { res, documentId } = await owner('manyToOneUni', value);
        assert.equal(res.status, 201, `${JSON.stringify(value)}: ${JSON.stringify(res.body)}`);
        assert.deepEqual(await held(documentId, 'manyToOneUni'), both(a.name), JSON.stringify(value));
      }
    });

    it('a to-many relation takes arrays of ids, {id} and documentIds mixed, in order', async () => {
      for (const value of [
        [b.published, a.draft],
        [{ id: b.draft }, { id: a.published }],
        [b.published, a.documentId],
        [{ id: b.published }, { documentId: a.documentId }],
      ]) {
        const { res, documentId } = await owner('manyToManyUni', value);
        assert.equal(res.status, 201, `${JSON.stringify(value)}: ${JSON.stringify(res.body)}`);
        assert.deepEqual(await held(documentId, 'manyToManyUni'), both([b.name, a.name]), JSON.stringify(value));
      }
    });

    it('set, connect and disconnect take ids; positions may name ids', async () => {
      const { documentId } = await owner('manyToManyUni', { connect: [a.published, { id: b.draft }] });
      assert.deepEqual(await held(documentId, 'manyToManyUni'), both([a.name, b.name]));
      const put = async (value: unknown) => {
        const res = await server.api.put(`/api/owners/${documentId}`, { data: { manyToManyUni: value } });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        return held(documentId, 'manyToManyUni');
      };
      assert.deepEqual(
        await put({ connect: [{ id: c.published, position: { before: a.published } }] }),
        both([c.name, a.name, b.name]),
      );
      assert.deepEqual(
        await put({ connect: [{ id: c.draft, position: { after: String(b.draft) } }] }),
        both([a.name, b.name, c.name]),
      );
      assert.deepEqual(
        await put({ connect: [{ documentId: c.documentId, position: { before: a.draft } }] }),
        both([c.name, a.name, b.name]),
      );
      assert.deepEqual(await put({ disconnect: [a.published, { id: b.draft }] }), both([c.name]));
      assert.deepEqual(await put({ set: [b.published, { id: a.draft }] }), both([b.name, a.name]));
      assert.deepEqual(
        await put({ disconnect: [999999999] }),
        both([b.name, a.name]),
        'an unknown id disconnects nothing',
      );
    });

    it('a documentId given with an id wins, as in Strapi', async () => {
      const { res, documentId } = await owner('manyToOneUni', { id: a.published, documentId: b.documentId });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.deepEqual(await held(documentId, 'manyToOneUni'), both(b.name));
    });

    it('a draft write by id links the draft only; the id names the document, not its version', async () => {
      const { res, documentId } = await owner('manyToOneUni', a.published, '?status=draft');
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.deepEqual(await held(documentId, 'manyToOneUni'), { draft: a.name, published: 'none' });
    });

    it('an unknown id in set or connect is a 400 naming it, and nothing is written', async () => {
      for (const [value, path] of [
        [999999999, ['manyToOneUni', 'set', 0]],
        [{ connect: [a.published, { id: 999999999 }] }, ['manyToOneUni', 'connect', 1]],
        [
          { connect: [{ id: a.published, position: { before: 999999999 } }] },
          ['manyToOneUni', 'connect', 0, 'position'],
        ],
      ] as const) {
        const name = unique('refused');
        const res = await server.api.post('/api/owners', { data: { name, manyToOneUni: value } });
        assert.equal(res.status, 400, JSON.stringify(res.body));
        assert.equal(res.body.error.name, 'ValidationError');
        assert.deepEqual(res.body.error.details.errors[0].path, path);
        const listed = await server.api.get(`/api/owners?status=draft&filters[name][$eq]=${name}`);
        assert.equal(listed.body.data.length, 0);
      }
    });

    it('zero, negative and fractional ids are 400s', async () => {
      for (const value of [0, -1, 1.5, { id: 0 }, [{ id: -3 }], '1.5']) {
        const res = await server.api.post('/api/owners', { data: { name: unique('bad'), manyToOneUni: value } });
        assert.equal(res.status, 400, `${JSON.stringify(value)}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.error.name, 'ValidationError');
      }
    });

    it('ids work from the inverse side, inside components, and take a target from its owner where the relation says so', async () => {
      const o = await owner('name', unique('inverse'));
      const ownerDraftId = (await server.api.get(`/api/owners/${o.documentId}?status=draft`)).body.data.id;
      const t = await target('t');
      assert.equal(
        (await server.api.put(`/api/targets/${t.documentId}`, { data: { oneToManyInv: [ownerDraftId] } })).status,
        200,
      );
      assert.deepEqual(await held(o.documentId, 'manyToOneBi'), both(t.name));

      const withBlock = await server.api.post('/api/owners', {
        data: { name: unique('block'), block: { manyToOne: a.draft, manyToMany: [b.published, { id: c.draft }] } },
      });
      assert.equal(withBlock.status, 201, JSON.stringify(withBlock.body));
      const block = (await server.api.get(`/api/owners/${withBlock.body.data.documentId}?populate[block][populate]=*`))
        .body.data.block;
      assert.deepEqual([names(block.manyToOne), names(block.manyToMany)], [a.name, [b.name, c.name]]);

      // Publishing makes a new published row (as in Strapi): its id changed with the PUT above.
      const published = (await server.api.get(`/api/targets/${t.documentId}`)).body.data.id;
      const first = await owner('oneToOneBi', t.documentId);
      const second = await owner('oneToOneBi', published);
      assert.equal(second.res.status, 201, JSON.stringify(second.res.body));
      assert.deepEqual(await held(first.documentId, 'oneToOneBi'), both(null));
      assert.deepEqual(await held(second.documentId, 'oneToOneBi'), both(t.name));
    });

    it("localized targets: an id names its row's locale, also between localized types; a documentId there names the writing locale", async () => {
      const en = await server.api.post('/api/labels', { data: { name: unique('en') } });
      const fr = await server.api.put(`/api/labels/${en.body.data.documentId}?locale=fr`, {
        data: { name: unique('fr') },
      });
      const [enId, frId] = [en.body.data.id, fr.body.data.id];
      const labels = async (plural: string, documentId: string, locale?: string) =>
        (
          await server.api.get(`/api/${plural}/${documentId}?populate=labels${locale ? `&locale=${locale}` : ''}`)
        ).body.data.labels.map((l: any) => l.locale);

      const o = await owner('labels', [frId, enId]);
      assert.deepEqual(
        await labels('owners', o.documentId),
        ['fr', 'en'],
        'a type without i18n links the locale each id names',
      );

      // By documentId, the writing locale; by id, that row's locale in the draft, and the writing
      // locale once published: Strapi links the row, then its publish re-resolves every relation
      // by document in the page's locale (checked on 5.54).
      const drafts = async (documentId: string) =>
        (await server.api.get(`/api/pages/${documentId}?populate=labels&locale=fr&status=draft`)).body.data.labels.map(
          (l: any) => l.locale,
        );
      for (const [value, draft, published] of [
        [[enId], 'en', 'fr'],
        [{ connect: [{ id: enId, position: { start: true } }] }, 'en', 'fr'],
        [[{ documentId: en.body.data.documentId }], 'fr', 'fr'],
        [[{ documentId: en.body.data.documentId, locale: 'en' }], 'fr', 'fr'],
      ] as const) {
        const page = await server.api.post('/api/pages?locale=fr', { data: { title: unique('page'), labels: value } });
        assert.equal(page.status, 201, JSON.stringify(page.body));
        assert.deepEqual(await labels('pages', page.body.data.documentId, 'fr'), [published], JSON.stringify(value));
        assert.deepEqual(await drafts(page.body.data.documentId), [draft], JSON.stringify(value));
      }
      const enOnly = await server.api.post('/api/labels', { data: { name: unique('en only') } });
      const refused = await server.api.post('/api/pages?locale=fr', {
        data: { title: unique('page'), labels: [enOnly.body.data.documentId] },
      });
      assert.equal(refused.status, 400, 'the label has no fr version');

      // From the inverse side: a fr label lists the fr version of a page.
      const page = await server.api.post('/api/pages', { data: { title: unique('page en') } });
      await server.api.put(`/api/pages/${page.body.data.documentId}?locale=fr`, { data: { title: unique('page fr') } });
      await server.api.put(`/api/labels/${en.body.data.documentId}?locale=fr`, {
        data: { pages: [page.body.data.documentId] },
      });
      assert.deepEqual(await labels('pages', page.body.data.documentId, 'fr'), ['fr']);
      assert.deepEqual(await labels('pages', page.body.data.documentId, 'en'), []);
    });

    it('the v4 request format takes ids too', async () => {
      const res = await server.api.post(
        '/api/owners',
        { data: { name: unique('v4'), manyToManyUni: [a.published, b.published] } },
        { headers: { 'strapi-response-format': 'v4' } },
      );
      assert.equal(res.status, 201, JSON.stringify(res.body));
      const documentId =
        res.body.data.attributes?.documentId ??
        res.body.data.documentId ??
        (await server.api.get(`/api/owners?filters[id][$eq]=${res.body.data.id}`)).body.data[0].documentId;
      assert.deepEqual(await held(documentId, 'manyToManyUni'), both([a.name, b.name]));
    });
  });
}
