/**
 * What project code reaches of Strapi's own machinery (issue 30, points 7, 10, 11):
 * `strapi.db.query` on Strapi's own models (the core store, administrators, roles, users, files),
 * the Document Service's `delete` answer, `auth: false` routes under an invalid token, and custom
 * fields stored and validated as the type `strapi.customFields.register` names. The fixtures'
 * answers are Strapi 5.54's (test/differential/project-code.diff.ts runs project-code on both).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openProject } from '../../src/app/open-project.js';
import { DIALECTS, fixture, startServer, type TestServer } from '../helpers/server.js';
import { unique } from '../helpers/unique.js';

for (const dialect of DIALECTS) {
  describe(`project code and Strapi's own models [${dialect}]`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect, { project: fixture('project-code') });
    });
    after(() => server?.close());

    it("strapi.db.query('strapi::core-store'): the rows strapi.store writes, and writes of its own", async () => {
      const key = unique('store').replace(/-/g, '_');
      const res = await server.publicApi.get(`/api/probe/store/${key}`);
      assert.equal(res.status, 200, res.text);
      const prefix = `plugin_probe_${key}`;
      const body = res.body;
      assert.deepEqual(
        { ...body.row, id: typeof body.row.id },
        { id: 'number', key: prefix, value: '{"n":1,"list":["a"]}', type: 'object', environment: null, tag: null },
      );
      assert.deepEqual(body.selected, { key: prefix, type: 'object' });
      assert.deepEqual(body.many, [
        { key: `${prefix}_count`, value: '3', type: 'number' },
        { key: prefix, value: '{"n":1,"list":["a"]}', type: 'object' },
      ]);
      assert.deepEqual(body.paged, [{ key: `${prefix}_count` }]);
      assert.equal(body.count, 2);
      assert.equal(body.created.key, `${prefix}_raw`);
      assert.deepEqual(body.readBack, { raw: true });
      assert.equal(body.updated.value, '{"raw":false}');
      assert.deepEqual(body.readAgain, { raw: false });
      assert.equal(body.deleted.key, `${prefix}_raw`);
      assert.equal(body.gone, null);
      assert.equal(body.missing, null);
    });

    it("strapi.db.query('admin::user') reads administrators as Strapi's rows; writes are refused", async () => {
      const email = `${unique('admin')}@example.com`;
      await server.vellum.auth.admins.create(email, 'Admin-Passw0rd!');
      const res = await server.publicApi.get(`/api/probe/admins?email=${encodeURIComponent(email)}`);
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(
        { ...res.body.found, id: typeof res.body.found.id },
        { id: 'number', email, isActive: true, blocked: false },
      );
      // The bcrypt hash, as Strapi's query engine answers it (never through the content API).
      assert.equal(res.body.hashed, true);
      for (const key of [
        'id',
        'email',
        'password',
        'firstname',
        'lastname',
        'username',
        'isActive',
        'blocked',
        'createdAt',
        'updatedAt',
      ])
        assert.ok(res.body.keys.includes(key), key);
      assert.deepEqual(res.body.many, [{ email }]);
      assert.equal(res.body.count, 1);
      assert.deepEqual(res.body.none, []);
      const admins = server.vellum.documents.engine.query('admin::user');
      await assert.rejects(
        admins.create({ data: { email: 'x@example.com' } }),
        (error: Error) => error.name === 'ValidationError' && /read-only/.test(error.message),
      );
      await assert.rejects(admins.findMany({ where: { nope: 1 } }), (error: Error) => error.name === 'ValidationError');
      const roles = await admins.findOne({ where: { email }, select: ['id'], populate: ['roles'] });
      assert.deepEqual(roles?.roles, [
        {
          id: 1,
          name: 'Super Admin',
          code: 'strapi-super-admin',
          description: 'Super Admins can access and manage all features and settings.',
        },
      ]);
    });

    it('strapi.db.query on roles, users and files', async () => {
      const name = unique('models').replace(/-/g, '');
      const registered = await server.publicApi.post('/api/auth/local/register', {
        username: name,
        email: `${name}@example.com`,
        password: 'Passw0rd!',
      });
      assert.equal(registered.status, 200, registered.text);
      const res = await server.publicApi.get(`/api/probe/models?name=${name}`);
      assert.equal(res.status, 200, res.text);
      assert.equal(typeof res.body.users[0]?.id, 'number', 'id is answered when something is populated');
      assert.deepEqual(
        { ...res.body, users: res.body.users.map(({ id: _id, ...user }: Record<string, unknown>) => user) },
        {
          role: { name: 'Public', type: 'public' },
          roles: 2,
          // Only what the populate's select names, as Strapi's query engine answers.
          users: [
            {
              username: name,
              email: `${name}@example.com`,
              confirmed: true,
              blocked: false,
              role: { type: 'authenticated' },
            },
          ],
          files: [],
          fileCount: 0,
        },
      );
    });

    it("the Document Service's delete answers the rows it deleted, as Strapi's", async () => {
      const name = unique('Deleted writer');
      const writer = await server.publicApi.delete(`/api/probe/writers/${encodeURIComponent(name)}`);
      assert.equal(writer.status, 200, writer.text);
      assert.equal(writer.body.same, true);
      assert.equal(writer.body.answer.entries.length, 1);
      assert.equal(writer.body.answer.entries[0].name, name);
      assert.deepEqual(writer.body.again.entries, []);
      const title = unique('Deleted article');
      const article = await server.publicApi.delete(`/api/probe/articles/${encodeURIComponent(title)}`);
      assert.equal(article.status, 200, article.text);
      // The draft and the published row.
      assert.deepEqual(
        article.body.answer.entries.map((entry: { title: string; publishedAt: string | null }) => [
          entry.title,
          entry.publishedAt === null,
        ]),
        [
          [title, true],
          [title, false],
        ],
      );
      assert.deepEqual(
        article.body.fields.entries.map((entry: Record<string, unknown>) => Object.keys(entry).sort()),
        [['documentId', 'id', 'title']],
      );
      assert.deepEqual(
        article.body.fields.entries.map((entry: Record<string, unknown>) => entry.title),
        [`${title} 2`],
      );
    });

    it('auth: false routes ignore an invalid token; other routes refuse it', async () => {
      const bad = { headers: { authorization: 'Bearer garbage' } };
      const open = await server.publicApi.get('/api/probe/created', bad);
      assert.equal(open.status, 201, open.text);
      const core = await server.publicApi.get('/api/notes?filters[text][$eq]=nothing', bad);
      assert.equal(core.status, 200, core.text);
      const guarded = await server.publicApi.get('/api/writers', bad);
      assert.equal(guarded.status, 401, guarded.text);
    });
  });

  describe(`a core router with prefix and except [${dialect}]`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect, { project: fixture('project-code') });
    });
    after(() => server?.close());

    it('is served under its prefix only; what except leaves out is a 405', async () => {
      const text = unique('label');
      const created = await server.api.post('/api/v2/labels', { data: { text } });
      assert.equal(created.status, 201, created.text);
      const id = created.body.data.documentId;
      const list = await server.publicApi.get(`/api/v2/labels?filters[text][$eq]=${text}`, {
        headers: { authorization: 'Bearer garbage' },
      });
      assert.equal(list.status, 200, list.text);
      assert.deepEqual(
        list.body.data.map((l: { text: string }) => l.text),
        [text],
      );
      assert.equal((await server.api.get(`/api/v2/labels/${id}`)).status, 200);
      assert.equal((await server.api.get('/api/labels')).status, 404);
      assert.equal((await server.api.get(`/api/labels/${id}`)).status, 404);
      for (const answer of [
        await server.api.put(`/api/v2/labels/${id}`, { data: { text: 'x' } }),
        await server.api.delete(`/api/v2/labels/${id}`),
      ]) {
        assert.equal(answer.status, 405);
        assert.equal(answer.headers.get('allow'), 'HEAD, GET');
      }
    });
  });

  describe(`custom fields [${dialect}]`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect, { project: fixture('custom-fields') });
    });
    after(() => server?.close());

    it('one warning for a custom field nothing registers', () => {
      const about = server.vellum.warnings.filter((warning) => warning.includes('custom field'));
      assert.equal(about.length, 1, about.join('\n'));
      assert.match(about[0]!, /plugin::absent-plugin\.icon/);
      assert.match(about[0]!, /"icon"/);
    });

    it('a registered custom field is stored and validated as its type', async () => {
      const name = unique('swatch');
      const created = await server.api.post('/api/swatches', {
        data: { name, color: '#A0B1C2', rating: 4, icon: { set: 'fa', name: 'star' } },
      });
      assert.equal(created.status, 201, created.text);
      assert.equal(created.body.data.color, '#A0B1C2');
      assert.equal(created.body.data.rating, 4);
      assert.deepEqual(created.body.data.icon, { set: 'fa', name: 'star' });
      // A string custom field: an object is no string; its regex applies.
      for (const data of [
        { name, color: { r: 1 } },
        { name, color: 'red' },
        { name, rating: 'four' },
        { name, rating: 6 },
      ]) {
        const refused = await server.api.post('/api/swatches', { data });
        assert.equal(refused.status, 400, `${JSON.stringify(data)}: ${refused.text}`);
        assert.equal(refused.body.error.name, 'ValidationError');
      }
      // Filters and sorts read them as their types.
      const found = await server.api.get(
        `/api/swatches?filters[name][$eq]=${name}&filters[rating][$gte]=3&filters[color][$startsWithi]=%23a0`,
      );
      assert.equal(found.status, 200, found.text);
      assert.deepEqual(
        found.body.data.map((s: { name: string }) => s.name),
        [name],
      );
    });

    it('commands that open the project (import, export) give custom fields the same types', async () => {
      // The tables were made with the registered types: a command seeing JSON would refuse them.
      const project = await openProject(fixture('custom-fields'), {
        env: { NODE_ENV: 'test' },
        overrides: { database: server.databaseConfig },
      });
      try {
        const swatch = project.schema.contentTypes.get('api::swatch.swatch')!;
        assert.deepEqual(
          ['color', 'rating', 'icon'].map((name) => (swatch.attributes[name] as { type: string }).type),
          ['string', 'integer', 'json'],
        );
      } finally {
        await project.close();
      }
    });
  });
}
