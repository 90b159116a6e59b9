/**
 * What project GraphQL resolvers see, side by side with Strapi 5.54 (test/fixtures/graphql-context):
 * `context.state` (`user` with its role, `auth.strategy`, `isAuthenticated`, `route`) and
 * `context.koaContext` (the request's Koa context), for the public, a user's JWT and an API token;
 * a policy reading `http` (the Koa context) and `state`; a mutation stamping `state.user`.
 * On demand: `npm run test:strapi -- graphql-context`.
 */
import { after, before, test } from 'node:test';
import { HttpClient } from '../helpers/http.js';
import { fixture } from '../helpers/server.js';
import { diffName, openDifferential, type Differential } from './harness.js';

let diff: Differential;
before(async () => {
  diff = await openDifferential({
    name: diffName(import.meta.filename),
    project: fixture('graphql-context'),
    readyPath: '/api/notes',
    vellumConfig: { plugins: { graphql: { config: { v4CompatibilityMode: false } } } },
  });
});
after(() => diff?.close());

const run = Date.now().toString(36);
const WHOAMI = '{ whoami { user role strategy credentials authenticated route probe method } }';

test('resolvers read state and koaContext; a policy reads http and state', async () => {
  await diff.same(
    async (api) => {
      const anonymous = new HttpClient(api.baseUrl, { 'x-probe': 'anonymous' });
      const username = `gc${run}`;
      const signUp = await anonymous.post('/api/auth/local/register', {
        username,
        email: `${username}@example.com`,
        password: 'secret123',
      });
      const user = new HttpClient(api.baseUrl, { authorization: `Bearer ${signUp.body.jwt}`, 'x-probe': 'user' });
      const denied = new HttpClient(api.baseUrl, { authorization: `Bearer ${signUp.body.jwt}`, 'x-deny': '1' });
      const token = new HttpClient(api.baseUrl, { ...api.defaultHeaders, 'x-probe': 'token' });
      const created = await user.post('/graphql', {
        query: 'mutation($title: String!) { createMyNote(title: $title) { title author } }',
        variables: { title: `mine ${run}` },
      });
      return [
        await anonymous.post('/graphql', { query: WHOAMI }),
        await user.post('/graphql', { query: WHOAMI }),
        await token.post('/graphql', { query: WHOAMI }),
        await user.get(`/graphql?query=${encodeURIComponent(WHOAMI)}`, {
          headers: { 'apollo-require-preflight': 'true' },
        }),
        await user.post('/graphql', { query: '{ guarded }' }),
        await denied.post('/graphql', { query: '{ guarded }' }),
        await anonymous.post('/graphql', { query: '{ guarded }' }),
        created,
        await anonymous.post('/graphql', {
          query: 'mutation($title: String!) { createMyNote(title: $title) { title author } }',
          variables: { title: `theirs ${run}` },
        }),
      ];
    },
    { messages: true },
  );
});

test("users-permissions' register and login mutations run the project's wrapped actions", async () => {
  await diff.same(
    async (api) => {
      const anonymous = new HttpClient(api.baseUrl);
      const username = `gx${run}`;
      const register = (name: string) =>
        anonymous.post('/graphql', {
          query: 'mutation($input: UsersPermissionsRegisterInput!) { register(input: $input) { user { username } } }',
          variables: { input: { username: name, email: `${name}@example.com`, password: 'secret123' } },
        });
      const login = (identifier: string, password: string) =>
        anonymous.post('/graphql', {
          query: 'mutation($input: UsersPermissionsLoginInput!) { login(input: $input) { user { username email } } }',
          variables: { input: { identifier, password } },
        });
      return [
        await register(username),
        await register(`blocked${run}`),
        await login(`${username}@example.com`, 'secret123'),
        await login(`${username}@example.com`, 'wrong-password'),
        await anonymous.post('/api/auth/local', { identifier: `${username}@example.com`, password: 'secret123' }),
        await anonymous.post('/api/auth/local/register', {
          username: `blocked2${run}`,
          email: `blocked2${run}@example.com`,
          password: 'secret123',
        }),
      ];
    },
    { messages: true, ignoreKeys: ['jwt'] },
  );
});

test("a resolver's plain Error keeps its message; graphql-js's non-null error too", async () => {
  await diff.same(
    async (api) => [
      await api.post('/graphql', { query: '{ refuses }' }),
      await api.post('/graphql', { query: '{ a: whoami { user } refuses }' }),
    ],
    { messages: true },
  );
});
