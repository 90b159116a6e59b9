/**
 * The content manager's models and draft relations at Strapi 5.54's paths (docs/admin-panel.md),
 * on the relation-matrix fixture, as test/differential/content-manager-models.diff.ts found
 * Strapi answering: `GET /content-manager/init`, `/content-types` (`?kind=`), `/components` to
 * any administrator; `countManyEntriesDraftRelations` counting the drafts' links to unpublished
 * documents, directly, in components and in zones, per locale. On every dialect. The models are
 * compared with Strapi's own answer, kept as it was (./content-manager-models.strapi.ts).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ok, type HttpClient } from '../helpers/http.js';
import { createRole, inviteAdmin, registerFirstAdmin } from '../helpers/admins.js';
import { DIALECTS, fixture, startServer, type TestServer } from '../helpers/server.js';
import { ownerLinkingEverywhere } from '../helpers/relation-matrix.js';
import { unique } from '../helpers/unique.js';
import { FIELD_SIZES, HIDDEN, LINKS, NESTED, OWNER, SHOWN } from './content-manager-models.strapi.js';

const CM = '/content-manager/collection-types';
const count = (uid: string) => `${CM}/${uid}/actions/countManyEntriesDraftRelations`;
const OWNERS = count('api::owner.owner');
type Item = Record<string, any>;

/** Relations Strapi 5.54 refuses in a schema: its copy of the project has none, Vellum lists them. */
const STRAPI_UNKNOWN = new Set(['oneWay', 'manyWay']);
const withoutStrapiUnknown = (model: Item): Item => ({
  ...model,
  attributes: Object.fromEntries(Object.entries(model.attributes).filter(([name]) => !STRAPI_UNKNOWN.has(name))),
});
/** `model` is Strapi's, its attributes in Strapi's order too. */
function assertStrapis(model: Item, strapis: Item): void {
  const compared = withoutStrapiUnknown(model);
  assert.deepEqual(compared, strapis);
  assert.deepEqual(Object.keys(compared.attributes), Object.keys(strapis.attributes));
}

for (const dialect of DIALECTS) {
  describe(`the content manager's models and draft relations [${dialect}]`, () => {
    let server: TestServer;
    let root: HttpClient;
    let nobody: HttpClient;

    before(async () => {
      server = await startServer(dialect, { project: fixture('relation-matrix') });
      root = (await registerFirstAdmin(server)).client;
      // An administrator whose role grants nothing.
      const role = await createRole(root, unique('Nobody'), []);
      const who = { email: 'nobody@example.com', firstname: 'No', password: 'Passw0rd-Nobody' };
      nobody = (await inviteAdmin(server, root, [role], who)).client;
    });
    after(() => server?.close());

    it('answers init with the field sizes and the models as Strapi 5.54 answered them', async () => {
      const { data } = await ok(root.get('/content-manager/init'));
      assert.deepEqual(data.fieldSizes, FIELD_SIZES);
      const types = new Map<string, Item>(data.contentTypes.map((type: Item) => [type.uid, type]));
      const shown = data.contentTypes.filter((type: Item) => type.isDisplayed).map((type: Item) => type.uid);
      assert.deepEqual(shown.sort(), SHOWN);
      // Strapi lists more hidden types (its admin's and plugins' internal ones); Vellum's are among them.
      for (const type of data.contentTypes) if (!type.isDisplayed) assert.ok(HIDDEN.includes(type.uid), type.uid);
      assertStrapis(types.get('api::owner.owner')!, OWNER);
      // Vellum's own, listed as Strapi lists the relations it knows.
      assert.deepEqual(types.get('api::owner.owner')!.attributes.manyWay, {
        type: 'relation',
        relation: 'manyWay',
        target: 'api::target.target',
        targetModel: 'api::target.target',
        relationType: 'manyWay',
      });
      // A localized type (Strapi's answer too): its options, a shared field, no locale or publishedAt listed.
      const page = types.get('api::page.page')!;
      assert.deepEqual(page.pluginOptions, { i18n: { localized: true } });
      assert.deepEqual(page.attributes.code, { type: 'string', pluginOptions: { i18n: { localized: false } } });
      assert.equal(page.attributes.locale, undefined);
      assert.equal(page.attributes.publishedAt, undefined);
      const components = new Map<string, Item>(data.components.map((component: Item) => [component.uid, component]));
      assert.deepEqual([...components.keys()].sort(), ['matrix.links', 'matrix.nested']);
      assertStrapis(components.get('matrix.links')!, LINKS);
      assertStrapis(components.get('matrix.nested')!, NESTED);
      // Any administrator, whatever their role: the same answer. None: a 401.
      assert.deepEqual(await ok(nobody.get('/content-manager/init')), { data });
      assert.equal((await server.publicApi.get('/content-manager/init')).status, 401);
    });

    it('lists the content-types by kind and the components, as init does', async () => {
      const init = (await ok(root.get('/content-manager/init'))).data;
      assert.deepEqual((await ok(root.get('/content-manager/content-types'))).data, init.contentTypes);
      assert.deepEqual(
        (await ok(nobody.get('/content-manager/content-types?kind=collectionType'))).data,
        init.contentTypes,
      );
      assert.deepEqual((await ok(root.get('/content-manager/content-types?kind=singleType'))).data, []);
      assert.deepEqual((await ok(root.get('/content-manager/components'))).data, init.components);
      const bad = await root.get('/content-manager/content-types?kind=nope');
      assert.equal(bad.status, 400);
      assert.equal(bad.body.error.message, 'Invalid option: expected one of "singleType"|"collectionType"');
      assert.equal((await server.publicApi.get('/content-manager/components')).status, 401);
    });

    it('counts the drafts’ links to unpublished documents, as Strapi before a bulk publish', async () => {
      const name = unique('dr');
      const d1 = (await ok(server.api.post('/api/targets?status=draft', { data: { name: `${name}-1` } }), 201)).data
        .documentId;
      const d2 = (await ok(server.api.post('/api/targets', { data: { name: `${name}-2` } }), 201)).data.documentId;
      const created = async (body: Item, status = 'draft') =>
        (await ok(server.api.post(`/api/owners?status=${status}`, { data: { name, ...body } }), 201)).data
          .documentId as string;
      // 15 links to the draft-only target: on the owner, in its components and in its zone.
      const o1 = await created(ownerLinkingEverywhere(name, d1, d2));
      const o2 = await created({ manyToManyBi: [d1], oneToManyBi: [d1] }, 'published');
      const o3 = await created({});
      const answer = async (path: string) => (await ok(root.get(path))).data;
      assert.equal(await answer(`${OWNERS}?documentIds[0]=${o1}`), 15);
      assert.equal(await answer(`${OWNERS}?documentIds[]=${o1}`), 15);
      assert.equal(await answer(`${OWNERS}?documentIds=${o1}`), 15);
      assert.equal(await answer(`${OWNERS}?documentIds[0]=${o1}&documentIds[1]=${o2}`), 17);
      assert.equal(await answer(`${OWNERS}?documentIds[0]=${o2}&documentIds[1]=${o2}`), 2);
      assert.equal(await answer(`${OWNERS}?documentIds[0]=${o3}&documentIds[1]=nope`), 0);
      assert.equal(await answer(`${OWNERS}?documentIds[0]=${o1}&locale=fr`), 15);
      // The other side of the bidirectional relations: the draft owner's oneToOne and manyToMany.
      assert.equal(await answer(`${count('api::target.target')}?documentIds[0]=${d1}`), 2);
      // The target published: nothing left to warn about.
      await ok(root.post(`${CM}/api::target.target/${d1}/actions/publish`, {}));
      assert.equal(await answer(`${OWNERS}?documentIds[0]=${o1}&documentIds[1]=${o2}`), 0);

      // A localized type: the locale asked (the default one when none).
      const draftTarget = (await ok(server.api.post('/api/targets?status=draft', { data: { name } }), 201)).data
        .documentId;
      const page = (
        await ok(
          server.api.post('/api/pages?status=draft&locale=fr', { data: { title: name, target: draftTarget } }),
          201,
        )
      ).data.documentId;
      assert.equal(await answer(`${count('api::page.page')}?documentIds[0]=${page}&locale=fr`), 1);
      assert.equal(await answer(`${count('api::page.page')}?documentIds[0]=${page}`), 0);

      // Refusals, as Strapi's: none of them exists (404), no type or no permission (403), no administrator (401).
      for (const path of [`${OWNERS}?documentIds[0]=nope`, OWNERS, `${count('api::badge.badge')}?documentIds[0]=x`]) {
        const missing = await root.get(path);
        assert.equal(missing.status, 404, path);
        assert.equal(missing.body.error.name, 'NotFoundError');
      }
      for (const [client, path] of [
        [root, `${count('api::nope.nope')}?documentIds[0]=x`],
        [root, `${count('plugin::upload.file')}?documentIds[0]=x`],
        [nobody, `${OWNERS}?documentIds[0]=${o1}`],
      ] as const) {
        const refused = await client.get(path);
        assert.equal(refused.status, 403, path);
        assert.equal(refused.body.error.name, 'PolicyError');
      }
      assert.equal((await server.publicApi.get(`${OWNERS}?documentIds[0]=${o1}`)).status, 401);
    });

    it('counts one draft’s links to unpublished documents, bidirectional manyToMany apart, as Strapi before a publication', async () => {
      const name = unique('one');
      const d1 = (await ok(server.api.post('/api/targets?status=draft', { data: { name: `${name}-1` } }), 201)).data
        .documentId;
      const d2 = (await ok(server.api.post('/api/targets', { data: { name: `${name}-2` } }), 201)).data.documentId;
      const created = async (uid: string, body: Item, query = '?status=draft') =>
        (await ok(server.api.post(`/api/${uid}${query}`, { data: body }), 201)).data.documentId as string;
      const o1 = await created('owners', ownerLinkingEverywhere(name, d1, d2));
      const o2 = await created('owners', { name, manyToManyBi: [d1], oneToManyBi: [d1] }, '');
      const o3 = await created('owners', { name });
      const badge = await created('badges', { name, holder: o1 }, '');
      const page = await created(
        'pages',
        { title: name, target: d1, links: { caption: 'c', manyToMany: [d1, d2] } },
        '?status=draft&locale=en',
      );
      const one = (uid: string, id: string, query = '') => `${CM}/${uid}/${id}/actions/countDraftRelations${query}`;
      const counts = async (path: string) => (await ok(root.get(path))).data;
      const owner = (id: string, query = '') => counts(one('api::owner.owner', id, query));
      // 15 links to the draft-only target, its manyToManyBi one apart (publishing keeps it).
      assert.deepEqual(await owner(o1), { unpublishedRelations: 14, draftM2mLinks: 1 });
      assert.deepEqual(await owner(o2), { unpublishedRelations: 1, draftM2mLinks: 1 });
      assert.deepEqual(await owner(o2, '?status=published'), { unpublishedRelations: 1, draftM2mLinks: 1 });
      assert.deepEqual(await owner(o1, '?locale=fr'), { unpublishedRelations: 14, draftM2mLinks: 1 });
      // No relation, or no such document: nothing to count (Strapi's 200, not a 404).
      assert.deepEqual(await owner(o3), { unpublishedRelations: 0, draftM2mLinks: 0 });
      assert.deepEqual(await owner('nope'), { unpublishedRelations: 0, draftM2mLinks: 0 });
      // The other sides: the draft owner's oneToOne, and the manyToMany of both owners (one unpublished).
      assert.deepEqual(await counts(one('api::target.target', d1)), { unpublishedRelations: 1, draftM2mLinks: 1 });
      // A type without draft and publish reads the drafts its relations point to.
      assert.deepEqual(await counts(one('api::badge.badge', badge)), { unpublishedRelations: 1, draftM2mLinks: 0 });
      // A localized type: the locale asked (the default one when none; none written in fr, none in xx).
      const localized = { unpublishedRelations: 2, draftM2mLinks: 0 };
      assert.deepEqual(await counts(one('api::page.page', page, '?locale=en')), localized);
      assert.deepEqual(await counts(one('api::page.page', page)), localized);
      for (const locale of ['fr', 'xx'])
        assert.deepEqual(await counts(one('api::page.page', page, `?locale=${locale}`)), {
          unpublishedRelations: 0,
          draftM2mLinks: 0,
        });

      // Refusals, as Strapi's: its zod 400s, no type or no permission (403), no administrator (401).
      const bad = await root.get(one('api::owner.owner', o1, '?status=nope'));
      assert.deepEqual(
        [bad.status, bad.body.error.message, bad.body.error.details],
        [400, 'Invalid status', { errors: [{ path: ['status'], message: 'Invalid status', name: 'ValidationError' }] }],
      );
      assert.equal((await root.get(one('api::owner.owner', o1, '?locale[0]=en&locale[1]=fr'))).status, 400);
      for (const [client, path] of [
        [root, one('api::nope.nope', o1)],
        [nobody, one('api::owner.owner', o1)],
      ] as const) {
        const refused = await client.get(path);
        assert.equal(refused.status, 403, path);
        assert.equal(refused.body.error.name, 'PolicyError');
      }
      assert.equal((await server.publicApi.get(one('api::owner.owner', o1))).status, 401);
    });

    it('finds the selected drafts, deeply populated, as Strapi’s panel validates them before a bulk publish', async () => {
      const name = unique('find');
      const d1 = (await ok(server.api.post('/api/targets?status=draft', { data: { name } }), 201)).data.documentId;
      const draft = (
        await ok(
          server.api.post('/api/owners?status=draft', {
            data: { name: `${name}-a`, oneToOneBi: d1, manyToManyBi: [d1], block: { caption: 'c', oneToOne: d1 } },
          }),
          201,
        )
      ).data;
      const published = (await ok(server.api.post('/api/owners', { data: { name: `${name}-b` } }), 201)).data;
      const FIND = `${CM}/api::owner.owner/actions/bulkFindForValidation`;
      const { results } = await ok(
        root.post(FIND, { documentIds: [published.documentId, draft.documentId], sort: 'name:asc' }),
      );
      assert.deepEqual(
        results.map((document: Item) => ({
          documentId: document.documentId,
          name: document.name,
          publishedAt: document.publishedAt,
          locale: document.locale,
          createdBy: document.createdBy,
          localizations: document.localizations,
          oneToOneBi: document.oneToOneBi,
          manyToManyBi: document.manyToManyBi,
          block: { caption: document.block?.caption, oneToOne: document.block?.oneToOne },
        })),
        [
          {
            documentId: draft.documentId,
            name: `${name}-a`,
            publishedAt: null,
            locale: null,
            createdBy: null,
            localizations: [],
            oneToOneBi: { count: 1 },
            manyToManyBi: { count: 1 },
            block: { caption: 'c', oneToOne: { count: 1 } },
          },
          {
            documentId: published.documentId,
            name: `${name}-b`,
            publishedAt: null,
            locale: null,
            createdBy: null,
            localizations: [],
            oneToOneBi: { count: 0 },
            manyToManyBi: { count: 0 },
            block: { caption: undefined, oneToOne: undefined },
          },
        ],
      );
      assert.deepEqual(await ok(root.post(FIND, { documentIds: ['nope'] })), { results: [] });
      const empty = await root.post(FIND, { documentIds: [] });
      assert.deepEqual([empty.status, empty.body.error.message], [400, 'Too small: expected array to have >=1 items']);
      for (const [client, path] of [
        [root, `${CM}/api::nope.nope/actions/bulkFindForValidation`],
        [nobody, FIND],
      ] as const) {
        const refused = await client.post(path, { documentIds: [draft.documentId] });
        assert.equal(refused.status, 403, path);
        assert.equal(refused.body.error.name, 'PolicyError');
      }
    });
  });

  describe(`the draft relations of a single type [${dialect}]`, () => {
    let server: TestServer;
    let root: HttpClient;
    before(async () => {
      server = await startServer(dialect, { project: fixture('strapi5-shop') });
      root = (await registerFirstAdmin(server)).client;
    });
    after(() => server?.close());

    it('counts none before it exists (a 404), then its draft’s links to unpublished products, as Strapi', async () => {
      const HOME = '/content-manager/single-types/api::homepage.homepage/actions/countDraftRelations';
      const before = await root.get(HOME);
      assert.deepEqual([before.status, before.body.error.name], [404, 'NotFoundError']);
      const product = async (name: string, query: string) =>
        (await server.api.post(`/api/products${query}`, { data: { name } })).body.data.documentId as string;
      const products = [await product(unique('draft'), '?status=draft'), await product(unique('published'), '')];
      const written = await server.api.put('/api/homepage?status=draft', {
        data: { title: unique('home'), sections: [{ __component: 'blocks.related', heading: 'h', products }] },
      });
      assert.equal(written.status, 200, written.text);
      const expected = { data: { unpublishedRelations: 1, draftM2mLinks: 0 } };
      for (const query of ['', '?status=published', '?locale=fr']) {
        const answer = await root.get(`${HOME}${query}`);
        assert.deepEqual([answer.status, answer.body], [200, expected], query);
      }
      assert.equal((await root.get(`${HOME}?status=nope`)).status, 400);
      assert.equal((await server.publicApi.get(HOME)).status, 401);
    });
  });
}
