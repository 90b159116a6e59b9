/**
 * The email service (`strapi.plugin('email').service('email')`) over a real SMTP server started by
 * the test: Strapi's `@strapi/provider-email-nodemailer` when the project has it installed, Vellum's
 * own SMTP provider otherwise, with the same `providerOptions` and `settings`.
 */
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { copyProject, type TempProject } from '../helpers/projects.js';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';
import { emailPlugin, startSmtp, type TestSmtp } from '../helpers/smtp.js';
import { unique } from '../helpers/unique.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The blog with an API whose controller sends what it is given, as project code does. */
function mailerProject(withStrapiProvider: boolean): TempProject {
  const project = copyProject();
  const file = (path: string, text: string) => {
    mkdirSync(dirname(join(project.dir, path)), { recursive: true });
    project.write(path, text);
  };
  file(
    'src/api/mailer/routes/mailer.js',
    `module.exports = { routes: [
      { method: 'POST', path: '/mailer/send', handler: 'mailer.send', config: { auth: false } },
      { method: 'POST', path: '/mailer/templated', handler: 'mailer.templated', config: { auth: false } },
      { method: 'GET', path: '/mailer/settings', handler: 'mailer.settings', config: { auth: false } },
      { method: 'POST', path: '/mailer/confirm', handler: 'mailer.confirm', config: { auth: false } },
      { method: 'POST', path: '/mailer/template', handler: 'mailer.template', config: { auth: false } },
    ] };`,
  );
  file(
    'src/api/mailer/controllers/mailer.js',
    `module.exports = {
      async send(ctx) {
        await strapi.plugin('email').service('email').send(ctx.request.body);
        return { sent: true };
      },
      async templated(ctx) {
        const { options, template, data } = ctx.request.body;
        await strapi.plugin('email').service('email').sendTemplatedEmail(options, template, data);
        return { sent: true };
      },
      async settings() {
        return strapi.plugin('email').service('email').getProviderSettings();
      },
      async confirm(ctx) {
        await strapi.plugin('users-permissions').service('user').sendConfirmationEmail({ id: ctx.request.body.id });
        return { sent: true };
      },
      async template(ctx) {
        return { text: await strapi.plugin('users-permissions').service('users-permissions').template(ctx.request.body.layout, ctx.request.body.data) };
      },
    };`,
  );
  // Installed in the project: what `npm install @strapi/provider-email-nodemailer` leaves there.
  if (withStrapiProvider) symlinkSync(join(ROOT, 'node_modules'), join(project.dir, 'node_modules'), 'dir');
  return project;
}

for (const dialect of DIALECTS) {
  describe(`email service [${dialect}]`, () => {
    let smtp: TestSmtp;
    const projects: TempProject[] = [];
    const servers: Record<'strapi' | 'builtIn', TestServer> = {} as never;
    before(async () => {
      smtp = await startSmtp();
      for (const [key, withPackage] of [
        ['strapi', true],
        ['builtIn', false],
      ] as const) {
        const project = mailerProject(withPackage);
        projects.push(project);
        servers[key] = await startServer(dialect, {
          project: project.dir,
          config: { plugins: { email: emailPlugin(smtp, { defaultReplyTo: 'support@vellum.test' }) } },
        });
      }
    });
    after(async () => {
      for (const server of Object.values(servers)) await server?.close();
      for (const project of projects) project.remove();
      await smtp?.close();
    });

    it("loads Strapi's provider package when the project has it, Vellum's own SMTP provider otherwise", () => {
      assert.match(servers.strapi.vellum.email.providerSource, /@strapi[/\\]provider-email-nodemailer[/\\]/);
      assert.equal(servers.builtIn.vellum.email.providerSource, 'built-in:nodemailer');
    });

    for (const key of ['strapi', 'builtIn'] as const) {
      it(`project code's send reaches the SMTP server, with the configured defaults (${key})`, async () => {
        const server = servers[key];
        const to = `${unique('to')}@example.com`;
        const res = await server.publicApi.post('/api/mailer/send', { to, subject: 'Hello', text: 'Plain body' });
        assert.equal(res.status, 200, res.text);
        const mail = await smtp.next(to);
        assert.equal(mail.subject, 'Hello');
        assert.equal(mail.text.trim(), 'Plain body');
        assert.equal(mail.html.trim(), 'Plain body', 'html falls back to text');
        assert.equal(mail.from, '"Vellum Tests" <tests@vellum.test>', 'settings.defaultFrom');
        assert.equal(mail.replyTo, 'support@vellum.test', 'settings.defaultReplyTo');

        const other = `${unique('to')}@example.com`;
        await server.publicApi.post('/api/mailer/send', {
          to: other,
          from: 'Someone <someone@vellum.test>',
          replyTo: 'reply@vellum.test',
          subject: 'Own',
          html: '<p>Only html</p>',
        });
        const own = await smtp.next(other);
        assert.equal(own.from, '"Someone" <someone@vellum.test>');
        assert.equal(own.replyTo, 'reply@vellum.test');
        assert.match(own.html, /<p>Only html<\/p>/);
      });

      it(`sendTemplatedEmail fills <%= %> from the data and evaluates nothing (${key})`, async () => {
        const to = `${unique('to')}@example.com`;
        const res = await servers[key].publicApi.post('/api/mailer/templated', {
          options: { to },
          template: {
            subject: 'Hi <%= user.name %>',
            text: 'Code <%= code %>, <%= missing %>, <% throw new Error("x") %>, ${process.pid}',
            html: '<b><%= user.name %></b>',
          },
          data: { user: { name: 'Ann' }, code: 42 },
        });
        assert.equal(res.status, 200, res.text);
        const mail = await smtp.next(to);
        assert.equal(mail.subject, 'Hi Ann');
        assert.equal(mail.text.trim(), 'Code 42, <%= missing %>, <% throw new Error("x") %>, ${process.pid}');
        assert.match(mail.html, /<b>Ann<\/b>/);
      });
    }

    it('getProviderSettings answers the configuration project code reads', async () => {
      const res = await servers.builtIn.publicApi.get('/api/mailer/settings');
      assert.equal(res.body.provider, 'nodemailer');
      assert.equal(res.body.settings.defaultFrom, 'Vellum Tests <tests@vellum.test>');
      assert.equal(res.body.providerOptions.port, smtp.port);
    });

    it('project code sends a confirmation email and renders users-permissions templates', async () => {
      const server = servers.builtIn;
      const username = unique('u');
      const email = `${username}@example.com`;
      const registered = await server.publicApi.post('/api/auth/local/register', {
        username,
        email,
        password: 'secret123',
      });
      const res = await server.publicApi.post('/api/mailer/confirm', { id: registered.body.user.id });
      assert.equal(res.status, 200, res.text);
      const mail = await smtp.next(email);
      assert.equal(mail.subject, 'Account confirmation');
      assert.match(mail.text, new RegExp(`${server.url}/api/auth/email-confirmation\\?confirmation=[0-9a-f]{40}`));
      const rendered = await server.publicApi.post('/api/mailer/template', {
        layout: 'Hi <%= USER.username %> <% x %>',
        data: { USER: { username: 'ann' } },
      });
      assert.equal(rendered.body.text, 'Hi ann <% x %>');
    });

    it('a provider that cannot be found stops start-up, naming it', async () => {
      await assert.rejects(
        startServer(dialect, { config: { plugins: { email: { config: { provider: 'no-such-provider-x' } } } } }),
        /Could not load email provider "no-such-provider-x"/,
      );
    });
  });
}
