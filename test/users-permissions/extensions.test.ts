/**
 * A users-permissions extension (`src/extensions/users-permissions/strapi-server.js`, fixture
 * users-permissions-extension): a route and action added, an action replaced, an action wrapped
 * around Vellum's own, as Strapi 5.54 serves them (test/differential/extensions.diff.ts).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { HttpClient } from '../helpers/http.js';
import { DIALECTS, fixture, startServer, type TestServer } from '../helpers/server.js';
import { unique } from '../helpers/unique.js';

for (const dialect of DIALECTS) {
  describe(`users-permissions extensions [${dialect}]`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect, { project: fixture('users-permissions-extension') });
    });
    after(() => server?.close());

    /** A new user, signed in through the wrapped `auth.callback`. */
    const signedIn = async () => {
      const username = unique('u');
      const email = `${username}@example.com`;
      const registered = await server.publicApi.post('/api/auth/local/register', {
        username,
        email,
        password: 'Passw0rd!',
      });
      assert.equal(registered.status, 200, registered.text);
      // `plugin.controllers.auth.register = ...` set a property of Strapi 5's factory: nothing changed.
      assert.equal(registered.body.changed, undefined);
      assert.equal(registered.body.user.username, username);
      const login = await server.publicApi.post('/api/auth/local', { identifier: email, password: 'Passw0rd!' });
      assert.equal(login.status, 200, login.text);
      return { username, login, api: new HttpClient(server.url, { authorization: `Bearer ${login.body.jwt}` }) };
    };

    it('a wrapped action (the auth factory wrapped, as Strapi 5 needs) answers as Vellum does, with what the wrapper adds; its errors are thrown through', async () => {
      const { username, login } = await signedIn();
      assert.equal(login.body.greeting, `Welcome back, ${username}`);
      assert.equal(login.body.user.username, username);
      assert.equal(typeof login.body.jwt, 'string');
      const wrong = await server.publicApi.post('/api/auth/local', {
        identifier: `${username}@example.com`,
        password: 'nope',
      });
      assert.equal(wrong.status, 400);
      assert.deepEqual(wrong.body.error, {
        status: 400,
        name: 'ValidationError',
        message: 'Invalid identifier or password',
        details: {},
      });
    });

    it('a replaced action answers what the project writes; who may call it is unchanged', async () => {
      const { username, api } = await signedIn();
      const me = await api.get('/api/users/me');
      assert.equal(me.status, 200, me.text);
      assert.deepEqual(me.body, { username, role: 'authenticated' });
      assert.equal((await server.publicApi.get('/api/users/me')).status, 403);
    });

    it('an added route is served with its action, granted like the plugin’s own; under the plugin prefix without config.prefix', async () => {
      const { username, api } = await signedIn();
      const renamed = `${username}x`;
      const updated = await api.put('/api/user/me', { username: renamed });
      assert.equal(updated.status, 200, updated.text);
      assert.equal(updated.body.username, renamed);
      assert.equal((await api.get('/api/users/me')).body.username, renamed);
      assert.equal((await server.publicApi.put('/api/user/me', { username: 'x' })).status, 403);
      const stats = await api.get('/api/users-permissions/stats');
      assert.equal(stats.status, 200, stats.text);
      assert.ok(stats.body.users >= 1);
      const tree = await server.api.get('/api/users-permissions/permissions');
      assert.equal(tree.status, 200, tree.text);
      const user = tree.body.permissions['plugin::users-permissions'].controllers.user;
      assert.deepEqual(user.updateMe, { enabled: false, policy: '' });
      assert.deepEqual(user.stats, { enabled: false, policy: '' });
    });

    it('what the extension leaves alone stays Vellum’s route', async () => {
      const { api } = await signedIn();
      const users = await api.get('/api/users/count');
      assert.equal(users.status, 403);
      const roles = await server.api.get('/api/users-permissions/roles');
      assert.equal(roles.status, 200, roles.text);
      assert.ok(roles.body.roles.some((role: { type: string }) => role.type === 'authenticated'));
    });
  });
}
