/**
 * The content manager's models and draft relations at Strapi 5.54's paths (docs/admin-panel.md),
 * on the relation-matrix fixture, as test/differential/content-manager-models.diff.ts found
 * Strapi answering: `GET /content-manager/init`, `/content-types` (`?kind=`), `/components` to
 * any administrator; `countManyEntriesDraftRelations` counting the drafts' links to unpublished
 * documents, directly, in components and in zones, per locale. On every dialect.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { HttpClient } from '../helpers/http.js';
import { DIALECTS, fixture, startServer, type TestServer } from '../helpers/server.js';
import { unique } from '../helpers/unique.js';

const CM = '/content-manager/collection-types';
const count = (uid: string) => `${CM}/${uid}/actions/countManyEntriesDraftRelations`;
const OWNERS = count('api::owner.owner');
const CREATOR = {
  type: 'relation',
  relation: 'oneToOne',
  target: 'admin::user',
  configurable: false,
  writable: false,
  visible: false,
  useJoinTable: false,
  private: true,
  targetModel: 'admin::user',
  relationType: 'oneToOne',
};

type Item = Record<string, any>;

for (const dialect of DIALECTS) {
  describe(`the content manager's models and draft relations [${dialect}]`, () => {
    let server: TestServer;
    let root: HttpClient;
    let nobody: HttpClient;

    before(async () => {
      server = await startServer(dialect, { project: fixture('relation-matrix') });
      const first = await server.publicApi.post('/admin/register-admin', {
        email: 'root@example.com',
        password: 'Passw0rd-Root',
        firstname: 'Root',
      });
      assert.equal(first.status, 200, JSON.stringify(first.body));
      root = new HttpClient(server.url, { authorization: `Bearer ${first.body.data.token}` });
      // An administrator whose role grants nothing.
      const role = await root.post('/admin/roles', { name: unique('Nobody') });
      const invited = await root.post('/admin/users', {
        email: 'nobody@example.com',
        firstname: 'No',
        roles: [role.body.data.id],
      });
      const registered = await server.publicApi.post('/admin/register', {
        registrationToken: invited.body.data.registrationToken,
        userInfo: { firstname: 'No', password: 'Passw0rd-Nobody' },
      });
      assert.equal(registered.status, 200, JSON.stringify(registered.body));
      nobody = new HttpClient(server.url, { authorization: `Bearer ${registered.body.data.token}` });
    });
    after(() => server?.close());

    const ok = async (promise: Promise<{ status: number; body: any }>, status = 200): Promise<any> => {
      const answer = await promise;
      assert.equal(answer.status, status, JSON.stringify(answer.body));
      return answer.body;
    };

    it('answers init with the field sizes and the models as Strapi formats them', async () => {
      const { data } = await ok(root.get('/content-manager/init'));
      assert.deepEqual(data.fieldSizes.string, { default: 6, isResizable: true });
      assert.deepEqual(data.fieldSizes.dynamiczone, { default: 12, isResizable: false });
      const owner = data.contentTypes.find((type: Item) => type.uid === 'api::owner.owner');
      assert.deepEqual(
        { ...owner, attributes: undefined },
        {
          uid: 'api::owner.owner',
          isDisplayed: true,
          apiID: 'owner',
          kind: 'collectionType',
          info: { singularName: 'owner', pluralName: 'owners', displayName: 'Owner' },
          options: { draftAndPublish: true },
          attributes: undefined,
        },
      );
      const names = Object.keys(owner.attributes);
      assert.deepEqual(
        [names[0], names[1], ...names.slice(-5)],
        ['id', 'name', 'createdAt', 'updatedAt', 'createdBy', 'updatedBy', 'documentId'],
      );
      assert.deepEqual(owner.attributes.oneToManyBi, {
        type: 'relation',
        relation: 'oneToMany',
        target: 'api::target.target',
        mappedBy: 'manyToOneInv',
        targetModel: 'api::target.target',
        relationType: 'oneToMany',
      });
      assert.deepEqual(owner.attributes.createdBy, CREATOR);
      assert.deepEqual(owner.attributes.zone, {
        type: 'dynamiczone',
        components: ['matrix.links', 'matrix.nested'],
      });
      const page = data.contentTypes.find((type: Item) => type.uid === 'api::page.page');
      assert.deepEqual(page.pluginOptions, { i18n: { localized: true } });
      assert.deepEqual(page.attributes.code, { type: 'string', pluginOptions: { i18n: { localized: false } } });
      assert.equal(page.attributes.locale, undefined);
      assert.equal(page.attributes.publishedAt, undefined);
      const shown = Object.fromEntries(data.contentTypes.map((type: Item) => [type.uid, type.isDisplayed]));
      assert.equal(shown['plugin::users-permissions.user'], true);
      assert.equal(shown['plugin::upload.file'], false);
      const nested = data.components.find((component: Item) => component.uid === 'matrix.nested');
      assert.deepEqual(nested, {
        uid: 'matrix.nested',
        isDisplayed: true,
        apiID: 'nested',
        category: 'matrix',
        info: { displayName: 'Nested' },
        attributes: {
          id: { type: 'integer' },
          heading: { type: 'string' },
          links: { type: 'component', component: 'matrix.links', repeatable: true },
          documentId: { type: 'string' },
        },
      });
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
      const links = { caption: 'c', oneToOne: d1, oneToMany: [d1, d2], manyToOne: d2, manyToMany: [d1, d2] };
      const created = async (body: Item, status = 'draft') =>
        (await ok(server.api.post(`/api/owners?status=${status}`, { data: { name, ...body } }), 201)).data
          .documentId as string;
      // Per link to the draft-only target: 3 on the owner, 3 in `block`, 3 in `blocks`, 6 in `zone`.
      const o1 = await created({
        oneToOneBi: d1,
        manyToManyBi: [d1, d2],
        manyToManyUni: [d1],
        manyToOneUni: d2,
        block: links,
        blocks: [links, { caption: 'd', oneToOne: d2 }],
        zone: [
          { __component: 'matrix.links', ...links },
          { __component: 'matrix.nested', links: [links] },
        ],
      });
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
