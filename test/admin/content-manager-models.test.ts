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
import type { HttpClient } from '../helpers/http.js';
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

    const ok = async (promise: Promise<{ status: number; body: any }>, status = 200): Promise<any> => {
      const answer = await promise;
      assert.equal(answer.status, status, JSON.stringify(answer.body));
      return answer.body;
    };

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
  });
}
