/**
 * Statuses, error names and details of the users-permissions routes, as Strapi 5.54 answers the
 * same conditions (observed on the real server; messages may be more precise than Strapi's).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Response } from '../helpers/http.js';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';

const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });
const tag = () => randomUUID().slice(0, 8);
const fieldErrors = (res: Response) =>
  res.body.error.details.errors.map((e: { path: string[]; message: string }) => [e.path.join('.'), e.message]);

function assertError(res: Response, status: number, name: string): void {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.equal(res.body.data, null);
  assert.equal(res.body.error.status, status);
  assert.equal(res.body.error.name, name);
}

for (const dialect of DIALECTS) {
  describe(`users-permissions errors as Strapi's [${dialect}]`, () => {
    let server: TestServer;
    before(async () => {
      // Every registration comes from one address: more than the default limit of five.
      server = await startServer(dialect, {
        config: { plugins: { 'users-permissions': { config: { register: { ratelimit: { max: 1000 } } } } } },
      });
    });
    after(() => server?.close());
    const anon = () => server.publicApi;

    it('GET /api/users/me without credentials is 403 ForbiddenError; with an API token 401', async () => {
      assertError(await anon().get('/api/users/me'), 403, 'ForbiddenError');
      assertError(await server.api.get('/api/users/me'), 401, 'UnauthorizedError');
      assertError(await anon().get('/api/users/me', bearer('abc.def.ghi')), 401, 'UnauthorizedError');
    });

    it('an Authorization header that is not "Bearer <token>" carries no credentials', async () => {
      for (const authorization of ['Basic dXNlcjpwYXNz', 'Bearer', 'Bearer ', 'Token abc']) {
        assertError(await anon().get('/api/users/me', { headers: { authorization } }), 403, 'ForbiddenError');
        assert.equal(
          (await anon().get('/api/articles', { headers: { authorization } })).status,
          200,
          `${authorization}: Public may read articles`,
        );
      }
    });

    it('a login body missing both fields lists both', async () => {
      const res = await anon().post('/api/auth/local', {});
      assertError(res, 400, 'ValidationError');
      assert.equal(res.body.error.message, '2 errors occurred');
      assert.deepEqual(fieldErrors(res), [
        ['identifier', 'identifier is a required field'],
        ['password', 'password is a required field'],
      ]);
      const one = await anon().post('/api/auth/local', { identifier: 'someone' });
      assert.deepEqual(fieldErrors(one), [['password', 'password is a required field']]);
    });

    it("login fields of another type name their type, with the value (never a password's)", async () => {
      const res = await anon().post('/api/auth/local', { identifier: 1, password: 2 });
      assertError(res, 400, 'ValidationError');
      assert.deepEqual(
        res.body.error.details.errors.map((e: { path: string[]; value: unknown }) => [e.path.join('.'), e.value]),
        [
          ['identifier', 1],
          ['password', undefined],
        ],
      );
      assert.match(res.body.error.details.errors[0].message, /must be a `string` type/);
    });

    it('a wrong password is 400 ValidationError "Invalid identifier or password" with empty details', async () => {
      const res = await anon().post('/api/auth/local', { identifier: `nobody-${tag()}`, password: 'whatever123' });
      assertError(res, 400, 'ValidationError');
      assert.equal(res.body.error.message, 'Invalid identifier or password');
      assert.deepEqual(res.body.error.details, {});
    });

    it('register lists every missing field, in Strapi order; types and email format are checked', async () => {
      const empty = await anon().post('/api/auth/local/register', {});
      assertError(empty, 400, 'ValidationError');
      assert.deepEqual(
        fieldErrors(empty).map(([path]: string[]) => path),
        ['email', 'username', 'password'],
      );
      const types = await anon().post('/api/auth/local/register', { username: 1, email: 2, password: 3 });
      assert.deepEqual(
        fieldErrors(types).map(([path]: string[]) => path),
        ['email', 'username', 'password'],
      );
      assert.ok(fieldErrors(types).every(([, message]: string[]) => /must be a `string` type/.test(message)));
      const email = await anon().post('/api/auth/local/register', {
        username: `u${tag()}`,
        email: 'not-an-email',
        password: 'secret123',
      });
      assertError(email, 400, 'ValidationError');
      assert.deepEqual(fieldErrors(email), [['email', 'email must be a valid email']]);
    });

    it('register with a field that is not allowed is 400 "Invalid parameters" with empty details', async () => {
      const res = await anon().post('/api/auth/local/register', {
        username: `u${tag()}`,
        email: `${tag()}@example.com`,
        password: 'secret123',
        role: 1,
      });
      assertError(res, 400, 'ValidationError');
      assert.equal(res.body.error.message, 'Invalid parameters: role');
      assert.deepEqual(res.body.error.details, {});
    });

    it('a taken email or username is 400 ApplicationError', async () => {
      const username = `u${tag()}`;
      const email = `${username}@example.com`;
      assert.equal(
        (await anon().post('/api/auth/local/register', { username, email, password: 'secret123' })).status,
        200,
      );
      for (const body of [
        { username, email: `other-${email}` },
        { username: `${username}x`, email: email.toUpperCase() },
      ]) {
        const res = await anon().post('/api/auth/local/register', { ...body, password: 'secret123' });
        assertError(res, 400, 'ApplicationError');
        assert.equal(res.body.error.message, 'Email or Username are already taken');
      }
    });

    it('/api/users without a grant is 403; an unknown user id with one is 404 NotFoundError', async () => {
      assertError(await anon().get('/api/users'), 403, 'ForbiddenError');
      assertError(await anon().get('/api/users/1'), 403, 'ForbiddenError');
      // Strapi 5.54 answers 204 with no body here; Vellum says what happened.
      assertError(await server.api.get('/api/users/999999'), 404, 'NotFoundError');
      assertError(await server.api.get('/api/users/abc'), 404, 'NotFoundError');
    });

    it('malformed JSON is a 400 SyntaxError, as Strapi names it', async () => {
      const res = await anon().request('POST', '/api/auth/local', {
        rawBody: '{"identifier": ',
        headers: { 'content-type': 'application/json' },
      });
      assertError(res, 400, 'SyntaxError');
    });
  });
}
