/**
 * Email confirmation as Strapi's users-permissions does it, with `email_confirmation` on: the
 * confirmation email at registration (read from a real SMTP server), no JWT until confirmed,
 * `GET /api/auth/email-confirmation?confirmation=` confirming once and redirecting, and
 * `POST /api/auth/send-email-confirmation`.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';
import { codeIn, emailPlugin, startSmtp, type ReceivedMail, type TestSmtp } from '../helpers/smtp.js';
import { unique } from '../helpers/unique.js';

const REDIRECT = 'https://app.example.com/confirmed';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** A GET that does not follow redirects (what a browser is told). */
const visit = (url: string) => fetch(url, { redirect: 'manual' });

for (const dialect of DIALECTS) {
  describe(`email confirmation [${dialect}]`, () => {
    let smtp: TestSmtp;
    let server: TestServer;
    before(async () => {
      smtp = await startSmtp();
      server = await startServer(dialect, {
        config: {
          plugins: {
            email: emailPlugin(smtp),
            // Every registration comes from one address: more than the default limit (test/users-permissions/accounts.test.ts).
            'users-permissions': {
              config: {
                advanced: { email_confirmation: true, email_confirmation_redirection: REDIRECT },
                register: { ratelimit: { max: 1000 } },
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
    const login = (identifier: string, password: string) => anon().post('/api/auth/local', { identifier, password });

    async function register(): Promise<{ username: string; email: string; id: number; mail: ReceivedMail }> {
      const username = unique('u');
      const email = `${username}@example.com`;
      const res = await anon().post('/api/auth/local/register', { username, email, password: 'secret123' });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(Object.keys(res.body), ['user'], 'no JWT before the email is confirmed');
      assert.equal(res.body.user.confirmed, false);
      return { username, email, id: res.body.user.id, mail: await smtp.next(email) };
    }

    it('registration answers {user} and mails a confirmation link to the API; the account cannot log in until confirmed', async () => {
      const user = await register();
      assert.equal(user.mail.subject, 'Account confirmation');
      assert.match(user.mail.text, /Thank you for registering!/);
      const link = new RegExp(`${server.url}/api/auth/email-confirmation\\?confirmation=[0-9a-f]{40}`);
      assert.match(user.mail.text, link);
      const refused = await login(user.username, 'secret123');
      assert.equal(refused.status, 400);
      assert.equal(refused.body.error.name, 'ApplicationError');
      assert.equal(refused.body.error.message, 'Your account email is not confirmed');
      assert.equal(
        (await login(user.username, 'wrong-password')).body.error.message,
        'Invalid identifier or password',
        'told only with the right password',
      );
      const stored = await server.vellum.database.db
        .selectFrom('up_user_codes')
        .select(['code_hash', 'purpose'])
        .where('user_id', '=', user.id)
        .execute();
      assert.deepEqual(stored, [
        { code_hash: sha256(codeIn(user.mail, 'confirmation')), purpose: 'email-confirmation' },
      ]);
    });

    it('the link confirms once and redirects to email_confirmation_redirection; the account then logs in', async () => {
      const user = await register();
      const url = /(http\S+confirmation=[0-9a-f]+)/.exec(user.mail.text)![1]!;
      const res = await visit(url);
      assert.equal(res.status, 302);
      assert.equal(res.headers.get('location'), REDIRECT);
      const signedIn = await login(user.email, 'secret123');
      assert.equal(signedIn.status, 200, signedIn.text);
      assert.equal(signedIn.body.user.confirmed, true);
      const again = await visit(url);
      assert.equal(again.status, 400);
      assert.equal((await again.json()).error.message, 'Invalid token');
    });

    it('without a redirection the confirmation redirects to /', async () => {
      const user = await register();
      await server.vellum.auth.advanced.update({ email_confirmation_redirection: null });
      try {
        const res = await visit(
          `${server.url}/api/auth/email-confirmation?confirmation=${codeIn(user.mail, 'confirmation')}`,
        );
        assert.equal(res.status, 302);
        assert.equal(res.headers.get('location'), '/');
      } finally {
        await server.vellum.auth.advanced.update({ email_confirmation_redirection: REDIRECT });
      }
    });

    it('a missing, unknown or expired confirmation is a 400 and confirms nobody', async () => {
      const user = await register();
      const code = codeIn(user.mail, 'confirmation');
      await server.vellum.database.db
        .updateTable('up_user_codes')
        .set({ expires_at: server.vellum.database.dialect.encode('datetime', new Date(Date.now() - 1000)) })
        .where('code_hash', '=', sha256(code))
        .execute();
      const cases: [string, string][] = [
        ['', 'confirmation is a required field'],
        ['?confirmation=', 'confirmation is a required field'],
        ['?confirmation=0123abcd', 'Invalid token'],
        [`?confirmation=${code}`, 'Invalid token'],
        [`?confirmation=${code}&confirmation=${code}`, 'confirmation must be a `string` type'],
      ];
      for (const [query, message] of cases) {
        const res = await anon().get(`/api/auth/email-confirmation${query}`);
        assert.equal(res.status, 400, query);
        assert.equal(res.body.error.name, 'ValidationError');
        assert.equal(res.body.error.message, message, query);
      }
      assert.equal((await login(user.email, 'secret123')).body.error.message, 'Your account email is not confirmed');
    });

    it('send-email-confirmation sends a new link (the earlier one stops working) and answers as Strapi', async () => {
      const user = await register();
      const first = codeIn(user.mail, 'confirmation');
      const res = await anon().post('/api/auth/send-email-confirmation', { email: user.email.toUpperCase() });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body, { email: user.email, sent: true });
      const second = codeIn(await smtp.next(user.email), 'confirmation');
      assert.notEqual(first, second);
      assert.equal((await anon().get(`/api/auth/email-confirmation?confirmation=${first}`)).status, 400);
      assert.equal((await visit(`${server.url}/api/auth/email-confirmation?confirmation=${second}`)).status, 302);

      // Confirmed, blocked or unknown: the same answer, no email (Strapi: 400 "Already confirmed" / "User blocked").
      const blocked = await register();
      await server.vellum.auth.users.setBlocked(blocked.id, true);
      const nobody = `${unique('nobody')}@example.com`;
      for (const address of [user.email, blocked.email, nobody]) {
        const res = await anon().post('/api/auth/send-email-confirmation', { email: address.toUpperCase() });
        assert.equal(res.status, 200, res.text);
        assert.deepEqual(res.body, { email: address, sent: true });
      }
      // A confirmation re-sent afterwards to an unconfirmed account arrives: nothing was sent before it to the others.
      const fresh = await register();
      assert.equal((await anon().post('/api/auth/send-email-confirmation', { email: fresh.email })).status, 200);
      await smtp.next(fresh.email);
      assert.equal(smtp.to(user.email).length, 2, 'the registration and the first re-send only');
      assert.equal(smtp.to(blocked.email).length, 1, 'the registration only');

      for (const [body, message] of [
        [{}, 'email is a required field'],
        [{ email: 'nope' }, 'email must be a valid email'],
      ] as const) {
        const bad = await anon().post('/api/auth/send-email-confirmation', body);
        assert.equal(bad.status, 400);
        assert.equal(bad.body.error.message, message);
      }
    });

    it("a confirmation email that cannot be sent is Strapi's 400; the account exists, unconfirmed", async () => {
      const dead = await startSmtp();
      await dead.close();
      const broken = await startServer(dialect, {
        nodeOf: server,
        config: {
          plugins: {
            email: emailPlugin(dead),
            'users-permissions': {
              config: { advanced: { email_confirmation: true }, register: { ratelimit: { max: 1000 } } },
            },
          },
        },
      });
      try {
        const username = unique('u');
        const res = await broken.publicApi.post('/api/auth/local/register', {
          username,
          email: `${username}@example.com`,
          password: 'secret123',
        });
        assert.equal(res.status, 400);
        assert.equal(res.body.error.name, 'ApplicationError');
        assert.equal(res.body.error.message, 'Error sending confirmation email');
        const sent = await anon().post('/api/auth/send-email-confirmation', { email: `${username}@example.com` });
        assert.equal(sent.status, 200, 'another node sends it again');
        assert.match((await smtp.next(`${username}@example.com`)).text, /confirmation=/);
      } finally {
        await broken.close();
      }
    });
  });
}
