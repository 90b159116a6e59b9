/**
 * The content manager's relation lists at Strapi 5.54's paths (docs/admin-panel.md), on the
 * relation-matrix fixture, as test/differential/content-manager-relations.diff.ts found Strapi
 * answering: `GET /content-manager/relations/:model/:targetField` (the documents one may add) and
 * `GET /content-manager/relations/:model/:id/:targetField` (what a document or component links,
 * the last linked first), their refusals and what roles change. On every dialect.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { HttpClient } from '../helpers/http.js';
import { createRole, explorerPermission, inviteAdmin, registerFirstAdmin } from '../helpers/admins.js';
import { DIALECTS, fixture, startServer, type TestServer } from '../helpers/server.js';
import { unique } from '../helpers/unique.js';

const R = '/content-manager/relations';
const OWNER = 'api::owner.owner';
type Item = Record<string, any>;

for (const dialect of DIALECTS) {
  describe(`the content manager's relation lists [${dialect}]`, () => {
    let server: TestServer;
    let root: HttpClient;

    before(async () => {
      server = await startServer(dialect, { project: fixture('relation-matrix') });
      root = (await registerFirstAdmin(server)).client;
    });
    after(() => server?.close());

    /** Targets `<tag>-1`..`-4` (3 a draft only), an owner draft linking 1, 3, 2 and, to one, 4; its block 2, 1 and 3. */
    async function owned(tag: string) {
      const target = async (name: string, published: boolean) => {
        const answer = await server.api.post(`/api/targets${published ? '' : '?status=draft'}`, { data: { name } });
        assert.equal(answer.status, 201, JSON.stringify(answer.body));
        return answer.body.data.documentId as string;
      };
      const [t1, t2, t3, t4] = [
        await target(`${tag}-1`, true),
        await target(`${tag}-2`, true),
        await target(`${tag}-3`, false),
        await target(`${tag}-4`, true),
      ];
      const owner = await server.api.post('/api/owners?status=draft', {
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

    const names = (answer: { body: Item }) => answer.body.results.map((r: Item) => r.name ?? r.documentId);

    it('lists the documents one may add: searched, paged, omitted, those linked left out', async () => {
      const tag = unique('av');
      const { owner } = await owned(tag);
      const list = `${R}/${OWNER}/manyToManyBi`;
      const all = await root.get(`${list}?_q=${tag}`);
      assert.equal(all.status, 200, JSON.stringify(all.body));
      // The drafts, by the main field; each with Strapi's fields and its status.
      assert.deepEqual(names(all), [`${tag}-1`, `${tag}-2`, `${tag}-3`, `${tag}-4`]);
      assert.deepEqual(Object.keys(all.body.results[0]).sort(), [
        'documentId',
        'id',
        'name',
        'publishedAt',
        'status',
        'updatedAt',
      ]);
      assert.deepEqual(
        all.body.results.map((r: Item) => r.status),
        ['published', 'published', 'draft', 'published'],
      );
      assert.deepEqual(all.body.pagination, { page: 1, pageSize: 10, pageCount: 1, total: 4 });
      const paged = await root.get(`${list}?_q=${tag}&page=2&pageSize=3`);
      assert.deepEqual(names(paged), [`${tag}-4`]);
      assert.deepEqual(paged.body.pagination, { page: 2, pageSize: 3, pageCount: 2, total: 4 });
      const ids = all.body.results.map((r: Item) => r.id);
      const omitted = await root.get(`${list}?_q=${tag}&idsToOmit[0]=${ids[0]}&idsToOmit[1]=${ids[1]}`);
      assert.deepEqual(names(omitted), [`${tag}-3`, `${tag}-4`]);
      // The owner's draft links 1, 2 and 3: 4 is left; 1 again when the panel has taken it out.
      assert.deepEqual(names(await root.get(`${list}?_q=${tag}&id=${owner}`)), [`${tag}-4`]);
      const included = await root.get(`${list}?_q=${tag}&id=${owner}&idsToInclude[0]=${ids[0]}`);
      assert.deepEqual(names(included), [`${tag}-1`, `${tag}-4`]);
      const published = await root.get(`${list}?_q=${tag}&status=published`);
      assert.deepEqual(names(published), [`${tag}-1`, `${tag}-2`, `${tag}-4`]);
      assert.ok(published.body.results.every((r: Item) => r.publishedAt !== null && r.status === 'published'));
      const starts = await root.get(`${list}?_q=${tag}-1&_filter=$startsWith`);
      assert.deepEqual(names(starts), [`${tag}-1`]);
    });

    it('lists what a document and a component link, the last linked first, paged', async () => {
      const tag = unique('ex');
      const { owner, t1 } = await owned(tag);
      const linked = (field: string, query = '') => root.get(`${R}/${OWNER}/${owner}/${field}${query}`);
      const many = await linked('manyToManyBi');
      assert.equal(many.status, 200, JSON.stringify(many.body));
      assert.deepEqual(names(many), [`${tag}-2`, `${tag}-3`, `${tag}-1`]);
      assert.deepEqual(many.body.pagination, { page: 1, pageSize: 10, pageCount: 1, total: 3 });
      const paged = await linked('manyToManyBi', '?page=2&pageSize=2');
      assert.deepEqual(names(paged), [`${tag}-1`]);
      assert.deepEqual(paged.body.pagination, { page: 2, pageSize: 2, pageCount: 2, total: 3 });
      const one = await linked('manyToOneUni');
      assert.deepEqual(names(one), [`${tag}-4`]);
      assert.deepEqual(one.body.pagination, { page: 1, pageCount: 1, pageSize: 10, total: 1 });
      assert.deepEqual((await linked('oneToOneBi')).body.results, []);
      // Published: the published owner links the published targets.
      await root.post(`/content-manager/collection-types/${OWNER}/${owner}/actions/publish`, {});
      assert.deepEqual(names(await linked('manyToManyBi', '?status=published')), [`${tag}-2`, `${tag}-1`]);
      // A target's draft changed since it was published: modified.
      await root.put(`/content-manager/collection-types/api::target.target/${t1}`, { name: `${tag}-1b` });
      const modified = await linked('manyToManyBi');
      assert.deepEqual(
        modified.body.results.map((r: Item) => [r.name, r.status]),
        [
          [`${tag}-2`, 'published'],
          [`${tag}-3`, 'draft'],
          [`${tag}-1b`, 'modified'],
        ],
      );
      // The inverse side: the owner's draft.
      const inverse = await root.get(`${R}/api::target.target/${t1}/manyToManyInv`);
      assert.deepEqual(names(inverse), [`${tag}-owner`]);
      // A component, by its id.
      const block = (await root.get(`/content-manager/collection-types/${OWNER}/${owner}`)).body.data.block.id;
      assert.deepEqual(names(await root.get(`${R}/matrix.links/${block}/manyToMany`)), [`${tag}-1b`, `${tag}-2`]);
      const available = await root.get(`${R}/matrix.links/manyToMany?_q=${tag}&id=${block}`);
      assert.deepEqual(names(available), [`${tag}-3`, `${tag}-4`]);
      assert.equal((await root.get(`${R}/matrix.links/999999/manyToMany`)).status, 404);
    });

    it("refuses Strapi's bad input: pages, status, ids, unknown models, fields and documents", async () => {
      const { owner } = await owned(unique('bad'));
      const list = `${R}/${OWNER}/manyToManyBi`;
      const refused = async (path: string, status: number, message?: string) => {
        const answer = await root.get(path);
        assert.equal(answer.status, status, `${path}: ${JSON.stringify(answer.body)}`);
        if (message) assert.equal(answer.body.error.message, message, path);
      };
      await refused(`${list}?page=0`, 400, 'Too small: expected number to be >=1');
      await refused(`${list}?page=abc`, 400, 'Invalid input: expected number, received NaN');
      await refused(`${list}?pageSize=101`, 400, 'Too big: expected number to be <=100');
      await refused(`${list}?status=nope`, 400, 'Invalid option: expected one of "published"|"draft"');
      await refused(`${list}?idsToOmit=5`, 400, 'Invalid input: expected array, received string');
      await refused(`${R}/${OWNER}/${owner}/manyToManyBi?pageSize=0`, 400);
      await refused(`${R}/api::nope.nope/manyToManyBi`, 400, "The model api::nope.nope doesn't exist");
      await refused(`${R}/${OWNER}/name`, 400, `The relational field name doesn't exist on ${OWNER}`);
      await refused(`${R}/${OWNER}/nope/manyToManyBi`, 404);
      await refused(`${list}?id=nope`, 404);
      assert.equal((await server.publicApi.get(list)).status, 401);
      // What Strapi's query finds for ids that are no row ids and a locale nobody uses: nothing to leave out, nothing.
      const tag = unique('odd');
      await owned(tag);
      assert.equal((await root.get(`${list}?_q=${tag}&idsToOmit[0]=abc`)).body.pagination.total, 4);
      const unknownLocale = await root.get(`${R}/api::page.page/labels?locale=de`);
      assert.equal(unknownLocale.status, 200, JSON.stringify(unknownLocale.body));
      assert.deepEqual(unknownLocale.body, {
        results: [],
        pagination: { page: 1, pageSize: 10, pageCount: 0, total: 0 },
      });
      const page = await server.api.post('/api/pages?locale=en&status=draft', { data: { title: tag } });
      const pageId = page.body.data.documentId;
      assert.equal((await root.get(`${R}/api::page.page/${pageId}/labels?locale=en`)).status, 200);
      await refused(`${R}/api::page.page/${pageId}/labels?locale=de`, 404);
    });

    it('follows roles: the field, the main field, the creator conditions', async () => {
      const tag = unique('ro');
      const { owner } = await owned(tag);
      const admin = async (name: string, permissions: ReturnType<typeof explorerPermission>[]) => {
        const role = await createRole(root, unique(name), permissions);
        const who = { email: `${unique(name.toLowerCase())}@example.com`, firstname: name, password: 'Passw0rd-Rel' };
        return (await inviteAdmin(server, root, [role], who)).client;
      };
      const noField = await admin('Nofield', [explorerPermission('read', OWNER, { fields: ['name'] })]);
      assert.equal((await noField.get(`${R}/${OWNER}/manyToManyBi?_q=${tag}`)).status, 403);
      assert.equal((await noField.get(`${R}/${OWNER}/${owner}/manyToManyBi`)).status, 403);
      // The target's main field unreadable: documentId names the targets.
      const limited = await admin('Limited', [
        explorerPermission('read', OWNER, { fields: ['name', 'manyToManyBi'] }),
        explorerPermission('read', 'api::target.target', { fields: ['oneToOneInv'] }),
      ]);
      const shown = await limited.get(`${R}/${OWNER}/${owner}/manyToManyBi`);
      assert.equal(shown.body.results.length, 3);
      assert.ok(shown.body.results.every((r: Item) => !('name' in r) && typeof r.documentId === 'string'));
      // The search looks in that main field then (Strapi's), where the names are not.
      assert.deepEqual((await limited.get(`${R}/${OWNER}/manyToManyBi?_q=${tag}`)).body.results, []);
      // Under "is creator" on the targets, none of them (the content API made them) is reached.
      const targetCreators = await admin('Targets', [
        explorerPermission('read', OWNER, { fields: ['name', 'manyToManyBi'] }),
        explorerPermission('read', 'api::target.target', { fields: ['name'] }, ['admin::is-creator']),
      ]);
      assert.deepEqual((await targetCreators.get(`${R}/${OWNER}/manyToManyBi?_q=${tag}`)).body.results, []);
      const linked = await targetCreators.get(`${R}/${OWNER}/${owner}/manyToManyBi`);
      assert.equal(linked.body.results.length, 3);
      assert.ok(linked.body.results.every((r: Item) => !('name' in r)));
      // Under "is creator" on the owner, its document is another's: 403.
      const creators = await admin('Creators', [
        explorerPermission('read', OWNER, { fields: ['name', 'manyToManyBi'] }, ['admin::is-creator']),
      ]);
      assert.equal((await creators.get(`${R}/${OWNER}/${owner}/manyToManyBi`)).status, 403);
    });
  });
}
