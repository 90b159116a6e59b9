/**
 * The admin API's access routes (features/admin/access.ts), what the panel's settings screens call:
 * roles and their permissions at Strapi's `/admin/users-permissions/...` paths, the content API's
 * users (listed, searched, edited, deleted), administrators (never oneself, never the last), and
 * custom API tokens. Each change is checked on the content API it governs.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { HttpClient } from '../helpers/http.js';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';
import { unique } from '../helpers/unique.js';

const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });
const ARTICLE = 'api::article.article';

for (const dialect of DIALECTS) {
  describe(`admin API: roles, users, administrators, custom tokens [${dialect}]`, () => {
    let server: TestServer;
    let admin: HttpClient;
    let adminId: number;
    const adminEmail = `${unique('root')}@example.com`;

    const login = async (identifier: string, password: string) =>
      server.publicApi.post('/api/auth/local', { identifier, password });
    const adminLogin = async (email: string, password: string) =>
      server.publicApi.post('/admin/login', { email, password });
    /** The role of that name, as the list answers it. */
    const roleNamed = async (name: string) =>
      (
        (await admin.get('/admin/users-permissions/roles')).body.roles as {
          id: number;
          name: string;
          type: string;
          nb_users: number;
        }[]
      ).find((role) => role.name === name);

    before(async () => {
      server = await startServer(dialect);
      const created = await server.vellum.auth.admins.create(adminEmail, 'an-admin-password');
      adminId = created.id;
      const res = await adminLogin(adminEmail, 'an-admin-password');
      admin = new HttpClient(server.url, { authorization: `Bearer ${res.body.data.token}` });
    });
    after(async () => {
      await server?.close();
    });

    it('roles: listed with their users, created, their permissions saved in one request, deleted', async () => {
      const tree = (await admin.get('/admin/users-permissions/permissions')).body.permissions;
      assert.deepEqual(tree['api::article'].controllers.article.find, { enabled: false, policy: '' });
      assert.ok(tree['plugin::users-permissions'].controllers.user.find, 'the plugin groups are listed');

      const name = unique('Editors');
      assert.deepEqual((await admin.post('/admin/users-permissions/roles', { name, description: 'They write' })).body, {
        ok: true,
      });
      const role = (await roleNamed(name))!;
      assert.equal(role.nb_users, 0);
      const permissions = {
        'api::article': { controllers: { article: { find: { enabled: true }, create: { enabled: true } } } },
      };
      assert.equal(
        (
          await admin.put(`/admin/users-permissions/roles/${role.id}`, {
            name,
            description: 'They write articles',
            permissions,
          })
        ).status,
        200,
      );
      const read = (await admin.get(`/admin/users-permissions/roles/${role.id}`)).body.role;
      assert.equal(read.description, 'They write articles');
      assert.equal(read.permissions['api::article'].controllers.article.create.enabled, true);
      assert.equal(read.permissions['api::article'].controllers.article.delete.enabled, false);

      const user = await admin.post('/admin/users-permissions/users', {
        username: unique('ed'),
        email: `${unique('ed')}@example.com`,
        password: 'secret123',
        role: String(role.id),
      });
      assert.equal(user.status, 201, JSON.stringify(user.body));
      assert.equal((await roleNamed(name))!.nb_users, 1);
      const jwt = (await login(user.body.data.username, 'secret123')).body.jwt;
      assert.equal((await server.publicApi.get('/api/articles', bearer(jwt))).status, 200);
      const article = await server.publicApi.post(
        '/api/articles',
        { data: { title: unique('by an editor') } },
        bearer(jwt),
      );
      assert.equal(article.status, 201, JSON.stringify(article.body));
      assert.equal(
        (await server.publicApi.delete(`/api/articles/${article.body.data.documentId}`, bearer(jwt))).status,
        403,
      );

      // Refused before anything is written.
      const unknown = await admin.put(`/admin/users-permissions/roles/${role.id}`, {
        permissions: { 'api::nothing': { controllers: { nothing: { find: { enabled: true } } } } },
      });
      assert.equal(unknown.status, 400);
      assert.match(unknown.body.error.message, /Unknown action/);
      assert.equal((await admin.post('/admin/users-permissions/roles', {})).status, 400);
      assert.equal((await admin.get('/admin/users-permissions/roles/999999')).status, 404);
      const publicRole = (await roleNamed('Public'))!;
      const refused = await admin.delete(`/admin/users-permissions/roles/${publicRole.id}`);
      assert.equal(refused.status, 400);
      assert.equal(refused.body.error.message, 'Cannot delete public role');

      assert.deepEqual((await admin.delete(`/admin/users-permissions/roles/${role.id}`)).body, { ok: true });
      assert.equal(await roleNamed(name), undefined);
      assert.equal(
        (await server.api.get('/admin/users-permissions/roles')).status,
        401,
        'content API credentials are no administrator',
      );
    });

    it('users: paginated and searched on the server, edited (an empty password keeps it), blocked, deleted', async () => {
      const tag = unique('people').toLowerCase();
      const made = [];
      for (let n = 0; n < 3; n += 1) {
        const res = await admin.post('/admin/users-permissions/users', {
          username: `${tag}-${n}`,
          email: `${tag}-${n}@example.com`,
          password: 'secret123',
          confirmed: n !== 2,
        });
        assert.equal(res.status, 201, JSON.stringify(res.body));
        made.push(res.body.data);
      }
      const page = await admin.get(`/admin/users-permissions/users?search=${tag}&pageSize=2&page=2&sort=username:asc`);
      assert.equal(page.status, 200, JSON.stringify(page.body));
      assert.deepEqual(page.body.meta.pagination, { page: 2, pageSize: 2, pageCount: 2, total: 3 });
      assert.deepEqual(
        page.body.data.map((u: { username: string }) => u.username),
        [`${tag}-2`],
      );
      assert.equal(page.body.data[0].confirmed, false);
      assert.equal(page.body.data[0].role.type, 'authenticated', 'each with its role');
      assert.ok(!JSON.stringify(page.body).includes('password'), 'never a password');
      const byEmail = await admin.get(
        `/admin/users-permissions/users?search=${encodeURIComponent(`${tag}-1@EXAMPLE`)}`,
      );
      assert.deepEqual(
        byEmail.body.data.map((u: { username: string }) => u.username),
        [`${tag}-1`],
      );
      const unknownRole = await admin.post('/admin/users-permissions/users', {
        username: `${tag}-x`,
        email: `${tag}-x@example.com`,
        password: 'secret123',
        role: 'no-such-role',
      });
      assert.equal(unknownRole.status, 400);
      assert.deepEqual(unknownRole.body.error.details.errors[0].path, ['role']);
      for (const bad of ['pageSize=0', 'pageSize=101', 'page=x', 'sort=password:asc', 'sort=username:up']) {
        assert.equal((await admin.get(`/admin/users-permissions/users?${bad}`)).status, 400, bad);
      }

      const [first] = made;
      const editor = (await admin.get('/admin/content-api/roles')).body.data.find(
        (r: { type: string }) => r.type === 'public',
      );
      const edited = await admin.put(`/admin/users-permissions/users/${first.id}`, {
        username: `${tag}-renamed`,
        email: `${tag}-renamed@example.com`,
        role: editor.id,
        confirmed: true,
        blocked: false,
      });
      assert.equal(edited.status, 200, JSON.stringify(edited.body));
      assert.equal(edited.body.data.username, `${tag}-renamed`);
      assert.equal(edited.body.data.role.type, 'public');
      assert.equal((await login(`${tag}-renamed`, 'secret123')).status, 200, 'no password sent: the password is kept');
      assert.equal(
        (await admin.put(`/admin/users-permissions/users/${first.id}`, { password: 'another-secret' })).status,
        200,
      );
      assert.equal((await login(`${tag}-renamed`, 'another-secret')).status, 200);

      const bad = await admin.put(`/admin/users-permissions/users/${first.id}`, { email: 'not an email' });
      assert.equal(bad.status, 400);
      assert.deepEqual(bad.body.error.details.errors[0].path, ['email']);
      const taken = await admin.put(`/admin/users-permissions/users/${first.id}`, { username: `${tag}-1` });
      assert.equal(taken.status, 400);
      assert.equal(taken.body.error.message, 'Username already taken');
      assert.equal((await admin.put(`/admin/users-permissions/users/${first.id}`, { blocked: 'yes' })).status, 400);
      assert.equal((await admin.put(`/admin/users-permissions/users/${first.id}`, {})).status, 400);

      const jwt = (await login(`${tag}-renamed`, 'another-secret')).body.jwt;
      assert.equal(
        (await admin.put(`/admin/users-permissions/users/${first.id}`, { blocked: true })).body.data.blocked,
        true,
      );
      assert.equal((await server.publicApi.get('/api/articles', bearer(jwt))).status, 401);
      assert.equal((await login(`${tag}-renamed`, 'another-secret')).status, 400, 'a blocked user cannot log in');
      assert.equal(
        (await admin.put(`/admin/users-permissions/users/${first.id}`, { blocked: false })).body.data.blocked,
        false,
      );
      assert.equal((await login(`${tag}-renamed`, 'another-secret')).status, 200);

      assert.equal(
        (await admin.get(`/admin/users-permissions/users/${first.id}`)).body.data.email,
        `${tag}-renamed@example.com`,
      );
      assert.equal((await admin.delete(`/admin/users-permissions/users/${first.id}`)).status, 200);
      assert.equal((await admin.get(`/admin/users-permissions/users/${first.id}`)).status, 404);
      assert.equal((await admin.delete(`/admin/users-permissions/users/${first.id}`)).status, 404);
      assert.equal((await admin.get('/admin/users-permissions/users/abc')).status, 404);
    });

    it('administrators: created, listed without passwords, never oneself deleted, never the last; a password changed', async () => {
      const email = `${unique('second')}@example.com`;
      const created = await admin.post('/admin/administrators', {
        email: email.toUpperCase(),
        password: 'second-password',
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assert.equal(created.body.data.email, email);
      for (const bad of [
        { email: 'nope', password: 'second-password' },
        { email: `${unique('x')}@example.com`, password: 'short' },
        { email, password: 'second-password' },
        { password: 'second-password' },
      ]) {
        const res = await admin.post('/admin/administrators', bad);
        assert.equal(res.status, 400, JSON.stringify(bad));
      }
      const list = await admin.get('/admin/administrators');
      assert.deepEqual(
        list.body.data
          .map((a: { email: string }) => a.email)
          .filter((e: string) => e === email || e === adminEmail)
          .sort(),
        [adminEmail, email].sort(),
      );
      assert.ok(!JSON.stringify(list.body).includes('password'));
      assert.equal((await admin.get('/admin/administrators/me')).body.data.id, adminId);

      const self = await admin.delete(`/admin/administrators/${adminId}`);
      assert.equal(self.status, 400);
      assert.match(self.body.error.message, /your own/);
      let second = new HttpClient(server.url, {
        authorization: `Bearer ${(await adminLogin(email, 'second-password')).body.data.token}`,
      });
      assert.equal((await second.get('/admin/administrators/me')).body.data.email, email);

      // Changing one's own password: the current one first.
      const wrong = await second.put('/admin/administrators/me/password', {
        currentPassword: 'not-it',
        password: 'a-third-password',
      });
      assert.equal(wrong.status, 400);
      assert.deepEqual(wrong.body.error.details.errors[0].path, ['currentPassword']);
      assert.equal(
        (
          await second.put('/admin/administrators/me/password', {
            currentPassword: 'second-password',
            password: 'short',
          })
        ).status,
        400,
      );
      const elsewhere = new HttpClient(server.url, {
        authorization: `Bearer ${(await adminLogin(email, 'second-password')).body.data.token}`,
      });
      const changed = await second.put('/admin/administrators/me/password', {
        currentPassword: 'second-password',
        password: 'a-third-password',
      });
      assert.equal(changed.status, 200);
      assert.ok(!JSON.stringify(changed.body).includes('a-third-password'));
      // Its earlier tokens end (this one and another browser's); the answer's token goes on.
      assert.equal((await elsewhere.get('/admin/administrators/me')).status, 401);
      assert.equal((await second.get('/admin/administrators/me')).status, 401);
      second = new HttpClient(server.url, { authorization: `Bearer ${changed.body.data.token}` });
      assert.equal((await second.get('/admin/administrators/me')).body.data.email, email);
      assert.equal((await adminLogin(email, 'second-password')).status, 400);
      assert.equal((await adminLogin(email, 'a-third-password')).status, 200);

      assert.equal((await admin.delete(`/admin/administrators/${created.body.data.id}`)).status, 200);
      assert.equal((await adminLogin(email, 'a-third-password')).status, 400);
      assert.equal(
        (await second.get('/admin/administrators')).status,
        401,
        'a deleted administrator is refused at once',
      );
      assert.equal((await admin.delete(`/admin/administrators/${created.body.data.id}`)).status, 404);
      assert.equal((await admin.delete('/admin/administrators/me')).status, 404);

      // The last one stays (reached only by a concurrent removal over HTTP, so asked of the service).
      const others = (await server.vellum.auth.admins.list()).filter((a) => a.id !== adminId);
      for (const other of others) await server.vellum.auth.admins.remove(other.id, adminId);
      await assert.rejects(
        server.vellum.auth.admins.remove(adminId, -1),
        /You must have at least one user with super admin role/,
      );
    });

    it('two administrators deleting each other at once leave one of them', async () => {
      const others = (await server.vellum.auth.admins.list()).filter((a) => a.id !== adminId);
      for (const other of others) await server.vellum.auth.admins.remove(other.id, adminId);
      const email = `${unique('peer')}@example.com`;
      const peer = (await admin.post('/admin/administrators', { email, password: 'a-peer-password' })).body.data;
      const peerClient = new HttpClient(server.url, {
        authorization: `Bearer ${(await adminLogin(email, 'a-peer-password')).body.data.token}`,
      });
      const answers = await Promise.all([
        admin.delete(`/admin/administrators/${peer.id}`),
        peerClient.delete(`/admin/administrators/${adminId}`),
      ]);
      const statuses = answers.map((answer) => answer.status).sort();
      // One wins; the other finds itself the last (400) or already gone (401: its token names no one;
      // 403: deleted between its authentication and the check of its roles, which it no longer has).
      assert.equal(statuses.filter((status) => status === 200).length, 1, JSON.stringify(answers.map((a) => a.body)));
      assert.ok(
        statuses.every((status) => [200, 400, 401, 403].includes(status)),
        JSON.stringify(statuses),
      );
      assert.equal((await server.vellum.auth.admins.list()).length, 1);
      // Whoever is left: the suite's administrator again, for the tests after this one.
      const [left] = await server.vellum.auth.admins.list();
      if (left!.id !== adminId) {
        adminId = (await server.vellum.auth.admins.create(adminEmail, 'an-admin-password')).id;
        await server.vellum.auth.admins.remove(left!.id, adminId);
        admin = new HttpClient(server.url, {
          authorization: `Bearer ${(await adminLogin(adminEmail, 'an-admin-password')).body.data.token}`,
        });
      }
    });

    it('a custom API token with find on articles lists them and is refused a create', async () => {
      const name = unique('custom');
      const created = await admin.post('/admin/api-tokens', { name, type: 'custom', permissions: [`${ARTICLE}.find`] });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assert.deepEqual(created.body.data.permissions, [`${ARTICLE}.find`]);
      const client = bearer(created.body.data.accessKey);
      assert.equal((await server.publicApi.get('/api/articles', client)).status, 200);
      assert.equal((await server.publicApi.post('/api/articles', { data: { title: name } }, client)).status, 403);
      assert.equal((await server.publicApi.get('/api/tags', client)).status, 403);
      assert.equal(
        (
          await admin.post('/admin/api-tokens', {
            name: unique('bad'),
            type: 'custom',
            permissions: ['api::nothing.nothing.find'],
          })
        ).status,
        400,
      );
      assert.equal((await admin.delete(`/admin/api-tokens/${created.body.data.id}`)).status, 200);
      assert.equal((await server.publicApi.get('/api/articles', client)).status, 401);
    });
  });
}
