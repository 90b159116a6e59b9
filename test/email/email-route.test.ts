/**
 * `POST /api/email`, the email plugin's content-API route (Strapi 5.54's `email.send`, permission
 * `plugin::email.email.send`), over a real SMTP server started by the test.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';
import { emailPlugin, startSmtp, type TestSmtp } from '../helpers/smtp.js';
import { unique } from '../helpers/unique.js';

/** A port of 127.0.0.1 that nothing listens on (taken, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

for (const dialect of DIALECTS) {
  describe(`POST /api/email, the email plugin's route [${dialect}]`, () => {
    let server: TestServer;
    let smtp: TestSmtp;
    before(async () => {
      smtp = await startSmtp();
      server = await startServer(dialect, { config: { plugins: { email: emailPlugin(smtp) } } });
    });
    after(async () => {
      await server?.close();
      await smtp?.close();
    });

    it('sends what it is given through the provider and answers {}', async () => {
      const to = `${unique('reader')}@example.com`;
      const res = await server.api.post('/api/email', {
        to,
        subject: 'Hello',
        text: 'A message',
        replyTo: 'desk@example.com',
      });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body, {});
      const mail = await smtp.next(to);
      assert.deepEqual([mail.subject, mail.text.trim(), mail.replyTo], ['Hello', 'A message', 'desk@example.com']);
    });

    it('needs plugin::email.email.send: Public is refused, a role granted it may send', async () => {
      const body = { to: `${unique('x')}@example.com`, subject: 's', text: 't' };
      assert.equal((await server.publicApi.post('/api/email', body)).status, 403);
      const publicRole = (await server.vellum.auth.roles.get('public')).documentId;
      await server.vellum.auth.roles.grant(publicRole, ['plugin::email.email.send']);
      try {
        assert.equal((await server.publicApi.post('/api/email', body)).status, 200);
        await smtp.next(body.to);
      } finally {
        await server.vellum.auth.roles.revoke(publicRole, ['plugin::email.email.send']);
      }
    });

    it('a body without to, subject or text, or with a value that is not a string, is a 400 naming each', async () => {
      const res = await server.api.post('/api/email', { subject: 3, text: 'x' });
      assert.equal(res.status, 400, res.text);
      assert.deepEqual(res.body.error.details.errors.map((e: { path: string[] }) => e.path.join('.')).sort(), [
        'subject',
        'to',
      ]);
      assert.equal((await server.api.post('/api/email', [1])).status, 400);
    });

    if (dialect === 'sqlite') {
      it('a provider that cannot be reached is a 503 naming the failure, not a 500', async () => {
        const down = await startServer(dialect, {
          config: { plugins: { email: emailPlugin({ ...smtp, port: await closedPort() }) } },
        });
        try {
          const res = await down.api.post('/api/email', { to: 'a@example.com', subject: 's', text: 't' });
          assert.equal(res.status, 503, res.text);
          assert.match(res.body.error.message, /^Couldn't send email: /);
        } finally {
          await down.close();
        }
      });
    }
  });
}
