/**
 * Strapi 5's refresh sessions (`jwtManagement: 'refresh'`) as a frontend written for Strapi uses
 * them: sign in, refresh, log out; refresh tokens rotated and stored hashed, revoked by logout, a
 * password change and a block, seen by every node; the httpOnly cookie; and every bad input a 4xx
 * that changes nothing. Expiry is tested by writing past times, or a negative lifespan.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';
import { unique } from '../helpers/unique.js';

const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
// Every registration comes from one address: more than the default limit (test/users-permissions/accounts.test.ts).
const refreshConfig = (sessions: Record<string, unknown> = {}) => ({
  plugins: {
    'users-permissions': { config: { jwtManagement: 'refresh', sessions, register: { ratelimit: { max: 1000 } } } },
  },
});

for (const dialect of DIALECTS) {
  describe(`refresh sessions [${dialect}]`, () => {
    let server: TestServer;
    /** A second node on the same database, same settings. */
    let other: TestServer;
    before(async () => {
      server = await startServer(dialect, { config: refreshConfig() });
      other = await startServer(dialect, { nodeOf: server, config: refreshConfig() });
    });
    after(async () => {
      await other?.close();
      await server?.close();
    });
    const anon = () => server.publicApi;

    async function register(password = 'secret123') {
      const username = unique('s');
      const email = `${username}@example.com`;
      const res = await anon().post('/api/auth/local/register', { username, email, password });
      assert.equal(res.status, 200, res.text);
      return {
        username,
        email,
        password,
        id: res.body.user.id as number,
        jwt: res.body.jwt as string,
        refreshToken: res.body.refreshToken as string,
      };
    }

    async function login(identifier: string, password: string, headers: Record<string, string> = {}) {
      const res = await anon().post('/api/auth/local', { identifier, password }, { headers });
      assert.equal(res.status, 200, res.text);
      return res;
    }

    const me = (jwt: string, node = server) => node.publicApi.get('/api/users/me', bearer(jwt));
    const refresh = (refreshToken: unknown, node = server) =>
      node.publicApi.post('/api/auth/refresh', { refreshToken });
    const sessionRows = (userId: number) =>
      server.vellum.database.system.selectFrom('up_sessions').selectAll().where('user_id', '=', userId).execute();

    it('login and register answer { jwt, refreshToken, user }; the access token works; the refresh token is stored hashed', async () => {
      const user = await register();
      assert.equal(typeof user.refreshToken, 'string');
      const res = await login(user.email, user.password);
      assert.deepEqual(Object.keys(res.body), ['jwt', 'refreshToken', 'user']);
      assert.equal(res.body.user.id, user.id);
      assert.equal((await me(res.body.jwt)).status, 200);
      // An access token of 10 minutes (Strapi's default), not the 30 days of legacy JWTs.
      const payload = JSON.parse(Buffer.from(res.body.jwt.split('.')[1], 'base64url').toString());
      assert.equal(payload.exp - payload.iat, 600);
      assert.equal(payload.type, 'access');
      assert.equal(payload.userId, String(user.id));
      const rows = await sessionRows(user.id);
      assert.equal(rows.length, 2);
      // Strapi 5.54's other lifetimes (users-permissions services/constants.js): a refresh token
      // lives 14 days from its issue (idleRefreshTokenLifespan), its session 30 (maxRefreshTokenLifespan).
      const refreshClaims = JSON.parse(Buffer.from(res.body.refreshToken.split('.')[1], 'base64url').toString());
      assert.equal(refreshClaims.exp - refreshClaims.iat, 14 * 24 * 3600);
      const day = 24 * 3600 * 1000;
      for (const row of rows) {
        const absolute =
          new Date(
            server.vellum.database.dialect.decode('datetime', row.absolute_expires_at) as string | Date,
          ).getTime() - Date.now();
        assert.ok(absolute > 30 * day - 120_000 && absolute <= 30 * day, `absolute lifetime ${absolute} ms`);
      }
      assert.ok(rows.some((row) => row.token_hash === sha256(res.body.refreshToken)));
      assert.ok(rows.every((row) => row.token_hash !== res.body.refreshToken));
    });

    it('refresh gives a new pair and the used refresh token stops working; replaying it ends the session; any node serves it', async () => {
      const user = await register();
      const first = await refresh(user.refreshToken);
      assert.equal(first.status, 200, first.text);
      assert.deepEqual(Object.keys(first.body), ['jwt', 'refreshToken']);
      assert.notEqual(first.body.refreshToken, user.refreshToken);
      assert.equal((await me(first.body.jwt, other)).status, 200);

      const reused = await refresh(user.refreshToken, other);
      assert.equal(reused.status, 401);
      assert.deepEqual(reused.body.error, {
        status: 401,
        name: 'UnauthorizedError',
        message: 'Invalid refresh token',
        details: {},
      });

      // A rotated token replayed: two parties hold the session, which ends (reuse detection; Strapi
      // lets it go on): the current refresh token and the access tokens are refused too.
      assert.equal((await refresh(first.body.refreshToken, other)).status, 401);
      assert.equal((await me(first.body.jwt)).status, 401);

      const again = await register();
      const second = await refresh(again.refreshToken, other);
      assert.equal(second.status, 200, second.text);
      assert.equal((await me(second.body.jwt)).status, 200);
      // Two refreshes with one token at once: one wins.
      const racing = await Promise.all([refresh(second.body.refreshToken), refresh(second.body.refreshToken, other)]);
      assert.deepEqual(racing.map((r) => r.status).sort(), [200, 401]);
    });

    it('logout ends the current session: its refresh and access tokens are refused on every node; others stay', async () => {
      const user = await register();
      const phone = await login(user.email, user.password);
      const res = await server.publicApi.post('/api/auth/logout', {}, bearer(user.jwt));
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body, { ok: true });
      assert.equal((await me(user.jwt, other)).status, 401);
      assert.equal((await refresh(user.refreshToken, other)).status, 401);
      assert.equal((await me(phone.body.jwt, other)).status, 200);
      assert.equal((await refresh(phone.body.refreshToken)).status, 200);
    });

    it('logout with scope all, or with a deviceId, ends those sessions', async () => {
      const user = await register();
      const laptop = await anon().post('/api/auth/local', {
        identifier: user.email,
        password: user.password,
        deviceId: 'laptop',
      });
      const tablet = await anon().post('/api/auth/local', {
        identifier: user.email,
        password: user.password,
        deviceId: 'tablet',
      });
      assert.equal(
        (await server.publicApi.post('/api/auth/logout', { deviceId: 'laptop' }, bearer(user.jwt))).status,
        200,
      );
      assert.equal((await refresh(laptop.body.refreshToken)).status, 401);
      assert.equal((await me(user.jwt)).status, 200);
      assert.equal((await server.publicApi.post('/api/auth/logout', { scope: 'all' }, bearer(user.jwt))).status, 200);
      assert.equal((await refresh(tablet.body.refreshToken)).status, 401);
      assert.equal((await refresh(user.refreshToken)).status, 401);
      assert.equal((await me(tablet.body.jwt)).status, 401);
      assert.deepEqual(await sessionRows(user.id), []);
    });

    it('a password change ends every session and answers a new pair', async () => {
      const user = await register();
      const other1 = await login(user.email, user.password);
      const res = await anon().post(
        '/api/auth/change-password',
        { currentPassword: user.password, password: 'newsecret1', passwordConfirmation: 'newsecret1' },
        bearer(user.jwt),
      );
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(Object.keys(res.body), ['jwt', 'refreshToken', 'user']);
      assert.equal((await refresh(other1.body.refreshToken)).status, 401);
      assert.equal((await refresh(user.refreshToken)).status, 401);
      assert.equal((await me(other1.body.jwt)).status, 401);
      assert.equal((await me(res.body.jwt)).status, 200);
      assert.equal((await refresh(res.body.refreshToken)).status, 200);
    });

    it('a blocked user cannot refresh, and their sessions end', async () => {
      const user = await register();
      await server.vellum.auth.users.setBlocked(user.id, true);
      assert.equal((await refresh(user.refreshToken)).status, 401);
      assert.equal((await me(user.jwt)).status, 401);
      assert.deepEqual(await sessionRows(user.id), []);
      // Blocked by a plain update (not the admin API): refused, and ended at the first refresh.
      const second = await register();
      const documentId = (await server.vellum.auth.users.findById(second.id))!.documentId as string;
      await server.vellum.documents
        .of('plugin::users-permissions.user')
        .update({ documentId, data: { blocked: true } });
      await server.vellum.documents
        .of('plugin::users-permissions.user')
        .update({ documentId, data: { blocked: false } });
      await server.vellum.documents
        .of('plugin::users-permissions.user')
        .update({ documentId, data: { blocked: true } });
      assert.equal((await refresh(second.refreshToken)).status, 401);
      await server.vellum.documents
        .of('plugin::users-permissions.user')
        .update({ documentId, data: { blocked: false } });
      assert.equal((await refresh(second.refreshToken)).status, 401);
    });

    it('an expired refresh token (idle or absolute) is refused', async () => {
      const user = await register();
      const again = await login(user.email, user.password);
      const past = server.vellum.database.dialect.encode('datetime', new Date(Date.now() - 1000));
      const db = server.vellum.database.system;
      await db
        .updateTable('up_sessions')
        .set({ expires_at: past })
        .where('token_hash', '=', sha256(user.refreshToken))
        .execute();
      await db
        .updateTable('up_sessions')
        .set({ absolute_expires_at: past })
        .where('token_hash', '=', sha256(again.body.refreshToken))
        .execute();
      assert.equal((await refresh(user.refreshToken)).status, 401);
      assert.equal((await refresh(again.body.refreshToken)).status, 401);
    });

    it('bad input: a missing, tampered or wrong-kind token is a 4xx and changes nothing', async () => {
      const user = await register();
      const before = await sessionRows(user.id);
      const missing = await anon().post('/api/auth/refresh', {});
      assert.equal(missing.status, 400);
      assert.deepEqual(missing.body.error, {
        status: 400,
        name: 'BadRequestError',
        message: 'Missing refresh token',
        details: {},
      });
      assert.equal((await refresh(12)).status, 400);
      assert.equal(
        (await anon().post('/api/auth/refresh', undefined, { rawBody: 'x', headers: { 'content-type': 'text/plain' } }))
          .status < 500,
        true,
      );
      const [head, body, signature] = user.refreshToken.split('.');
      const flipped = signature!.slice(0, 10) + (signature![10] === 'A' ? 'B' : 'A') + signature!.slice(11);
      const forged = JSON.parse(Buffer.from(body!, 'base64url').toString());
      forged.userId = String(user.id + 1);
      for (const bad of [
        `${head}.${body}.${flipped}`,
        `${head}.${Buffer.from(JSON.stringify(forged)).toString('base64url')}.${signature}`,
        user.jwt,
        'not-a-token',
        user.refreshToken + 'x',
      ]) {
        const res = await refresh(bad);
        assert.equal(res.status, 401, bad);
        assert.equal(res.body.error.message, 'Invalid refresh token');
      }
      // A refresh token is no access token.
      assert.equal((await me(user.refreshToken)).status, 401);
      assert.deepEqual(await sessionRows(user.id), before);
      assert.equal((await refresh(user.refreshToken)).status, 200);
    });

    it("the user's sessions: listed current first then by activity, with device names; one ended by id, on every node", async () => {
      const user = await register();
      const agent = (ua: string) => ({ 'user-agent': ua });
      const phone = await login(
        user.email,
        user.password,
        agent('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Version/17.0 Mobile/15E148 Safari/604.1'),
      );
      // The list is ordered by last activity: the laptop's sign-in comes later (written, not waited for).
      const laptop = await anon().post(
        '/api/auth/local',
        { identifier: user.email, password: user.password, deviceId: 'laptop' },
        { headers: agent('Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0') },
      );
      const [phoneRow] = (await sessionRows(user.id)).filter((row) => row.device_id === null);
      await server.vellum.database.system
        .updateTable('up_sessions')
        .set({ updated_at: server.vellum.database.dialect.encode('datetime', new Date(Date.now() - 60_000)) })
        .where('session_id', '=', phoneRow.session_id)
        .execute();
      const listed = await anon().get('/api/auth/sessions', bearer(laptop.body.jwt));
      assert.equal(listed.status, 200, listed.text);
      const entries = listed.body.data as Record<string, unknown>[];
      assert.deepEqual(
        entries.map(({ deviceId, deviceName, current }) => ({ deviceId, deviceName, current })),
        [
          { deviceId: 'laptop', deviceName: 'Firefox on Linux', current: true },
          // Registration names a random device; a sign-in without deviceId none (null).
          { deviceId: entries[1].deviceId, deviceName: undefined, current: false },
          { deviceId: null, deviceName: 'Safari on iOS', current: false },
        ],
      );
      assert.match(String(entries[1].deviceId), /^[0-9a-f-]{36}$/);
      for (const entry of entries) {
        assert.deepEqual(
          Object.keys(entry).filter((key) => !['deviceName'].includes(key)),
          ['id', 'deviceId', 'current', 'loginAt', 'lastActiveAt'],
        );
        assert.ok(!JSON.stringify(entry).includes(user.refreshToken.slice(-20)), 'no token in the list');
      }
      const phoneId = entries[2].id as string;
      assert.equal(phoneId, phoneRow.session_id);
      // Another user cannot end it; its owner can, from another node; then it is gone and its tokens with it.
      const stranger = await register();
      const foreign = await anon().delete(`/api/auth/sessions/${phoneId}`, bearer(stranger.jwt));
      assert.equal(foreign.status, 404);
      assert.equal(foreign.body.error.message, 'Session not found');
      const ended = await other.publicApi.delete(`/api/auth/sessions/${phoneId}`, bearer(laptop.body.jwt));
      assert.equal(ended.status, 200, ended.text);
      assert.deepEqual(ended.body, { data: {} });
      assert.equal((await anon().delete(`/api/auth/sessions/${phoneId}`, bearer(laptop.body.jwt))).status, 404);
      assert.equal((await refresh(phone.body.refreshToken)).status, 401);
      assert.equal((await me(phone.body.jwt)).status, 401);
      assert.deepEqual(
        ((await anon().get('/api/auth/sessions', bearer(laptop.body.jwt))).body.data as { id: string }[])
          .map((entry) => entry.id)
          .includes(phoneId),
        false,
      );
      // Without a user: 403 anonymously (Public lacks the actions), 401 with an API token.
      assert.equal((await anon().get('/api/auth/sessions')).status, 403);
      assert.equal((await anon().delete(`/api/auth/sessions/${phoneId}`)).status, 403);
      const token = await server.api.get('/api/auth/sessions');
      assert.equal(token.status, 401);
      assert.equal(token.body.error.message, 'Missing authentication');
    });

    it('logout needs a user: without credentials 403, with an API token 401', async () => {
      assert.equal((await anon().post('/api/auth/logout', {})).status, 403);
      const res = await server.api.post('/api/auth/logout', {});
      assert.equal(res.status, 401);
      assert.equal(res.body.error.message, 'Missing authentication');
    });

    it('httpOnly cookie on request: the refresh token goes in the cookie, refresh reads it, logout clears it', async () => {
      const user = await register();
      const res = await login(user.email, user.password, { 'x-strapi-refresh-cookie': 'httpOnly' });
      assert.deepEqual(Object.keys(res.body), ['jwt', 'user']);
      const cookie = res.headers.get('set-cookie') ?? '';
      assert.match(cookie, /^strapi_up_refresh=[\w.-]+; path=\/; samesite=lax; httponly$/);
      const token = /^strapi_up_refresh=([^;]+)/.exec(cookie)![1]!;
      const next = await anon().post(
        '/api/auth/refresh',
        {},
        { headers: { cookie: `other=1; strapi_up_refresh=${token}`, 'x-strapi-refresh-cookie': 'httpOnly' } },
      );
      assert.equal(next.status, 200, next.text);
      assert.deepEqual(Object.keys(next.body), ['jwt']);
      const rotated = /^strapi_up_refresh=([^;]+)/.exec(next.headers.get('set-cookie') ?? '')![1]!;
      assert.notEqual(rotated, token);
      const out = await anon().post(
        '/api/auth/logout',
        {},
        {
          headers: {
            authorization: `Bearer ${next.body.jwt}`,
            cookie: `strapi_up_refresh=${rotated}`,
            'x-strapi-refresh-cookie': 'httpOnly',
          },
        },
      );
      assert.equal(out.status, 200);
      assert.match(
        out.headers.get('set-cookie') ?? '',
        /^strapi_up_refresh=; path=\/; expires=Thu, 01 Jan 1970 00:00:00 GMT/,
      );
      assert.equal(
        (await anon().post('/api/auth/refresh', {}, { headers: { cookie: `strapi_up_refresh=${rotated}` } })).status,
        401,
      );
      assert.equal((await me(user.jwt)).status, 200);
    });
  });

  describe(`refresh sessions, other settings [${dialect}]`, () => {
    let legacy: TestServer;
    let cookies: TestServer;
    before(async () => {
      legacy = await startServer(dialect);
      cookies = await startServer(dialect, {
        nodeOf: legacy,
        config: refreshConfig({
          accessTokenLifespan: -60,
          httpOnly: true,
          cookie: { name: 'app_refresh', path: '/api/auth', secure: true, sameSite: 'strict', maxAge: 3_600_000 },
        }),
      });
    });
    after(async () => {
      await cookies?.close();
      await legacy?.close();
    });

    it('in legacy-support mode (the default) refresh and logout are 404s and login gives one JWT', async () => {
      const username = unique('l');
      const res = await legacy.publicApi.post('/api/auth/local/register', {
        username,
        email: `${username}@example.com`,
        password: 'secret123',
      });
      assert.deepEqual(Object.keys(res.body), ['jwt', 'user']);
      // Each asked by whom Strapi's default grants let through: refresh by Public, logout by Authenticated.
      for (const [path, headers] of [
        ['/api/auth/refresh', {}],
        ['/api/auth/logout', bearer(res.body.jwt)],
      ] as const) {
        const answer = await legacy.publicApi.post(path, { refreshToken: 'x' }, headers);
        assert.equal(answer.status, 404);
        assert.equal(answer.body.error.name, 'NotFoundError');
      }
      for (const answer of [
        await legacy.publicApi.get('/api/auth/sessions', bearer(res.body.jwt)),
        await legacy.publicApi.delete('/api/auth/sessions/x', bearer(res.body.jwt)),
      ]) {
        assert.equal(answer.status, 404);
        assert.equal(answer.body.error.message, 'Not Found');
      }
      // A signed-in user may not refresh (Authenticated lacks auth.refresh), as in Strapi 5.54.
      assert.equal(
        (await legacy.publicApi.post('/api/auth/refresh', { refreshToken: 'x' }, bearer(res.body.jwt))).status,
        403,
      );
    });

    it('httpOnly and cookie settings; a negative access lifespan gives expired access tokens', async () => {
      const username = unique('c');
      await cookies.publicApi.post('/api/auth/local/register', {
        username,
        email: `${username}@example.com`,
        password: 'secret123',
      });
      const res = await cookies.publicApi.post('/api/auth/local', { identifier: username, password: 'secret123' });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(Object.keys(res.body), ['jwt', 'user']);
      const cookie = res.headers.get('set-cookie') ?? '';
      assert.match(
        cookie,
        /^app_refresh=[\w.-]+; path=\/api\/auth; max-age=3600; expires=[^;]+ GMT; samesite=strict; secure; httponly$/,
      );
      const expired = await cookies.publicApi.get('/api/users/me', bearer(res.body.jwt));
      assert.equal(expired.status, 401);
      const token = /^app_refresh=([^;]+)/.exec(cookie)![1]!;
      const next = await cookies.publicApi.post(
        '/api/auth/refresh',
        {},
        { headers: { cookie: `app_refresh=${token}` } },
      );
      assert.equal(next.status, 200, next.text);
      assert.match(next.headers.get('set-cookie') ?? '', /^app_refresh=/);
    });
  });
}
