/**
 * Login with a provider, against a real OpenID Connect server started here (oidc-provider on
 * 127.0.0.1): the whole browser journey over HTTP (`/api/connect/:provider`, the provider's login
 * and consent pages, `/api/connect/:provider/callback`, the frontend's redirect, then
 * `/api/auth/:provider/callback`), for Vellum's generic `oidc` provider and for Strapi's
 * `keycloak` provider pointed at the same server; the settings in the core store, the admin API
 * and the CLI; and bad input, each a 4xx that creates no user.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { HttpClient } from '../helpers/http.js';
import { startIdp, type TestIdp } from '../helpers/idp.js';
import { copyProject, type TempProject } from '../helpers/projects.js';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';
import { unique } from '../helpers/unique.js';
import { cliOutput } from '../helpers/cli.js';

const FRONTEND = 'http://app.example.com/connect/oidc/redirect';

for (const dialect of DIALECTS) {
  describe(`login providers [${dialect}]`, () => {
    let idp: TestIdp;
    let project: TempProject;
    let server: TestServer;
    let admin: HttpClient;

    /** An account at the provider, with a unique email. */
    const account = (options: { emailVerified?: boolean; email?: string } = {}) => {
      const id = unique('acct');
      const email = options.email ?? `${id}@idp.example.com`;
      idp.addAccount(id, { email, username: id, emailVerified: options.emailVerified });
      return { id, email };
    };

    /** The browser's journey up to the provider's redirect back to Vellum: that URL, and the state cookie. */
    const toCallback = async (provider: string, accountId: string) => {
      const start = await fetch(`${server.url}/api/connect/${provider}`, { redirect: 'manual' });
      assert.equal(start.status, 302, await start.text());
      const cookie = start.headers.getSetCookie()[0]!;
      assert.match(cookie, /HttpOnly/);
      const back = await idp.signIn(start.headers.get('location')!, accountId);
      assert.ok(back.startsWith(`${server.url}/api/connect/${provider}/callback?`), back);
      return { back, cookie: cookie.split(';')[0]! };
    };

    /** The whole journey: where Vellum finally sends the browser. */
    const journey = async (provider: string, accountId: string) => {
      const { back, cookie } = await toCallback(provider, accountId);
      const done = await fetch(back, { redirect: 'manual', headers: { cookie } });
      assert.equal(done.status, 302, await done.text());
      return new URL(done.headers.get('location')!);
    };

    const usersWithEmail = async (email: string) =>
      (
        await server.vellum.database.db
          .selectFrom('up_users')
          .select(['id', 'provider'])
          .where('email', '=', email)
          .execute()
      ).length;

    before(async () => {
      idp = await startIdp();
      project = copyProject();
      server = await startServer(dialect, {
        project: project.dir,
        config: {
          plugins: {
            'users-permissions': {
              config: {
                ratelimit: { max: 1000 },
                register: { ratelimit: { max: 1000 } },
                providers: {
                  oidc: {
                    enabled: true,
                    issuer: idp.issuer,
                    key: 'vellum',
                    secret: 'vellum-secret',
                    callback: FRONTEND,
                  },
                },
              },
            },
          },
        },
      });
      idp.start([
        {
          client_id: 'vellum',
          client_secret: 'vellum-secret',
          redirect_uris: [`${server.url}/api/connect/oidc/callback`],
        },
        {
          client_id: 'vellum-kc',
          client_secret: 'kc-secret',
          redirect_uris: [`${server.url}/api/connect/keycloak/callback`],
          token_endpoint_auth_method: 'client_secret_post',
        },
        { client_id: 'other', client_secret: 'other-secret', redirect_uris: ['http://other.example.com/cb'] },
      ]);
      rmSync(join(project.dir, 'config/database.js'));
      project.write('config/database.json', JSON.stringify(server.databaseConfig));
      const email = `${unique('admin')}@example.com`;
      await server.vellum.auth.admins.create(email, 'an-admin-password');
      const login = await server.publicApi.post('/admin/login', { email, password: 'an-admin-password' });
      admin = new HttpClient(server.url, { authorization: `Bearer ${login.body.data.token}` });
      // Strapi's keycloak provider at the same server, set through the admin API (a scheme in `subdomain`: a local Keycloak).
      const put = await admin.put('/admin/users-permissions/providers', {
        providers: { keycloak: { enabled: true, key: 'vellum-kc', secret: 'kc-secret', subdomain: idp.issuer } },
      });
      assert.deepEqual([put.status, put.body], [200, { ok: true }]);
    });
    after(async () => {
      await server?.close();
      await idp?.close();
      project?.remove();
    });

    it("oidc: connect, the provider's login, the frontend's redirect, then /api/auth/oidc/callback answers { jwt, user }", async () => {
      const { id, email } = account();
      const redirect = await journey('oidc', id);
      assert.equal(`${redirect.origin}${redirect.pathname}`, FRONTEND);
      const token = redirect.searchParams.get('access_token');
      assert.ok(token);
      const res = await server.publicApi.get(`/api/auth/oidc/callback?access_token=${encodeURIComponent(token)}`);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.user.email, email);
      assert.equal(res.body.user.username, id);
      assert.equal(res.body.user.provider, 'oidc');
      assert.equal(res.body.user.confirmed, true);
      assert.equal(res.body.user.password, undefined);
      const me = await server.publicApi.get('/api/users/me?populate=role', {
        headers: { authorization: `Bearer ${res.body.jwt}` },
      });
      assert.equal(me.status, 200);
      assert.equal(me.body.role.type, 'authenticated', 'the default role');

      // A second login finds the same user.
      const again = new URL(await journey('oidc', id).then((url) => url.toString()));
      const second = await server.publicApi.get(
        `/api/auth/oidc/callback?access_token=${encodeURIComponent(again.searchParams.get('access_token')!)}`,
      );
      assert.equal(second.status, 200, second.text);
      assert.equal(second.body.user.id, res.body.user.id);
      assert.equal(await usersWithEmail(email), 1);
    });

    it("keycloak (Strapi's provider): the provider's access token reaches this server's /api/auth/keycloak/callback", async () => {
      const { id, email } = account();
      const redirect = await journey('keycloak', id);
      assert.equal(
        `${redirect.origin}${redirect.pathname}`,
        `${server.url}/api/auth/keycloak/callback`,
        "no callback set: this server's route",
      );
      assert.ok(redirect.searchParams.get('access_token'));
      assert.equal(redirect.searchParams.get('raw[token_type]'), 'Bearer');
      const res = await server.publicApi.get(`${redirect.pathname}${redirect.search}`);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.user.email, email);
      assert.equal(res.body.user.provider, 'keycloak');
      assert.ok(res.body.jwt);
    });

    it('an app that ran the flow itself may send its ID token; one issued to another client is refused', async () => {
      const idToken = async (clientId: string, secret: string, redirectUri: string, accountId: string) => {
        const authorize = new URL(`${idp.issuer}/protocol/openid-connect/auth`);
        for (const [key, value] of Object.entries({
          client_id: clientId,
          response_type: 'code',
          scope: 'openid email profile',
          redirect_uri: redirectUri,
          state: 's',
          nonce: 'n',
        }))
          authorize.searchParams.set(key, value);
        const back = new URL(await idp.signIn(authorize.toString(), accountId));
        const form = new URLSearchParams({
          grant_type: 'authorization_code',
          code: back.searchParams.get('code')!,
          redirect_uri: redirectUri,
        });
        const token = await fetch(`${idp.issuer}/protocol/openid-connect/token`, {
          method: 'POST',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`,
          },
          body: form.toString(),
        });
        return ((await token.json()) as { id_token: string }).id_token;
      };
      const { id, email } = account();
      const foreign = await idToken('other', 'other-secret', 'http://other.example.com/cb', id);
      const refused = await server.publicApi.get(`/api/auth/oidc/callback?id_token=${foreign}`);
      assert.equal(refused.status, 400);
      assert.equal(refused.body.error.name, 'ApplicationError');
      assert.match(refused.body.error.message, /^Invalid ID token: .*aud/);
      assert.equal(await usersWithEmail(email), 0);

      // ID tokens carry only `sub` when an access token is issued: this one names no email.
      const own = await idToken('vellum', 'vellum-secret', `${server.url}/api/connect/oidc/callback`, id);
      const noEmail = await server.publicApi.get(`/api/auth/oidc/callback?id_token=${own}`);
      assert.deepEqual([noEmail.status, noEmail.body.error.message], [400, 'Email was not available.']);
      assert.equal(await usersWithEmail(email), 0);
    });

    it("the settings: Strapi's providers in the core store, the admin API, the CLI", async () => {
      const row = await server.vellum.database.db
        .selectFrom('strapi_core_store_settings')
        .select(['value', 'type'])
        .where('key', '=', 'plugin_users-permissions_grant')
        .executeTakeFirstOrThrow();
      const stored = JSON.parse(row.value);
      assert.equal(row.type, 'object');
      for (const name of [
        'email',
        'discord',
        'facebook',
        'google',
        'github',
        'microsoft',
        'twitter',
        'instagram',
        'vk',
        'twitch',
        'linkedin',
        'cognito',
        'reddit',
        'auth0',
        'cas',
        'patreon',
        'keycloak',
        'oidc',
      ])
        assert.ok(stored[name], name);
      assert.deepEqual(stored.github, {
        enabled: false,
        icon: 'github',
        key: '',
        secret: '',
        callback: '',
        scope: ['user', 'user:email'],
      });
      assert.equal(stored.oidc.issuer, idp.issuer, 'seeded from config/plugins');

      const read = await admin.get('/admin/users-permissions/providers');
      assert.equal(read.status, 200);
      assert.equal(read.body.keycloak.enabled, true);
      assert.equal(read.body.github.redirectUri, `${server.url}/api/connect/github/callback`);
      assert.equal(read.body.email.enabled, true);

      const bad = await admin.put('/admin/users-permissions/providers', { providers: { github: { enabled: 'yes' } } });
      assert.deepEqual([bad.status, bad.body.error.message], [400, 'github.enabled must be a boolean']);
      const unknown = await admin.put('/admin/users-permissions/providers', {
        providers: { myspace: { enabled: true } },
      });
      assert.equal(unknown.status, 400);
      const twitter = await admin.put('/admin/users-permissions/providers', {
        providers: { twitter: { enabled: true } },
      });
      assert.equal(twitter.status, 400, 'OAuth 1.0a is not offered');
      assert.equal(
        (await admin.get('/admin/users-permissions/providers')).body.github.enabled,
        false,
        'nothing stored by a refused change',
      );

      const vellum = (...args: string[]) => cliOutput([...args, '--project', project.dir]);
      assert.equal(
        (await vellum('settings', 'set', 'providers.github.scope', 'read:user user:email')).trim(),
        'providers.github.scope = ["read:user","user:email"]',
      );
      assert.equal((await vellum('settings', 'get', 'providers.oidc.key')).trim(), 'vellum');
      assert.deepEqual(
        (await admin.get('/admin/users-permissions/providers')).body.github.scope,
        ['read:user', 'user:email'],
        'the server reads the change at once',
      );
    });

    it('the email provider off: the local login is Strapi\'s 400 "This provider is disabled"', async () => {
      const username = unique('local');
      const user = { username, email: `${username}@example.com`, password: 'secret123' };
      assert.equal((await server.publicApi.post('/api/auth/local/register', user)).status, 200);
      const off = await admin.put('/admin/users-permissions/providers', { providers: { email: { enabled: false } } });
      assert.equal(off.status, 200);
      try {
        const res = await server.publicApi.post('/api/auth/local', { identifier: username, password: user.password });
        assert.deepEqual(
          [res.status, res.body.error.name, res.body.error.message],
          [400, 'ApplicationError', 'This provider is disabled'],
        );
      } finally {
        await admin.put('/admin/users-permissions/providers', { providers: { email: { enabled: true } } });
      }
      assert.equal(
        (await server.publicApi.post('/api/auth/local', { identifier: username, password: user.password })).status,
        200,
      );
    });

    it('unknown and disabled providers: Strapi\'s 400 "This provider is disabled"', async () => {
      for (const path of [
        '/api/connect/myspace',
        '/api/connect/github',
        '/api/connect/email',
        '/api/connect/twitter',
        '/api/auth/github/callback?access_token=x',
        '/api/auth/myspace/callback?access_token=x',
        '/api/connect/github/callback?code=x&state=y',
      ]) {
        const res = await server.publicApi.get(path);
        assert.equal(res.status, 400, path);
        assert.deepEqual(
          [res.body.error.name, res.body.error.message],
          ['ApplicationError', 'This provider is disabled'],
          path,
        );
      }
    });

    it('a tampered or missing state, a replayed code, a forged token: a 400 and no user', async () => {
      const { id, email } = account();
      const { back, cookie } = await toCallback('oidc', id);
      const tampered = new URL(back);
      tampered.searchParams.set('state', 'not-the-state');
      const wrongState = await fetch(tampered, { redirect: 'manual', headers: { cookie } });
      assert.equal(wrongState.status, 400);
      const [name, value] = cookie.split('=');
      const forgedCookie = await fetch(back, {
        redirect: 'manual',
        headers: { cookie: `${name}=${value!.replace(/^./, (c) => (c === 'a' ? 'b' : 'a'))}` },
      });
      assert.equal(forgedCookie.status, 400, 'a cookie whose signature fails');
      const noCookie = await fetch(back, { redirect: 'manual' });
      assert.equal(noCookie.status, 400);
      assert.match(((await noCookie.json()) as { error: { message: string } }).error.message, /^Invalid state/);

      const first = await fetch(back, { redirect: 'manual', headers: { cookie } });
      assert.equal(first.status, 302, 'the genuine callback still works once');
      const replay = await fetch(back, { redirect: 'manual', headers: { cookie } });
      assert.equal(replay.status, 400, 'the code was used');
      assert.match(
        ((await replay.json()) as { error: { message: string } }).error.message,
        /^The provider refused the code \(invalid_grant/,
      );

      const again = await toCallback('oidc', id);
      const other = new URL(again.back);
      other.searchParams.set('code', 'not-a-code');
      const badCode = await fetch(other, { redirect: 'manual', headers: { cookie: again.cookie } });
      assert.equal(badCode.status, 400, 'a code the provider never issued');

      const forged = await server.publicApi.get(
        '/api/auth/oidc/callback?access_token=eyJhbGciOiJIUzI1NiJ9.eyJlbWFpbCI6ImFAYi5jIn0.c2lnbmF0dXJl',
      );
      assert.deepEqual([forged.status, forged.body.error.name], [400, 'ApplicationError']);
      const none = await server.publicApi.get('/api/auth/oidc/callback');
      assert.deepEqual([none.status, none.body.error.message], [400, 'No access_token.']);
      const keycloakForged = await server.publicApi.get('/api/auth/keycloak/callback?access_token=not-a-token');
      assert.equal(keycloakForged.status, 400);
      assert.equal(await usersWithEmail(email), 0);
    });

    it('an email the provider has not verified, or one a local account holds: a 400 and no new user', async () => {
      const unverified = account({ emailVerified: false });
      const { back, cookie } = await toCallback('oidc', unverified.id);
      const refused = await fetch(back, { redirect: 'manual', headers: { cookie } });
      assert.equal(refused.status, 400);
      assert.equal(
        ((await refused.json()) as { error: { message: string } }).error.message,
        'Email not verified by the OpenID provider',
      );
      assert.equal(await usersWithEmail(unverified.email), 0);

      const username = unique('local');
      const email = `${username}@example.com`;
      const registered = await server.publicApi.post('/api/auth/local/register', {
        username,
        email,
        password: 'secret123',
      });
      assert.equal(registered.status, 200, registered.text);
      const taken = account({ email });
      const redirect = await journey('oidc', taken.id);
      const res = await server.publicApi.get(
        `/api/auth/oidc/callback?access_token=${encodeURIComponent(redirect.searchParams.get('access_token')!)}`,
      );
      assert.deepEqual(
        [res.status, res.body.error.name, res.body.error.message],
        [400, 'ApplicationError', 'Email is already taken.'],
      );
      assert.equal(await usersWithEmail(email), 1);
    });
  });
}
