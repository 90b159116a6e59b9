/**
 * Users and roles over GraphQL, in Strapi 5's flat shape and the v4 shape: the Shadow CRUD queries
 * `usersPermissionsUser(s)` and `usersPermissionsRole(s)`, and users-permissions' mutations
 * (`create|update|deleteUsersPermissionsUser`, `create|update|deleteUsersPermissionsRole`), each
 * behind the action of its REST route; no password, reset or confirmation code is ever readable.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { graphql } from '../helpers/graphql.js';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';
import { unique } from '../helpers/unique.js';

const USER = 'plugin::users-permissions.user';
const ROLE = 'plugin::users-permissions.role';

for (const dialect of DIALECTS) {
  describe(`GraphQL users and roles, flat shape [${dialect}]`, () => {
    let server: TestServer;
    /** Authenticated's id: Strapi's createUsersPermissionsUser needs a role, as `POST /api/users`. */
    let role: string;
    before(async () => {
      server = await startServer(dialect, {
        config: { plugins: { graphql: { config: { v4CompatibilityMode: false } } } },
      });
      role = String((await server.vellum.auth.roles.get('authenticated')).id);
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
      const headers = { authorization: `Bearer ${login.body.jwt}` };
      return {
        id: user.id as number,
        documentId: String(user.documentId),
        username,
        role,
        ask: (query: string, variables?: Record<string, unknown>) =>
          graphql(server, query, variables, { anonymous: true, headers }),
      };
    };
    const fresh = () => {
      const username = unique('g');
      return { username, email: `${username}@Example.com`, password: 'secret123', role };
    };
    const count = async (username: string) =>
      (await server.api.get(`/api/users/count?filters[username][$eq]=${username}`)).body as number;

    it('usersPermissionsUsers needs user.find and never exposes passwords or codes', async () => {
      const denied = await graphql(server, '{ usersPermissionsUsers { documentId } }', undefined, { anonymous: true });
      assert.equal(denied.body.errors![0].extensions.code, 'FORBIDDEN');
      const member = await signIn([`${USER}.find`]);
      const res = await member.ask(
        `{ usersPermissionsUsers(filters: { username: { eq: "${member.username}" } }) { documentId username email blocked } }`,
      );
      assert.deepEqual(res.body.data.usersPermissionsUsers, [
        {
          documentId: member.documentId,
          username: member.username,
          email: `${member.username}@example.com`,
          blocked: false,
        },
      ]);
      for (const secret of ['password', 'resetPasswordToken', 'confirmationToken']) {
        const asked = await graphql(server, `{ usersPermissionsUsers { ${secret} } }`);
        assert.equal(asked.status, 400, secret);
        assert.match(asked.body.errors![0].message, new RegExp(`Cannot query field "${secret}"`));
      }
      const one = await graphql(
        server,
        `{ usersPermissionsUser(documentId: "${member.documentId}") { username role { documentId } } }`,
      );
      assert.deepEqual(one.body.data.usersPermissionsUser, {
        username: member.username,
        role: { documentId: member.role.documentId },
      });
    });

    it('usersPermissionsRoles needs role.find', async () => {
      const denied = await graphql(server, '{ usersPermissionsRoles { documentId } }', undefined, { anonymous: true });
      assert.equal(denied.body.errors![0].extensions.code, 'FORBIDDEN');
      const reader = await signIn([`${ROLE}.find`]);
      const res = await reader.ask(
        `{ usersPermissionsRoles(filters: { documentId: { eq: "${reader.role.documentId}" } }) { documentId name type } }`,
      );
      assert.deepEqual(res.body.data.usersPermissionsRoles, [
        { documentId: reader.role.documentId, name: reader.role.name, type: reader.role.type },
      ]);
    });

    it('createUsersPermissionsUser needs user.create; it answers { data } without password; bad input creates nobody', async () => {
      const body = fresh();
      const mutation =
        'mutation($data: UsersPermissionsUserInput!) { createUsersPermissionsUser(data: $data) { data { documentId username email role { type } } } }';
      const denied = await graphql(server, mutation, { data: body }, { anonymous: true });
      assert.equal(denied.body.errors![0].extensions.code, 'FORBIDDEN');
      assert.equal(await count(body.username), 0);
      const res = await graphql(server, mutation, { data: body });
      assert.equal(res.body.errors, undefined, JSON.stringify(res.body.errors));
      // Strapi 5.54 answers through its REST controller, whose 201 becomes the response's.
      assert.equal(res.status, 201);
      const created = res.body.data.createUsersPermissionsUser.data;
      assert.deepEqual(
        [created.username, created.email, created.role.type],
        [body.username, body.email.toLowerCase(), 'authenticated'],
      );
      assert.equal(
        (await server.publicApi.post('/api/auth/local', { identifier: body.username, password: 'secret123' })).status,
        200,
      );

      const other = fresh();
      for (const [data, message] of [
        [{ ...other, email: body.email }, /^Email already taken$/],
        [{ ...other, email: 'nope' }, /valid email/],
        [{ ...other, resetPasswordToken: 'x' }, /resetPasswordToken/],
        [{ username: other.username, password: 'secret123', role }, /^email is a required field$/],
        [{ username: other.username, email: other.email, password: 'secret123' }, /^role is a required field$/],
        [
          { ...other, role: '999999' },
          /^1 relation\(s\) of type plugin::users-permissions.role associated with this entity do not exist$/,
        ],
      ] as const) {
        const refused = await graphql(server, mutation, { data });
        assert.ok(refused.body.errors, JSON.stringify(data));
        assert.match(refused.body.errors![0].message, message);
      }
      assert.equal(await count(other.username), 0);
    });

    it("updateUsersPermissionsUser needs user.update, takes an id or documentId, and refuses changing one's own role or block", async () => {
      const target = await signIn([]);
      const editor = await signIn([`${USER}.update`, `${USER}.find`]);
      const mutation =
        'mutation($id: ID!, $data: UsersPermissionsUserInput!) { updateUsersPermissionsUser(id: $id, data: $data) { data { documentId username blocked } } }';
      const name = unique('renamed');
      const denied = await target.ask(mutation, { id: String(target.id), data: { username: name } });
      assert.equal(denied.body.errors![0].extensions.code, 'FORBIDDEN');
      const res = await editor.ask(mutation, { id: String(target.id), data: { username: name, blocked: true } });
      assert.equal(res.body.errors, undefined, JSON.stringify(res.body.errors));
      assert.deepEqual(res.body.data.updateUsersPermissionsUser.data, {
        documentId: target.documentId,
        username: name,
        blocked: true,
      });
      const byDocumentId = await editor.ask(mutation, { id: target.documentId, data: { blocked: false } });
      assert.equal(byDocumentId.body.data.updateUsersPermissionsUser.data.blocked, false);

      const higher = await server.vellum.auth.roles.create(unique('higher'));
      for (const data of [{ role: String(higher.id) }, { blocked: true }]) {
        const self = await editor.ask(mutation, { id: String(editor.id), data });
        assert.equal(self.body.errors![0].extensions.code, 'FORBIDDEN', JSON.stringify(data));
      }
      const stored = (await server.api.get(`/api/users/${editor.id}?populate=role`)).body;
      assert.deepEqual([stored.role.documentId, stored.blocked], [editor.role.documentId, false]);
      const unknown = await editor.ask(mutation, { id: '999999', data: { username: unique('x') } });
      assert.equal(unknown.body.errors![0].extensions.code, 'STRAPI_NOT_FOUND_ERROR');
    });

    it('deleteUsersPermissionsUser needs user.destroy and answers the user as it was, its role gone with it', async () => {
      const victim = await signIn([]);
      const mutation =
        'mutation($id: ID!) { deleteUsersPermissionsUser(id: $id) { data { documentId username role { name } } } }';
      const updater = await signIn([`${USER}.update`]);
      assert.equal(
        (await updater.ask(mutation, { id: String(victim.id) })).body.errors![0].extensions.code,
        'FORBIDDEN',
      );
      const remover = await signIn([`${USER}.destroy`, `${ROLE}.find`, `${ROLE}.findOne`]);
      const res = await remover.ask(mutation, { id: String(victim.id) });
      assert.equal(res.body.errors, undefined, JSON.stringify(res.body.errors));
      // Strapi 5.54 loads the relations of the deleted user by its id: none (users-graphql-actions.diff.ts).
      assert.deepEqual(res.body.data.deleteUsersPermissionsUser.data, {
        documentId: victim.documentId,
        username: victim.username,
        role: null,
      });
      assert.equal(await count(victim.username), 0);
      assert.equal(
        (await remover.ask(mutation, { id: String(victim.id) })).body.errors![0].extensions.code,
        'STRAPI_NOT_FOUND_ERROR',
      );
    });

    it('role mutations need role.createRole|updateRole|deleteRole and answer { ok }', async () => {
      const name = unique('GqlRole');
      const create = 'mutation($data: UsersPermissionsRoleInput!) { createUsersPermissionsRole(data: $data) { ok } }';
      const data = {
        name,
        description: 'by GraphQL',
        permissions: { 'api::tag': { controllers: { tag: { find: { enabled: true } } } } },
      };
      assert.equal(
        (await graphql(server, create, { data }, { anonymous: true })).body.errors![0].extensions.code,
        'FORBIDDEN',
      );
      const admin = await signIn([`${ROLE}.createRole`, `${ROLE}.updateRole`, `${ROLE}.deleteRole`]);
      const bad = await admin.ask(create, {
        data: {
          name: unique('Bad'),
          permissions: { 'api::nope': { controllers: { nope: { find: { enabled: true } } } } },
        },
      });
      assert.match(bad.body.errors![0].message, /Unknown action/);
      const res = await admin.ask(create, { data });
      assert.deepEqual(res.body, { data: { createUsersPermissionsRole: { ok: true } } });
      const roles = (await server.api.get('/api/users-permissions/roles')).body.roles as {
        id: number;
        documentId: string;
        name: string;
      }[];
      const created = roles.find((role) => role.name === name)!;
      assert.deepEqual((await server.vellum.auth.roles.get(created.documentId)).permissions, ['api::tag.tag.find']);

      const update =
        'mutation($id: ID!, $data: UsersPermissionsRoleInput!) { updateUsersPermissionsRole(id: $id, data: $data) { ok } }';
      const renamed = unique('Renamed');
      assert.deepEqual(
        (await admin.ask(update, { id: String(created.id), data: { name: renamed, permissions: {} } })).body.data,
        { updateUsersPermissionsRole: { ok: true } },
      );
      const info = await server.vellum.auth.roles.get(created.documentId);
      assert.deepEqual([info.name, info.permissions], [renamed, []]);

      const remove = 'mutation($id: ID!) { deleteUsersPermissionsRole(id: $id) { ok } }';
      const publicRole = await server.vellum.auth.roles.get('public');
      assert.match(
        (await admin.ask(remove, { id: String(publicRole.id) })).body.errors![0].message,
        /Cannot delete public role/,
      );
      assert.deepEqual((await admin.ask(remove, { id: String(created.id) })).body.data, {
        deleteUsersPermissionsRole: { ok: true },
      });
      await assert.rejects(server.vellum.auth.roles.get(created.documentId));
    });
  });

  describe(`GraphQL users and roles, v4 shape [${dialect}]`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect, {
        config: { plugins: { graphql: { config: { v4CompatibilityMode: true } } } },
      });
    });
    after(() => server?.close());

    it('reads users and roles in data { id attributes } and writes users answering UsersPermissionsUserEntityResponse', async () => {
      const username = unique('v');
      const created = await graphql(
        server,
        'mutation($data: UsersPermissionsUserInput!) { createUsersPermissionsUser(data: $data) { data { id attributes { username role { data { attributes { type } } } } } } }',
        {
          data: {
            username,
            email: `${username}@example.com`,
            password: 'secret123',
            role: String((await server.vellum.auth.roles.get('authenticated')).id),
          },
        },
      );
      assert.equal(created.body.errors, undefined, JSON.stringify(created.body.errors));
      const entity = created.body.data.createUsersPermissionsUser.data;
      assert.deepEqual(entity.attributes, { username, role: { data: { attributes: { type: 'authenticated' } } } });
      const list = await graphql(
        server,
        `{ usersPermissionsUsers(filters: { username: { eq: "${username}" } }) { data { id attributes { username } } meta { pagination { total } } } }`,
      );
      assert.deepEqual(list.body.data.usersPermissionsUsers, {
        data: [{ id: entity.id, attributes: { username } }],
        meta: { pagination: { total: 1 } },
      });
      const roles = await graphql(server, '{ usersPermissionsRoles { data { attributes { type } } } }');
      const types = (roles.body.data.usersPermissionsRoles.data as { attributes: { type: string } }[]).map(
        (role) => role.attributes.type,
      );
      assert.ok(types.includes('public') && types.includes('authenticated'));
      const updated = await graphql(
        server,
        'mutation($id: ID!) { updateUsersPermissionsUser(id: $id, data: { blocked: true }) { data { id attributes { blocked } } } }',
        { id: entity.id },
      );
      assert.deepEqual(updated.body.data.updateUsersPermissionsUser.data, {
        id: entity.id,
        attributes: { blocked: true },
      });
      const deleted = await graphql(
        server,
        'mutation($id: ID!) { deleteUsersPermissionsUser(id: $id) { data { id attributes { username } } } }',
        { id: entity.id },
      );
      assert.deepEqual(deleted.body.data.deleteUsersPermissionsUser.data, { id: entity.id, attributes: { username } });
    });
  });
}
