/**
 * Strapi's role and permissions routes on the content API: `GET|POST
 * /api/users-permissions/roles`, `GET|PUT|DELETE /api/users-permissions/roles/:id`, `GET
 * /api/users-permissions/permissions`, their answers (`{ roles }` with `nb_users`, `{ role }` with
 * the permissions tree, `{ ok: true }`) and permission checks; refused requests change nothing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { HttpClient } from '../helpers/http.js';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';
import { unique } from '../helpers/unique.js';

const ROLE = 'plugin::users-permissions.role';
const BASE = '/api/users-permissions';
const tree = (...actions: string[]) => {
  const result: Record<string, { controllers: Record<string, Record<string, { enabled: boolean }>> }> = {};
  for (const action of actions) {
    const [type, controller, name] = action.split('.') as [string, string, string];
    ((result[type] ??= { controllers: {} }).controllers[controller] ??= {})[name] = { enabled: true };
  }
  return result;
};

for (const dialect of DIALECTS) {
  describe(`roles and permissions routes [${dialect}]`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect);
    });
    after(() => server?.close());

    const signIn = async (actions: string[]) => {
      const role = await server.vellum.auth.roles.create(unique('role'));
      if (actions.length) await server.vellum.auth.roles.grant(role.documentId, actions);
      const username = unique('u');
      const user = await server.vellum.auth.users.create({
        username,
        email: `${username}@example.com`,
        password: 'secret123',
        role: role.documentId,
      });
      const login = await server.publicApi.post('/api/auth/local', { identifier: username, password: 'secret123' });
      return {
        id: user.id as number,
        role,
        client: new HttpClient(server.url, { authorization: `Bearer ${login.body.jwt}` }),
      };
    };
    const roleByName = async (name: string) =>
      ((await server.api.get(`${BASE}/roles`)).body.roles as Record<string, unknown>[]).find(
        (role) => role.name === name,
      );

    it('GET /roles answers { roles } by name with nb_users; it needs role.find', async () => {
      assert.equal((await server.publicApi.get(`${BASE}/roles`)).status, 403);
      const reader = await signIn([`${ROLE}.find`]);
      const res = await reader.client.get(`${BASE}/roles`);
      assert.equal(res.status, 200);
      const roles = res.body.roles as {
        id: number;
        documentId: string;
        name: string;
        type: string;
        nb_users: number;
      }[];
      const names = roles.map((role) => role.name);
      assert.deepEqual(
        names,
        [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
      );
      const own = roles.find((role) => role.documentId === reader.role.documentId)!;
      assert.equal(own.nb_users, 1);
      assert.equal(typeof own.id, 'number');
      assert.ok(roles.some((role) => role.type === 'public') && roles.some((role) => role.type === 'authenticated'));
      assert.equal(
        (await reader.client.get(`${BASE}/roles/${reader.role.id}`)).status,
        403,
        'findOne is another action',
      );
    });

    it('a new database has Authenticated as role 1 and Public as role 2, as Strapi creates them', async () => {
      const ids = Object.fromEntries(
        ((await server.api.get(`${BASE}/roles`)).body.roles as { id: number; type: string }[]).map((role) => [
          role.type,
          role.id,
        ]),
      );
      assert.equal(ids.authenticated, 1);
      assert.equal(ids.public, 2);
      // Project code names the role by that id when it creates a user.
      const username = unique('r1');
      const created = await server.api.post('/api/users', {
        username,
        email: `${username}@example.com`,
        password: 'secret123',
        role: 1,
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const login = await server.publicApi.post('/api/auth/local', { identifier: username, password: 'secret123' });
      const me = await new HttpClient(server.url, { authorization: `Bearer ${login.body.jwt}` }).get(
        '/api/users/me?populate=role',
      );
      assert.equal((me.body.role as { type: string }).type, 'authenticated');
    });

    it('GET /roles/:id answers { role } with the permissions tree of every action; 404 for an unknown role', async () => {
      const reader = await signIn([`${ROLE}.findOne`]);
      const res = await reader.client.get(`${BASE}/roles/${reader.role.id}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const { role } = res.body;
      assert.deepEqual(
        [role.id, role.documentId, role.name, role.type],
        [reader.role.id, reader.role.documentId, reader.role.name, reader.role.type],
      );
      assert.deepEqual(role.permissions['plugin::users-permissions'].controllers.role.findOne, {
        enabled: true,
        policy: '',
      });
      assert.deepEqual(role.permissions['plugin::users-permissions'].controllers.role.find, {
        enabled: false,
        policy: '',
      });
      assert.deepEqual(role.permissions['api::article'].controllers.article.find, { enabled: false, policy: '' });
      const publicRole = (await reader.client.get(`${BASE}/roles/${(await server.vellum.auth.roles.get('public')).id}`))
        .body.role;
      assert.equal(
        publicRole.permissions['api::article'].controllers.article.find.enabled,
        true,
        'the blog grants Public find',
      );
      assert.equal((await reader.client.get(`${BASE}/roles/999999`)).status, 404);
      assert.equal(
        (await reader.client.get(`${BASE}/roles/${reader.role.documentId}`)).status,
        200,
        'a documentId works too',
      );
    });

    it('POST /roles creates the role with its enabled permissions ({ ok: true }); it needs role.createRole', async () => {
      const name = unique('Editors');
      const body = { name, description: 'Writes tags', permissions: tree('api::tag.tag.find', 'api::tag.tag.create') };
      assert.equal((await server.publicApi.post(`${BASE}/roles`, body)).status, 403);
      const reader = await signIn([`${ROLE}.find`]);
      assert.equal((await reader.client.post(`${BASE}/roles`, body)).status, 403);
      assert.equal(await roleByName(name), undefined);
      const creator = await signIn([`${ROLE}.createRole`]);
      const res = await creator.client.post(`${BASE}/roles`, body);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(res.body, { ok: true });
      const created = (await roleByName(name))!;
      assert.match(String(created.type), /^editors(_[a-z0-9]+)+$/, "Strapi's snake case of the name");
      assert.equal(created.description, 'Writes tags');
      const info = await server.vellum.auth.roles.get(String(created.documentId));
      assert.deepEqual(info.permissions, ['api::tag.tag.create', 'api::tag.tag.find']);
    });

    it('POST /roles refuses bad input with a 400 and creates nothing', async () => {
      const name = unique('Broken');
      const cases: [unknown, RegExp][] = [
        [{}, /Request body cannot be empty/],
        [{ name, permissions: tree('api::nothing.nothing.find') }, /Unknown action api::nothing.nothing.find/],
        [{ name, permissions: 'all' }, /permissions must be an object/],
        [
          { name, permissions: { 'api::tag': { controllers: { tag: { find: { enabled: 'yes' } } } } } },
          /enabled: boolean/,
        ],
        [{ description: 'no name' }, /name/],
        [{ name: 'ab' }, /name/],
        [{ name, bogus: 1 }, /Invalid parameters: bogus/],
      ];
      for (const [body, message] of cases) {
        const res = await server.api.post(`${BASE}/roles`, body);
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.match(res.body.error.message, message);
      }
      assert.equal(await roleByName(name), undefined);
      const taken = await server.api.post(`${BASE}/roles`, { name: 'Public' });
      assert.equal(taken.status, 400);
    });

    it('PUT /roles/:role renames the role and replaces its grants; the next request sees them', async () => {
      const member = await signIn(['api::tag.tag.find', 'api::category.category.find']);
      assert.equal((await member.client.get('/api/tags')).status, 200);
      const body = {
        name: unique('Renamed'),
        permissions: tree('api::category.category.find', 'api::category.category.findOne'),
      };
      assert.equal((await member.client.put(`${BASE}/roles/${member.role.id}`, body)).status, 403);
      const updater = await signIn([`${ROLE}.updateRole`]);
      const res = await updater.client.put(`${BASE}/roles/${member.role.id}`, body);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(res.body, { ok: true });
      const info = await server.vellum.auth.roles.get(member.role.documentId);
      assert.equal(info.name, body.name);
      assert.deepEqual(info.permissions, ['api::category.category.find', 'api::category.category.findOne']);
      assert.equal((await member.client.get('/api/tags')).status, 403);
      // Without permissions, only name and description change.
      assert.equal((await updater.client.put(`${BASE}/roles/${member.role.id}`, { description: 'd' })).status, 200);
      assert.deepEqual((await server.vellum.auth.roles.get(member.role.documentId)).permissions, info.permissions);
    });

    it('PUT /roles/:role refuses bad input and unknown roles, changing nothing', async () => {
      const member = await signIn(['api::tag.tag.find']);
      for (const [body, status] of [
        [{}, 400],
        [{ name: 'x' }, 400],
        [{ permissions: tree('api::tag.tag.explode') }, 400],
        [{ name: unique('ok'), permissions: [] }, 400],
      ] as const) {
        const res = await server.api.put(`${BASE}/roles/${member.role.id}`, body);
        assert.equal(res.status, status, JSON.stringify(body));
      }
      const info = await server.vellum.auth.roles.get(member.role.documentId);
      assert.equal(info.name, member.role.name);
      assert.deepEqual(info.permissions, ['api::tag.tag.find']);
      assert.equal((await server.api.put(`${BASE}/roles/999999`, { name: 'Whatever' })).status, 404);
    });

    it('DELETE /roles/:role moves its users to Public and removes it; Public cannot be deleted', async () => {
      const member = await signIn(['api::tag.tag.find']);
      assert.equal((await member.client.delete(`${BASE}/roles/${member.role.id}`)).status, 403);
      const remover = await signIn([`${ROLE}.deleteRole`]);
      const res = await remover.client.delete(`${BASE}/roles/${member.role.id}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(res.body, { ok: true });
      await assert.rejects(server.vellum.auth.roles.get(member.role.documentId));
      const user = (await server.api.get(`/api/users/${member.id}?populate=role`)).body;
      assert.equal(user.role.type, 'public');
      const publicId = (await server.vellum.auth.roles.get('public')).id;
      const refused = await remover.client.delete(`${BASE}/roles/${publicId}`);
      assert.equal(refused.status, 400);
      assert.equal(refused.body.error.message, 'Cannot delete public role');
      assert.equal((await remover.client.delete(`${BASE}/roles/999999`)).status, 404);
    });

    it('GET /permissions answers the tree of every action, none enabled whoever asks (Strapi 5.54)', async () => {
      assert.equal((await server.publicApi.get(`${BASE}/permissions`)).status, 403);
      const caller = await signIn(['plugin::users-permissions.permissions.getPermissions', 'api::tag.tag.find']);
      for (const client of [caller.client, server.api]) {
        const res = await client.get(`${BASE}/permissions`);
        assert.equal(res.status, 200);
        const { permissions } = res.body;
        assert.deepEqual(permissions['api::tag'].controllers.tag.find, { enabled: false, policy: '' });
        assert.deepEqual(permissions['api::tag'].controllers.tag.create, { enabled: false, policy: '' });
        assert.equal(permissions['plugin::users-permissions'].controllers.permissions.getPermissions.enabled, false);
        assert.equal(permissions['plugin::upload'].controllers['content-api'].upload.enabled, false);
      }
    });

    it('a read-only API token reads roles; only a full-access one writes them', async () => {
      const readOnly = (await server.vellum.auth.tokens.create({ name: unique('ro'), type: 'read-only' })).accessKey;
      const client = new HttpClient(server.url, { authorization: `Bearer ${readOnly}` });
      assert.equal((await client.get(`${BASE}/roles`)).status, 200);
      assert.equal((await client.post(`${BASE}/roles`, { name: unique('Nope') })).status, 403);
      assert.equal((await server.api.post(`${BASE}/roles`, { name: unique('Yes') })).status, 200);
    });
  });
}
