/**
 * The administration surface: the `vellum` CLI (run as users run it, on the server's database) and
 * the admin REST API under /admin/, reachable only with an administrator's JWT.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { HttpClient } from '../helpers/http.js';
import { adminClient } from '../helpers/admins.js';
import { copyProject, type TempProject } from '../helpers/projects.js';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';
import { cliOutput } from '../helpers/cli.js';

const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

for (const dialect of DIALECTS) {
  describe(`administration: CLI and admin API [${dialect}]`, () => {
    let project: TempProject;
    let server: TestServer;
    let admin: HttpClient;
    const vellum = (...args: string[]) => cliOutput([...args, '--project', project.dir]);

    before(async () => {
      project = copyProject();
      server = await startServer(dialect, { project: project.dir });
      // The CLI finds the server's database through the project's configuration, as in production.
      rmSync(join(project.dir, 'config/database.js'));
      project.write('config/database.json', JSON.stringify(server.databaseConfig));
      // The administrator of the admin API tests (the first test creates another with the CLI).
      admin = (await adminClient(server, 'admin@example.com')).client;
    });
    after(async () => {
      await server?.close();
      project?.remove();
    });

    it('`vellum admin create` makes an administrator who logs in at /admin/login', async () => {
      assert.match(
        await vellum('admin', 'create', '--email', 'Root@Example.com', '--password', 'a-long-password'),
        /created/,
      );
      const refused = await server.publicApi.post('/admin/login', {
        email: 'root@example.com',
        password: 'wrong-password',
      });
      assert.equal(refused.status, 400);
      const login = await server.publicApi.post('/admin/login', {
        email: 'root@example.com',
        password: 'a-long-password',
      });
      assert.equal(login.status, 200);
      const root = new HttpClient(server.url, { authorization: `Bearer ${login.body.data.token}` });
      assert.equal((await root.get('/admin/api-tokens')).status, 200);
      await assert.rejects(vellum('admin', 'create', '--email', 'x@example.com', '--password', 'short'));
    });

    it('the admin API refuses content API credentials: tokens, user JWTs, nothing', async () => {
      const jwt = (
        await server.publicApi.post('/api/auth/local/register', {
          username: 'someone',
          email: 'someone@example.com',
          password: 'secret123',
        })
      ).body.jwt;
      for (const client of [
        server.api,
        server.publicApi,
        new HttpClient(server.url, { authorization: `Bearer ${jwt}` }),
      ]) {
        const res = await client.get('/admin/api-tokens');
        assert.equal(res.status, 401);
        assert.equal(res.body.error.name, 'UnauthorizedError');
      }
      const adminJwt = admin.defaultHeaders.authorization!.slice('Bearer '.length);
      assert.equal(
        (await server.publicApi.get('/api/articles', bearer(adminJwt))).status,
        401,
        'and admin JWTs are not content credentials',
      );
    });

    it('`vellum token create` prints a token once; it works until `vellum token revoke`', async () => {
      const output = await vellum('token', 'create', '--type', 'read-only', '--name', 'ci');
      const token = output.trim().split('\n').at(-1)!;
      assert.match(token, /^[0-9a-f]{256}$/);
      const reader = new HttpClient(server.url, { authorization: `Bearer ${token}` });
      assert.equal((await reader.get('/api/articles')).status, 200);
      assert.equal((await reader.post('/api/tags', { data: { name: 'no' } })).status, 403);
      const listed = JSON.parse(await vellum('token', 'list'));
      const ci = listed.find((t: { name: string }) => t.name === 'ci');
      assert.equal(ci.type, 'read-only');
      assert.doesNotMatch(JSON.stringify(listed), new RegExp(token.slice(0, 40)), 'never shown again');
      await vellum('token', 'revoke', 'ci');
      assert.equal((await reader.get('/api/articles')).status, 401);
    });

    it('`vellum permissions grant|revoke` and `vellum user create` act on the running node at once', async () => {
      assert.equal((await server.publicApi.post('/api/tags', { data: { name: 'a' } })).status, 403);
      await vellum('permissions', 'grant', 'public', 'api::tag.tag.create');
      assert.equal((await server.publicApi.post('/api/tags', { data: { name: 'b' } })).status, 201);
      await vellum('permissions', 'revoke', 'public', 'api::tag.tag.create');
      assert.equal((await server.publicApi.post('/api/tags', { data: { name: 'c' } })).status, 403);
      await vellum('user', 'create', '--username', 'cliuser', '--email', 'cli@example.com', '--password', 'secret123');
      assert.equal(
        (await server.publicApi.post('/api/auth/local', { identifier: 'cliuser', password: 'secret123' })).status,
        200,
      );
      await assert.rejects(vellum('permissions', 'grant', 'public', 'api::nothing.here.find'), /names no known action/);
    });

    it('admin API: API tokens (custom, expiring), shown once, revoked', async () => {
      const created = await admin.post('/admin/api-tokens', {
        name: 'importer',
        type: 'custom',
        permissions: ['api::tag.tag.*'],
        lifespan: 86_400_000,
      });
      assert.equal(created.status, 201);
      assert.deepEqual(created.body.data.permissions, [
        'api::tag.tag.create',
        'api::tag.tag.delete',
        'api::tag.tag.find',
        'api::tag.tag.findOne',
        'api::tag.tag.update',
      ]);
      assert.ok(Date.parse(created.body.data.expiresAt) > Date.now());
      const importer = new HttpClient(server.url, { authorization: `Bearer ${created.body.data.accessKey}` });
      assert.equal((await importer.post('/api/tags', { data: { name: 'imported' } })).status, 201);
      assert.equal((await importer.get('/api/articles')).status, 403);
      const list = await admin.get('/admin/api-tokens');
      assert.equal(list.body.data.find((t: { name: string }) => t.name === 'importer').accessKey, undefined);
      for (const bad of [
        { name: 'x', type: 'root' },
        { name: '', type: 'read-only' },
        { name: 'y', type: 'custom', permissions: [] },
        { name: 'importer', type: 'read-only' },
      ]) {
        assert.equal((await admin.post('/admin/api-tokens', bad)).status, 400, JSON.stringify(bad));
      }
      assert.equal((await admin.delete(`/admin/api-tokens/${created.body.data.id}`)).status, 200);
      assert.equal((await importer.get('/api/tags')).status, 401);
    });

    it('admin API: roles, grants and revokes, users and registration', async () => {
      const role = await admin.post('/admin/content-api/roles', { name: 'Reviewer' });
      assert.equal(role.status, 201);
      const granted = await admin.post('/admin/content-api/roles/reviewer/permissions', {
        actions: ['api::article.article.find', 'api::article.article.update'],
      });
      assert.deepEqual(granted.body.data.permissions, ['api::article.article.find', 'api::article.article.update']);
      const user = await admin.post('/admin/users-permissions/users', {
        username: 'rita',
        email: 'rita@example.com',
        password: 'secret123',
        role: 'reviewer',
      });
      assert.equal(user.status, 201);
      const jwt = (await server.publicApi.post('/api/auth/local', { identifier: 'rita', password: 'secret123' })).body
        .jwt;
      assert.equal((await server.publicApi.get('/api/articles', bearer(jwt))).status, 200);
      await admin.delete(
        `/admin/content-api/roles/reviewer/permissions/${encodeURIComponent('api::article.article.find')}`,
      );
      assert.equal((await server.publicApi.get('/api/articles', bearer(jwt))).status, 403);
      const roles = (await admin.get('/admin/content-api/roles')).body.data.map((r: { type: string }) => r.type);
      // Listed by id: Authenticated is role 1 and Public role 2, as Strapi's bootstrap creates them.
      assert.deepEqual(roles.slice(0, 2), ['authenticated', 'public']);

      assert.equal(
        (await admin.put(`/admin/users-permissions/users/${user.body.data.id}`, { blocked: true })).body.data.blocked,
        true,
      );
      assert.equal((await server.publicApi.get('/api/articles', bearer(jwt))).status, 401);

      await admin.put('/admin/settings', { allowRegister: false });
      assert.equal(
        (
          await server.publicApi.post('/api/auth/local/register', {
            username: 'late',
            email: 'late@example.com',
            password: 'secret123',
          })
        ).status,
        400,
      );
      await admin.put('/admin/settings', { allowRegister: true });
      assert.equal(
        (
          await server.publicApi.post('/api/auth/local/register', {
            username: 'late',
            email: 'late@example.com',
            password: 'secret123',
          })
        ).status,
        200,
      );
    });
  });
}
