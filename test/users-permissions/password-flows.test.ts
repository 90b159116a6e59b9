/**
 * `POST /api/auth/forgot-password`, `/reset-password` and `/change-password` as a frontend written
 * for Strapi uses them, with the reset email read from a real SMTP server: the answers, the email,
 * single-use expiring codes stored hashed, JWTs revoked by a password change, and every bad input
 * a 4xx that changes nothing.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';
import { codeIn, emailPlugin, startSmtp, type TestSmtp } from '../helpers/smtp.js';
import { unique } from '../helpers/unique.js';

const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });
const RESET_URL = 'https://app.example.com/reset-password';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

for (const dialect of DIALECTS) {
  describe(`password flows [${dialect}]`, () => {
    let smtp: TestSmtp;
    let server: TestServer;
    before(async () => {
      smtp = await startSmtp();
      server = await startServer(dialect, {
        config: {
          plugins: {
            email: emailPlugin(smtp),
            'users-permissions': {
              config: {
                advanced: { email_reset_password: RESET_URL },
                // Every registration, reset and change comes from one address: more than the default limits (test/users-permissions/accounts.test.ts).
                register: { ratelimit: { max: 1000 } },
                ratelimit: { max: 1000 },
                validationRules: { validatePassword: (password: string) => !password.includes('forbidden') },
              },
            },
          },
        },
      });
    });
    after(async () => {
      await server?.close();
      await smtp?.close();
    });
    const anon = () => server.publicApi;

    /** A new user, registered as a frontend registers one. */
    async function register(password = 'secret123') {
      const username = unique('u');
      const email = `${username}@example.com`;
      const res = await anon().post('/api/auth/local/register', { username, email, password });
      assert.equal(res.status, 200, res.text);
      return { username, email, password, id: res.body.user.id as number, jwt: res.body.jwt as string };
    }

    async function forgot(email: string) {
      const res = await anon().post('/api/auth/forgot-password', { email });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body, { ok: true });
      return codeIn(await smtp.next(email), 'code');
    }

    const login = (identifier: string, password: string) => anon().post('/api/auth/local', { identifier, password });
    const me = (jwt: string) => anon().get('/api/users/me', bearer(jwt));

    it("forgot-password gives one answer whether or not the email is an account's, and mails the reset link to accounts only", async () => {
      const user = await register();
      const blocked = await register();
      await server.vellum.auth.users.setBlocked(blocked.id, true);
      const nobody = `${unique('nobody')}@example.com`;
      const answers: [number, string, string | null][] = [];
      for (const email of [user.email, nobody, blocked.email, user.email.toUpperCase()]) {
        const res = await anon().post('/api/auth/forgot-password', { email });
        answers.push([res.status, res.text, res.headers.get('content-type')]);
      }
      assert.equal(new Set(answers.map((answer) => JSON.stringify(answer))).size, 1, JSON.stringify(answers));
      assert.deepEqual(JSON.parse(answers[0]![1]), { ok: true });

      const mail = await smtp.next(user.email);
      assert.equal(mail.subject, 'Reset password');
      assert.equal(mail.from, '"Administration Panel" <no-reply@strapi.io>');
      assert.match(mail.text, /We heard that you lost your password/);
      assert.match(mail.text, new RegExp(`${RESET_URL}\\?code=[0-9a-f]{128}`));
      assert.match(mail.html, new RegExp(`<p>${RESET_URL}\\?code=[0-9a-f]{128}</p>`));
      await smtp.next(user.email); // the upper-case request: the same account
      // A marker sent after the others: the unknown and the blocked addresses got nothing.
      const marker = `${unique('marker')}@example.com`;
      await server.vellum.email.send({ to: marker, subject: 'marker', text: 'marker' });
      await smtp.next(marker);
      assert.deepEqual(smtp.to(nobody), []);
      assert.deepEqual(smtp.to(blocked.email), []);
    });

    it("the code is kept hashed, never in the user's fields", async () => {
      const user = await register();
      const code = await forgot(user.email);
      const rows = await server.vellum.database.db
        .selectFrom('up_user_codes')
        .selectAll()
        .where('user_id', '=', user.id)
        .execute();
      assert.equal(rows.length, 1);
      assert.equal(rows[0].code_hash, sha256(code));
      assert.equal(rows[0].purpose, 'reset-password');
      const stored = await server.vellum.database.db
        .selectFrom('up_users')
        .select(['reset_password_token', 'confirmation_token'])
        .where('id', '=', user.id)
        .executeTakeFirstOrThrow();
      assert.deepEqual(stored, { reset_password_token: null, confirmation_token: null });
    });

    it('reset-password answers {jwt, user}; the new password logs in, the old one and earlier JWTs do not; the code works once', async () => {
      const user = await register();
      const earlier = (await login(user.username, user.password)).body.jwt as string;
      assert.equal((await me(earlier)).status, 200);
      const code = await forgot(user.email);
      const res = await anon().post('/api/auth/reset-password', {
        code,
        password: 'brand-new-1',
        passwordConfirmation: 'brand-new-1',
      });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(Object.keys(res.body).sort(), ['jwt', 'user']);
      assert.equal(res.body.user.id, user.id);
      assert.equal(res.body.user.password, undefined);
      assert.equal(res.body.user.resetPasswordToken, undefined);
      assert.equal((await me(res.body.jwt)).status, 200, 'the answered JWT works');
      for (const token of [earlier, user.jwt]) {
        const old = await me(token);
        assert.equal(old.status, 401, 'JWTs issued before the reset are revoked');
        assert.equal(old.body.error.name, 'UnauthorizedError');
      }
      assert.equal((await login(user.username, user.password)).status, 400);
      const fresh = await login(user.email, 'brand-new-1');
      assert.equal(fresh.status, 200);
      assert.equal((await me(fresh.body.jwt)).status, 200, 'a login right after the reset is valid');

      const again = await anon().post('/api/auth/reset-password', {
        code,
        password: 'another-pass-2',
        passwordConfirmation: 'another-pass-2',
      });
      assert.equal(again.status, 400);
      assert.equal(again.body.error.name, 'ValidationError');
      assert.equal(again.body.error.message, 'Incorrect code provided');
      assert.equal((await login(user.email, 'brand-new-1')).status, 200, 'a reused code changed nothing');
    });

    it('a new request replaces the earlier code; an expired code is refused and changes nothing', async () => {
      const user = await register();
      const first = await forgot(user.email);
      const second = await forgot(user.email);
      assert.notEqual(first, second);
      const stale = await anon().post('/api/auth/reset-password', {
        code: first,
        password: 'brand-new-1',
        passwordConfirmation: 'brand-new-1',
      });
      assert.equal(stale.body.error.message, 'Incorrect code provided');

      // Expired: its expiry written into the past, as an hour later would find it.
      await server.vellum.database.db
        .updateTable('up_user_codes')
        .set({ expires_at: server.vellum.database.dialect.encode('datetime', new Date(Date.now() - 1000)) })
        .where('code_hash', '=', sha256(second))
        .execute();
      const expired = await anon().post('/api/auth/reset-password', {
        code: second,
        password: 'brand-new-1',
        passwordConfirmation: 'brand-new-1',
      });
      assert.equal(expired.status, 400);
      assert.equal(expired.body.error.message, 'Incorrect code provided');
      assert.equal((await login(user.email, user.password)).status, 200);
      assert.equal((await me(user.jwt)).status, 200, 'nothing was revoked');
    });

    it("reset-password refuses bad input with Strapi's 400s, and the code stays usable", async () => {
      const user = await register();
      const code = await forgot(user.email);
      const cases: [Record<string, unknown>, string, (string | number)[][]][] = [
        [
          { code, password: 'brand-new-1', passwordConfirmation: 'brand-new-2' },
          'Passwords do not match',
          [['passwordConfirmation']],
        ],
        [
          { code, password: '123', passwordConfirmation: '123' },
          'password must be at least 6 characters',
          [['password']],
        ],
        [
          { code, password: 'x'.repeat(73), passwordConfirmation: 'x'.repeat(73) },
          'Password must be less than 73 bytes',
          [['password']],
        ],
        [
          { code, password: 'forbidden-1', passwordConfirmation: 'forbidden-1' },
          'Password validation failed.',
          [['password']],
        ],
        [{ code }, '2 errors occurred', [['password'], ['passwordConfirmation']]],
        [{ password: 'brand-new-1', passwordConfirmation: 'brand-new-1' }, 'code is a required field', [['code']]],
        [
          { code, password: 12345678, passwordConfirmation: 12345678 },
          '2 errors occurred',
          [['password'], ['passwordConfirmation']],
        ],
        [
          { code, password: 'brand-new-1', passwordConfirmation: 'brand-new-1', email: user.email },
          'this field has unspecified keys: email',
          [[]],
        ],
      ];
      for (const [body, message, paths] of cases) {
        const res = await anon().post('/api/auth/reset-password', body);
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.equal(res.body.error.name, 'ValidationError');
        assert.equal(res.body.error.message, message, JSON.stringify(body));
        assert.deepEqual(
          res.body.error.details.errors.map((error: { path: unknown }) => error.path),
          paths,
        );
        assert.doesNotMatch(res.text, /brand-new|forbidden-1|12345678/, 'no password echoed');
      }
      assert.equal(
        (
          await anon().post('/api/auth/reset-password', {
            code: 'nope',
            password: 'brand-new-1',
            passwordConfirmation: 'brand-new-1',
          })
        ).body.error.message,
        'Incorrect code provided',
      );
      for (const body of ['[]', 'not json'])
        assert.equal(
          (
            await anon().request('POST', '/api/auth/reset-password', {
              rawBody: body,
              headers: { 'content-type': 'application/json' },
            })
          ).status,
          400,
        );
      assert.equal((await login(user.email, user.password)).status, 200, 'nothing changed');
      const ok = await anon().post('/api/auth/reset-password', {
        code,
        password: 'brand-new-1',
        passwordConfirmation: 'brand-new-1',
      });
      assert.equal(ok.status, 200, 'the code was not used up by the refused requests');
    });

    it('forgot-password refuses a missing or malformed email and unknown keys', async () => {
      const cases: [unknown, string][] = [
        [{}, 'email is a required field'],
        [{ email: 'not-an-email' }, 'email must be a valid email'],
        [{ email: ['a@example.com'] }, 'email must be a `string` type'],
        [{ email: 'a@example.com', username: 'a' }, 'this field has unspecified keys: username'],
      ];
      for (const [body, message] of cases) {
        const res = await anon().post('/api/auth/forgot-password', body);
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.equal(res.body.error.message, message);
      }
    });

    it('change-password answers {jwt, user} for the signed-in user and revokes earlier JWTs and pending reset codes', async () => {
      const user = await register();
      const code = await forgot(user.email);
      const res = await anon().post(
        '/api/auth/change-password',
        { currentPassword: user.password, password: 'changed-pass-1', passwordConfirmation: 'changed-pass-1' },
        bearer(user.jwt),
      );
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(Object.keys(res.body).sort(), ['jwt', 'user']);
      assert.equal(res.body.user.email, user.email);
      assert.equal((await me(res.body.jwt)).status, 200);
      assert.equal((await me(user.jwt)).status, 401, 'the JWT used to change it is revoked too');
      assert.equal((await login(user.email, user.password)).status, 400);
      assert.equal((await login(user.email, 'changed-pass-1')).status, 200);
      const reset = await anon().post('/api/auth/reset-password', {
        code,
        password: 'brand-new-1',
        passwordConfirmation: 'brand-new-1',
      });
      assert.equal(
        reset.body.error.message,
        'Incorrect code provided',
        'a reset link sent before the change no longer works',
      );
    });

    it('change-password refuses bad input, a wrong current password and callers that are no user; nothing changes', async () => {
      const user = await register();
      const change = (body: unknown, headers = bearer(user.jwt)) =>
        anon().post('/api/auth/change-password', body, headers);
      const cases: [unknown, string][] = [
        [
          { currentPassword: 'wrong-password', password: 'changed-pass-1', passwordConfirmation: 'changed-pass-1' },
          'The provided current password is invalid',
        ],
        [
          { currentPassword: user.password, password: user.password, passwordConfirmation: user.password },
          'Your new password must be different than your current password',
        ],
        [
          { currentPassword: user.password, password: 'changed-pass-1', passwordConfirmation: 'changed-pass-2' },
          'Passwords do not match',
        ],
        [
          { currentPassword: user.password, password: 'abc', passwordConfirmation: 'abc' },
          'password must be at least 6 characters',
        ],
        [{ password: 'changed-pass-1', passwordConfirmation: 'changed-pass-1' }, 'currentPassword is a required field'],
        [
          {
            currentPassword: user.password,
            password: 'changed-pass-1',
            passwordConfirmation: 'changed-pass-1',
            role: 3,
          },
          'this field has unspecified keys: role',
        ],
      ];
      for (const [body, message] of cases) {
        const res = await change(body);
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.equal(res.body.error.name, 'ValidationError');
        assert.equal(res.body.error.message, message);
      }
      const good = {
        currentPassword: user.password,
        password: 'changed-pass-1',
        passwordConfirmation: 'changed-pass-1',
      };
      const anonymous = await anon().post('/api/auth/change-password', good);
      assert.equal(anonymous.status, 403, 'Public may not change a password');
      const token = await anon().post('/api/auth/change-password', good, { headers: server.authHeaders });
      assert.equal(token.status, 400);
      assert.equal(token.body.error.name, 'ApplicationError');
      assert.equal(token.body.error.message, 'You must be authenticated to reset your password');
      assert.equal((await anon().post('/api/auth/change-password', good, bearer('a.b.c'))).status, 401);
      assert.equal((await me(user.jwt)).status, 200, 'nothing was revoked');
      assert.equal((await login(user.email, user.password)).status, 200, 'the password is unchanged');
    });

    it('a JWT that project code issues after a change is valid; one made before it is not', async () => {
      const user = await register();
      const before = await server.vellum.auth.jwt.issue({ id: user.id });
      await anon().post(
        '/api/auth/change-password',
        { currentPassword: user.password, password: 'changed-pass-1', passwordConfirmation: 'changed-pass-1' },
        bearer(user.jwt),
      );
      const after = await server.vellum.auth.jwt.issue({ id: user.id });
      assert.equal((await me(before)).status, 401);
      assert.equal((await me(after)).status, 200);
    });

    it("registration applies the same password rules: validatePassword, 72 bytes, the type's minLength; nobody is created", async () => {
      for (const [password, message] of [
        ['forbidden-1', 'Password validation failed.'],
        ['x'.repeat(73), 'Password must be less than 73 bytes'],
        ['short', 'password must be at least 6 characters'],
      ] as const) {
        const username = unique('u');
        const res = await anon().post('/api/auth/local/register', {
          username,
          email: `${username}@example.com`,
          password,
        });
        assert.equal(res.status, 400, password);
        assert.equal(res.body.error.name, 'ValidationError');
        assert.match(JSON.stringify(res.body.error), new RegExp(message.replace('.', '\\.')), res.text);
        assert.equal((await login(username, password)).status, 400, 'no account');
      }
    });
  });
}
