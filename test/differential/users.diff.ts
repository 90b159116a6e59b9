/**
 * Users, roles and their errors, side by side with Strapi 5.54 at the defaults (issue 30, points
 * 14 to 16). On demand: `npm run test:strapi -- users`.
 *
 * Each scenario names its users with a prefix of its own run, so a reused Strapi
 * (`DIFF_STRAPI_URL`) can run it again.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { HttpClient, type Response } from '../helpers/http.js';
import { BLOG } from '../helpers/server.js';
import { diffName, openDifferential, type Differential } from './harness.js';

let diff: Differential;
before(async () => {
  // GraphQL in Strapi 5's flat shape, as Strapi serves it (the blog example's default is the spec's).
  diff = await openDifferential({
    name: diffName(import.meta.filename),
    project: BLOG,
    vellumConfig: { plugins: { graphql: { config: { v4CompatibilityMode: false } } } },
  });
});
after(() => diff?.close());

const run = Date.now().toString(36);
/** Compare messages too: a front end shows and matches them. */
const WORDS = { messages: true };

interface Roles {
  authenticated: { id: number; documentId: string };
  public: { id: number; documentId: string };
}
async function roles(api: HttpClient): Promise<Roles> {
  const answer = await api.get('/api/users-permissions/roles');
  const byType = Object.fromEntries(
    (answer.body.roles as { type: string; id: number; documentId: string }[]).map((role) => [role.type, role]),
  );
  return byType as unknown as Roles;
}

const statuses = (answers: Response[]) => answers.map((answer) => answer.status);

const user = (name: string, extra: Record<string, unknown> = {}) => ({
  username: name,
  email: `${name}@example.com`,
  password: 'secret123',
  ...extra,
});

test('POST /api/users: the role by id, id as text, documentId and connect; provider, confirmed and blocked', async () => {
  await diff.same(
    async (api) => {
      const { authenticated, public: pub } = await roles(api);
      const p = `c${run}`;
      return [
        await api.post('/api/users', user(`${p}a`, { role: authenticated.id })),
        await api.post('/api/users', user(`${p}b`, { role: String(pub.id) })),
        await api.post('/api/users', user(`${p}c`, { role: pub.documentId })),
        await api.post('/api/users', user(`${p}d`, { role: { connect: [{ id: pub.id }] } })),
        await api.post('/api/users', user(`${p}e`, { role: { connect: [{ documentId: pub.documentId }] } })),
        await api.post('/api/users', user(`${p}f`, { role: { connect: [{ id: authenticated.id }, { id: pub.id }] } })),
        await api.post('/api/users', {
          ...user(`${p}g`, { role: authenticated.id }),
          email: `${p}G@Example.COM`,
          provider: 'github',
          confirmed: true,
          blocked: true,
        }),
      ];
      // Ids of users and roles meet in one numbering of labels; documentIds tell them apart.
    },
    { ...WORDS, ignoreKeys: ['id'] },
  );
});

test('POST /api/users: refusals', async () => {
  await diff.same(async (api) => {
    const { authenticated } = await roles(api);
    const p = `r${run}`;
    const taken = await api.post('/api/users', user(`${p}a`, { role: authenticated.id }));
    return [
      taken,
      await api.post('/api/users', user(`${p}b`)),
      await api.post('/api/users', {}),
      await api.post('/api/users', user(`${p}c`, { role: 999999 })),
      await api.post('/api/users', user(`${p}d`, { role: { connect: [{ id: 999999 }] } })),
      await api.post('/api/users', user(`${p}e`, { role: 'nosuchdocumentid00000000' })),
      await api.post('/api/users', user(`${p}f`, { role: { connect: [{ documentId: 'nosuchdocumentid00000000' }] } })),
      await api.post('/api/users', user(`${p}g`, { role: { connect: [] } })),
      await api.post('/api/users', user(`${p}h`, { role: { set: [{ id: authenticated.id }] } })),
      await api.post('/api/users', { ...user(`${p}a`, { role: authenticated.id }), email: `${p}other@example.com` }),
      await api.post('/api/users', { ...user(`${p}i`, { role: authenticated.id }), email: `${p}A@EXAMPLE.com` }),
      await api.post('/api/users', { ...user(`${p}j`, { role: authenticated.id }), username: 'ab' }),
      await api.post('/api/users', { ...user(`${p}k`, { role: authenticated.id }), password: '12' }),
      await api.post('/api/users', { ...user(`${p}l`, { role: authenticated.id }), email: 'not-an-email' }),
    ];
  }, WORDS);
});

test('PUT /api/users/:id: provider, confirmed, role changes and refusals', async () => {
  await diff.same(async (api) => {
    const { authenticated, public: pub } = await roles(api);
    const p = `u${run}`;
    const a = await api.post('/api/users', user(`${p}a`, { role: authenticated.id }));
    const b = await api.post('/api/users', user(`${p}b`, { role: authenticated.id }));
    const id = a.body.id as number;
    return [
      a,
      b,
      await api.put(`/api/users/${id}`, { confirmed: true, blocked: false }),
      await api.put(`/api/users/${id}`, { username: `${p}b` }),
      await api.put(`/api/users/${id}`, { email: `${p}B@example.com` }),
      await api.put(`/api/users/${id}`, { email: `${p}A2@Example.com`, username: `${p}a` }),
      await api.put(`/api/users/${id}`, { role: 999999 }),
      await api.put(`/api/users/${id}`, { role: 'nosuchdocumentid00000000' }),
      await api.put(`/api/users/${id}`, { role: pub.documentId }),
      await api.put(`/api/users/${id}`, { role: { connect: [{ id: authenticated.id }] } }),
      await api.put(`/api/users/${id}`, { role: { disconnect: [{ id: authenticated.id }] } }),
      await api.put(`/api/users/${id}`, { role: { connect: [] } }),
      await api.put(`/api/users/${id}`, { password: '' }),
      await api.put(`/api/users/${id}`, { username: 'ab' }),
      await api.put(`/api/users/${id}`, []),
      await api.put('/api/users/999999', { username: `${p}z` }),
      await api.put('/api/users/abc', { username: `${p}z` }),
    ];
  }, WORDS);
});

test('PUT /api/users/:id: provider is written as given', async () => {
  const { vellum } = await diff.same(
    async (api) => {
      const { authenticated } = await roles(api);
      const p = `v${run}`;
      const a = await api.post('/api/users', user(`${p}a`, { role: authenticated.id }));
      const id = a.body.id as number;
      return [
        await api.put(`/api/users/${id}`, { provider: 'github' }),
        // Not a local account any more: an empty password is checked as any other.
        await api.put(`/api/users/${id}`, { password: '' }),
        await api.put(`/api/users/${id}`, { provider: 'local' }),
        await api.put(`/api/users/${id}`, { password: '' }),
      ];
    },
    {
      ...WORDS,
      deliberate: 'docs/security.md "No echo of secrets": a refused password is not repeated in the details',
    },
  );
  const answers = vellum as Response[];
  assert.deepEqual(statuses(answers), [200, 400, 200, 400]);
  assert.equal(answers[1]!.body.error.message, 'password must be at least 6 characters');
  assert.equal(answers[3]!.body.error.message, 'password.notNull');
});

test('DELETE /api/users/:id: the user without its role, then 204 (GET of a deleted user: 204 there, 404 here on purpose)', async () => {
  await diff.same(async (api) => {
    const { authenticated } = await roles(api);
    const p = `d${run}`;
    const a = await api.post('/api/users', user(`${p}a`, { role: authenticated.id }));
    const id = a.body.id as number;
    return [
      await api.delete(`/api/users/${id}`),
      await api.delete(`/api/users/${id}`),
      await api.delete('/api/users/abc'),
    ];
  }, WORDS);
});

/** Every auth route, with a body that gets past validation: what the permission check decides. */
const authRoutes = (p: string): [string, string, Record<string, unknown> | undefined][] => [
  ['POST', '/api/auth/local', { identifier: p, password: 'secret123' }],
  ['POST', '/api/auth/local/register', user(`${p}b`)],
  ['POST', '/api/auth/reset-password', { code: 'nope', password: 'secret456', passwordConfirmation: 'secret456' }],
  ['GET', '/api/auth/email-confirmation?confirmation=nope', undefined],
  // (An address with no account: for others Vellum's answer differs on purpose, docs/coming-from-strapi.md.)
  ['POST', '/api/auth/send-email-confirmation', { email: `${p}nobody@example.com` }],
  [
    'POST',
    '/api/auth/change-password',
    { currentPassword: 'wrong-one', password: 'secret456', passwordConfirmation: 'secret456' },
  ],
  ['GET', '/api/connect/github', undefined],
  ['GET', '/api/auth/github/callback?access_token=x', undefined],
  ['POST', '/api/auth/refresh', {}],
  ['POST', '/api/auth/logout', {}],
];

// Before the rate limits' scenario: `/auth/local` is counted per path and address.
test('auth routes are checked against the role: Public signs in, a signed-in user may not (403), Public without auth.* may not', async () => {
  await diff.same(
    async (api) => {
      const anonymous = new HttpClient(api.baseUrl);
      const p = `a${run}`;
      const signUp = await anonymous.post('/api/auth/local/register', user(p));
      const asUser = new HttpClient(api.baseUrl, { authorization: `Bearer ${signUp.body.jwt}` });
      const call = (client: HttpClient, [method, path, body]: [string, string, Record<string, unknown> | undefined]) =>
        method === 'GET' ? client.get(path) : client.post(path, body);
      const answers: Response[] = [signUp];
      // (Forgot-password is left out anonymously: Strapi's answer is its email provider's failure.)
      for (const route of authRoutes(p)) answers.push(await call(anonymous, route));
      for (const route of [
        ...authRoutes(`${p}u`),
        ['POST', '/api/auth/forgot-password', { email: `${p}@example.com` }] as [
          string,
          string,
          Record<string, unknown>,
        ],
      ]) {
        answers.push(await call(asUser, route));
      }
      const { public: pub } = await roles(api);
      const tree = (await api.get(`/api/users-permissions/roles/${pub.id}`)).body.role.permissions;
      const saved = structuredClone(tree);
      for (const state of Object.values(tree['plugin::users-permissions'].controllers.auth) as { enabled: boolean }[])
        state.enabled = false;
      answers.push(await api.put(`/api/users-permissions/roles/${pub.id}`, { permissions: tree }));
      try {
        const role = await api.get(`/api/users-permissions/roles/${pub.id}`);
        answers.push({ ...role, body: role.body.role.permissions['plugin::users-permissions'].controllers.auth });
        for (const route of authRoutes(`${p}x`)) answers.push(await call(anonymous, route));
        answers.push(await anonymous.post('/api/auth/forgot-password', { email: `${p}@example.com` }));
        // A garbage bearer is still refused first: 401.
        answers.push(
          await anonymous.post(
            '/api/auth/local',
            { identifier: p, password: 'secret123' },
            { headers: { authorization: 'Bearer garbage' } },
          ),
        );
      } finally {
        await api.put(`/api/users-permissions/roles/${pub.id}`, { permissions: saved });
      }
      // A full-access API token may call them all, as Strapi's token strategy allows.
      answers.push(await api.post('/api/auth/local', { identifier: p, password: 'secret123' }));
      return answers;
    },
    { ...WORDS, ignoreKeys: ['id', 'jwt', 'location'] },
  );
});

/** A tree's actions, without their state: what the catalogue holds. */
const actionsOf = (tree: Record<string, { controllers: Record<string, Record<string, { enabled: boolean }>> }>) =>
  Object.entries(tree)
    .flatMap(([uid, { controllers }]) =>
      Object.entries(controllers).flatMap(([controller, actions]) =>
        Object.keys(actions).map((action) => `${uid}.${controller}.${action}`),
      ),
    )
    .sort();

test('the permissions tree: GET /api/users-permissions/permissions (every action, none enabled), roles and one role', async () => {
  const { strapi, vellum } = await diff.same(
    async (api) => {
      const { public: pub } = await roles(api);
      return [
        await api.get('/api/users-permissions/permissions'),
        await api.get(`/api/users-permissions/roles/${pub.id}`),
        await api.get('/api/users-permissions/roles/999999'),
      ];
    },
    {
      ...WORDS,
      ignoreKeys: ['id'],
      deliberate: 'catalogue entries Vellum lacks, listed below; the blog example grants Public upload reads',
    },
  );
  const [fromStrapi, fromVellum] = [strapi, vellum].map((answers) => (answers as Response[])[0]!.body.permissions);
  // Whoever asks, no action is enabled (Strapi's getActions()).
  for (const tree of [fromStrapi, fromVellum]) {
    assert.ok(
      Object.values(tree).every((api) =>
        Object.values((api as { controllers: Record<string, Record<string, { enabled: boolean }>> }).controllers).every(
          (actions) => Object.values(actions).every((a) => a.enabled === false),
        ),
      ),
    );
  }
  // Known differences of the catalogue (left for later: routes Vellum lacks or does not check by
  // these actions: content-type-builder, i18n listLocales, upload findPage; upload `update` is
  // Vellum's own).
  const strapiActions = new Set(actionsOf(fromStrapi));
  const vellumActions = new Set(actionsOf(fromVellum));
  const missing = [...strapiActions].filter((a) => !vellumActions.has(a));
  const extra = [...vellumActions].filter((a) => !strapiActions.has(a));
  assert.ok(
    missing.every((a) => /^plugin::(content-type-builder|i18n)\.|^plugin::upload\.content-api\.findPage$/.test(a)),
    missing.join(', '),
  );
  assert.deepEqual(extra, ['plugin::upload.content-api.update']);
});

const gql = (api: HttpClient, query: string, variables: Record<string, unknown> = {}) =>
  api.post('/graphql', { query, variables });

test('GraphQL (flat shape): users and roles, read, created, updated and deleted; refusals', async () => {
  await diff.same(
    async (api) => {
      const { authenticated, public: pub } = await roles(api);
      const p = `g${run}`;
      const fields = 'data { documentId username email provider confirmed blocked role { name type } }';
      const created = await gql(
        api,
        `mutation($data: UsersPermissionsUserInput!) { createUsersPermissionsUser(data: $data) { ${fields} } }`,
        {
          data: {
            username: `${p}a`,
            email: `${p}A@example.com`,
            password: 'secret123',
            role: String(pub.id),
            confirmed: true,
          },
        },
      );
      const listed = await api.get(`/api/users?filters[username][$eq]=${p}a`);
      const id = String(listed.body[0]?.id);
      return [
        // (The blog example's Vellum side also has an Editor role.)
        await gql(
          api,
          '{ usersPermissionsRoles(filters: { type: { in: ["authenticated", "public"] } }, sort: "name") { name description type } }',
        ),
        created,
        await gql(
          api,
          `mutation($data: UsersPermissionsUserInput!) { createUsersPermissionsUser(data: $data) { ${fields} } }`,
          { data: { username: `${p}b`, email: `${p}b@example.com`, password: 'secret123' } },
        ),
        await gql(
          api,
          `mutation($data: UsersPermissionsUserInput!) { createUsersPermissionsUser(data: $data) { ${fields} } }`,
          {
            data: {
              username: `${p}c`,
              email: `${p}a@example.com`,
              password: 'secret123',
              role: String(authenticated.id),
            },
          },
        ),
        await gql(
          api,
          `{ usersPermissionsUsers(filters: { username: { eq: "${p}a" } }) { username email role { name } } }`,
        ),
        await gql(
          api,
          `mutation { updateUsersPermissionsUser(id: "${id}", data: { username: "${p}renamed", role: "${authenticated.id}" }) { ${fields} } }`,
        ),
        await gql(
          api,
          `mutation { updateUsersPermissionsUser(id: "999999", data: { username: "${p}x" }) { ${fields} } }`,
        ),
        await gql(api, `mutation { deleteUsersPermissionsUser(id: "${id}") { data { username role { name } } } }`),
        await gql(api, `mutation { createUsersPermissionsRole(data: { name: "${p}role", description: "d" }) { ok } }`),
      ];
      // `code`: Strapi 5 names an ApplicationError `STRAPI_APPLICATION_ERROR`, a NotFoundError
      // `STRAPI_NOT_FOUND_ERROR`; Vellum's registry (docs/errors.md) says `BAD_REQUEST`, `NOT_FOUND`.
    },
    { ...WORDS, ignoreKeys: ['id', 'code'] },
  );
});

test('the words a front end shows: login, blocked account, missing credentials, bad tokens, forbidden', async () => {
  await diff.same(
    async (api) => {
      const anonymous = new HttpClient(api.baseUrl);
      const p = `w${run}`;
      const signUp = await anonymous.post('/api/auth/local/register', user(`${p}a`));
      const blocked = await anonymous.post('/api/auth/local/register', user(`${p}b`));
      await api.put(`/api/users/${blocked.body.user.id}`, { blocked: true });
      const jwt = signUp.body.jwt as string;
      const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });
      return [
        signUp,
        await anonymous.post('/api/auth/local/register', user(`${p}a`)),
        await anonymous.post('/api/auth/local/register', { username: `${p}c` }),
        await anonymous.post('/api/auth/local', { identifier: `${p}a`, password: 'wrong-password' }),
        await anonymous.post('/api/auth/local', { identifier: `${p}nobody`, password: 'wrong-password' }),
        await anonymous.post('/api/auth/local', { identifier: `${p}a` }),
        await anonymous.post('/api/auth/local', {}),
        await anonymous.post('/api/auth/local', { identifier: `${p}b`, password: 'secret123' }),
        await anonymous.get('/api/articles', bearer('not-a-token')),
        await anonymous.get('/api/users/me', bearer('not-a-token')),
        await anonymous.get('/api/users/me'),
        await anonymous.get('/api/users'),
        await anonymous.post('/api/articles', { data: { title: 'x' } }),
        await anonymous.post(
          '/api/auth/change-password',
          { currentPassword: 'wrong-one', password: 'secret456', passwordConfirmation: 'secret456' },
          bearer(jwt),
        ),
        await anonymous.post('/api/auth/reset-password', {
          code: 'nope',
          password: 'secret456',
          passwordConfirmation: 'secret456',
        }),
      ];
    },
    { ...WORDS, ignoreKeys: ['id', 'jwt'] },
  );
});

test('registration answers the role to a caller that may read roles (a full-access token), not to Public', async () => {
  await diff.same(
    async (api) => {
      const p = `r${run}`;
      return [
        await api.post('/api/auth/local/register', user(`${p}a`)),
        await new HttpClient(api.baseUrl).post('/api/auth/local/register', user(`${p}b`)),
      ];
    },
    { ...WORDS, ignoreKeys: ['id', 'jwt', 'documentId', 'createdAt', 'updatedAt', 'publishedAt'] },
  );
});
