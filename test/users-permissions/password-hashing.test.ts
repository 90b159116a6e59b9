/**
 * docs/security.md "Password hashing": `config/server` `passwords.rounds` is the cost of every hash a
 * node makes (users', administrators'), a hash Strapi made at its cost of 10 still logs in, and a
 * successful login stores a hash made at another cost again at the configured one.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminClient } from '../helpers/admins.js';
import { createTestDatabase, type TestDatabase } from '../helpers/databases.js';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';
import { unique } from '../helpers/unique.js';

/** Made by Strapi 5.54's bcryptjs (2.4.3) at Strapi's cost, for the password `Strapi-made-1`. */
const STRAPI_HASH = '$2a$10$RvUDD7/C5SoHmwiHkuvhDuu4/iihav/5JdSiI8pSrn.KQeolwJPs.';
const STRAPI_PASSWORD = 'Strapi-made-1';

/** The cost written in a bcrypt hash (`$2b$05$...`: 5), or undefined. */
const costOf = (hash: unknown) => /^\$2[aby]\$(\d{2})\$/.exec(String(hash))?.[1];

for (const dialect of DIALECTS) {
  describe(`password hashing [${dialect}]`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect, { config: { server: { passwords: { rounds: 5 } } } });
    });
    after(() => server?.close());

    const storedHash = async (table: 'up_users' | 'admin_users', id: number) =>
      (
        await server.vellum.database.db
          .selectFrom(table)
          .select('password')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).password;

    const register = async () => {
      const username = unique('hashed');
      const res = await server.publicApi.post('/api/auth/local/register', {
        username,
        email: `${username}@example.com`,
        password: 'first-password-1',
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return { username, id: res.body.user.id as number, jwt: res.body.jwt as string };
    };

    it("hashes a user's and an administrator's password at the configured cost", async () => {
      const user = await register();
      assert.equal(costOf(await storedHash('up_users', user.id)), '05');
      const admin = await adminClient(server);
      assert.equal(costOf(await storedHash('admin_users', admin.id)), '05');
    });

    it("logs in with a hash Strapi made at cost 10; the password it changes to is hashed at the node's cost", async () => {
      const user = await register();
      await server.vellum.database.db
        .updateTable('up_users')
        .set({ password: STRAPI_HASH })
        .where('id', '=', user.id)
        .execute();
      const login = await server.publicApi.post('/api/auth/local', {
        identifier: user.username,
        password: STRAPI_PASSWORD,
      });
      assert.equal(login.status, 200, JSON.stringify(login.body));
      const wrong = await server.publicApi.post('/api/auth/local', { identifier: user.username, password: 'nope-1' });
      assert.equal(wrong.status, 400);
      const changed = await server.publicApi.post(
        '/api/auth/change-password',
        { currentPassword: STRAPI_PASSWORD, password: 'second-password-2', passwordConfirmation: 'second-password-2' },
        { headers: { authorization: `Bearer ${login.body.jwt}` } },
      );
      assert.equal(changed.status, 200, JSON.stringify(changed.body));
      assert.equal(costOf(await storedHash('up_users', user.id)), '05');
    });

    it("logs an administrator in with a hash Strapi made at cost 10; the password they change to is hashed at the node's cost", async () => {
      const admin = await adminClient(server);
      await server.vellum.database.db
        .updateTable('admin_users')
        .set({ password: STRAPI_HASH })
        .where('id', '=', admin.id)
        .execute();
      const login = await server.publicApi.post('/admin/login', { email: admin.email, password: STRAPI_PASSWORD });
      assert.equal(login.status, 200, JSON.stringify(login.body));
      const changed = await server.publicApi.put(
        '/admin/administrators/me/password',
        { currentPassword: STRAPI_PASSWORD, password: 'Second-password-2' },
        { headers: { authorization: `Bearer ${login.body.data.token}` } },
      );
      assert.equal(changed.status, 200, JSON.stringify(changed.body));
      assert.equal(costOf(await storedHash('admin_users', admin.id)), '05');
    });
  });
}

for (const dialect of DIALECTS) {
  describe(`password hashing, the cost changed [${dialect}]`, () => {
    let database: TestDatabase;
    let server: TestServer | undefined;
    /** The database outlives each node (a restart); dropped once, after the last. */
    const kept = () => ({ config: database.config, drop: async () => undefined });
    const start = (rounds: number) =>
      startServer(dialect, { database: kept(), config: { server: { passwords: { rounds } } } });
    before(async () => {
      database = await createTestDatabase(dialect);
    });
    after(async () => {
      await server?.close();
      await database?.drop();
    });

    const storedHash = async (table: 'up_users' | 'admin_users', id: number) =>
      (
        await server!.vellum.database.db
          .selectFrom(table)
          .select('password')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).password;
    /** The stored hash's cost once the login's background rehash has stored it (or 10 s passed). */
    const costAfterLogin = async (table: 'up_users' | 'admin_users', id: number, expected: string) => {
      let cost = costOf(await storedHash(table, id));
      for (let waited = 0; cost !== expected && waited < 10_000; waited += 20) {
        await new Promise((done) => setTimeout(done, 20));
        cost = costOf(await storedHash(table, id));
      }
      return cost;
    };

    it('a login stores the password again at the configured cost, and logs in with it after', async () => {
      server = await start(4);
      const username = unique('rehashed');
      const email = `${username}@example.com`;
      const registered = await server.publicApi.post('/api/auth/local/register', {
        username,
        email,
        password: 'first-password-1',
      });
      assert.equal(registered.status, 200, JSON.stringify(registered.body));
      const userId = registered.body.user.id as number;
      const admin = await server.vellum.auth.admins.create(`admin-${email}`, 'An-admin-password-1');
      assert.equal(costOf(await storedHash('up_users', userId)), '04');
      assert.equal(costOf(await storedHash('admin_users', admin.id)), '04');
      await server.close();

      // Restarted on the same database, at cost 5.
      server = await start(5);
      const userLogin = () =>
        server!.publicApi.post('/api/auth/local', { identifier: username, password: 'first-password-1' });
      const adminLogin = () =>
        server!.publicApi.post('/admin/login', { email: `admin-${email}`, password: 'An-admin-password-1' });
      const wrong = await server.publicApi.post('/api/auth/local', { identifier: username, password: 'not-it-1' });
      assert.equal(wrong.status, 400);

      assert.equal((await userLogin()).status, 200);
      assert.equal(await costAfterLogin('up_users', userId, '05'), '05');
      assert.equal((await adminLogin()).status, 200);
      assert.equal(await costAfterLogin('admin_users', admin.id, '05'), '05');

      const again = await userLogin();
      assert.equal(again.status, 200, JSON.stringify(again.body));
      assert.equal((await adminLogin()).status, 200);
    });
  });
}
