/**
 * A users-permissions plugin extension (`src/extensions/users-permissions/strapi-server.js`, the
 * fixture test/fixtures/users-permissions-extension) as Strapi 5.54 runs it: a pushed route and its
 * action, grantable like the plugin's own; a replaced `user.me`; `auth.callback` and `auth.register`
 * wrapped through Strapi 5's auth factory; `user.find` wrapped in place; a policy added to an
 * existing route; a v4-style assignment on the factory ignored, with a warning. Checked against
 * Strapi in test/differential/extensions.diff.ts.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { HttpClient } from '../helpers/http.js';
import { DIALECTS, fixture, startServer, type TestServer } from '../helpers/server.js';
import { unique } from '../helpers/unique.js';

const UPDATE_ME = 'plugin::users-permissions.user.updateMe';

for (const dialect of DIALECTS) {
  describe(`a users-permissions extension [${dialect}]`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect, { project: fixture('users-permissions-extension') });
    });
    after(() => server?.close());

    /** A new user through the wrapped registration, signed in through the wrapped callback. */
    const signUp = async () => {
      const username = unique('ext');
      const registered = await server.publicApi.post('/api/auth/local/register', {
        username,
        email: `${username}@example.com`,
        password: 'secret123',
      });
      // The wrapped register sets 201 after the original answered.
      assert.equal(registered.status, 201, registered.text);
      assert.equal(registered.body.user.username, username);
      assert.equal(typeof registered.body.jwt, 'string');
      const login = await server.publicApi.post('/api/auth/local', { identifier: username, password: 'secret123' });
      assert.equal(login.status, 200, login.text);
      assert.equal(login.body.greeting, `Welcome back, ${username}`);
      assert.equal(login.body.user.username, username);
      return {
        username,
        id: login.body.user.id as number,
        api: new HttpClient(server.url, { authorization: `Bearer ${login.body.jwt}` }),
      };
    };

    it('runs the extension: one warning, for the v4-style assignment Strapi 5 does not use', () => {
      const mine = server.vellum.warnings.filter((warning) => warning.includes('src/extensions/'));
      assert.equal(mine.length, 1, mine.join('\n'));
      assert.match(
        mine[0]!,
        /users-permissions\/strapi-server\.js: plugin\.controllers\.auth is a factory.*forgotPassword/,
      );
      assert.deepEqual(server.vellum.skippedCode, []);
      const strapi = (globalThis as { strapi?: { plugin(name: string): { controller(name: string): unknown } } })
        .strapi!;
      const user = strapi.plugin('users-permissions').controller('user') as Record<string, unknown>;
      assert.equal(typeof user.updateMe, 'function');
    });

    it("wrapped actions: registration answers 201, sign-in adds a greeting, errors stay Strapi's", async () => {
      await signUp();
      const wrong = await server.publicApi.post('/api/auth/local', { identifier: 'nobody-here', password: 'x' });
      assert.equal(wrong.status, 400);
      assert.deepEqual(wrong.body.error, {
        status: 400,
        name: 'ValidationError',
        message: 'Invalid identifier or password',
        details: {},
      });
      // The v4 spelling on the factory is not used: forgot-password answers as usual.
      const forgot = await server.publicApi.post('/api/auth/forgot-password', { email: 'nobody@example.com' });
      assert.equal(forgot.status, 200, forgot.text);
      assert.deepEqual(forgot.body, { ok: true });
    });

    it('a replaced user.me answers its own shape, the role populated; without a user it is a 403', async () => {
      const { api, id, username } = await signUp();
      const me = await api.get('/api/users/me');
      assert.equal(me.status, 200, me.text);
      assert.deepEqual(me.body, {
        id,
        username,
        email: `${username}@example.com`,
        role: { name: 'Authenticated', type: 'authenticated' },
      });
      const anonymous = await server.publicApi.get('/api/users/me');
      assert.equal(anonymous.status, 403);
      assert.equal(anonymous.body.error.name, 'ForbiddenError');
    });

    it('a pushed route: 403 until its action is granted through the roles API, then served', async () => {
      const { api, username } = await signUp();
      const refused = await api.put('/api/user/me', { username: `${username}x` });
      assert.equal(refused.status, 403, refused.text);
      assert.deepEqual(refused.body.error, { status: 403, name: 'ForbiddenError', message: 'Forbidden', details: {} });
      // The action is in the catalogue and the roles' trees, as Strapi lists it.
      const catalogue = await server.api.get('/api/users-permissions/permissions');
      assert.deepEqual(catalogue.body.permissions['plugin::users-permissions'].controllers.user.updateMe, {
        enabled: false,
        policy: '',
      });
      const roles = await server.api.get('/api/users-permissions/roles');
      const authenticated = roles.body.roles.find((role: { type: string }) => role.type === 'authenticated');
      const role = await server.api.get(`/api/users-permissions/roles/${authenticated.id}`);
      const permissions = role.body.role.permissions;
      assert.equal(permissions['plugin::users-permissions'].controllers.user.updateMe.enabled, false);
      permissions['plugin::users-permissions'].controllers.user.updateMe.enabled = true;
      const granted = await server.api.put(`/api/users-permissions/roles/${authenticated.id}`, { permissions });
      assert.equal(granted.status, 200, granted.text);
      try {
        const renamed = await api.put('/api/user/me', { username: `${username}x` });
        assert.equal(renamed.status, 200, renamed.text);
        assert.equal(renamed.body.username, `${username}x`);
        const bad = await api.put('/api/user/me', { username: 'x' });
        assert.equal(bad.status, 400);
        assert.deepEqual(bad.body.error, {
          status: 400,
          name: 'BadRequestError',
          message: 'username needs 3 characters or more',
          details: { field: 'username' },
        });
        // Public does not hold it: 403; another method on its path is a 405 (GET a 404), as Strapi's router.
        assert.equal((await server.publicApi.put('/api/user/me', { username: 'abcd' })).status, 403);
        assert.equal((await api.get('/api/user/me')).status, 404);
        assert.equal((await api.delete('/api/user/me')).status, 405);
      } finally {
        permissions['plugin::users-permissions'].controllers.user.updateMe.enabled = false;
        await server.api.put(`/api/users-permissions/roles/${authenticated.id}`, { permissions });
      }
      assert.equal(server.vellum.auth.actions.includes(UPDATE_ME), true);
    });

    it('a policy added to an existing route; a wrapped user.find; untouched routes answer as before', async () => {
      const { id } = await signUp();
      const refused = await server.api.get(`/api/users/${id}`);
      assert.equal(refused.status, 403);
      assert.deepEqual(refused.body.error, {
        status: 403,
        name: 'PolicyError',
        message: 'Policy Failed',
        details: {},
      });
      const allowed = await server.api.get(`/api/users/${id}`, { headers: { 'x-allow': 'yes' } });
      assert.equal(allowed.status, 200, allowed.text);
      assert.equal(allowed.body.id, id);
      const list = await server.api.get('/api/users?sort=id:desc');
      assert.equal(list.status, 200);
      assert.equal(list.headers.get('x-user-count'), String(list.body.length));
      assert.equal(list.body[0].id, id);
      const count = await server.api.get('/api/users/count');
      assert.equal(count.status, 200);
      assert.equal(typeof count.body, 'number');
    });
  });
}

describe('extensions that stop start-up, and extensions of other plugins', () => {
  const dialect = DIALECTS[0]!;
  /** The fixture with another users-permissions extension (and more files). */
  const projectWith = (extension: string, more: Record<string, string> = {}) => {
    const dir = mkdtempSync(join(tmpdir(), 'vellum-ext-'));
    cpSync(fixture('users-permissions-extension'), dir, { recursive: true });
    const files = { 'src/extensions/users-permissions/strapi-server.js': extension, ...more };
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(join(dir, file, '..'), { recursive: true });
      writeFileSync(join(dir, file), text);
    }
    return dir;
  };
  const file = 'src/extensions/users-permissions/strapi-server.js';

  // Strapi 5.54 does not start either ("Cannot read properties of undefined (reading 'contentTypes')").
  it('one that returns no plugin, throws, or exports no function: one line naming the file', async () => {
    for (const [extension, message] of [
      ['module.exports = (plugin) => { plugin.controllers.user.x = () => 1; };', 'must return the plugin'],
      ["module.exports = (plugin) => { throw new Error('boom'); };", 'the extension failed: boom'],
      ['module.exports = { routes: [] };', 'must export a function'],
    ] as const) {
      const dir = projectWith(extension);
      try {
        await assert.rejects(
          startServer(dialect, { project: dir }),
          (error: Error) =>
            error.name === 'ProjectError' && error.message.startsWith(`${file}: `) && error.message.includes(message),
        );
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  });

  it("another plugin's extension is named in a warning and left out; a replaced service is named too", async () => {
    const dir = projectWith(
      `module.exports = (plugin) => {
        const original = plugin.services.user;
        plugin.services.user = ({ strapi }) => ({ ...original({ strapi }), greet: () => 'hello' });
        return plugin;
      };`,
      { 'src/extensions/upload/strapi-server.js': 'module.exports = (plugin) => plugin;' },
    );
    const server = await startServer(dialect, { project: dir });
    try {
      const warnings = server.vellum.warnings.filter((warning) => warning.includes('src/extensions/'));
      assert.deepEqual(warnings, [
        "src/extensions/upload/strapi-server.js: Vellum runs users-permissions' extension only (its upload is its own code); this one is left out",
        `${file}: plugin.services.user: project code gets the extension's (strapi.plugin('users-permissions').service('user')); Vellum's own users-permissions routes do not call it`,
      ]);
      assert.deepEqual(server.vellum.skippedCode, ['src/extensions/upload/strapi-server.js']);
      const strapi = (
        globalThis as { strapi?: { plugin(name: string): { service(name: string): Record<string, unknown> } } }
      ).strapi!;
      const user = strapi.plugin('users-permissions').service('user');
      assert.equal((user.greet as () => string)(), 'hello');
      assert.equal(typeof user.fetch, 'function');
      // No route changed: every users-permissions route is Vellum's own.
      assert.equal((await server.api.get('/api/users/count')).status, 200);
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
