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
