/**
 * `register`, `login` and `me` (docs/graphql.md "Operations per content-type") answered by
 * users-and-permissions, and the Authorization header working for GraphQL as for REST
 * (docs/users-permissions.md).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';
import { graphql } from '../helpers/graphql.js';

for (const dialect of DIALECTS) {
  describe(`GraphQL users-permissions [${dialect}]`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect);
      // gqlbea, registered before the tests: they log in as her; none changes her.
      const registered = await server.publicApi.post('/api/auth/local/register', {
        username: 'gqlbea',
        email: 'gqlbea@example.com',
        password: 'secret123',
      });
      assert.equal(registered.status, 200, JSON.stringify(registered.body));
    });
    after(() => server?.close());
    const anonymous = (query: string, headers: Record<string, string> = {}) =>
      graphql(server, query, undefined, { anonymous: true, headers });

    it('register answers a JWT and the user; the user is in the users collection', async () => {
      const res = await anonymous(
        'mutation { register(input: { username: "gqlann", email: "GQLAnn@Example.com", password: "secret123" }) { jwt user { id username email confirmed blocked } } }',
      );
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const { jwt, user } = res.body.data.register;
      assert.match(jwt, /^[\w-]+\.[\w-]+\.[\w-]+$/);
      assert.deepEqual(
        { ...user, id: undefined },
        { id: undefined, username: 'gqlann', email: 'gqlann@example.com', confirmed: true, blocked: false },
      );
      const users = await server.api.get('/api/users?filters[username][$eq]=gqlann');
      assert.equal(users.body.length, 1);
      assert.equal(users.body[0].password, undefined);
    });

    it('a duplicate registration is BAD_USER_INPUT-class error, never a second user', async () => {
      const res = await anonymous(
        'mutation { register(input: { username: "gqlbea", email: "other@example.com", password: "secret123" }) { jwt } }',
      );
      assert.equal(res.body.errors![0].extensions.error.message, 'Email or Username are already taken');
      assert.equal((await server.api.get('/api/users/count?filters[username][$eq]=gqlbea')).body, 1);
    });

    it('login answers a JWT that works for me, REST and mutations the role allows', async () => {
      const login = await anonymous(
        'mutation { login(input: { identifier: "gqlbea@example.com", password: "secret123" }) { jwt user { username role { name } } } }',
      );
      const { jwt } = login.body.data.login;
      assert.equal(login.body.data.login.user.username, 'gqlbea');
      const me = await anonymous('{ me { username email role { name type } } }', { authorization: `Bearer ${jwt}` });
      assert.deepEqual(me.body.data.me, {
        username: 'gqlbea',
        email: 'gqlbea@example.com',
        role: { name: 'Authenticated', type: 'authenticated' },
      });
      const rest = await server.publicApi.get('/api/users/me', { headers: { authorization: `Bearer ${jwt}` } });
      assert.equal(rest.body.username, 'gqlbea');
      // The example's Authenticated role reads and changes nothing; its Editor role writes.
      const createTag = 'mutation { createTag(data: { name: "by a user" }) { data { id attributes { name } } } }';
      assert.equal(
        (await anonymous(createTag, { authorization: `Bearer ${jwt}` })).body.errors![0].extensions.code,
        'FORBIDDEN',
      );
      await server.vellum.auth.users.create({
        username: 'gqleditor',
        email: 'gqleditor@example.com',
        password: 'secret123',
        role: 'editor',
      });
      const editor = await anonymous(
        'mutation { login(input: { identifier: "gqleditor", password: "secret123" }) { jwt } }',
      );
      const created = await anonymous(createTag, { authorization: `Bearer ${editor.body.data.login.jwt}` });
      assert.equal(created.body.data.createTag.data.attributes.name, 'by a user');
    });

    it('a wrong password is refused with the same message as an unknown user', async () => {
      const wrong = await anonymous(
        'mutation { login(input: { identifier: "gqlbea", password: "nope-nope" }) { jwt } }',
      );
      const unknown = await anonymous(
        'mutation { login(input: { identifier: "nobody-here", password: "nope-nope" }) { jwt } }',
      );
      assert.equal(wrong.body.errors![0].extensions.code, 'BAD_USER_INPUT');
      assert.equal(wrong.body.errors![0].message, unknown.body.errors![0].message);
    });

    it('without credentials me is null, reads follow Public and writes are FORBIDDEN', async () => {
      assert.equal((await anonymous('{ me { username } }')).body.data.me, null);
      const read = await anonymous('{ tags { data { id } } }');
      assert.ok(Array.isArray(read.body.data.tags.data));
      const write = await anonymous('mutation { createTag(data: { name: "nope" }) { data { id } } }');
      assert.equal(write.body.errors![0].extensions.code, 'FORBIDDEN');
    });

    it("a tampered or invalid token is Strapi's HTTP 401 before the operation runs, also for public fields", async () => {
      const res = await anonymous('{ tags { data { id } } }', { authorization: 'Bearer aaa.bbb.ccc' });
      assert.equal(res.status, 401, JSON.stringify(res.body));
      assert.deepEqual(res.body, {
        data: null,
        error: { status: 401, name: 'UnauthorizedError', message: 'Missing or invalid credentials', details: {} },
      });
    });
  });
}
