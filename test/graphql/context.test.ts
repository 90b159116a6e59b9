/**
 * What project GraphQL resolvers see (test/fixtures/graphql-context), as Strapi 5.54's GraphQL plugin
 * gives it (`{ state: ctx.state, koaContext: ctx }`, compared by test/differential/graphql-context.diff.ts):
 * `context.state` says who asks (`user` with its role, `auth.strategy.name`, `auth.credentials`,
 * `isAuthenticated`) and `route.info.type`; `context.koaContext` is the request's Koa context; a
 * named policy reads `http` (that context) and `state`; a mutation stamps `state.user`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { HttpClient } from '../helpers/http.js';
import { DIALECTS, fixture, startServer, type TestServer } from '../helpers/server.js';
import { unique } from '../helpers/unique.js';

const WHOAMI = '{ whoami { user role strategy credentials authenticated route probe method } }';
const CREATE = 'mutation($title: String!) { createMyNote(title: $title) { title author } }';

for (const dialect of DIALECTS) {
  describe(`GraphQL resolvers' context.state and koaContext [${dialect}]`, () => {
    let server: TestServer;
    let username: string;
    let user: HttpClient;
    before(async () => {
      server = await startServer(dialect, {
        project: fixture('graphql-context'),
        config: { plugins: { graphql: { config: { v4CompatibilityMode: false } } } },
      });
      username = unique('gc');
      const registered = await server.publicApi.post('/api/auth/local/register', {
        username,
        email: `${username}@example.com`,
        password: 'secret123',
      });
      assert.equal(registered.status, 200, registered.text);
      user = new HttpClient(server.url, { authorization: `Bearer ${registered.body.jwt}`, 'x-probe': 'user' });
    });
    after(() => server?.close());

    const whoami = async (client: HttpClient) => {
      const answer = await client.post('/graphql', { query: WHOAMI });
      assert.equal(answer.status, 200, answer.text);
      return answer.body.data.whoami;
    };
    const who = {
      user: null,
      role: null,
      strategy: 'users-permissions',
      credentials: false,
      authenticated: true,
      route: 'content-api',
      method: 'POST',
    };

    it('the public, a user and an API token, as Strapi describes them', async () => {
      const anonymous = new HttpClient(server.url, { 'x-probe': 'anonymous' });
      assert.deepEqual(await whoami(anonymous), { ...who, probe: 'anonymous' });
      assert.deepEqual(await whoami(user), {
        ...who,
        user: username,
        role: 'authenticated',
        credentials: true,
        probe: 'user',
      });
      const token = new HttpClient(server.url, { ...server.api.defaultHeaders, 'x-probe': 'token' });
      assert.deepEqual(await whoami(token), {
        ...who,
        strategy: 'content-api-token',
        credentials: true,
        probe: 'token',
      });
      const viaGet = await user.get(`/graphql?query=${encodeURIComponent(WHOAMI)}`, {
        headers: { 'apollo-require-preflight': 'true' },
      });
      assert.equal(viaGet.status, 200, viaGet.text);
      assert.equal(viaGet.body.data.whoami.method, 'GET');
    });

    it('a named policy reads http (the Koa context) and state', async () => {
      assert.deepEqual((await user.post('/graphql', { query: '{ guarded }' })).body.data, { guarded: 'passed' });
      const refused = [
        await user.post('/graphql', { query: '{ guarded }' }, { headers: { 'x-deny': '1' } }),
        await server.publicApi.post('/graphql', { query: '{ guarded }' }),
      ];
      for (const answer of refused) {
        assert.equal(answer.status, 200, answer.text);
        assert.equal(answer.body.data.guarded, null);
        assert.equal(answer.body.errors[0].extensions.code, 'FORBIDDEN', answer.text);
        assert.equal(answer.body.errors[0].message, 'Policy Failed');
      }
    });

    it("register and login run the project's wrapped auth actions, as Strapi's mutations call the controller", async () => {
      const register = (name: string) =>
        server.publicApi.post('/graphql', {
          query: 'mutation($input: UsersPermissionsRegisterInput!) { register(input: $input) { user { username } } }',
          variables: { input: { username: name, email: `${name}@example.com`, password: 'secret123' } },
        });
      const login = (identifier: string, password: string) =>
        server.publicApi.post('/graphql', {
          query: 'mutation($input: UsersPermissionsLoginInput!) { login(input: $input) { jwt user { username } } }',
          variables: { input: { identifier, password } },
        });
      const name = unique('gx');
      assert.deepEqual((await register(name)).body, { data: { register: { user: { username: name } } } });
      // The wrapper's ctx.badRequest() sets the answer (it does not throw): Strapi's mutation then
      // returns the error envelope as the user, and the HTTP status is the action's.
      const blocked = await register(unique('blocked'));
      assert.equal(blocked.status, 400, blocked.text);
      assert.deepEqual(blocked.body, {
        errors: [
          {
            message: 'Cannot return null for non-nullable field UsersPermissionsMe.username.',
            locations: [{ line: 1, column: 85 }],
            path: ['register', 'user', 'username'],
            extensions: { code: 'INTERNAL_SERVER_ERROR' },
          },
        ],
        data: null,
      });
      const signedIn = await login(`${name}@example.com`, 'secret123');
      assert.equal(signedIn.status, 200, signedIn.text);
      assert.equal(signedIn.body.data.login.user.username, `${name} (signed in)`);
      assert.equal(typeof signedIn.body.data.login.jwt, 'string');
      const refused = await login(`${name}@example.com`, 'wrong-password');
      assert.equal(refused.status, 200, refused.text);
      assert.deepEqual(refused.body.errors[0].extensions, {
        code: 'BAD_USER_INPUT',
        error: { name: 'ValidationError', message: 'Invalid identifier or password', details: {} },
      });
    });

    it("the users' and roles' mutations run the project's create, update, destroy and createRole", async () => {
      const fields = 'username email provider role { type }';
      const CREATE_USER = `mutation($data: UsersPermissionsUserInput!) { createUsersPermissionsUser(data: $data) { data { ${fields} } } }`;
      const UPDATE_USER = `mutation($id: ID!, $data: UsersPermissionsUserInput!) { updateUsersPermissionsUser(id: $id, data: $data) { data { ${fields} } } }`;
      const DELETE_USER = `mutation($id: ID!) { deleteUsersPermissionsUser(id: $id) { data { ${fields} } } }`;
      const roles = await server.api.get('/api/users-permissions/roles');
      const role = roles.body.roles.find((r: { type: string }) => r.type === 'authenticated').id;
      const name = unique('ua');
      const data = { username: name, email: `${name}@example.com`, password: 'secret123', role };

      // The wrapper's changes to the body show; the role is read from the database; ctx.created's 201.
      const created = await server.api.post('/graphql', { query: CREATE_USER, variables: { data } });
      assert.equal(created.status, 201, created.text);
      assert.deepEqual(created.body.data.createUsersPermissionsUser.data, {
        username: `${name} (created)`,
        email: `${name}@example.com`,
        provider: 'local',
        role: { type: 'authenticated' },
      });
      // ctx.badRequest(): the error envelope becomes the user, the status the action's.
      const blocked = await server.api.post('/graphql', {
        query: CREATE_USER,
        variables: { data: { ...data, username: unique('blocked'), email: `${unique('b')}@example.com` } },
      });
      assert.equal(blocked.status, 400, blocked.text);
      assert.equal(
        blocked.body.errors[0].message,
        'Cannot return null for non-nullable field UsersPermissionsUser.username.',
      );
      assert.deepEqual(blocked.body.data, { createUsersPermissionsUser: { data: null } });
      // Asked before the action runs, as the resolver's auth scope.
      const anonymous = await server.publicApi.post('/graphql', { query: CREATE_USER, variables: { data } });
      assert.equal(anonymous.body.errors[0].extensions.code, 'FORBIDDEN', anonymous.text);

      const [listed] = (await server.api.get(`/api/users?filters[username][$eq]=${name}`)).body;
      const id = String(listed.id);
      const refused = await server.api.post('/graphql', {
        query: UPDATE_USER,
        variables: { id, data: { email: `${name}@elsewhere.org` } },
      });
      assert.deepEqual(refused.body.errors[0].extensions, {
        code: 'BAD_USER_INPUT',
        error: { name: 'ValidationError', message: 'Only example.com addresses', details: { field: 'email' } },
      });
      const updated = await server.api.post('/graphql', {
        query: UPDATE_USER,
        variables: { id, data: { email: `new${name}@example.com` } },
      });
      assert.equal(updated.status, 200, updated.text);
      assert.equal(updated.body.data.updateUsersPermissionsUser.data.username, `${name} (updated)`);
      assert.equal(updated.body.data.updateUsersPermissionsUser.data.email, `new${name}@example.com`);

      const kept = await server.api.post(
        '/graphql',
        { query: DELETE_USER, variables: { id } },
        { headers: { 'x-keep': '1' } },
      );
      assert.equal(kept.status, 403, kept.text);
      const deleted = await server.api.post('/graphql', { query: DELETE_USER, variables: { id } });
      assert.equal(deleted.status, 200, deleted.text);
      // The deleted user's relations are read from the database: none any more.
      assert.deepEqual(deleted.body.data.deleteUsersPermissionsUser.data, {
        username: `${name} (deleted)`,
        email: `new${name}@example.com`,
        provider: 'local',
        role: null,
      });
      // The original destroy answers nothing (204) for no user; the wrapper then fails on the null
      // body, and the action's 204 stays the answer's status (an empty answer), as on Strapi 5.54.
      const again = await server.api.post('/graphql', { query: DELETE_USER, variables: { id } });
      assert.equal(again.status, 204, again.text);
      assert.equal(again.text, '');

      const CREATE_ROLE =
        'mutation($data: UsersPermissionsRoleInput!) { createUsersPermissionsRole(data: $data) { ok } }';
      const blockedRole = await server.api.post('/graphql', {
        query: CREATE_ROLE,
        variables: { data: { name: unique('blocked role'), description: 'no' } },
      });
      assert.equal(blockedRole.status, 400, blockedRole.text);
      assert.deepEqual(blockedRole.body, { data: { createUsersPermissionsRole: { ok: true } } });
      assert.equal((await server.api.get('/api/users-permissions/roles')).body.roles.length, roles.body.roles.length);
    });

    it("a resolver's plain Error keeps its message; other errors stay hidden", async () => {
      const refuses = await server.publicApi.post('/graphql', { query: '{ refuses }' });
      assert.deepEqual(refuses.body, {
        errors: [
          {
            message: 'Sign in first',
            locations: [{ line: 1, column: 3 }],
            path: ['refuses'],
            extensions: { code: 'INTERNAL_SERVER_ERROR' },
          },
        ],
        data: { refuses: null },
      });
      // A TypeError names internals: masked (Strapi 5.54 passes it through; docs/coming-from-strapi.md).
      const breaks = await server.publicApi.post('/graphql', { query: '{ breaks }' });
      assert.equal(breaks.body.errors[0].message, 'Internal Server Error', breaks.text);
    });

    it('a mutation stamps the author from state.user', async () => {
      const title = unique('mine');
      const mine = await user.post('/graphql', { query: CREATE, variables: { title } });
      assert.deepEqual(mine.body, { data: { createMyNote: { title, author: username } } }, mine.text);
      const theirs = await server.publicApi.post('/graphql', { query: CREATE, variables: { title } });
      assert.deepEqual(theirs.body.data, { createMyNote: { title, author: 'nobody' } }, theirs.text);
    });
  });
}
