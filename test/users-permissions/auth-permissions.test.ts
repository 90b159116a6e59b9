/**
 * The auth routes are actions of users-permissions' `auth` controller, checked against the
 * caller's role as Strapi 5.54 checks them (test/differential/users.diff.ts pins its answers):
 * Public holds the sign-in ones on a new database, Authenticated does not (a signed-in user's
 * `POST /api/auth/local` is a 403), an administrator may take them from Public, and the grants are
 * seeded once per database like Strapi's other defaults.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { HttpClient, type Response } from '../helpers/http.js';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';
import { unique } from '../helpers/unique.js';

const AUTH = 'plugin::users-permissions.auth';
const BASE = '/api/users-permissions';
/** Strapi 5.54's DEFAULT_PERMISSIONS, by role. */
const PUBLIC_AUTH = [
  'callback',
  'connect',
  'emailConfirmation',
  'forgotPassword',
  'refresh',
  'register',
  'resetPassword',
  'sendEmailConfirmation',
];
const AUTHENTICATED_AUTH = ['changePassword', 'getSessions', 'logout', 'revokeSession'];
const ALL_AUTH = [...PUBLIC_AUTH, ...AUTHENTICATED_AUTH].sort();

type Route = [method: 'GET' | 'POST', path: string, body?: Record<string, unknown>];
/** Every auth route Vellum serves, with a body that passes validation. */
const routes = (name: string): Route[] => [
  ['POST', '/api/auth/local', { identifier: name, password: 'secret123' }],
  ['POST', '/api/auth/local/register', { username: `${name}b`, email: `${name}b@example.com`, password: 'secret123' }],
  ['POST', '/api/auth/forgot-password', { email: `${name}nobody@example.com` }],
  ['POST', '/api/auth/reset-password', { code: 'nope', password: 'secret456', passwordConfirmation: 'secret456' }],
  ['GET', '/api/auth/email-confirmation?confirmation=nope'],
  ['POST', '/api/auth/send-email-confirmation', { email: `${name}nobody@example.com` }],
  [
    'POST',
    '/api/auth/change-password',
    { currentPassword: 'wrong-one', password: 'secret456', passwordConfirmation: 'secret456' },
  ],
  ['GET', '/api/connect/github'],
  ['GET', '/api/auth/github/callback?access_token=x'],
  ['POST', '/api/auth/refresh', {}],
  ['POST', '/api/auth/logout', {}],
];
const call = (client: HttpClient, [method, path, body]: Route): Promise<Response> =>
  method === 'GET' ? client.get(path) : client.post(path, body);
/** `403 ForbiddenError "Forbidden"`, Strapi's answer to a caller without the action. */
const forbidden = (answer: Response, what: string) => {
  assert.equal(answer.status, 403, `${what}: ${JSON.stringify(answer.body)}`);
  assert.deepEqual([answer.body.error.name, answer.body.error.message], ['ForbiddenError', 'Forbidden'], what);
};

type Tree = Record<string, { controllers: Record<string, Record<string, { enabled: boolean; policy: string }>> }>;
const enabledAuth = (tree: Tree) =>
  Object.entries(tree['plugin::users-permissions']!.controllers.auth!)
    .filter(([, state]) => state.enabled)
    .map(([name]) => name)
    .sort();

for (const dialect of DIALECTS) {
  describe(`auth routes go through the users-permissions permissions [${dialect}]`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect);
    });
    after(() => server?.close());

    const roleId = async (type: string) => (await server.vellum.auth.roles.get(type)).id;
    const signUp = async () => {
      const name = unique('au');
      const answer = await server.publicApi.post('/api/auth/local/register', {
        username: name,
        email: `${name}@example.com`,
        password: 'secret123',
      });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      return { name, client: new HttpClient(server.url, { authorization: `Bearer ${answer.body.jwt}` }) };
    };

    it('the catalogue and the trees list the auth controller; a new database grants it as Strapi does', async () => {
      const catalogue = (await server.api.get(`${BASE}/permissions`)).body.permissions as Tree;
      assert.deepEqual(Object.keys(catalogue['plugin::users-permissions']!.controllers.auth!).sort(), ALL_AUTH);
      assert.deepEqual(enabledAuth(catalogue), []);
      const publicTree = (await server.api.get(`${BASE}/roles/${await roleId('public')}`)).body.role
        .permissions as Tree;
      assert.deepEqual(enabledAuth(publicTree), PUBLIC_AUTH);
      assert.deepEqual(publicTree['plugin::users-permissions']!.controllers.auth!.callback, {
        enabled: true,
        policy: '',
      });
      const authenticatedTree = (await server.api.get(`${BASE}/roles/${await roleId('authenticated')}`)).body.role
        .permissions as Tree;
      assert.deepEqual(enabledAuth(authenticatedTree), AUTHENTICATED_AUTH);
      assert.equal(authenticatedTree['plugin::users-permissions']!.controllers.user!.me!.enabled, true);
    });

    it("an Authenticated user's JWT: sign-in, registration and the account flows are 403; change-password and logout pass", async () => {
      const { name, client } = await signUp();
      for (const route of routes(name)) {
        const answer = await call(client, route);
        if (route[1] === '/api/auth/change-password') {
          assert.equal(answer.status, 400, 'the check passes: the current password is wrong');
          assert.equal(answer.body.error.message, 'The provided current password is invalid');
        } else if (route[1] === '/api/auth/logout') {
          assert.equal(answer.status, 404, 'the check passes: no refresh sessions in legacy-support mode');
        } else forbidden(answer, `${route[0]} ${route[1]}`);
      }
      // The JWT is still good elsewhere.
      assert.equal((await client.get('/api/users/me')).status, 200);
    });

    it('anonymous: what Public holds passes, change-password and logout are 403; a garbage bearer is a 401', async () => {
      const { name } = await signUp();
      const login = await server.publicApi.post('/api/auth/local', { identifier: name, password: 'secret123' });
      assert.equal(login.status, 200);
      assert.equal(typeof login.body.jwt, 'string');
      const register = await server.publicApi.post('/api/auth/local/register', {
        username: `${name}r`,
        email: `${name}r@example.com`,
        password: 'secret123',
      });
      assert.equal(register.status, 200);
      forbidden(await call(server.publicApi, routes(name)[6]!), 'change-password');
      forbidden(await call(server.publicApi, routes(name)[10]!), 'logout');
      assert.equal(
        (await server.publicApi.post('/api/auth/refresh', {})).status,
        404,
        'Public holds refresh: legacy-support mode has none',
      );
      const garbage = await server.publicApi.post(
        '/api/auth/local',
        { identifier: name, password: 'secret123' },
        { headers: { authorization: 'Bearer garbage' } },
      );
      assert.equal(garbage.status, 401);
    });

    it('Public without the auth actions (PUT /roles/:id): every auth route is a 403; given back, they pass again', async () => {
      const { name } = await signUp();
      const id = await roleId('public');
      const saved = (await server.api.get(`${BASE}/roles/${id}`)).body.role.permissions as Tree;
      const without = structuredClone(saved);
      for (const state of Object.values(without['plugin::users-permissions']!.controllers.auth!)) state.enabled = false;
      assert.equal((await server.api.put(`${BASE}/roles/${id}`, { permissions: without })).status, 200);
      try {
        for (const route of routes(name)) forbidden(await call(server.publicApi, route), `${route[0]} ${route[1]}`);
      } finally {
        assert.equal((await server.api.put(`${BASE}/roles/${id}`, { permissions: saved })).status, 200);
      }
      assert.equal(
        (await server.publicApi.post('/api/auth/local', { identifier: name, password: 'secret123' })).status,
        200,
      );
    });

    it('a role granted auth.callback may sign in with a JWT; a full-access API token may call the routes', async () => {
      const role = await server.vellum.auth.roles.create(unique('signer'));
      await server.vellum.auth.roles.grant(role.documentId, [`${AUTH}.callback`]);
      const name = unique('cb');
      await server.vellum.auth.users.create({
        username: name,
        email: `${name}@example.com`,
        password: 'secret123',
        role: role.documentId,
      });
      const jwt = (await server.publicApi.post('/api/auth/local', { identifier: name, password: 'secret123' })).body
        .jwt as string;
      const client = new HttpClient(server.url, { authorization: `Bearer ${jwt}` });
      assert.equal((await client.post('/api/auth/local', { identifier: name, password: 'secret123' })).status, 200);
      forbidden(
        await client.post('/api/auth/local/register', {
          username: `${name}b`,
          email: `${name}b@example.com`,
          password: 'secret123',
        }),
        'register',
      );
      assert.equal((await server.api.post('/api/auth/local', { identifier: name, password: 'secret123' })).status, 200);
    });

    it('the defaults are seeded once: a revocation stays at the next start', async () => {
      const publicRole = await server.vellum.auth.roles.get('public');
      await server.vellum.auth.roles.revoke(publicRole.documentId, [`${AUTH}.register`]);
      try {
        const node = await startServer(dialect, { nodeOf: server });
        try {
          forbidden(
            await node.publicApi.post('/api/auth/local/register', {
              username: unique('s'),
              email: `${unique('s')}@example.com`,
              password: 'secret123',
            }),
            'register',
          );
        } finally {
          await node.close();
        }
      } finally {
        await server.vellum.auth.roles.grant(publicRole.documentId, [`${AUTH}.register`]);
      }
    });

    it("a database of an earlier Vellum (no auth grants, none seeded) gets Strapi's defaults at its next start", async () => {
      const { system } = server.vellum.database;
      const auth = (table: 'up_permissions' | 'up_permissions_seeded') =>
        system.deleteFrom(table).where('action', 'like', `${AUTH}.%`).execute();
      await auth('up_permissions');
      await auth('up_permissions_seeded');
      forbidden(
        await server.publicApi.post('/api/auth/local', { identifier: 'nobody', password: 'secret123' }),
        'login',
      );
      const node = await startServer(dialect, { nodeOf: server });
      try {
        const { name } = await signUp();
        assert.equal(
          (await node.publicApi.post('/api/auth/local', { identifier: name, password: 'secret123' })).status,
          200,
        );
        const authenticatedTree = (await node.api.get(`${BASE}/roles/${await roleId('authenticated')}`)).body.role
          .permissions as Tree;
        assert.deepEqual(enabledAuth(authenticatedTree), AUTHENTICATED_AUTH);
      } finally {
        await node.close();
      }
    });
  });
}
