/**
 * `register`, `login` and `me` exist only when the users-permissions layer hands over its hooks,
 * and pass the input, the caller's IP and the headers through (the hooks' own behaviour is tested
 * with users-permissions).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { UsersPermissionsHooks } from '../../src/graphql/index.js';
import { ValidationError } from '../../src/errors.js';
import { DIALECTS, startServer } from '../helpers/server.js';
import { graphql, graphqlData } from '../helpers/graphql.js';

const user = { id: 1, documentId: 'u1', username: 'ann', email: 'ann@example.com', confirmed: true, blocked: false, role: { id: 2, name: 'Authenticated', type: 'authenticated' } };

describe(`GraphQL users-permissions seam [${DIALECTS[0]}]`, () => {
  it('without hooks there are no register, login or me fields', async () => {
    const server = await startServer(DIALECTS[0]!);
    try {
      const response = await graphql(server, 'mutation { login(input: { identifier: "a", password: "b" }) { jwt } }');
      assert.equal(response.status, 400);
    } finally {
      await server.close();
    }
  });

  it('register, login and me call the hooks', async () => {
    const calls: unknown[] = [];
    const hooks: UsersPermissionsHooks = {
      async register(input, request) {
        calls.push(['register', input, typeof request.ip, request.headers['x-test']]);
        return { jwt: 'jwt-register', user };
      },
      async login(input) {
        calls.push(['login', input]);
        if (input.password !== 'secret') throw new ValidationError('Invalid identifier or password');
        return { jwt: 'jwt-login', user };
      },
      async me(headers) {
        return headers.authorization === 'Bearer jwt-login' ? user : null;
      },
    };
    const server = await startServer(DIALECTS[0]!, { usersPermissions: hooks });
    try {
      const registered = await graphql(server, 'mutation { register(input: { username: "ann", email: "ann@example.com", password: "secret" }) { jwt user { id username email } } }', undefined, { headers: { 'x-test': 'yes' } });
      assert.deepEqual(registered.body.data, { register: { jwt: 'jwt-register', user: { id: '1', username: 'ann', email: 'ann@example.com' } } });
      const logged = await graphqlData(server, 'mutation { login(input: { identifier: "ann", password: "secret" }) { jwt user { documentId role { name } } } }');
      assert.deepEqual(logged.login, { jwt: 'jwt-login', user: { documentId: 'u1', role: { name: 'Authenticated' } } });
      const refused = await graphql(server, 'mutation { login(input: { identifier: "ann", password: "nope" }) { jwt } }');
      assert.equal(refused.body.errors![0].extensions.code, 'BAD_USER_INPUT');
      assert.deepEqual(calls.slice(0, 2), [
        ['register', { username: 'ann', email: 'ann@example.com', password: 'secret' }, 'string', 'yes'],
        ['login', { identifier: 'ann', password: 'secret' }],
      ]);
      assert.deepEqual((await graphqlData(server, '{ me { username } }')).me, null);
      const me = await graphql(server, '{ me { username confirmed blocked } }', undefined, { headers: { authorization: 'Bearer jwt-login' } });
      assert.deepEqual(me.body.data, { me: { username: 'ann', confirmed: true, blocked: false } });
    } finally {
      await server.close();
    }
  });
});
