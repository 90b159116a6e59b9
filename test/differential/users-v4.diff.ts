/**
 * Users and roles over GraphQL in the v4 shape (`v4CompatibilityMode: true`), side by side with
 * Strapi 5.54 serving the same project (issue 30, point 15; the flat shape is in users.diff.ts).
 * On demand: `npm run test:strapi -- users-v4`.
 */
import { after, before, test } from 'node:test';
import type { HttpClient } from '../helpers/http.js';
import { fixture } from '../helpers/paths.js';
import { diffName, openDifferential, type Differential } from './harness.js';

let diff: Differential;
before(async () => {
  diff = await openDifferential({
    name: diffName(import.meta.filename),
    project: fixture('users-gql-v4'),
    readyPath: '/api/notes',
  });
});
after(() => diff?.close());

const run = Date.now().toString(36);
const gql = (api: HttpClient, query: string, variables: Record<string, unknown> = {}) =>
  api.post('/graphql', { query, variables });

test('GraphQL (v4 shape): users created, updated and deleted; refusals; roles created', async () => {
  await diff.same(
    async (api) => {
      const roles = (await api.get('/api/users-permissions/roles')).body.roles as { id: number; type: string }[];
      const authenticated = roles.find((role) => role.type === 'authenticated')!;
      const p = `v${run}`;
      const fields =
        'data { id attributes { username email provider confirmed blocked role { data { attributes { name type } } } } }';
      const create = `mutation($data: UsersPermissionsUserInput!) { createUsersPermissionsUser(data: $data) { ${fields} } }`;
      const created = await gql(api, create, {
        data: { username: `${p}a`, email: `${p}A@example.com`, password: 'secret123', role: String(authenticated.id) },
      });
      const id = String(created.body.data?.createUsersPermissionsUser?.data?.id);
      return [
        created,
        await gql(api, create, { data: { username: `${p}b`, email: `${p}b@example.com`, password: 'secret123' } }),
        await gql(api, create, {
          data: {
            username: `${p}c`,
            email: `${p}a@example.com`,
            password: 'secret123',
            role: String(authenticated.id),
          },
        }),
        await gql(
          api,
          `mutation { updateUsersPermissionsUser(id: "${id}", data: { username: "${p}renamed" }) { ${fields} } }`,
        ),
        await gql(
          api,
          `mutation { updateUsersPermissionsUser(id: "999999", data: { username: "${p}x" }) { ${fields} } }`,
        ),
        await gql(api, `mutation { deleteUsersPermissionsUser(id: "${id}") { data { id attributes { username } } } }`),
        await gql(api, `mutation { createUsersPermissionsRole(data: { name: "${p}role", description: "d" }) { ok } }`),
      ];
      // `code`: as in users.diff.ts.
    },
    { messages: true, ignoreKeys: ['code'] },
  );
});

/**
 * Strapi 5.54's v4 compatibility mode shapes answers only: its list queries answer a list of
 * `{ data: { id, attributes } }` without `meta`, and one user is asked by `documentId`. Vellum's v4
 * shape is Strapi v4's own (`{ data: [...], meta }`, `id`): a difference of every type, not of users
 * (docs/graphql.md); printed, not failed.
 */
test('GraphQL (v4 shape): the list and single queries', async () => {
  await diff.same(
    async (api) => [
      await gql(api, '{ usersPermissionsRoles(sort: "name") { data { attributes { name type } } } }'),
      await gql(
        api,
        '{ usersPermissionsRoles(sort: "name") { data { attributes { name type } } meta { pagination { total } } } }',
      ),
    ],
    { messages: true, deliberate: "Strapi 5's v4 compatibility mode is not Strapi v4's shape" },
  );
});
