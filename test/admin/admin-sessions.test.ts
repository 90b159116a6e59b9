/**
 * How administrators sign in (docs/admin-panel.md "Signing in"): sessions with Strapi 5.54's
 * refresh cookie, "remember me", `POST /admin/access-token`, log out, a forgotten password by
 * email, `vellum admin reset-password`, and a seeded random sequence of sign-ins, renewals,
 * replays, log outs and password changes checked against a model, on every dialect. Refusals are
 * the real Strapi 5.54's bodies (checked against it on 2026-11-29).
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { cliOutput, runCli } from '../helpers/cli.js';
import { HttpClient, type Response } from '../helpers/http.js';
import { copyProject, type TempProject } from '../helpers/projects.js';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';
import { codeIn, emailPlugin, startSmtp, type TestSmtp } from '../helpers/smtp.js';

const PASSWORD = 'Admin-Passw0rd!';
const COOKIE = 'strapi_admin_refresh';
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** One browser: its refresh cookie (as a browser keeps it) and its tab's access token. */
class Browser {
  cookie: string | undefined;
  token: string | undefined;
  /** Every refresh cookie it held, oldest first. */
  readonly history: string[] = [];
  constructor(
    private readonly http: HttpClient,
    readonly deviceId: string,
  ) {}

  /** Keeps the cookie a response sets (cleared by an empty value). */
  keep(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      if (!line.startsWith(`${COOKIE}=`)) continue;
      const value = decodeURIComponent(line.slice(COOKIE.length + 1).split(';')[0]!);
      this.cookie = value || undefined;
      if (value) this.history.push(value);
    }
  }

  async login(email: string, password = PASSWORD, rememberMe = false): Promise<Response> {
    const response = await this.http.post('/admin/login', { email, password, rememberMe, deviceId: this.deviceId });
    this.keep(response);
    if (response.status === 200) this.token = response.body.data.token;
    return response;
  }

  /** `POST /admin/access-token` with a cookie (the browser's, or one given). */
  async renew(cookie = this.cookie): Promise<Response> {
    const response = await this.http.post('/admin/access-token', undefined, {
      headers: cookie ? { cookie: `${COOKIE}=${encodeURIComponent(cookie)}` } : {},
    });
    // The browser's own cookie: it keeps the next one, and the tab the token.
    if (cookie === this.cookie) {
      this.keep(response);
      if (response.status === 200) this.token = response.body.data.token;
    }
    return response;
  }

  get(path: string): Promise<Response> {
    return this.http.get(path, { headers: this.token ? { authorization: `Bearer ${this.token}` } : {} });
  }

  send(method: string, path: string, body?: unknown): Promise<Response> {
    return this.http.request(method, path, {
      body,
      headers: {
        ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
        ...(this.cookie ? { cookie: `${COOKIE}=${encodeURIComponent(this.cookie)}` } : {}),
      },
    });
  }
}

const refusal = (status: number, name: string, message: string, details: unknown = {}) => ({
  data: null,
  error: { status, name, message, details },
});
const fieldRefusal = (message: string, errors: unknown[]) =>
  refusal(400, 'ValidationError', message, {
    errors: errors.map((e) => ({ name: 'ValidationError', ...(e as object) })),
  });

/** A tiny seeded generator (mulberry32): the same seed, the same sequence. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

for (const dialect of DIALECTS) {
  describe(`administrators' sessions [${dialect}]`, () => {
    let server: TestServer;
    let smtp: TestSmtp;
    let project: TempProject;
    let n = 0;
    /** A new administrator of this file's own (emails never shared between tests). */
    const newAdmin = async (password = PASSWORD) => {
      const email = `admin${++n}@example.com`;
      const { id } = await server.vellum.auth.admins.create(email, password);
      return { id, email };
    };
    const browser = () => new Browser(server.publicApi, uuid(++n));

    before(async () => {
      smtp = await startSmtp();
      project = copyProject();
      server = await startServer(dialect, { project: project.dir, config: { plugins: { email: emailPlugin(smtp) } } });
      // `vellum admin reset-password` finds the server's database through the project's configuration.
      rmSync(join(project.dir, 'config/database.js'));
      project.write('config/database.json', JSON.stringify(server.databaseConfig));
    });
    after(async () => {
      await server?.close();
      await smtp?.close();
      project?.remove();
    });

    it('signs in as Strapi 5.54 answers: an access token, the user, and a refresh cookie that lasts with "remember me"', async () => {
      const { email } = await newAdmin();
      const b = browser();
      const login = await b.login(email);
      assert.equal(login.status, 200, login.text);
      assert.deepEqual(Object.keys(login.body.data), ['token', 'accessToken', 'user']);
      assert.equal(login.body.data.token, login.body.data.accessToken);
      assert.equal(login.body.data.user.email, email);
      assert.equal(login.body.data.user.password, undefined);
      const [plain] = login.headers.getSetCookie();
      // A session cookie: no expiry, the browser forgets it when it closes.
      assert.match(plain!, /^strapi_admin_refresh=[\w.-]+; path=\/admin; samesite=lax; httponly$/);
      const payload = JSON.parse(Buffer.from(login.body.data.token.split('.')[1], 'base64url').toString());
      assert.equal(payload.type, 'access');
      assert.equal(payload.exp - payload.iat, 1800);
      assert.equal((await b.get('/admin/users/me')).status, 200);

      const remembered = await browser().login(email, PASSWORD, true);
      const [lasting] = remembered.headers.getSetCookie();
      const expires = Date.parse(/expires=([^;]+)/.exec(lasting!)![1]!);
      assert.ok(Math.abs(expires - (Date.now() + 14 * 86_400_000)) < 120_000, lasting);

      // Strapi's refusals, word for word.
      const refusals: [unknown, unknown][] = [
        [{}, refusal(400, 'ApplicationError', 'Missing credentials')],
        [{ email, password: 'Wrong-Passw0rd' }, refusal(400, 'ApplicationError', 'Invalid credentials')],
        [{ email: 'nobody@example.com', password: PASSWORD }, refusal(400, 'ApplicationError', 'Invalid credentials')],
        [
          { email, password: PASSWORD, rememberMe: 'yes' },
          fieldRefusal('rememberMe must be a `boolean` type, but the final value was: `"yes"`.', [
            {
              path: ['rememberMe'],
              message: 'rememberMe must be a `boolean` type, but the final value was: `"yes"`.',
              value: 'yes',
            },
          ]),
        ],
        [
          { email, password: PASSWORD, deviceId: 'not-uuid' },
          fieldRefusal('deviceId must be a valid UUID', [
            { path: ['deviceId'], message: 'deviceId must be a valid UUID', value: 'not-uuid' },
          ]),
        ],
      ];
      for (const [body, answer] of refusals) {
        const refused = await server.publicApi.post('/admin/login', body);
        assert.deepEqual([refused.status, refused.body], [400, answer], JSON.stringify(body));
      }
    });

    it('trades the cookie for a new access token and rotates it; a copied older cookie ends the session', async () => {
      const { email } = await newAdmin();
      const b = browser();
      await b.login(email);
      assert.deepEqual(
        (await server.publicApi.post('/admin/access-token')).body,
        refusal(401, 'UnauthorizedError', 'Missing refresh token'),
      );
      assert.deepEqual((await b.renew('not-a-token')).body, refusal(401, 'UnauthorizedError', 'Invalid refresh token'));
      const [c0] = b.history;
      const first = await b.renew();
      assert.equal(first.status, 200, first.text);
      assert.deepEqual(Object.keys(first.body.data), ['token']);
      assert.notEqual(b.cookie, c0);
      assert.equal((await b.get('/admin/users/me')).status, 200);
      // The cookie just replaced (another tab renewing at the same moment): refused, the session goes on.
      assert.equal((await b.renew(c0)).status, 401);
      assert.equal((await b.renew()).status, 200);
      // Two renewals back: copied; the session ends, its access tokens with it.
      assert.equal((await b.renew(c0)).status, 401);
      assert.equal((await b.get('/admin/users/me')).status, 401);
      assert.equal((await b.renew()).status, 401);
    });

    it("logs out this browser's sessions (its device id) or every one, and clears the cookie", async () => {
      const { email } = await newAdmin();
      const [a, b, c] = [browser(), browser(), browser()];
      for (const x of [a, b, c]) assert.equal((await x.login(email)).status, 200);
      const out = await a.send('POST', '/admin/logout', { deviceId: a.deviceId });
      assert.deepEqual([out.status, out.body], [200, { data: {} }]);
      assert.match(out.headers.getSetCookie()[0]!, /^strapi_admin_refresh=; path=\/admin; expires=Thu, 01 Jan 1970/);
      assert.equal((await a.get('/admin/users/me')).status, 401);
      assert.equal((await a.renew(a.history.at(-1))).status, 401);
      assert.equal((await b.get('/admin/users/me')).status, 200);
      // Without a device id (Strapi's): every session of the administrator.
      assert.equal((await b.send('POST', '/admin/logout', {})).status, 200);
      assert.equal((await c.get('/admin/users/me')).status, 401);
      assert.equal((await c.renew()).status, 401);
    });

    it('lists and ends the administrator’s own sessions, never showing a token', async () => {
      const { email } = await newAdmin();
      const [a, b, c] = [browser(), browser(), browser()];
      for (const x of [a, b, c]) await x.login(email);
      const listed = await b.get('/admin/users/me/sessions');
      assert.equal(listed.status, 200, listed.text);
      assert.equal(listed.body.data.length, 3);
      assert.equal(listed.body.data[0].current, true);
      assert.deepEqual(
        listed.body.data.map((s: { deviceId: string }) => s.deviceId).sort(),
        [a.deviceId, b.deviceId, c.deviceId].sort(),
      );
      assert.ok(!JSON.stringify(listed.body).includes(b.cookie!.split('.')[2]!));
      const aSession = listed.body.data.find((s: { deviceId: string }) => s.deviceId === a.deviceId).id;
      assert.equal((await b.send('DELETE', `/admin/users/me/sessions/${aSession}`)).status, 200);
      assert.equal((await a.get('/admin/users/me')).status, 401);
      const missing = await b.send('DELETE', `/admin/users/me/sessions/${aSession}`);
      assert.deepEqual(missing.body, refusal(404, 'NotFoundError', 'Session not found'));
      assert.equal((await b.send('DELETE', '/admin/users/me/sessions?keepCurrent=true')).status, 200);
      assert.equal((await c.get('/admin/users/me')).status, 401);
      assert.equal((await b.get('/admin/users/me')).status, 200);
      // Another administrator's sessions are not theirs to end.
      const other = browser();
      await other.login((await newAdmin()).email);
      const theirs = (await other.get('/admin/users/me/sessions')).body.data[0].id;
      assert.equal((await b.send('DELETE', `/admin/users/me/sessions/${theirs}`)).status, 404);
      assert.equal((await other.get('/admin/users/me')).status, 200);
    });

    it('sends a forgotten password’s link by email; the code works once, signs in, and ends the other sessions', async () => {
      const { email } = await newAdmin();
      const old = browser();
      await old.login(email, PASSWORD, true);
      // Strapi's refusals.
      assert.deepEqual(
        (await server.publicApi.post('/admin/forgot-password', {})).body,
        fieldRefusal('email is a required field', [{ path: ['email'], message: 'email is a required field' }]),
      );
      assert.deepEqual(
        (await server.publicApi.post('/admin/forgot-password', { email: 'Admin@Example.com' })).body,
        fieldRefusal('email must be a lowercase string', [
          { path: ['email'], message: 'email must be a lowercase string', value: 'Admin@Example.com' },
        ]),
      );
      const nobody = await server.publicApi.post('/admin/forgot-password', { email: 'nobody@example.com' });
      assert.equal(nobody.status, 204);
      const asked = await server.publicApi.post('/admin/forgot-password', { email });
      assert.equal(asked.status, 204);
      const mail = await smtp.next(email);
      assert.equal(mail.subject, 'Reset password');
      assert.ok(mail.text.includes(`${server.url}/admin/auth/reset-password?code=`), mail.text);
      const code = codeIn(mail, 'code');
      assert.equal(smtp.to('nobody@example.com').length, 0);

      assert.deepEqual(
        (await server.publicApi.post('/admin/reset-password', {})).body,
        fieldRefusal('2 errors occurred', [
          { path: ['resetPasswordToken'], message: 'resetPasswordToken is a required field' },
          { path: ['password'], message: 'password is a required field' },
        ]),
      );
      assert.deepEqual(
        (await server.publicApi.post('/admin/reset-password', { resetPasswordToken: code, password: 'short' })).body,
        fieldRefusal('3 errors occurred', [
          { path: ['password'], message: 'password must be at least 8 characters', value: 'short' },
          { path: ['password'], message: 'password must contain at least one uppercase character', value: 'short' },
          { path: ['password'], message: 'password must contain at least one number', value: 'short' },
        ]),
      );
      const unknown = await server.publicApi.post('/admin/reset-password', {
        resetPasswordToken: 'abc',
        password: 'Xyzabc123',
      });
      assert.deepEqual(unknown.body, refusal(400, 'ApplicationError', 'An application error occurred'));

      const fresh = browser();
      const reset = await server.publicApi.post('/admin/reset-password', {
        resetPasswordToken: code,
        password: 'New-Passw0rd!',
      });
      assert.equal(reset.status, 200, reset.text);
      assert.deepEqual(Object.keys(reset.body.data), ['token', 'user']);
      fresh.keep(reset);
      fresh.token = reset.body.data.token;
      assert.equal((await fresh.get('/admin/users/me')).status, 200);
      assert.equal((await fresh.renew()).status, 200);
      // The other sessions ended; the old password no longer signs in; the code is used up.
      assert.equal((await old.get('/admin/users/me')).status, 401);
      assert.equal((await old.renew()).status, 401);
      assert.equal((await browser().login(email)).status, 400);
      assert.equal((await browser().login(email, 'New-Passw0rd!')).status, 200);
      const again = await server.publicApi.post('/admin/reset-password', {
        resetPasswordToken: code,
        password: 'Other-Passw0rd!',
      });
      assert.equal(again.status, 400);

      // An expired code is refused with Strapi's words, then forgotten.
      await server.publicApi.post('/admin/forgot-password', { email });
      const late = codeIn(await smtp.next(email), 'code');
      await server.vellum.database.system
        .updateTable('admin_users')
        .set({
          reset_password_expires_at: server.vellum.database.dialect.encode('datetime', new Date(Date.now() - 1000)),
        })
        .where('email', '=', email)
        .execute();
      const expired = await server.publicApi.post('/admin/reset-password', {
        resetPasswordToken: late,
        password: 'Late-Passw0rd!',
      });
      assert.deepEqual(expired.body, refusal(400, 'ApplicationError', 'This reset password token has expired'));
      const retried = await server.publicApi.post('/admin/reset-password', {
        resetPasswordToken: late,
        password: 'Late-Passw0rd!',
      });
      assert.deepEqual(retried.body, refusal(400, 'ApplicationError', 'An application error occurred'));
    });

    it("ends an administrator's other sessions with a new password, and all with deactivation", async () => {
      const root = await newAdmin();
      const { id, email } = await newAdmin();
      const [a, b] = [browser(), browser()];
      await a.login(email);
      await b.login(email);
      const changed = await a.send('PUT', '/admin/users/me', {
        currentPassword: PASSWORD,
        password: 'Changed-Passw0rd1',
      });
      assert.equal(changed.status, 200, changed.text);
      assert.equal((await b.get('/admin/users/me')).status, 401);
      assert.equal((await b.renew()).status, 401);
      // The session that changed it goes on: its cookie gives a token issued after the change.
      assert.equal((await a.get('/admin/users/me')).status, 401);
      assert.equal((await a.renew()).status, 200);
      assert.equal((await a.get('/admin/users/me')).status, 200);

      const boss = browser();
      await boss.login(root.email);
      const off = await boss.send('PUT', `/admin/users/${id}`, { isActive: false });
      assert.equal(off.status, 200, off.text);
      assert.equal((await a.get('/admin/users/me')).status, 401);
      assert.equal((await a.renew()).status, 401);
    });

    it('`vellum admin reset-password` sets a password by email and ends the sessions', async () => {
      const { email } = await newAdmin();
      const b = browser();
      await b.login(email, PASSWORD, true);
      const vellum = (...args: string[]) => cliOutput([...args, '--project', project.dir]);
      assert.match(
        await vellum('admin', 'reset-password', '--email', email.toUpperCase(), '--password', 'Cli-Passw0rd!'),
        /Password of admin\d+@example\.com changed/,
      );
      assert.equal((await b.get('/admin/users/me')).status, 401);
      assert.equal((await b.renew()).status, 401);
      assert.equal((await browser().login(email, 'Cli-Passw0rd!')).status, 200);
      const unknown = await runCli([
        'admin',
        'reset-password',
        '--email',
        'no@example.com',
        '--password',
        'Cli-Passw0rd!',
        '--project',
        project.dir,
      ]);
      assert.notEqual(unknown.code, 0);
      assert.match(unknown.stderr, /No administrator has the email no@example\.com/);
      const weak = await runCli([
        'admin',
        'reset-password',
        '--email',
        email,
        '--password',
        'x',
        '--project',
        project.dir,
      ]);
      assert.notEqual(weak.code, 0);
    });

    it('answers a seeded random sequence of sign-ins, renewals, replays, log outs and password changes as a model does', async () => {
      const seed = Number(process.env.SEQ_SEED ?? 20261129) + DIALECTS.indexOf(dialect);
      const next = random(seed);
      const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
      const admins = [await newAdmin(), await newAdmin()];
      const password = new Map(admins.map((a) => [a.email, PASSWORD]));
      // The model: each browser's administrator and session; sessions alive; how many renewals each cookie is old.
      type Model = { admin?: string; session?: number; tokenFresh: boolean; cookieAge: number[] };
      const browsers = [browser(), browser(), browser(), browser()];
      const model: Model[] = browsers.map(() => ({ tokenFresh: false, cookieAge: [] }));
      const alive = new Map<number, { admin: string; device: string }>();
      let sessions = 0;
      const log: string[] = [];
      const endSessions = (keep: (s: { admin: string; device: string }, id: number) => boolean) => {
        for (const [id, s] of [...alive]) if (!keep(s, id)) alive.delete(id);
      };
      for (let step = 0; step < Number(process.env.SEQ_STEPS ?? 45); step++) {
        const i = Math.floor(next() * browsers.length);
        const [b, m] = [browsers[i]!, model[i]!];
        const live = m.session !== undefined && alive.has(m.session);
        const action = pick([
          'login',
          'login',
          'renew',
          'renew',
          'use',
          'replay-previous',
          'replay-older',
          'logout-device',
          'logout-all',
          'password',
        ] as const);
        log.push(`${step}: browser ${i} ${action}`);
        const where = `seed ${seed}, ${log.join('; ')}`;
        if (action === 'login') {
          const admin = m.admin ?? pick(admins).email;
          const r = await b.login(admin, password.get(admin), next() < 0.5);
          assert.equal(r.status, 200, where);
          m.admin = admin;
          m.session = ++sessions;
          alive.set(m.session, { admin, device: b.deviceId });
          m.tokenFresh = true;
          b.history.length = 0;
          b.history.push(b.cookie!);
        } else if (action === 'renew') {
          const r = await b.renew();
          assert.equal(r.status, live ? 200 : 401, where);
          if (live) m.tokenFresh = true;
        } else if (action === 'use') {
          const r = await b.get('/admin/users/me');
          assert.equal(r.status, live && m.tokenFresh ? 200 : 401, where);
        } else if (action === 'replay-previous' || action === 'replay-older') {
          const back = action === 'replay-previous' ? 2 : 3;
          const cookie = b.history.at(-back);
          if (cookie === undefined) continue;
          assert.equal((await b.renew(cookie)).status, 401, where);
          // A cookie older than the one just replaced: copied, the session ends.
          if (back === 3 && m.session !== undefined) alive.delete(m.session);
        } else if (action === 'logout-device' || action === 'logout-all') {
          if (!m.admin) continue;
          const r = await b.send('POST', '/admin/logout', action === 'logout-device' ? { deviceId: b.deviceId } : {});
          assert.equal(r.status, live && m.tokenFresh ? 200 : 401, where);
          if (r.status === 200) {
            const admin = m.admin;
            endSessions((s) => s.admin !== admin || (action === 'logout-device' && s.device !== b.deviceId));
          }
        } else if (action === 'password') {
          if (!m.admin) continue;
          const admin = m.admin;
          const fresh = `Pass-${step}-Word9`;
          const r = await b.send('PUT', '/admin/users/me', { currentPassword: password.get(admin), password: fresh });
          assert.equal(r.status, live && m.tokenFresh ? 200 : 401, where);
          if (r.status === 200) {
            password.set(admin, fresh);
            const own = m.session;
            endSessions((s, id) => s.admin !== admin || id === own);
            // Every token of the administrator was issued before the change, this browser's too.
            model.forEach((other) => other.admin === admin && (other.tokenFresh = false));
          }
        }
        const stillLive = m.session !== undefined && alive.has(m.session);
        if (!stillLive) m.tokenFresh = false;
        for (const other of model)
          if (other.session !== undefined && !alive.has(other.session)) other.tokenFresh = false;
      }
      if (process.env.SEQ_LOG) console.log(log.join('\n'));
      // Finally, every browser's session is as the model says.
      for (const [i, b] of browsers.entries()) {
        const m = model[i]!;
        const live = m.session !== undefined && alive.has(m.session);
        assert.equal(
          (await b.renew()).status,
          live ? 200 : 401,
          `seed ${seed}, browser ${i} at the end; ${log.join('; ')}`,
        );
      }
    });
  });
}
