/**
 * Users-permissions' advanced settings and email templates, kept as Strapi keeps them in
 * `strapi_core_store_settings`: seeded from `config/plugins`, read and written by the admin API
 * and the `vellum settings` CLI, and seen by every node at once. Templates' variables reach the
 * emails (read from a real SMTP server).
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { HttpClient } from '../helpers/http.js';
import { copyProject, type TempProject } from '../helpers/projects.js';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';
import { emailPlugin, startSmtp, type TestSmtp } from '../helpers/smtp.js';
import { unique } from '../helpers/unique.js';
import { cliOutput } from '../helpers/cli.js';

for (const dialect of DIALECTS) {
  describe(`advanced settings [${dialect}]`, () => {
    let smtp: TestSmtp;
    let project: TempProject;
    let server: TestServer;
    let other: TestServer;
    let admin: HttpClient;
    const vellum = (...args: string[]) => cliOutput([...args, '--project', project.dir]);

    before(async () => {
      smtp = await startSmtp();
      project = copyProject();
      server = await startServer(dialect, {
        project: project.dir,
        config: {
          plugins: {
            email: emailPlugin(smtp),
            'users-permissions': {
              config: {
                advanced: { email_reset_password: 'https://app.example.com/reset', unique_email: true },
                email: {
                  reset_password: {
                    options: {
                      object: 'Reset for <%= USER.username %>',
                      from: { name: 'Blog', email: 'blog@vellum.test' },
                    },
                  },
                },
              },
            },
          },
        },
      });
      // A second node on the same database: what one node changes, the other sees at once.
      other = await startServer(dialect, {
        nodeOf: server,
        project: project.dir,
        config: { plugins: { email: emailPlugin(smtp) } },
      });
      rmSync(join(project.dir, 'config/database.js'));
      project.write('config/database.json', JSON.stringify(server.databaseConfig));
      const email = `${unique('admin')}@example.com`;
      await server.vellum.auth.admins.create(email, 'an-admin-password');
      const login = await server.publicApi.post('/admin/login', { email, password: 'an-admin-password' });
      admin = new HttpClient(server.url, { authorization: `Bearer ${login.body.data.token}` });
    });
    after(async () => {
      await other?.close();
      await server?.close();
      project?.remove();
      await smtp?.close();
    });

    it("are stored as Strapi stores them, seeded from config/plugins over Strapi's defaults", async () => {
      const rows = await server.vellum.database.db
        .selectFrom('strapi_core_store_settings')
        .select(['key', 'type', 'value', 'environment', 'tag'])
        .where('key', 'in', ['plugin_users-permissions_advanced', 'plugin_users-permissions_email'])
        .orderBy('key')
        .execute();
      assert.deepEqual(
        rows.map((row) => [row.key, row.type, row.environment, row.tag]),
        [
          ['plugin_users-permissions_advanced', 'object', null, null],
          ['plugin_users-permissions_email', 'object', null, null],
        ],
      );
      assert.deepEqual(JSON.parse(rows[0]!.value), {
        unique_email: true,
        allow_register: true,
        email_confirmation: false,
        email_reset_password: 'https://app.example.com/reset',
        email_confirmation_redirection: null,
        default_role: 'authenticated',
      });
      const email = JSON.parse(rows[1]!.value);
      assert.equal(email.reset_password.options.object, 'Reset for <%= USER.username %>');
      assert.deepEqual(email.reset_password.options.from, { name: 'Blog', email: 'blog@vellum.test' });
      assert.match(
        email.reset_password.options.message,
        /<%= URL %>\?code=<%= TOKEN %>/,
        "the rest is Strapi's default",
      );
      assert.equal(email.email_confirmation.options.object, 'Account confirmation');
    });

    it('GET|PUT /admin/users-permissions/advanced read and change them; every node sees a change at once', async () => {
      const read = await admin.get('/admin/users-permissions/advanced');
      assert.equal(read.status, 200);
      assert.equal(read.body.settings.allow_register, true);
      assert.ok(read.body.roles.some((role: { type: string }) => role.type === 'authenticated'));
      const closed = await admin.put('/admin/users-permissions/advanced', { allow_register: false });
      assert.deepEqual([closed.status, closed.body], [200, { ok: true }]);
      try {
        const username = unique('u');
        const res = await other.publicApi.post('/api/auth/local/register', {
          username,
          email: `${username}@example.com`,
          password: 'secret123',
        });
        assert.equal(res.status, 400);
        assert.equal(res.body.error.message, 'Register action is currently disabled');
        assert.deepEqual(
          (await admin.get('/admin/settings')).body,
          { data: { allowRegister: false } },
          'the earlier route reads the same setting',
        );
      } finally {
        await admin.put('/admin/users-permissions/advanced', { allow_register: true });
      }
    });

    it('default_role gives registered users another role', async () => {
      const role = (await admin.post('/admin/content-api/roles', { name: unique('Members') })).body.data;
      await admin.post(`/admin/content-api/roles/${role.documentId}/permissions`, {
        actions: ['plugin::users-permissions.user.me'],
      });
      await admin.put('/admin/users-permissions/advanced', { default_role: role.type });
      try {
        const username = unique('u');
        const res = await other.publicApi.post('/api/auth/local/register', {
          username,
          email: `${username}@example.com`,
          password: 'secret123',
        });
        assert.equal(res.status, 200, res.text);
        const me = await other.publicApi.get('/api/users/me?populate=role', {
          headers: { authorization: `Bearer ${res.body.jwt}` },
        });
        assert.equal(me.body.role.type, role.type);
      } finally {
        await admin.put('/admin/users-permissions/advanced', { default_role: 'authenticated' });
      }
    });

    it('bad settings are a 400 and store nothing', async () => {
      const before = (await admin.get('/admin/users-permissions/advanced')).body.settings;
      const cases: [unknown, RegExp][] = [
        [{}, /Request body cannot be empty/],
        [{ allow_register: 'no' }, /allow_register must be a boolean/],
        [{ email_confirmation: true, default_role: 'no-such-role' }, /default_role/],
        [{ email_reset_password: 'javascript:alert(1)' }, /absolute http\(s\) URL/],
        [{ email_confirmation_redirection: 'not a url' }, /absolute http\(s\) URL/],
        [{ surprise: true }, /Unknown advanced setting "surprise"/],
      ];
      for (const [body, message] of cases) {
        const res = await admin.put('/admin/users-permissions/advanced', body);
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.equal(res.body.error.name, 'ValidationError');
        assert.match(res.body.error.message, message);
      }
      assert.deepEqual((await admin.get('/admin/users-permissions/advanced')).body.settings, before);
      assert.equal(
        (await server.api.get('/admin/users-permissions/advanced')).status,
        401,
        'content API credentials are no administrator',
      );
    });

    it('email templates: edited through the admin API, their variables filled in the emails, evaluation refused', async () => {
      const templates = (await admin.get('/admin/users-permissions/email-templates')).body;
      assert.equal(templates.reset_password.options.object, 'Reset for <%= USER.username %>');
      const message =
        '<p>Hello <%= USER.username %> (<%= USER.email %>), go to <%= URL %>?code=<%= TOKEN %> on <%= SERVER_URL %></p>';
      const saved = await admin.put('/admin/users-permissions/email-templates', {
        'email-templates': { reset_password: { options: { message, response_email: 'help@vellum.test' } } },
      });
      assert.deepEqual([saved.status, saved.body], [200, { ok: true }]);
      try {
        const username = unique('u');
        const email = `${username}@example.com`;
        await other.publicApi.post('/api/auth/local/register', { username, email, password: 'secret123' });
        await other.publicApi.post('/api/auth/forgot-password', { email });
        const mail = await smtp.next(email);
        assert.equal(mail.subject, `Reset for ${username}`);
        assert.equal(mail.from, '"Blog" <blog@vellum.test>');
        assert.equal(mail.replyTo, 'help@vellum.test');
        assert.match(
          mail.text,
          new RegExp(
            `^<p>Hello ${username} \\(${email}\\), go to https://app.example.com/reset\\?code=[0-9a-f]{128} on ${other.url}</p>$`,
          ),
          'Strapi sends the message as text and as html',
        );

        // A user's fields are text in the HTML part, never markup (Strapi inserts them as they are).
        const marked = `${unique('m')}<img src=x onerror=alert(1)>&"'`;
        const markedEmail = `${unique('marked')}@example.com`;
        assert.equal(
          (
            await other.publicApi.post('/api/auth/local/register', {
              username: marked,
              email: markedEmail,
              password: 'secret123',
            })
          ).status,
          200,
        );
        await other.publicApi.post('/api/auth/forgot-password', { email: markedEmail });
        const escaped = await smtp.next(markedEmail);
        assert.ok(
          escaped.html.includes(
            `<p>Hello ${marked.replace('<img src=x onerror=alert(1)>&"\'', '&lt;img src=x onerror=alert(1)&gt;&amp;&quot;&#39;')} (`,
          ),
          escaped.html,
        );
        assert.ok(!escaped.html.includes('<img'), escaped.html);
        assert.ok(escaped.text.includes(`Hello ${marked} (`), 'the text part keeps the name as it is');

        for (const bad of [
          '<% process.exit() %>',
          'Hi ${process.env.JWT_SECRET}',
          'Hi <%= process.env %>',
          'Hi <%= USER.password %>',
        ]) {
          const res = await admin.put('/admin/users-permissions/email-templates', {
            'email-templates': { reset_password: { options: { message: bad } } },
          });
          assert.equal(res.status, 400, bad);
          assert.equal(res.body.error.message, 'Invalid template');
        }
        const unknown = await admin.put('/admin/users-permissions/email-templates', {
          'email-templates': { welcome: { options: { message: 'x' } } },
        });
        assert.equal(unknown.status, 400);
        assert.equal(
          (await admin.get('/admin/users-permissions/email-templates')).body.reset_password.options.message,
          message,
          'refused templates stored nothing',
        );
      } finally {
        await admin.put('/admin/users-permissions/email-templates', { 'email-templates': templates });
      }
    });

    it('a database of an earlier Vellum keeps its closed registration (vellum_meta auth.allow_register moves into the store)', async () => {
      const { db } = server.vellum.database;
      const stored = await db
        .selectFrom('strapi_core_store_settings')
        .select(['value'])
        .where('key', '=', 'plugin_users-permissions_advanced')
        .executeTakeFirstOrThrow();
      await db
        .deleteFrom('strapi_core_store_settings')
        .where('key', '=', 'plugin_users-permissions_advanced')
        .execute();
      await db.insertInto('vellum_meta').values({ name: 'auth.allow_register', value: 'false' }).execute();
      const upgraded = await startServer(dialect, { nodeOf: server, project: project.dir });
      try {
        assert.equal((await server.vellum.auth.advanced.get()).allow_register, false);
        const username = unique('u');
        const res = await upgraded.publicApi.post('/api/auth/local/register', {
          username,
          email: `${username}@example.com`,
          password: 'secret123',
        });
        assert.equal(res.body.error.message, 'Register action is currently disabled');
        assert.equal(
          await db
            .selectFrom('vellum_meta')
            .select('value')
            .where('name', '=', 'auth.allow_register')
            .executeTakeFirst(),
          undefined,
        );
      } finally {
        await upgraded.close();
        await db
          .updateTable('strapi_core_store_settings')
          .set({ value: stored.value })
          .where('key', '=', 'plugin_users-permissions_advanced')
          .execute();
      }
      assert.equal((await server.vellum.auth.advanced.get()).allow_register, true);
    });

    it('`vellum settings get|set` read and write the same store', async () => {
      const all = JSON.parse(await vellum('settings', 'get'));
      assert.equal(all.advanced.default_role, 'authenticated');
      assert.equal(all.email.email_confirmation.options.object, 'Account confirmation');
      assert.equal((await vellum('settings', 'get', 'email_reset_password')).trim(), 'https://app.example.com/reset');
      await vellum('settings', 'set', 'email_confirmation_redirection', 'https://app.example.com/welcome');
      await vellum('settings', 'set', 'email.email_confirmation.object', 'Welcome <%= USER.username %>');
      try {
        const settings = await server.vellum.auth.advanced.get();
        assert.equal(settings.email_confirmation_redirection, 'https://app.example.com/welcome');
        assert.equal(
          (await other.vellum.auth.advanced.emailTemplates()).email_confirmation.options.object,
          'Welcome <%= USER.username %>',
        );
        await assert.rejects(vellum('settings', 'set', 'allow_register', 'maybe'), /allow_register must be a boolean/);
        await assert.rejects(
          vellum('settings', 'set', 'email.reset_password.message', '<% evil %>'),
          /Invalid template/,
        );
        await assert.rejects(vellum('settings', 'get', 'nothing_like_it'), /unknown setting/);
      } finally {
        await vellum('settings', 'set', 'email_confirmation_redirection', 'null');
        await vellum('settings', 'set', 'email.email_confirmation.object', 'Account confirmation');
      }
      assert.equal((await server.vellum.auth.advanced.get()).email_confirmation_redirection, null);
    });
  });
}
