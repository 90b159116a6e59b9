/**
 * A users-permissions plugin extension side by side with Strapi 5.54: the fixture
 * test/fixtures/users-permissions-extension (a pushed `PUT /user/me` and its action, a replaced
 * `user.me`, `auth.callback` and `auth.register` wrapped through Strapi 5's auth factory, `user.find`
 * wrapped in place, a policy added to `GET /users/:id`, a v4-style assignment on the factory).
 * On demand: `npm run test:strapi -- extensions`. Pinned for Vellum alone in
 * test/users-permissions/extensions.test.ts.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { HttpClient, type Response } from '../helpers/http.js';
import { fixture } from '../helpers/server.js';
import { diffName, openDifferential, type Differential } from './harness.js';

let diff: Differential;
before(async () => {
  diff = await openDifferential({
    name: diffName(import.meta.filename),
    project: fixture('users-permissions-extension'),
    readyPath: '/api/notes',
  });
});
after(() => diff?.close());

const run = Date.now().toString(36);
const WORDS = { messages: true, ignoreKeys: ['jwt'] };
const publicOf = (api: HttpClient) => new HttpClient(api.baseUrl);

/** A user registered and signed in through the wrapped actions: both answers, and a client with its JWT. */
async function signUp(api: HttpClient, name: string): Promise<{ answers: Response[]; user: HttpClient; id: number }> {
  const anonymous = publicOf(api);
  const body = { username: name, email: `${name}@example.com`, password: 'secret123' };
  const registered = await anonymous.post('/api/auth/local/register', body);
  const login = await anonymous.post('/api/auth/local', { identifier: name, password: 'secret123' });
  const user = new HttpClient(api.baseUrl, { authorization: `Bearer ${login.body?.jwt}` });
  return { answers: [registered, login], user, id: login.body?.user?.id };
}

test('wrapped register and callback; a wrong password; forgot-password untouched by the v4-style assignment', async () => {
  await diff.same(async (api) => {
    const { answers } = await signUp(api, `w${run}`);
    const anonymous = publicOf(api);
    return [
      ...answers,
      await anonymous.post('/api/auth/local', { identifier: `w${run}`, password: 'wrong' }),
      await anonymous.post('/api/auth/forgot-password', { email: `nobody${run}@example.com` }),
    ];
  }, WORDS);
});

test('the replaced user.me; anonymous and API-token callers', async () => {
  await diff.same(async (api) => {
    const { user } = await signUp(api, `m${run}`);
    return [await user.get('/api/users/me'), await publicOf(api).get('/api/users/me'), await api.get('/api/users/me')];
  }, WORDS);
});

test('the pushed route: 403 until granted through the roles API, listed in the trees; then its answers', async () => {
  await diff.same(async (api) => {
    const { user } = await signUp(api, `p${run}`);
    const before = await user.put('/api/user/me', { username: `p${run}x` });
    const catalogue = await api.get('/api/users-permissions/permissions');
    const roles = await api.get('/api/users-permissions/roles');
    const authenticated = roles.body.roles.find((role: { type: string }) => role.type === 'authenticated');
    const role = await api.get(`/api/users-permissions/roles/${authenticated.id}`);
    const permissions = role.body.role.permissions;
    permissions['plugin::users-permissions'].controllers.user.updateMe.enabled = true;
    const granted = await api.put(`/api/users-permissions/roles/${authenticated.id}`, { permissions });
    const answers = [
      before,
      { ...catalogue, body: catalogue.body.permissions['plugin::users-permissions'] },
      granted,
      await user.put('/api/user/me', { username: `p${run}y` }),
      await user.put('/api/user/me', { username: 'p' }),
      await user.put('/api/user/me', {}),
      await publicOf(api).put('/api/user/me', { username: 'abcd' }),
      await user.get('/api/user/me'),
      await user.delete('/api/user/me'),
      await user.get('/api/users/me'),
    ];
    permissions['plugin::users-permissions'].controllers.user.updateMe.enabled = false;
    await api.put(`/api/users-permissions/roles/${authenticated.id}`, { permissions });
    return answers;
  }, WORDS);
});

test('a policy added to GET /users/:id; the wrapped user.find and its header; the untouched count', async () => {
  const { strapi, vellum } = await diff.same(async (api) => {
    const { id } = await signUp(api, `q${run}`);
    return [
      await api.get(`/api/users/${id}`),
      await api.get(`/api/users/${id}`, { headers: { 'x-allow': 'yes' } }),
      await api.get(`/api/users?filters[username][$eq]=q${run}`),
      await api.get(`/api/users/count?filters[username][$eq]=q${run}`),
    ];
  }, WORDS);
  const header = (answers: unknown) => (answers as Response[])[2]!.headers.get('x-user-count');
  assert.equal(header(strapi), '1');
  assert.equal(header(vellum), header(strapi));
});

test('an unknown user id through the policy: 404 on Vellum, 204 on Strapi (on purpose)', async () => {
  await diff.same(async (api) => [await api.get('/api/users/999999', { headers: { 'x-allow': 'yes' } })], {
    ...WORDS,
    deliberate: 'docs/coming-from-strapi.md: GET /api/users/:id of an unknown id is a 404',
  });
});
