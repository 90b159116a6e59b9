/**
 * `POST /api/users`, `PUT /api/users/:id`, `DELETE /api/users/:id` as Strapi's users-permissions
 * answers them, behind `plugin::users-permissions.user.create|update|destroy`; `GET
 * /api/users/count` behind `.count`. Refused requests change nothing; a user never changes their
 * own role, block or confirmation.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { HttpClient } from '../helpers/http.js';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';
import { unique } from '../helpers/unique.js';

const USER = 'plugin::users-permissions.user';

for (const dialect of DIALECTS) {
  describe(`users routes [${dialect}]`, () => {
    let server: TestServer;
    /** Authenticated's id: Strapi's `POST /api/users` needs a role. */
    let authenticatedId: number;
    before(async () => {
      server = await startServer(dialect);
      authenticatedId = (await server.vellum.auth.roles.get('authenticated')).id as number;
    });
    after(() => server?.close());

    /** A user of a new role granted `actions`, signed in. */
    const signIn = async (actions: string[]) => {
      const role = await server.vellum.auth.roles.create(unique('role'));
      if (actions.length) await server.vellum.auth.roles.grant(role.documentId, actions);
      const username = unique('u');
      const user = await server.vellum.auth.users.create({
        username,
        email: `${username}@example.com`,
        password: 'secret123',
        role: role.documentId,
      });
      const login = await server.publicApi.post('/api/auth/local', { identifier: username, password: 'secret123' });
      assert.equal(login.status, 200, JSON.stringify(login.body));
      return {
        id: user.id as number,
        role,
        username,
        jwt: login.body.jwt as string,
        client: new HttpClient(server.url, { authorization: `Bearer ${login.body.jwt}` }),
      };
    };
    const byUsername = async (username: string) =>
      (await server.api.get(`/api/users?filters[username][$eq]=${encodeURIComponent(username)}`)).body as Record<
        string,
        unknown
      >[];
    const newUser = () => {
      const username = unique('n');
      return { username, email: `${username.toUpperCase()}@Example.com`, password: 'secret123', role: authenticatedId };
    };

    it('GET /api/users/me needs plugin::users-permissions.user.me, which Authenticated holds by default (REST and GraphQL)', async () => {
      const authenticated = await server.vellum.auth.roles.get('authenticated');
      assert.ok(authenticated.permissions.includes('plugin::users-permissions.user.me'));
      const without = await signIn([]);
      const refused = await without.client.get('/api/users/me');
      assert.deepEqual([refused.status, refused.body.error.name], [403, 'ForbiddenError']);
      const gql = await without.client.post('/graphql', { query: '{ me { id } }' });
      assert.equal(gql.body.errors?.[0]?.extensions?.code, 'FORBIDDEN', JSON.stringify(gql.body));
      const granted = await signIn(['plugin::users-permissions.user.me']);
      const me = await granted.client.get('/api/users/me');
      assert.deepEqual([me.status, me.body.username], [200, granted.username]);
    });

    it('POST /api/users needs plugin::users-permissions.user.create: Public and Authenticated are refused, nothing created', async () => {
      const body = newUser();
      assert.equal((await server.publicApi.post('/api/users', body)).status, 403);
      const plain = await signIn(['api::article.article.find']);
      const denied = await plain.client.post('/api/users', body);
      assert.equal(denied.status, 403);
      assert.equal(denied.body.error.name, 'ForbiddenError');
      assert.deepEqual(await byUsername(body.username), []);
    });

    it('POST /api/users creates the user (201): email lowercased, no password, its role, and the user can log in', async () => {
      const body = newUser();
      const res = await server.api.post('/api/users', body);
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.equal(res.body.username, body.username);
      assert.equal(res.body.email, body.email.toLowerCase());
      assert.equal(res.body.provider, 'local');
      assert.equal(res.body.password, undefined);
      assert.equal(res.body.role.type, 'authenticated', 'populated for a caller that may read roles');
      const login = await server.publicApi.post('/api/auth/local', {
        identifier: body.username,
        password: 'secret123',
      });
      assert.equal(login.status, 200);
    });

    it('a role with user.create creates users with a named role; the role is left out of the answer without role.find', async () => {
      const creator = await signIn([`${USER}.create`]);
      const target = await server.vellum.auth.roles.create(unique('target'));
      const body = { ...newUser(), role: target.id, confirmed: true, blocked: false };
      const res = await creator.client.post('/api/users', body);
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.equal(res.body.role, undefined);
      const [stored] = (await server.api.get(`/api/users?filters[username][$eq]=${body.username}&populate=role`))
        .body as { role: { documentId: string } }[];
      assert.equal(stored!.role.documentId, target.documentId);
      const connected = await creator.client.post('/api/users', {
        ...newUser(),
        role: { connect: [{ id: target.id }] },
      });
      assert.equal(connected.status, 201, JSON.stringify(connected.body));
    });

    it('POST /api/users refuses bad input with Strapi 400s and creates nobody', async () => {
      const taken = newUser();
      assert.equal((await server.api.post('/api/users', taken)).status, 201);
      const fresh = newUser();
      const cases: [Record<string, unknown>, string, RegExp][] = [
        [
          { username: fresh.username, password: 'secret123', role: authenticatedId },
          'ValidationError',
          /^email is a required field$/,
        ],
        [
          { username: fresh.username, email: fresh.email, password: 'secret123' },
          'ValidationError',
          /^role is a required field$/,
        ],
        [
          { ...fresh, role: { set: [{ id: authenticatedId }] } },
          'ValidationError',
          /^role.connect is a required field$/,
        ],
        [{ ...fresh, email: 'nope' }, 'ValidationError', /email must be a valid email/],
        [
          { email: fresh.email, password: 'secret123', role: authenticatedId },
          'ValidationError',
          /username is a required field/,
        ],
        [
          { username: fresh.username, email: fresh.email, role: authenticatedId },
          'ValidationError',
          /password is a required field/,
        ],
        // What the user type refuses, as Strapi's controller rethrows it.
        [{ ...fresh, password: '123' }, 'ApplicationError', /^password must be at least 6 characters$/],
        [{ ...fresh, username: 'ab' }, 'ApplicationError', /^username must be at least 3 characters$/],
        [{ ...fresh, password: 'x'.repeat(80) }, 'ValidationError', /73 bytes/],
        [
          { ...fresh, role: 999999 },
          'ApplicationError',
          /^1 relation\(s\) of type plugin::users-permissions.role associated with this entity do not exist$/,
        ],
        [
          { ...fresh, role: { connect: [{ id: 999999 }] } },
          'ApplicationError',
          /^1 relation\(s\) of type plugin::users-permissions.role/,
        ],
        [
          { ...fresh, role: 'nosuchdocumentid00000000' },
          'ApplicationError',
          /^Document with id "nosuchdocumentid00000000", locale "null" not found$/,
        ],
        [
          { ...fresh, role: { connect: [{ documentId: 'nosuchdocumentid00000000' }] } },
          'ApplicationError',
          /^Document with id "nosuchdocumentid00000000"/,
        ],
        [{ ...fresh, role: { connect: [] } }, 'ValidationError', /Users must have a role/],
        [{ ...fresh, resetPasswordToken: 'abc' }, 'ValidationError', /resetPasswordToken/],
        [{ ...fresh, email: taken.email.toLowerCase() }, 'ApplicationError', /^Email already taken$/],
        // Strapi's create leaves a taken username to its document service: the unique rule's words.
        [{ ...fresh, username: taken.username }, 'ApplicationError', /^This attribute must be unique$/],
      ];
      for (const [body, name, message] of cases) {
        const res = await server.api.post('/api/users', body);
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.equal(res.body.error.name, name, JSON.stringify(res.body));
        assert.match(res.body.error.message, message);
      }
      const array = await server.api.post('/api/users', [1, 2]);
      assert.deepEqual(
        [array.status, array.body.error.message],
        [400, 'this must be a `object` type, but the final value was: `[1,2]`.'],
      );
      assert.deepEqual(await byUsername(fresh.username), []);
    });

    it('PUT /api/users/:id needs user.update; it changes another user and answers the user without password', async () => {
      const other = await signIn([]);
      const denied = await server.publicApi.put(`/api/users/${other.id}`, { username: unique('x') });
      assert.equal(denied.status, 403);
      const editor = await signIn([`${USER}.update`]);
      const username = unique('renamed');
      const res = await editor.client.put(`/api/users/${other.id}`, {
        username,
        email: `${username}@EXAMPLE.com`,
        blocked: true,
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(
        [res.body.id, res.body.username, res.body.email, res.body.blocked, res.body.password],
        [other.id, username, `${username}@example.com`, true, undefined],
      );
      // Blocked by someone else: the user's JWT no longer works.
      assert.equal((await other.client.get('/api/users/me')).status, 401);
    });

    it('PUT /api/users/:id refuses bad input and unknown users, changing nothing', async () => {
      const editor = await signIn([`${USER}.update`]);
      const other = await signIn([]);
      const holder = await signIn([]);
      const cases: [unknown, number, RegExp][] = [
        [{ password: '' }, 400, /password.notNull/],
        [{ email: 'nope' }, 400, /valid email/],
        [{ username: holder.username }, 400, /^Username already taken$/],
        [{ email: `${holder.username}@example.com` }, 400, /^Email already taken$/],
        [{ blocked: 'yes' }, 400, /blocked/],
        [
          { role: 999999 },
          400,
          /^1 relation\(s\) of type plugin::users-permissions.role associated with this entity do not exist$/,
        ],
        [
          { role: 'nosuchdocumentid00000000' },
          400,
          /^Document with id "nosuchdocumentid00000000", locale "null" not found$/,
        ],
        [{ role: { disconnect: [{ id: authenticatedId }] } }, 400, /^Cannot remove role$/],
        [{ confirmationToken: 'x' }, 400, /confirmationToken/],
      ];
      for (const [body, status, message] of cases) {
        const res = await editor.client.put(`/api/users/${other.id}`, body);
        assert.equal(res.status, status, JSON.stringify(body));
        assert.match(res.body.error.message, message);
      }
      const [unchanged] = await byUsername(other.username);
      assert.equal(unchanged!.email, `${other.username}@example.com`);
      assert.equal(unchanged!.blocked, false);
      for (const id of ['999999', 'abc']) {
        const res = await editor.client.put(`/api/users/${id}`, { username: unique('x') });
        assert.equal(res.status, 404, id);
        assert.equal(res.body.error.name, 'NotFoundError');
      }
    });

    it('a user never changes their own role, block or confirmation (403), but may change the rest', async () => {
      const self = await signIn([`${USER}.update`, `${USER}.create`]);
      const higher = await server.vellum.auth.roles.create(unique('admins'));
      await server.vellum.auth.roles.grant(higher.documentId, [`${USER}.destroy`]);
      for (const body of [
        { role: higher.id },
        { role: { connect: [{ id: higher.id }], disconnect: [] } },
        { blocked: true },
        { confirmed: false },
      ]) {
        const res = await self.client.put(`/api/users/${self.id}`, body);
        assert.equal(res.status, 403, JSON.stringify(body));
        assert.equal(res.body.error.name, 'ForbiddenError');
      }
      const stored = (await server.api.get(`/api/users/${self.id}?populate=role`)).body;
      assert.equal(stored.role.documentId, self.role.documentId);
      // Unchanged values are no change.
      const same = await self.client.put(`/api/users/${self.id}`, {
        role: self.role.id,
        blocked: false,
        confirmed: true,
        username: unique('me'),
      });
      assert.equal(same.status, 200, JSON.stringify(same.body));
    });

    it("a password set through PUT works for login and ends the user's earlier JWTs", async () => {
      const other = await signIn(['plugin::users-permissions.user.me']);
      assert.equal((await other.client.get('/api/users/me')).status, 200);
      const res = await server.api.put(`/api/users/${other.id}`, { password: 'another123' });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal((await other.client.get('/api/users/me')).status, 401);
      assert.equal(
        (await server.publicApi.post('/api/auth/local', { identifier: other.username, password: 'another123' })).status,
        200,
      );
    });

    it('DELETE /api/users/:id needs user.destroy; answers the deleted user; unknown ids are 204 with no body, as Strapi', async () => {
      const victim = await signIn([]);
      assert.equal((await server.publicApi.delete(`/api/users/${victim.id}`)).status, 403);
      const updater = await signIn([`${USER}.update`]);
      assert.equal((await updater.client.delete(`/api/users/${victim.id}`)).status, 403);
      assert.equal((await server.api.get(`/api/users/${victim.id}`)).status, 200, 'still there');
      const remover = await signIn([`${USER}.destroy`]);
      const res = await remover.client.delete(`/api/users/${victim.id}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual([res.body.id, res.body.username, res.body.password], [victim.id, victim.username, undefined]);
      // GET of no user stays a 404 (docs/coming-from-strapi.md: Strapi answers 204 there).
      assert.equal((await server.api.get(`/api/users/${victim.id}`)).status, 404);
      assert.equal((await victim.client.get('/api/users/me')).status, 401);
      for (const id of [String(victim.id), 'nope']) {
        const again = await remover.client.delete(`/api/users/${id}`);
        assert.deepEqual([again.status, again.text], [204, ''], id);
      }
    });

    it('POST /api/users names the role as Strapi 5.54 does: id, id as text, documentId, connect by id or documentId (the first counts)', async () => {
      const target = await server.vellum.auth.roles.create(unique('target'));
      const forms = [
        target.id,
        String(target.id),
        target.documentId,
        { connect: [{ id: target.id }] },
        { connect: [{ documentId: target.documentId }] },
        { connect: [{ id: target.id }, { id: authenticatedId }] },
      ];
      for (const role of forms) {
        const res = await server.api.post('/api/users', { ...newUser(), role });
        assert.equal(res.status, 201, JSON.stringify([role, res.body]));
        assert.equal(res.body.role.documentId, target.documentId, JSON.stringify(role));
      }
    });

    it('POST /api/users: provider is always local; confirmed and blocked are taken as given', async () => {
      const res = await server.api.post('/api/users', {
        ...newUser(),
        provider: 'github',
        confirmed: true,
        blocked: true,
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.deepEqual([res.body.provider, res.body.confirmed, res.body.blocked], ['local', true, true]);
      const plain = await server.api.post('/api/users', newUser());
      assert.deepEqual([plain.body.confirmed, plain.body.blocked], [false, false]);
    });

    it('PUT /api/users/:id writes provider; an empty password is password.notNull for local accounts only', async () => {
      const created = await server.api.post('/api/users', newUser());
      const id = created.body.id as number;
      const github = await server.api.put(`/api/users/${id}`, { provider: 'github' });
      assert.deepEqual([github.status, github.body.provider], [200, 'github']);
      const empty = await server.api.put(`/api/users/${id}`, { password: '' });
      assert.deepEqual(
        [empty.status, empty.body.error.name, empty.body.error.message],
        [400, 'ValidationError', 'password must be at least 6 characters'],
      );
      await server.api.put(`/api/users/${id}`, { provider: 'local' });
      const local = await server.api.put(`/api/users/${id}`, { password: '' });
      assert.deepEqual([local.status, local.body.error.message], [400, 'password.notNull']);
      const connectNone = await server.api.put(`/api/users/${id}`, { role: { connect: [] } });
      assert.equal(connectNone.status, 200, 'no role change');
    });

    it('GET /api/users/count is allowed by plugin::users-permissions.user.count', async () => {
      const counter = await signIn([`${USER}.count`]);
      const res = await counter.client.get('/api/users/count');
      assert.equal(res.status, 200);
      assert.equal(typeof res.body, 'number');
      assert.equal((await counter.client.get('/api/users')).status, 403);
    });
  });
}
