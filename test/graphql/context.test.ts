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
