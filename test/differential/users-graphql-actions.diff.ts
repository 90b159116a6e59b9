/**
 * Users-permissions' user and role mutations with the controller actions replaced by a plugin
 * extension (test/fixtures/graphql-context): Strapi 5.54's `createUsersPermissionsUser`,
 * `updateUsersPermissionsUser`, `deleteUsersPermissionsUser` call `user.create|update|destroy`
 * and `createUsersPermissionsRole` `role.createRole`, on the request's Koa context
 * (plugin-users-permissions/server/src/graphql/mutations/crud). On demand:
 * `npm run test:strapi -- users-graphql-actions`.
 */
import { after, before, test } from 'node:test';
import { HttpClient } from '../helpers/http.js';
import { fixture } from '../helpers/server.js';
import {
  diffName,
  openDifferential,
  type Answers,
  type Differential,
  type SameOptions,
  type Scenario,
} from './harness.js';

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

/** `diff.same`, printing both sides' answers first with DIFF_PRINT=1. */
async function same(scenario: Scenario, options: SameOptions) {
  if (!process.env.DIFF_PRINT) return diff.same(scenario, options);
  const print = (answers: Answers) =>
    JSON.stringify((answers as { status: number; body: unknown }[]).map(({ status, body }) => ({ status, body })));
  const both = await diff.both(scenario);
  console.log(`strapi: ${print(both.strapi)}\nvellum: ${print(both.vellum)}`);
  return both;
}

const run = Date.now().toString(36);
const USER = 'username email blocked confirmed provider role { name type }';
const CREATE = `mutation($data: UsersPermissionsUserInput!) { createUsersPermissionsUser(data: $data) { data { ${USER} } } }`;
const UPDATE = `mutation($id: ID!, $data: UsersPermissionsUserInput!) { updateUsersPermissionsUser(id: $id, data: $data) { data { ${USER} } } }`;
const DELETE = `mutation($id: ID!) { deleteUsersPermissionsUser(id: $id) { data { ${USER} } } }`;

test("the user mutations run the project's create, update and destroy", async () => {
  await same(
    async (api) => {
      const anonymous = new HttpClient(api.baseUrl);
      const name = `ua${run}`;
      const roles = await api.get('/api/users-permissions/roles');
      const role = roles.body.roles.find((r: { type: string }) => r.type === 'authenticated').id;
      const data = { username: name, email: `${name}@example.com`, password: 'secret123', role };
      const created = await api.post('/graphql', { query: CREATE, variables: { data } });
      const listed = await api.get(`/api/users?filters[username][$eq]=${name}`);
      const id = String(listed.body[0]?.id);
      return [
        created,
        await api.post('/graphql', {
          query: CREATE,
          variables: { data: { ...data, username: `blocked${run}`, email: `blocked${run}@example.com` } },
        }),
        await api.post('/graphql', { query: CREATE, variables: { data: { ...data, username: `other${run}` } } }),
        await anonymous.post('/graphql', { query: CREATE, variables: { data: { ...data, username: `anon${run}` } } }),
        await api.post('/graphql', { query: UPDATE, variables: { id, data: { email: `${name}@elsewhere.org` } } }),
        await api.post('/graphql', { query: UPDATE, variables: { id, data: { email: `new${name}@example.com` } } }),
        await api.post('/graphql', { query: UPDATE, variables: { id: '999999', data: { email: 'x@example.com' } } }),
        await api.post('/graphql', { query: DELETE, variables: { id } }, { headers: { 'x-keep': '1' } }),
        await api.post('/graphql', { query: DELETE, variables: { id } }),
        await api.post('/graphql', { query: DELETE, variables: { id } }),
        await api.get(`/api/users?filters[username][$eq]=${name}`),
      ];
    },
    { messages: true, errorBodies: true },
  );
});

test("the role mutation runs the project's createRole", async () => {
  await same(
    async (api) => [
      await api.post('/graphql', {
        query: 'mutation($data: UsersPermissionsRoleInput!) { createUsersPermissionsRole(data: $data) { ok } }',
        variables: { data: { name: `blocked role ${run}`, description: 'no' } },
      }),
      await api.post('/graphql', {
        query: 'mutation($data: UsersPermissionsRoleInput!) { createUsersPermissionsRole(data: $data) { ok } }',
        variables: { data: { name: `role ${run}`, description: 'yes' } },
      }),
    ],
    { messages: true, errorBodies: true },
  );
});
