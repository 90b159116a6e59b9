/**
 * The content manager's models and draft relations side by side with Strapi 5.54 (issue 35), on
 * the relation-matrix fixture (draft-and-publish types linking each other, in components and
 * zones): `GET /content-manager/init`, `/content-types` (`?kind=`) and `/components` as any
 * administrator sees them, and `countManyEntriesDraftRelations`, which Strapi's panel asks before a
 * bulk publish. On demand: `npm run test:strapi -- content-manager-models`. Pinned in
 * test/admin/content-manager-models.test.ts (Strapi's models as it answered them, its data as here).
 *
 * Strapi lists its admin's and plugins' internal types too (releases, workflows, folders, API
 * tokens, ...) and Vellum its own built-in file and role types in its own schemas: the models
 * compared are the project's and the content API's users; the order of the lists is not compared.
 */
import { after, before, test } from 'node:test';
import { HttpClient, type Response } from '../helpers/http.js';
import { fixture } from '../helpers/paths.js';
import { ownerLinkingEverywhere } from '../helpers/relation-matrix.js';
import { adminSessions, diffName, openDifferential, type Differential, type Side } from './harness.js';

const OWNERS = '/content-manager/collection-types/api::owner.owner/actions/countManyEntriesDraftRelations';
const USER = 'plugin::users-permissions.user';

let diff: Differential;
const sessions: Partial<Record<Side, HttpClient>> = {};
before(async () => {
  diff = await openDifferential({ name: diffName(import.meta.filename), project: fixture('relation-matrix') });
  Object.assign(sessions, await adminSessions(diff));
});
after(() => diff?.close());

const run = Date.now().toString(36);

type Model = { uid: string };
const compared = (models: Model[]) =>
  models
    .filter((model) => model.uid.startsWith('api::') || model.uid === USER || !model.uid.includes('::'))
    .sort((a, b) => (a.uid < b.uid ? -1 : 1));
/** The answer with only the models compared (see above), sorted by uid. */
function projectModels(answer: Response): Response {
  if (answer.status !== 200) return answer;
  const data = answer.body.data;
  const body = Array.isArray(data)
    ? { data: compared(data) }
    : { data: { ...data, contentTypes: compared(data.contentTypes), components: compared(data.components) } };
  return { ...answer, body };
}

/** An administrator whose role has no permission at all. */
async function roleless(api: HttpClient, side: Side, tag: string): Promise<HttpClient> {
  const admin = sessions[side]!;
  const role = await admin.post('/admin/roles', { name: `Nobody ${tag} ${run}` });
  const invited = await admin.post('/admin/users', {
    email: `nobody-${tag}-${run}@example.com`,
    firstname: 'No',
    lastname: 'Body',
    roles: [role.body.data.id],
  });
  const registered = await new HttpClient(api.baseUrl).post('/admin/register', {
    registrationToken: invited.body.data.registrationToken,
    userInfo: { firstname: 'No', lastname: 'Body', password: 'Passw0rd-Nobody' },
  });
  return new HttpClient(api.baseUrl, { authorization: `Bearer ${registered.body.data.token}` });
}

test('init, content-types and components: the models as Strapi formats them, to any administrator', async () => {
  await diff.same(
    async (api, side) => {
      const admin = sessions[side]!;
      const nobody = await roleless(api, side, 'models');
      const anonymous = new HttpClient(api.baseUrl);
      return {
        init: projectModels(await admin.get('/content-manager/init')),
        initNobody: projectModels(await nobody.get('/content-manager/init')),
        initAnonymous: await anonymous.get('/content-manager/init'),
        contentTypes: projectModels(await admin.get('/content-manager/content-types')),
        collectionTypes: projectModels(await admin.get('/content-manager/content-types?kind=collectionType')),
        singleTypes: projectModels(await nobody.get('/content-manager/content-types?kind=singleType')),
        badKind: await admin.get('/content-manager/content-types?kind=nope'),
        components: projectModels(await admin.get('/content-manager/components')),
        componentsAnonymous: await anonymous.get('/content-manager/components'),
      };
    },
    { messages: true },
  );
});

test('countManyEntriesDraftRelations: links to unpublished documents, in components and zones too', async () => {
  await diff.same(
    async (api, side) => {
      const admin = sessions[side]!;
      const t1 = await api.post('/api/targets?status=draft', { data: { name: `t1-${run}` } });
      const t2 = await api.post('/api/targets', { data: { name: `t2-${run}` } });
      const d1 = t1.body.data.documentId;
      const d2 = t2.body.data.documentId;
      const o1 = await api.post('/api/owners?status=draft', { data: ownerLinkingEverywhere(`o1-${run}`, d1, d2) });
      const o2 = await api.post('/api/owners', { data: { name: `o2-${run}`, manyToManyBi: [d1], oneToManyBi: [d1] } });
      const o3 = await api.post('/api/owners?status=draft', { data: { name: `o3-${run}` } });
      const [i1, i2, i3] = [o1, o2, o3].map((owner) => owner.body.data.documentId);
      const targets = '/content-manager/collection-types/api::target.target/actions/countManyEntriesDraftRelations';
      const other = (uid: string) =>
        `/content-manager/collection-types/${uid}/actions/countManyEntriesDraftRelations?documentIds[0]=x`;
      return {
        one: await admin.get(`${OWNERS}?documentIds[0]=${i1}`),
        brackets: await admin.get(`${OWNERS}?documentIds[]=${i1}`),
        plain: await admin.get(`${OWNERS}?documentIds=${i1}`),
        two: await admin.get(`${OWNERS}?documentIds[0]=${i1}&documentIds[1]=${i2}`),
        twice: await admin.get(`${OWNERS}?documentIds[0]=${i2}&documentIds[1]=${i2}`),
        published: await admin.get(`${OWNERS}?documentIds[0]=${i2}`),
        noRelation: await admin.get(`${OWNERS}?documentIds[0]=${i3}`),
        oneMissing: await admin.get(`${OWNERS}?documentIds[0]=${i3}&documentIds[1]=nope`),
        missing: await admin.get(`${OWNERS}?documentIds[0]=nope`),
        none: await admin.get(OWNERS),
        localeIgnored: await admin.get(`${OWNERS}?documentIds[0]=${i1}&locale=fr`),
        inverse: await admin.get(`${targets}?documentIds[0]=${d1}`),
        withoutDraftAndPublish: await admin.get(other('api::badge.badge')),
        localized: await admin.get(other('api::page.page')),
        unknownType: await admin.get(other('api::nope.nope')),
        roleless: await (await roleless(api, side, 'counts')).get(`${OWNERS}?documentIds[0]=${i1}`),
        anonymous: await new HttpClient(api.baseUrl).get(`${OWNERS}?documentIds[0]=${i1}`),
      };
    },
    { messages: true },
  );
});

test('countDraftRelations: one draft’s links to unpublished documents, bidirectional manyToMany apart', async () => {
  await diff.same(
    async (api, side) => {
      const admin = sessions[side]!;
      const t1 = await api.post('/api/targets?status=draft', { data: { name: `one-t1-${run}` } });
      const t2 = await api.post('/api/targets', { data: { name: `one-t2-${run}` } });
      const d1 = t1.body.data.documentId;
      const d2 = t2.body.data.documentId;
      const o1 = await api.post('/api/owners?status=draft', { data: ownerLinkingEverywhere(`one-o1-${run}`, d1, d2) });
      const o2 = await api.post('/api/owners', {
        data: { name: `one-o2-${run}`, manyToManyBi: [d1], oneToManyBi: [d1] },
      });
      const o3 = await api.post('/api/owners?status=draft', { data: { name: `one-o3-${run}` } });
      const [i1, i2, i3] = [o1, o2, o3].map((owner) => owner.body.data.documentId);
      const badge = await api.post('/api/badges', { data: { name: `one-b-${run}`, holder: i1 } });
      const page = await api.post('/api/pages?status=draft&locale=en', {
        data: { title: `one-p-${run}`, target: d1, links: { caption: 'c', manyToMany: [d1, d2] } },
      });
      const count = (uid: string, id: string, query = '') =>
        admin.get(`/content-manager/collection-types/${uid}/${id}/actions/countDraftRelations${query}`);
      const owner = (id: string, query = '') => count('api::owner.owner', id, query);
      const pageId = page.body.data.documentId;
      return {
        everywhere: await owner(i1),
        published: await owner(i2),
        publishedStatus: await owner(i2, '?status=published'),
        noRelation: await owner(i3),
        missing: await owner('nope'),
        localeIgnored: await owner(i1, '?locale=fr'),
        badStatus: await owner(i1, '?status=nope'),
        localeList: await owner(i1, '?locale[0]=en&locale[1]=fr'),
        inverse: await count('api::target.target', d1),
        withoutDraftAndPublish: await count('api::badge.badge', badge.body.data.documentId),
        localized: await count('api::page.page', pageId, '?locale=en'),
        localizedDefault: await count('api::page.page', pageId),
        localeWithoutVersion: await count('api::page.page', pageId, '?locale=fr'),
        unknownLocale: await count('api::page.page', pageId, '?locale=xx'),
        unknownType: await count('api::nope.nope', i1),
        roleless: await (
          await roleless(api, side, 'one')
        ).get(`/content-manager/collection-types/api::owner.owner/${i1}/actions/countDraftRelations`),
        anonymous: await new HttpClient(api.baseUrl).get(
          `/content-manager/collection-types/api::owner.owner/${i1}/actions/countDraftRelations`,
        ),
      };
    },
    { messages: true },
  );
});

test('bulkFindForValidation: the selected drafts, deeply populated, as the panel validates them', async () => {
  await diff.same(
    async (api, side) => {
      const admin = sessions[side]!;
      const t1 = await api.post('/api/targets?status=draft', { data: { name: `find-t1-${run}` } });
      const d1 = t1.body.data.documentId;
      const o1 = await api.post('/api/owners?status=draft', {
        data: { name: `find-o1-${run}`, oneToOneBi: d1, manyToManyBi: [d1], block: { caption: 'c', oneToOne: d1 } },
      });
      const o2 = await api.post('/api/owners', { data: { name: `find-o2-${run}` } });
      const [i1, i2] = [o1, o2].map((owner) => owner.body.data.documentId);
      const find = (body: unknown, uid = 'api::owner.owner') =>
        admin.post(`/content-manager/collection-types/${uid}/actions/bulkFindForValidation`, body);
      return {
        two: await find({ documentIds: [i1, i2], sort: 'name:asc' }),
        missing: await find({ documentIds: ['nope'] }),
        none: await find({ documentIds: [] }),
        notAList: await find({ documentIds: i1 }),
        noBody: await find(undefined),
        unknownType: await find({ documentIds: [i1] }, 'api::nope.nope'),
        roleless: await (
          await roleless(api, side, 'find')
        ).post('/content-manager/collection-types/api::owner.owner/actions/bulkFindForValidation', {
          documentIds: [i1],
        }),
      };
    },
    { messages: true },
  );
});
