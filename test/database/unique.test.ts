/**
 * `unique` attributes are unique under concurrency: the database enforces them with unique indexes
 * scoped as Strapi scopes its check (published versions, per locale; drafts and empty text free),
 * created on new and existing databases; the loser of a race gets the 400 a late writer gets.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createVellum, type Vellum } from '../../src/app/server.js';
import { createTestDatabase, type TestDatabase } from '../helpers/databases.js';
import { HttpClient, type Response } from '../helpers/http.js';
import { copyProject, type TempProject } from '../helpers/projects.js';
import { DIALECTS, fixture, fullAccessHeaders, startServer, type TestServer } from '../helpers/server.js';

const PLAIN_SCHEMA = 'src/api/plain/content-types/plain/schema.json';
const tag = () => randomBytes(4).toString('hex');

/** The answer Strapi gives a value that another published document holds. */
function assertNotUnique(res: Response, attribute: string, value: unknown): void {
  assert.equal(res.status, 400, JSON.stringify(res.body));
  assert.equal(res.body.error.name, 'ValidationError');
  assert.equal(res.body.error.message, 'This attribute must be unique');
  assert.deepEqual(res.body.error.details.errors, [
    { path: [attribute], message: 'This attribute must be unique', name: 'ValidationError', value },
  ]);
}

const statuses = (responses: Response[]) => responses.map((r) => r.status).sort();

for (const dialect of DIALECTS) {
  describe(`unique attributes under concurrency [${dialect}]`, () => {
    let server: TestServer;
    let nodes: TestServer[];
    before(async () => {
      // Ten registrations at once from one address: more than the default registration limit.
      const config = { plugins: { 'users-permissions': { config: { register: { ratelimit: { max: 1000 } } } } } };
      server = await startServer(dialect, { project: fixture('unique'), config });
      // Two nodes on one database where the database has row locks; SQLite serves one node.
      nodes =
        dialect === 'sqlite'
          ? [server]
          : [server, await startServer(dialect, { project: fixture('unique'), nodeOf: server, config })];
    });
    after(async () => {
      for (const node of nodes?.slice(1) ?? []) await node.close();
      await server?.close();
    });
    const on = (i: number) => nodes[i % nodes.length]!.api;
    const count = async (plural: string, filter: string, status = 'published') =>
      (await server.api.get(`/api/${plural}?${filter}&status=${status}&pagination[pageSize]=100`)).body.data
        .length as number;

    it('ten concurrent creates with one unique value leave one document; the others are 400 naming the attribute', async () => {
      const code = `C-${tag()}`;
      const responses = await Promise.all(
        Array.from({ length: 10 }, (_, i) => on(i).post('/api/plains', { data: { name: `c${i}`, code } })),
      );
      assert.deepEqual(statuses(responses), [201, ...Array(9).fill(400)]);
      for (const res of responses.filter((r) => r.status === 400)) assertNotUnique(res, 'code', code);
      assert.equal(await count('plains', `filters[code][$eq]=${code}`), 1);
    });

    it('ten concurrent publications of one value in one locale leave one; another locale has its own', async () => {
      const code = `P-${tag()}`;
      const responses = await Promise.all(
        Array.from({ length: 10 }, (_, i) => on(i).post('/api/items', { data: { name: `p${i}`, code } })),
      );
      assert.deepEqual(statuses(responses), [201, ...Array(9).fill(400)]);
      for (const res of responses.filter((r) => r.status === 400)) assertNotUnique(res, 'code', code);
      assert.equal(await count('items', `filters[code][$eq]=${code}`), 1);
      const french = await server.api.post('/api/items?locale=fr', { data: { name: 'fr', code } });
      assert.equal(french.status, 201, JSON.stringify(french.body));
    });

    it('ten concurrent registrations with one email leave one user', async () => {
      const email = `r-${tag()}@example.com`;
      const responses = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          nodes[i % nodes.length]!.publicApi.post('/api/auth/local/register', {
            username: `reg-${tag()}-${i}`,
            email,
            password: 'secret123',
          }),
        ),
      );
      assert.deepEqual(statuses(responses), [200, ...Array(9).fill(400)]);
      for (const res of responses.filter((r) => r.status === 400)) {
        assert.deepEqual(res.body.error, {
          status: 400,
          name: 'ApplicationError',
          message: 'Email or Username are already taken',
          details: {},
        });
      }
      const users = await server.vellum.database.db
        .selectFrom('up_users')
        .select('id')
        .where('email', '=', email)
        .execute();
      assert.equal(users.length, 1);
    });

    it('ten concurrent updates to one value leave one holder', async () => {
      const base = tag();
      const ids: string[] = [];
      for (let i = 0; i < 10; i++)
        ids.push(
          (await server.api.post('/api/plains', { data: { name: `u${i}`, code: `U-${base}-${i}` } })).body.data
            .documentId,
        );
      const code = `U-${base}`;
      const responses = await Promise.all(ids.map((id, i) => on(i).put(`/api/plains/${id}`, { data: { code } })));
      assert.deepEqual(statuses(responses), [200, ...Array(9).fill(400)]);
      for (const res of responses.filter((r) => r.status === 400)) assertNotUnique(res, 'code', code);
      assert.equal(await count('plains', `filters[code][$eq]=${code}`), 1);
    });

    it('concurrent creates from one title get distinct generated uids', async () => {
      const name = `Same title ${tag()}`;
      const responses = await Promise.all(
        Array.from({ length: 10 }, (_, i) => on(i).post('/api/items', { data: { name } })),
      );
      assert.deepEqual(
        statuses(responses),
        Array(10).fill(201),
        JSON.stringify(responses.find((r) => r.status !== 201)?.body),
      );
      assert.equal(new Set(responses.map((r) => r.body.data.slug)).size, 10);
    });

    it("the scope is Strapi's: drafts may share a value, publishing one that another published document holds is a 400", async () => {
      const code = `D-${tag()}`;
      const first = await server.api.post('/api/items?status=draft', { data: { name: 'd1', code } });
      const second = await server.api.post('/api/items?status=draft', { data: { name: 'd2', code } });
      assert.equal(first.status, 201);
      assert.equal(second.status, 201, 'a draft is not checked');
      assert.equal(
        (await server.api.put(`/api/items/${first.body.data.documentId}`, { data: { name: 'd1 published' } })).status,
        200,
      );
      assertNotUnique(
        await server.api.put(`/api/items/${second.body.data.documentId}`, { data: { name: 'd2 published' } }),
        'code',
        code,
      );
      assertNotUnique(await server.api.post(`/api/items/${second.body.data.documentId}/actions/publish`), 'code', code);
      assert.equal(await count('items', `filters[code][$eq]=${code}`), 1);
      assert.equal(await count('items', `filters[code][$eq]=${code}`, 'draft'), 2);
      // A document's own draft and published versions hold its value.
      assert.equal(
        (await server.api.put(`/api/items/${first.body.data.documentId}`, { data: { name: 'again' } })).status,
        200,
      );
    });

    it("a shared (non-localized) unique value must be free in each of the document's locales", async () => {
      const sku = 2_000_000 + Math.floor(Math.random() * 1_000_000);
      assert.equal((await server.api.post('/api/items?locale=fr', { data: { name: 'held in fr', sku } })).status, 201);
      const doc = (await server.api.post('/api/items', { data: { name: 'en only', sku: sku + 1 } })).body.data
        .documentId;
      assert.equal(
        (await server.api.put(`/api/items/${doc}?locale=fr`, { data: { name: 'now in fr too' } })).status,
        200,
      );
      // Written in en, copied to the document's fr versions, where another document holds it.
      assertNotUnique(await server.api.put(`/api/items/${doc}`, { data: { sku } }), 'sku', sku);
      assert.equal((await server.api.get(`/api/items/${doc}?locale=fr`)).body.data.sku, sku + 1, 'nothing written');
    });

    it('empty text and null are never taken', async () => {
      const name = `empty-${tag()}`;
      for (const code of ['', '', null, null]) {
        const res = await server.api.post('/api/plains', { data: { name, code } });
        assert.equal(res.status, 201, JSON.stringify(res.body));
      }
    });

    it('long unique text is compared whole (no index-size error), and concurrent equal values still collide', async () => {
      const notes = `${tag()}${'x'.repeat(6000)}`;
      const responses = await Promise.all(
        Array.from({ length: 4 }, (_, i) => on(i).post('/api/items', { data: { name: `n${i}`, notes } })),
      );
      assert.deepEqual(
        statuses(responses),
        [201, 400, 400, 400],
        JSON.stringify(responses.find((r) => r.status >= 500)?.body),
      );
      const differentEnd = await server.api.post('/api/items', { data: { name: 'n-end', notes: `${notes}y` } });
      assert.equal(differentEnd.status, 201, JSON.stringify(differentEnd.body));
    });

    it('non-text unique values (integers, dates) are enforced too', async () => {
      const sku = 100_000 + Math.floor(Math.random() * 1_000_000);
      const responses = await Promise.all(
        Array.from({ length: 6 }, (_, i) => on(i).post('/api/items', { data: { name: `k${i}`, sku } })),
      );
      assert.deepEqual(statuses(responses), [201, ...Array(5).fill(400)]);
      for (const res of responses.filter((r) => r.status === 400)) assertNotUnique(res, 'sku', sku);
    });
  });

  describe(`unique indexes on an existing database [${dialect}]`, () => {
    let database: TestDatabase;
    let project: TempProject;
    before(async () => {
      database = await createTestDatabase(dialect);
      project = copyProject(fixture('unique'));
    });
    after(async () => {
      project?.remove();
      await database?.drop();
    });
    const start = async (): Promise<{ vellum: Vellum; api: HttpClient }> => {
      const vellum = await createVellum(project.dir, {
        env: { NODE_ENV: 'test' },
        overrides: { server: { host: '127.0.0.1', port: 0 }, database: database.config },
      });
      return { vellum, api: new HttpClient(await vellum.listen(), await fullAccessHeaders(vellum)) };
    };
    const setUnique = (unique: boolean) =>
      project.editJson(PLAIN_SCHEMA, (json) => (json.attributes.code.unique = unique));

    it('duplicates already stored are reported at start-up instead of failing it; the index comes once they are resolved', async () => {
      setUnique(false);
      const before = await start();
      const a = await before.api.post('/api/plains', { data: { name: 'a', code: 'DUP' } });
      const b = await before.api.post('/api/plains', { data: { name: 'b', code: 'DUP' } });
      assert.equal(b.status, 201, 'not unique yet');
      await before.vellum.close();

      setUnique(true);
      const reported = await start();
      assert.equal(reported.vellum.sync.warnings.length, 1, JSON.stringify(reported.vellum.sync.warnings));
      assert.match(reported.vellum.sync.warnings[0]!, /plains\.code .*"code".*"DUP" x2/);
      assertNotUnique(await reported.api.post('/api/plains', { data: { name: 'c', code: 'DUP' } }), 'code', 'DUP');
      assert.equal(
        (await reported.api.put(`/api/plains/${b.body.data.documentId}`, { data: { code: 'DUP-2' } })).status,
        200,
      );
      await reported.vellum.close();

      const indexed = await start();
      assert.deepEqual(indexed.vellum.sync.warnings, []);
      const responses = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          indexed.api.post('/api/plains', { data: { name: `x${i}`, code: 'FRESH' } }),
        ),
      );
      assert.deepEqual(statuses(responses), [201, ...Array(5).fill(400)]);
      assert.equal((await indexed.api.get(`/api/plains/${a.body.data.documentId}`)).body.data.code, 'DUP');
      await indexed.vellum.close();
    });

    it('an attribute that stops being unique loses its index', async () => {
      setUnique(false);
      const { vellum, api } = await start();
      const responses = await Promise.all(
        Array.from({ length: 3 }, (_, i) => api.post('/api/plains', { data: { name: `f${i}`, code: 'FRESH' } })),
      );
      assert.deepEqual(statuses(responses), [201, 201, 201]);
      await vellum.close();
    });
  });
}
