/**
 * The content manager's relation lists at Strapi 5.54's paths side by side with Strapi, on the
 * relation-matrix fixture: `GET /content-manager/relations/:model/:targetField` (the documents one
 * may add: search, pages, omitted and included ids, the source's links left out, drafts and
 * published versions, locales) and `GET /content-manager/relations/:model/:id/:targetField` (what a
 * document or a component links, the last linked first), to a Super Admin and to roles limited in
 * fields and by conditions, and the refusals. On demand:
 * `npm run test:strapi -- content-manager-relations`. Pinned in test/admin/content-manager-relations.test.ts.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { HttpClient, type Response } from '../helpers/http.js';
import { fixture } from '../helpers/paths.js';
import { adminSessions, diffName, openDifferential, type Differential, type Side } from './harness.js';

const R = '/content-manager/relations';
const OWNER = 'api::owner.owner';
const PAGE = 'api::page.page';

let diff: Differential;
const sessions: Partial<Record<Side, HttpClient>> = {};
before(async () => {
  diff = await openDifferential({ name: diffName(import.meta.filename), project: fixture('relation-matrix') });
  Object.assign(sessions, await adminSessions(diff));
});
after(() => diff?.close());

const run = Date.now().toString(36);

async function administrator(side: Side, name: string, permissions: unknown[]): Promise<HttpClient> {
  const root = sessions[side]!;
  const role = await root.post('/admin/roles', { name });
  assert.equal(role.status, 201, `${side}: ${JSON.stringify(role.body)}`);
  const set = await root.put(`/admin/roles/${role.body.data.id}/permissions`, { permissions });
  assert.equal(set.status, 200, `${side}: ${JSON.stringify(set.body)}`);
  const email = `${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}@example.com`;
  const invited = await root.post('/admin/users', { email, firstname: name, roles: [role.body.data.id] });
  const registered = await new HttpClient(root.baseUrl).post('/admin/register', {
    registrationToken: invited.body.data.registrationToken,
    userInfo: { firstname: name, password: 'Passw0rd-Relations' },
  });
  assert.equal(registered.status, 200, `${side}: ${JSON.stringify(registered.body)}`);
  return new HttpClient(root.baseUrl, { authorization: `Bearer ${registered.body.data.token}` });
}

const permission = (action: string, subject: string, properties = {}, conditions: string[] = []) => ({
  action: `plugin::content-manager.explorer.${action}`,
  subject,
  properties,
  conditions,
});

/** A list's pagination and the sets of fields of its results. */
const shapeOf = (answer: Response): Response => ({
  ...answer,
  body: {
    pagination: answer.body.pagination,
    fields: [...new Set((answer.body.results as object[]).map((r) => Object.keys(r).sort().join(',')))].sort(),
  },
});

/** Targets named `<tag>-<n>`: t1 and t2 published, t3 a draft; an owner linking t1, t3, t2 in that order. */
async function owned(api: HttpClient, tag: string) {
  const target = async (name: string, published: boolean) =>
    (await api.post(`/api/targets${published ? '' : '?status=draft'}`, { data: { name } })).body.data
      .documentId as string;
  const t1 = await target(`${tag}-1`, true);
  const t2 = await target(`${tag}-2`, true);
  const t3 = await target(`${tag}-3`, false);
  const t4 = await target(`${tag}-4`, true);
  const owner = await api.post('/api/owners?status=draft', {
    data: {
      name: `${tag}-owner`,
      manyToManyBi: [t1, t3, t2],
      manyToOneUni: t4,
      block: { caption: 'c', manyToMany: [t2, t1], oneToOne: t3 },
    },
  });
  assert.equal(owner.status, 201, JSON.stringify(owner.body));
  return { t1, t2, t3, t4, owner: owner.body.data.documentId as string };
}

test('available relations: search, pages, omitted and included ids, the source links left out', async () => {
  await diff.same(
    async (api, side) => {
      const admin = sessions[side]!;
      const tag = `av-${run}`;
      const { owner } = await owned(api, tag);
      const list = `${R}/${OWNER}/manyToManyBi`;
      const all = await admin.get(`${list}?_q=${tag}`);
      const ids = (all.body.results as { id: number }[]).map((r) => r.id);
      return {
        all,
        paged: await admin.get(`${list}?_q=${tag}&page=2&pageSize=2`),
        beyond: await admin.get(`${list}?_q=${tag}&page=9`),
        startsWith: await admin.get(`${list}?_q=${tag}-1&_filter=$startsWith`),
        omitted: await admin.get(`${list}?_q=${tag}&idsToOmit[0]=${ids[0]}&idsToOmit[1]=${ids[1]}`),
        fromOwner: await admin.get(`${list}?_q=${tag}&id=${owner}`),
        included: await admin.get(`${list}?_q=${tag}&id=${owner}&idsToInclude[0]=${ids[0]}`),
        published: await admin.get(`${list}?_q=${tag}&status=published`),
        publishedFromOwner: await admin.get(`${list}?_q=${tag}&status=published&id=${owner}`),
        toOne: await admin.get(`${R}/${OWNER}/manyToOneUni?_q=${tag}&id=${owner}`),
        inverse: await admin.get(`${R}/api::target.target/manyToManyInv?_q=${tag}`),
      };
    },
    { messages: true },
  );
});

test('a document relations: ordered, paginated, drafts or published versions', async () => {
  await diff.same(
    async (api, side) => {
      const admin = sessions[side]!;
      const tag = `ex-${run}`;
      const { owner, t1 } = await owned(api, tag);
      const linked = (field: string, query = '') => admin.get(`${R}/${OWNER}/${owner}/${field}${query}`);
      const answers: Record<string, Response> = {
        many: await linked('manyToManyBi'),
        paged: await linked('manyToManyBi', '?page=2&pageSize=2'),
        one: await linked('manyToOneUni'),
        none: await linked('oneToOneBi'),
      };
      await admin.post(`/content-manager/collection-types/${OWNER}/${owner}/actions/publish`, {});
      answers.publishedMany = await linked('manyToManyBi', '?status=published');
      answers.draftMany = await linked('manyToManyBi');
      await admin.put(`/content-manager/collection-types/api::target.target/${t1}`, { name: `${tag}-1b` });
      answers.modified = await linked('manyToManyBi');
      answers.inverse = await admin.get(`${R}/api::target.target/${t1}/manyToManyInv`);
      return answers;
    },
    { messages: true },
  );
});

test('a component relations, and a localized target', async () => {
  await diff.same(
    async (api, side) => {
      const admin = sessions[side]!;
      const tag = `co-${run}`;
      const { owner } = await owned(api, tag);
      const read = await admin.get(`/content-manager/collection-types/${OWNER}/${owner}`);
      const block = read.body.data.block.id as number;
      const enLabel = await api.post('/api/labels?locale=en', { data: { name: `${tag}-en` } });
      const frLabel = await api.post('/api/labels?locale=fr', { data: { name: `${tag}-fr` } });
      const page = await api.post('/api/pages?locale=fr&status=draft', {
        data: { title: `${tag}-page`, labels: [frLabel.body.data.documentId] },
      });
      const pageId = page.body.data.documentId;
      return {
        linked: await admin.get(`${R}/matrix.links/${block}/manyToMany`),
        linkedOne: await admin.get(`${R}/matrix.links/${block}/oneToOne`),
        available: await admin.get(`${R}/matrix.links/manyToMany?_q=${tag}&id=${block}`),
        missing: await admin.get(`${R}/matrix.links/999999/manyToMany`),
        labelsFr: await admin.get(`${R}/${PAGE}/labels?_q=${tag}&locale=fr`),
        labelsAll: await admin.get(`${R}/${PAGE}/labels?_q=${tag}`),
        labelsFromPage: await admin.get(`${R}/${PAGE}/labels?_q=${tag}&locale=fr&id=${pageId}`),
        pageLabels: await admin.get(`${R}/${PAGE}/${pageId}/labels?locale=fr`),
        pageLabelsEn: await admin.get(`${R}/${PAGE}/${pageId}/labels?locale=en`),
        enLabel: { ...enLabel, body: null },
      };
    },
    { messages: true },
  );
});

test('bad input: pages, status, ids, unknown models and fields, unknown documents', async () => {
  await diff.same(
    async (api, side) => {
      const admin = sessions[side]!;
      const { owner } = await owned(api, `bad-${run}`);
      const list = `${R}/${OWNER}/manyToManyBi`;
      return {
        pageZero: await admin.get(`${list}?page=0`),
        pageWord: await admin.get(`${list}?page=abc`),
        pageHalf: await admin.get(`${list}?page=1.5`),
        pageSizeBig: await admin.get(`${list}?pageSize=101`),
        status: await admin.get(`${list}?status=nope`),
        omitString: await admin.get(`${list}?idsToOmit=5`),
        search: await admin.get(`${list}?_q[0]=x`),
        existingPage: await admin.get(`${R}/${OWNER}/${owner}/manyToManyBi?pageSize=0`),
        omitWord: await admin.get(`${list}?_q=bad-${run}&idsToOmit[0]=abc`),
        unknownLocale: await admin.get(`${R}/${PAGE}/labels?_q=bad-${run}&locale=de`),
        unknownModel: await admin.get(`${R}/api::nope.nope/manyToManyBi`),
        unknownField: await admin.get(`${R}/${OWNER}/nope`),
        notRelation: await admin.get(`${R}/${OWNER}/name`),
        unknownDocument: await admin.get(`${R}/${OWNER}/nope/manyToManyBi`),
        unknownSource: await admin.get(`${list}?id=nope`),
        anonymous: await new HttpClient(api.baseUrl).get(list),
      };
    },
    { messages: true },
  );
});

test('roles: a field limit on the target, a creator condition on the targets and the source', async () => {
  await diff.same(
    async (api, side) => {
      const tag = `ro-${run}`;
      const { owner } = await owned(api, tag);
      const limited = await administrator(side, `Limited ${tag}`, [
        permission('read', OWNER, { fields: ['name', 'manyToManyBi'] }),
        permission('read', 'api::target.target', { fields: ['oneToOneInv'] }),
      ]);
      const creators = await administrator(side, `Creators ${tag}`, [
        permission('read', OWNER, { fields: ['name', 'manyToManyBi'] }, ['admin::is-creator']),
        permission('read', 'api::target.target', { fields: ['name'] }, ['admin::is-creator']),
      ]);
      const targetCreators = await administrator(side, `Targets ${tag}`, [
        permission('read', OWNER, { fields: ['name', 'manyToManyBi'] }),
        permission('read', 'api::target.target', { fields: ['name'] }, ['admin::is-creator']),
      ]);
      const noTarget = await administrator(side, `Notarget ${tag}`, [
        permission('read', OWNER, { fields: ['name', 'manyToManyBi'] }),
      ]);
      return {
        // Every target (no permission on the type filters none), by documentId: their order differs
        // between the two servers, so the page's size and the fields of its results are compared.
        noTargetAvailable: shapeOf(await noTarget.get(`${R}/${OWNER}/manyToManyBi`)),
        noTargetLinked: await noTarget.get(`${R}/${OWNER}/${owner}/manyToManyBi`),
        targetCreatorsAvailable: await targetCreators.get(`${R}/${OWNER}/manyToManyBi?_q=${tag}`),
        targetCreatorsLinked: await targetCreators.get(`${R}/${OWNER}/${owner}/manyToManyBi`),
        limitedAvailable: await limited.get(`${R}/${OWNER}/manyToManyBi?_q=${tag}`),
        limitedLinked: await limited.get(`${R}/${OWNER}/${owner}/manyToManyBi`),
        creatorsAvailable: await creators.get(`${R}/${OWNER}/manyToManyBi?_q=${tag}`),
        creatorsLinked: await creators.get(`${R}/${OWNER}/${owner}/manyToManyBi`),
      };
    },
    { messages: true },
  );
});

test('roles: no read permission on the field', async () => {
  await diff.same(
    async (api, side) => {
      const tag = `nf-${run}`;
      const { owner } = await owned(api, tag);
      const nobody = await administrator(side, `Nofield ${tag}`, [permission('read', OWNER, { fields: ['name'] })]);
      return {
        available: await nobody.get(`${R}/${OWNER}/manyToManyBi?_q=${tag}`),
        linked: await nobody.get(`${R}/${OWNER}/${owner}/manyToManyBi`),
      };
    },
    {
      messages: true,
      deliberate: 'Strapi sets its 403 and then fails on it with a 500; Vellum answers the 403 Forbidden',
    },
  );
});
