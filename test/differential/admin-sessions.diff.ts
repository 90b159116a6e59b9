/**
 * Administrators' sign-in side by side with Strapi 5.54 (issue 34, "the first minutes"): login with
 * and without "remember me", the refresh cookie's attributes, `POST /admin/access-token` (rotation,
 * the token just replaced), log out of one device then all, a forgotten password and a reset's
 * refusals, all word for word. On demand: `npm run test:strapi -- admin-sessions`.
 *
 * Strapi limits `/admin/login` to 5 requests in 5 minutes per email and address, successes
 * included: the whole file makes 4 for the administrator. Deliberate differences, not compared:
 * Strapi also sets `strapi_admin_refresh.sig` (its cookies are signed with the app keys; Vellum's
 * refresh token is a signed JWT already), and a cookie two rotations old ends Vellum's session
 * (tested in test/admin/admin-sessions.test.ts).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { HttpClient, type Response } from '../helpers/http.js';
import { diffName, openDifferential, type Differential, type Side } from './harness.js';

const ADMIN = { email: 'admin@example.com', password: 'Admin-Passw0rd!' };
const DEVICE_A = '6f1c4a36-1d1e-4b0c-9f38-3b2b7f0e8e11';
const DEVICE_B = '0b7d5c1e-9a0f-4c7e-8f4e-2a1b3c4d5e6f';

let diff: Differential;
const anonymous: Partial<Record<Side, HttpClient>> = {};
/** What the first test's logins left, for the next: each browser's cookie and token. */
const browsers: Partial<Record<Side, { a: Browser; b: Browser }>> = {};

interface Browser {
  cookie: string;
  token: string;
}

const refreshCookie = (response: Response): string | undefined => {
  const line = response.headers.getSetCookie().find((c) => c.startsWith('strapi_admin_refresh='));
  return line?.slice('strapi_admin_refresh='.length).split(';')[0];
};
/** The refresh cookie's attributes, its value and dates left out (the signature cookie is Strapi's alone). */
const cookieShape = (response: Response): string[] =>
  response.headers
    .getSetCookie()
    .filter((c) => c.startsWith('strapi_admin_refresh='))
    .map((c) =>
      c
        .replace(/^strapi_admin_refresh=[^;]*/, (v) =>
          v.endsWith('=') ? 'strapi_admin_refresh=' : 'strapi_admin_refresh=<value>',
        )
        .replace(/expires=[^;]+/, (e) => (e.includes('1970') ? e : 'expires=<date>')),
    );

before(async () => {
  diff = await openDifferential({ name: diffName(import.meta.filename) });
  for (const [side, api] of [
    ['strapi', diff.strapi],
    ['vellum', diff.vellum],
  ] as const) {
    anonymous[side] = new HttpClient(api.baseUrl);
    if (side === 'vellum')
      await anonymous[side].post('/admin/register-admin', { ...ADMIN, firstname: 'Ada', lastname: 'Admin' });
  }
});
after(() => diff?.close());

test('login: a session, remember me, the cookie, and the refusals', async () => {
  const cookies: Partial<Record<Side, string[][]>> = {};
  await diff.same(
    async (_api, side) => {
      const client = anonymous[side]!;
      const answers: Record<string, Response> = {};
      answers.plain = await client.post('/admin/login', { ...ADMIN, deviceId: DEVICE_A });
      answers.remembered = await client.post('/admin/login', { ...ADMIN, rememberMe: true, deviceId: DEVICE_B });
      answers.missing = await client.post('/admin/login', {});
      answers.wrong = await client.post('/admin/login', { ...ADMIN, password: 'Wrong-Passw0rd1' });
      answers.badRemember = await client.post('/admin/login', { ...ADMIN, rememberMe: 'yes' });
      answers.badDevice = await client.post('/admin/login', { email: 'other@example.com', password: 'x', deviceId: 1 });
      assert.equal(answers.plain.status, 200, `${side}: ${answers.plain.text}`);
      cookies[side] = [cookieShape(answers.plain), cookieShape(answers.remembered)];
      browsers[side] = {
        a: { cookie: refreshCookie(answers.plain)!, token: answers.plain.body.data.token },
        b: { cookie: refreshCookie(answers.remembered)!, token: answers.remembered.body.data.token },
      };
      return answers;
    },
    { messages: true, ignoreKeys: ['token', 'accessToken'] },
  );
  assert.deepEqual(cookies.vellum, cookies.strapi);
});

test('access-token: rotates the cookie; the one just replaced is refused; log out of a device, then of all', async () => {
  const shapes: Partial<Record<Side, string[]>> = {};
  await diff.same(
    async (_api, side) => {
      const client = anonymous[side]!;
      const { a, b } = browsers[side]!;
      const withCookie = (cookie: string) => ({ headers: { cookie: `strapi_admin_refresh=${cookie}` } });
      const bearer = (token: string, cookie?: string) => ({
        headers: { authorization: `Bearer ${token}`, ...(cookie ? { cookie: `strapi_admin_refresh=${cookie}` } : {}) },
      });
      const answers: Record<string, Response> = {};
      answers.none = await client.post('/admin/access-token');
      answers.garbage = await client.post('/admin/access-token', undefined, withCookie('abc'));
      answers.rotated = await client.post('/admin/access-token', undefined, withCookie(a.cookie));
      shapes[side] = cookieShape(answers.rotated);
      const a1 = refreshCookie(answers.rotated)!;
      answers.replaced = await client.post('/admin/access-token', undefined, withCookie(a.cookie));
      answers.again = await client.post('/admin/access-token', undefined, withCookie(a1));
      const a2 = refreshCookie(answers.again)!;
      const token = answers.again.body.data.token as string;
      answers.me = await client.get('/admin/users/me', bearer(token));
      answers.logoutB = await client.post('/admin/logout', { deviceId: DEVICE_B }, bearer(b.token, b.cookie));
      answers.bAfter = await client.get('/admin/users/me', bearer(b.token));
      answers.bRenew = await client.post('/admin/access-token', undefined, withCookie(b.cookie));
      answers.aStill = await client.get('/admin/users/me', bearer(token));
      answers.logoutAll = await client.post('/admin/logout', {}, bearer(token, a2));
      answers.aAfter = await client.get('/admin/users/me', bearer(token));
      answers.aRenew = await client.post('/admin/access-token', undefined, withCookie(a2));
      return answers;
    },
    { messages: true, ignoreKeys: ['token', 'accessToken'] },
  );
  assert.deepEqual(shapes.vellum, shapes.strapi);
});

test('forgot-password and reset-password: answers and refusals', async () => {
  await diff.same(
    async (_api, side) => {
      const client = anonymous[side]!;
      const answers: Record<string, Response> = {};
      answers.known = await client.post('/admin/forgot-password', { email: ADMIN.email });
      answers.unknown = await client.post('/admin/forgot-password', { email: 'nobody@example.com' });
      answers.empty = await client.post('/admin/forgot-password', {});
      answers.invalid = await client.post('/admin/forgot-password', { email: 'not-an-email' });
      answers.upper = await client.post('/admin/forgot-password', { email: 'Admin@Example.com' });
      answers.resetEmpty = await client.post('/admin/reset-password', {});
      answers.resetUnknown = await client.post('/admin/reset-password', {
        resetPasswordToken: 'abc',
        password: 'Xyzabc123',
      });
      answers.resetWeak = await client.post('/admin/reset-password', { resetPasswordToken: 'abc', password: 'short' });
      answers.resetNoPassword = await client.post('/admin/reset-password', { resetPasswordToken: 'abc' });
      return answers;
    },
    { messages: true },
  );
});
