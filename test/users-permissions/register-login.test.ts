/**
 * `POST /api/auth/local/register`, `POST /api/auth/local`, `GET /api/users/me`, `/api/users`:
 * success and every failure, JWT expiry and tampering, blocked users, rate-limited failures.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SignJWT } from 'jose';
import { HttpClient } from '../helpers/http.js';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';

const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });
const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

for (const dialect of DIALECTS) {
  describe(`registration and login [${dialect}]`, () => {
    let server: TestServer;
    /** alice, registered before the tests: they log in as her and read her; none changes her. */
    let jwt: string;
    let userId: number;
    before(async () => {
      server = await startServer(dialect, {
        // Registrations are all from one address: more than the login limit (test/users-permissions/accounts.test.ts tests theirs).
        config: {
          plugins: {
            'users-permissions': {
              config: {
                ratelimit: { perAccount: true, max: 3, interval: 60_000 },
                register: { ratelimit: { max: 1000 } },
              },
            },
          },
        },
      });
      const alice = await server.publicApi.post('/api/auth/local/register', {
        username: 'alice',
        email: 'alice@example.com',
        password: 'secret123',
      });
      assert.equal(alice.status, 200, JSON.stringify(alice.body));
      jwt = alice.body.jwt;
      userId = alice.body.user.id;
    });
    after(() => server?.close());
    const anon = () => server.publicApi;

    it('register answers {jwt, user} without the envelope; the email is normalised, the password never shown', async () => {
      const res = await anon().post('/api/auth/local/register', {
        username: 'carol',
        email: '  Carol@Example.COM ',
        password: 'secret123',
      });
      assert.equal(res.status, 200);
      assert.match(res.body.jwt, /^[\w-]+\.[\w-]+\.[\w-]+$/);
      const { user } = res.body;
      assert.deepEqual(Object.keys(user).sort(), [
        'blocked',
        'confirmed',
        'createdAt',
        'documentId',
        'email',
        'id',
        'provider',
        'publishedAt',
        'updatedAt',
        'username',
      ]);
      assert.deepEqual(
        [user.username, user.email, user.provider, user.confirmed, user.blocked],
        ['carol', 'carol@example.com', 'local', true, false],
      );
      const stored = await server.vellum.database.db
        .selectFrom('up_users')
        .select('password')
        .where('id', '=', user.id)
        .executeTakeFirstOrThrow();
      assert.match(String(stored.password), /^\$2[aby]\$04\$/, "bcrypt hash, at the test servers' cost");
    });

    it('a caller that may read roles (a full-access API token) gets the new user with its role, as from Strapi 5.54', async () => {
      const res = await server.api.post('/api/auth/local/register', {
        username: 'dave',
        email: 'dave@example.com',
        password: 'secret123',
      });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.user.username, 'dave');
      assert.equal(res.body.user.role.type, 'authenticated');
      assert.equal(res.body.user.role.name, 'Authenticated');
    });

    it('credentials that do not resolve are a 401 on every auth route, as Strapi (which authenticates them first)', async () => {
      const garbage = new HttpClient(server.url, { authorization: 'Bearer garbage' });
      const users = async () => (await server.api.get('/api/users/count')).body as number;
      const before = await users();
      for (const [method, path, body] of [
        ['post', '/api/auth/local', { identifier: 'alice', password: 'secret123' }],
        [
          'post',
          '/api/auth/local/register',
          { username: 'garbage-bearer', email: 'garbage-bearer@example.com', password: 'secret123' },
        ],
        ['post', '/api/auth/forgot-password', { email: 'alice@example.com' }],
        ['post', '/api/auth/reset-password', {}],
        ['post', '/api/auth/send-email-confirmation', { email: 'alice@example.com' }],
        ['get', '/api/auth/email-confirmation?confirmation=x', undefined],
        ['get', '/api/connect/github', undefined],
        ['get', '/api/auth/github/callback?access_token=x', undefined],
      ] as const) {
        const res = method === 'get' ? await garbage.get(path) : await garbage.post(path, body);
        assert.equal(res.status, 401, `${path}: ${res.text}`);
        assert.deepEqual(
          [res.body.error.name, res.body.error.message],
          ['UnauthorizedError', 'Missing or invalid credentials'],
          path,
        );
      }
      assert.equal(await users(), before, 'nobody registered');
    });

    it('registration failures are 400 and create nobody', async () => {
      const users = async () => (await server.api.get('/api/users/count')).body as number;
      const before = await users();
      const cases: [Record<string, unknown> | string, RegExp][] = [
        [{ username: 'alice', email: 'other@example.com', password: 'secret123' }, /already taken/],
        [{ username: 'alice2', email: 'ALICE@example.com', password: 'secret123' }, /already taken/],
        [{ email: 'x@example.com', password: 'secret123' }, /username/],
        [{ username: 'bobby', password: 'secret123' }, /email/],
        [{ username: 'bobby', email: 'bobby@example.com' }, /password/],
        [{ username: 'bobby', email: 'not-an-email', password: 'secret123' }, /email/],
        [{ username: 'bobby', email: 'bobby@example.com', password: '123' }, /password/],
        [{ username: 'bobby', email: 'bobby@example.com', password: 'x'.repeat(100) }, /password/],
        [{ username: 'bobby', email: 'bobby@example.com', password: 'secret123', role: 1 }, /Invalid parameters: role/],
        [
          { username: 'bobby', email: 'bobby@example.com', password: 'secret123', confirmed: false },
          /Invalid parameters/,
        ],
        [{ username: ['bobby'], email: 'bobby@example.com', password: 'secret123' }, /username/],
      ];
      for (const [body, message] of cases) {
        const res = await anon().post('/api/auth/local/register', body);
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.equal(res.body.data, null);
        assert.match(JSON.stringify(res.body.error), message, JSON.stringify(body));
      }
      const malformed = await anon().request('POST', '/api/auth/local/register', {
        rawBody: '{"username":',
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(malformed.status, 400);
      assert.equal(await users(), before);
    });

    it('login by email or username answers {jwt, user}', async () => {
      for (const identifier of ['alice', 'ALICE@example.com']) {
        const res = await anon().post('/api/auth/local', { identifier, password: 'secret123' });
        assert.equal(res.status, 200, identifier);
        assert.equal(res.body.user.username, 'alice');
        assert.equal(res.body.user.password, undefined);
        assert.ok(res.body.jwt);
      }
    });

    it('a wrong password and an unknown user get the same answer', async () => {
      const wrong = await anon().post('/api/auth/local', { identifier: 'alice', password: 'wrong-password' });
      const unknown = await anon().post('/api/auth/local', { identifier: 'nobody', password: 'wrong-password' });
      assert.equal(wrong.status, 400);
      assert.deepEqual(wrong.body, unknown.body);
      assert.equal(wrong.body.error.message, 'Invalid identifier or password');
      const missing = await anon().post('/api/auth/local', { identifier: 'alice' });
      assert.equal(missing.status, 400);
    });

    it('repeated failures are rate-limited with 429, per client and account', async () => {
      for (let i = 0; i < 3; i++)
        await anon().post('/api/auth/local', { identifier: 'victim', password: `guess-${i}` });
      const limited = await anon().post('/api/auth/local', { identifier: 'victim', password: 'guess-x' });
      assert.equal(limited.status, 429);
      assert.equal(limited.body.error.name, 'RateLimitError');
      assert.equal(
        (await anon().post('/api/auth/local', { identifier: 'alice', password: 'secret123' })).status,
        200,
        'others unaffected',
      );
    });

    // Strapi 5 answers 403 ForbiddenError without credentials (earlier Vellum answered 401).
    it('GET /api/users/me answers the user behind the JWT; without one it is 403, with an API token 401', async () => {
      const me = await anon().get('/api/users/me', bearer(jwt));
      assert.equal(me.status, 200);
      assert.equal(me.body.id, userId);
      assert.equal(me.body.email, 'alice@example.com');
      assert.equal((await anon().get('/api/users/me')).status, 403);
      assert.equal((await server.api.get('/api/users/me')).status, 401, 'an API token is not a user');
    });

    it('GET /api/users and /api/users/:id need their permission; answers are plain, a missing user is 404', async () => {
      assert.equal((await anon().get('/api/users')).status, 403);
      assert.equal((await anon().get(`/api/users/${userId}`)).status, 403);
      const list = await server.api.get('/api/users?filters[username][$eq]=alice');
      assert.ok(Array.isArray(list.body));
      assert.equal(list.body[0].password, undefined);
      assert.equal(list.body[0].resetPasswordToken, undefined);
      assert.equal((await server.api.get(`/api/users/${userId}`)).body.username, 'alice');
      const missing = await server.api.get('/api/users/999999');
      assert.equal(missing.status, 404);
      assert.equal(missing.body.error.name, 'NotFoundError');
      assert.equal((await server.api.get('/api/users/abc')).status, 404);
      assert.equal(
        (await server.api.get('/api/users?filters[password][$startsWith]=$2')).status,
        400,
        'no oracle on hashes',
      );
      assert.equal((await server.api.get('/api/users?sort=password')).status, 400);
    });

    it('a tampered, foreign or expired JWT is 401', async () => {
      const [header, , signature] = jwt.split('.');
      const forged = `${header}.${b64({ id: userId + 1, iat: 1 })}.${signature}`;
      const none = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ id: userId })}.`;
      const foreign = await new SignJWT({ id: userId })
        .setProtectedHeader({ alg: 'HS256' })
        .setExpirationTime('1h')
        .sign(new TextEncoder().encode('another-secret-entirely'));
      for (const token of [forged, none, foreign, jwt.slice(0, -2)]) {
        const res = await anon().get('/api/articles', bearer(token));
        assert.equal(res.status, 401, token);
        assert.equal(res.body.error.name, 'UnauthorizedError');
      }
      // The configured lifetime is what tokens carry; a token past it is refused.
      const expiring = await startServer(dialect, {
        nodeOf: server,
        config: { plugins: { 'users-permissions': { config: { jwt: { expiresIn: '2h' } } } } },
      });
      try {
        const short = (await expiring.publicApi.post('/api/auth/local', { identifier: 'alice', password: 'secret123' }))
          .body.jwt;
        const claims = JSON.parse(Buffer.from(short.split('.')[1], 'base64url').toString());
        assert.equal(claims.exp - claims.iat, 7200);
        assert.equal((await expiring.publicApi.get('/api/users/me', bearer(short))).status, 200);
      } finally {
        await expiring.close();
      }
      const secret = (
        await server.vellum.database.db
          .selectFrom('vellum_meta')
          .select('value')
          .where('name', '=', 'auth.jwt_secret')
          .executeTakeFirstOrThrow()
      ).value as string;
      const now = Math.floor(Date.now() / 1000);
      const expiredJwt = await new SignJWT({ id: userId })
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuedAt(now - 100)
        .setExpirationTime(now - 10)
        .sign(new TextEncoder().encode(secret));
      const stillValid = await new SignJWT({ id: userId })
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuedAt(now)
        .setExpirationTime(now + 60)
        .sign(new TextEncoder().encode(secret));
      assert.equal(
        (await anon().get('/api/users/me', bearer(stillValid))).status,
        200,
        "signed with the node's secret",
      );
      const expired = await anon().get('/api/users/me', bearer(expiredJwt));
      assert.equal(expired.status, 401);
      // Strapi's words (a front end matches them); why, in the details.
      assert.deepEqual(
        [expired.body.error.message, expired.body.error.details],
        ['Missing or invalid credentials', { reason: 'Token expired' }],
      );
    });

    it('a blocked user can neither log in nor use an earlier JWT', async () => {
      await anon().post('/api/auth/local/register', {
        username: 'mallory',
        email: 'mallory@example.com',
        password: 'secret123',
      });
      const login = await anon().post('/api/auth/local', { identifier: 'mallory', password: 'secret123' });
      await server.vellum.auth.users.setBlocked(login.body.user.id, true);
      const blocked = await anon().post('/api/auth/local', { identifier: 'mallory', password: 'secret123' });
      assert.equal(blocked.status, 400);
      assert.match(blocked.body.error.message, /blocked/);
      const refused = await anon().get('/api/articles', bearer(login.body.jwt));
      assert.deepEqual(
        [refused.status, refused.body.error.message, refused.body.error.details],
        [401, 'Invalid credentials', { reason: 'Your account has been blocked by an administrator' }],
      );
      assert.equal(
        (await anon().get('/api/articles', bearer('not.a.token'))).body.error.message,
        'Missing or invalid credentials',
      );
      const wrong = await anon().post('/api/auth/local', { identifier: 'mallory', password: 'wrong-password' });
      assert.equal(
        wrong.body.error.message,
        'Invalid identifier or password',
        'blocked is told only with the right password',
      );
    });

    it('registration can be closed at run time', async () => {
      await server.vellum.auth.setRegistrationOpen(false);
      try {
        const res = await anon().post('/api/auth/local/register', {
          username: 'late',
          email: 'late@example.com',
          password: 'secret123',
        });
        assert.equal(res.status, 400);
        assert.equal(res.body.error.message, 'Register action is currently disabled');
      } finally {
        await server.vellum.auth.setRegistrationOpen(true);
      }
    });

    it('a password is never written to the logs or answers, whatever is asked', async () => {
      const res = await server.api.get('/api/users?fields[0]=password');
      assert.equal(res.status, 400);
      const populated = await server.api.get('/api/users?populate=*');
      assert.doesNotMatch(populated.text, /\$2[aby]\$/);
    });
  });
}
