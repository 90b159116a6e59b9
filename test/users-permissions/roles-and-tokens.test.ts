/**
 * Who may do what on the content API (docs/users-permissions.md): Public and Authenticated as the blog
 * example configures them, every API token type, against every action; grants changed at run time
 * apply to the next request, also on another node.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { HttpClient } from '../helpers/http.js';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Calls every content action on tags with `client` and answers the statuses, by action. */
async function statuses(server: TestServer, client: HttpClient): Promise<Record<string, number>> {
  const existing = (await server.api.post('/api/tags', { data: { name: `t${Math.random()}` } })).body.data.documentId;
  return {
    find: (await client.get('/api/tags')).status,
    findOne: (await client.get(`/api/tags/${existing}`)).status,
    create: (await client.post('/api/tags', { data: { name: `c${Math.random()}` } })).status,
    update: (await client.put(`/api/tags/${existing}`, { data: { name: `u${Math.random()}` } })).status,
    delete: (await client.delete(`/api/tags/${existing}`)).status,
  };
}

for (const dialect of DIALECTS) {
  describe(`roles, permissions and API tokens [${dialect}]`, () => {
    let server: TestServer;
    let userJwt: string;
    before(async () => {
      server = await startServer(dialect);
      const registered = await server.publicApi.post('/api/auth/local/register', {
        username: 'reader',
        email: 'reader@example.com',
        password: 'secret123',
      });
      userJwt = registered.body.jwt;
    });
    after(() => server?.close());
    const client = (token: string) => new HttpClient(server.url, bearer(token));
    const token = async (type: 'read-only' | 'full-access' | 'custom', permissions?: string[], lifespan?: number) =>
      (await server.vellum.auth.tokens.create({ name: `${type} ${Math.random()}`, type, permissions, lifespan }))
        .accessKey;

    it('Public may find and findOne (as the example grants) and nothing else: 403 ForbiddenError', async () => {
      assert.deepEqual(await statuses(server, server.publicApi), {
        find: 200,
        findOne: 200,
        create: 403,
        update: 403,
        delete: 403,
      });
      const denied = await server.publicApi.post('/api/tags', { data: { name: 'x' } });
      assert.deepEqual(denied.body, {
        data: null,
        error: { status: 403, name: 'ForbiddenError', message: 'Forbidden', details: {} },
      });
    });

    it('Authenticated (a user JWT) may read, as the example grants, and change nothing', async () => {
      assert.deepEqual(await statuses(server, client(userJwt)), {
        find: 200,
        findOne: 200,
        create: 403,
        update: 403,
        delete: 403,
      });
    });

    it("the example's Editor role (a user an administrator gives it) may do everything", async () => {
      await server.vellum.auth.users.create({
        username: 'writer',
        email: 'writer@example.com',
        password: 'secret123',
        role: 'editor',
      });
      const jwt = (await server.publicApi.post('/api/auth/local', { identifier: 'writer', password: 'secret123' })).body
        .jwt;
      assert.deepEqual(await statuses(server, client(jwt)), {
        find: 200,
        findOne: 200,
        create: 201,
        update: 200,
        delete: 204,
      });
    });

    it('a read-only token may find and findOne only', async () => {
      assert.deepEqual(await statuses(server, client(await token('read-only'))), {
        find: 200,
        findOne: 200,
        create: 403,
        update: 403,
        delete: 403,
      });
    });

    it('a full-access token may do everything', async () => {
      assert.deepEqual(await statuses(server, client(await token('full-access'))), {
        find: 200,
        findOne: 200,
        create: 201,
        update: 200,
        delete: 204,
      });
    });

    it('a custom token may do exactly what it lists', async () => {
      const custom = client(await token('custom', ['api::tag.tag.find', 'api::tag.tag.create']));
      assert.deepEqual(await statuses(server, custom), {
        find: 200,
        findOne: 403,
        create: 201,
        update: 403,
        delete: 403,
      });
      assert.equal((await custom.get('/api/articles')).status, 403, 'nothing on other types');
    });

    it('a content-type nobody was granted is private, even for reads', async () => {
      const publicRole = (await server.vellum.auth.roles.get('public')).documentId;
      await server.vellum.auth.roles.revoke(publicRole, ['api::category.category.find']);
      try {
        assert.equal((await server.publicApi.get('/api/categories')).status, 403);
        assert.equal((await server.api.get('/api/categories')).status, 200);
      } finally {
        // The other tests see the role as the example configures it.
        await server.vellum.auth.roles.grant(publicRole, ['api::category.category.find']);
      }
    });

    it('an unknown, malformed, expired or revoked token is 401 UnauthorizedError, also on public routes', async () => {
      for (const header of ['Bearer nope', 'Bearer ' + 'a'.repeat(256), 'Bearer a.b.c']) {
        const res = await server.publicApi.get('/api/tags', { headers: { authorization: header } });
        assert.equal(res.status, 401, header);
        assert.equal(res.body.error.name, 'UnauthorizedError');
      }
      // A header that is not `Bearer <token>` carries no credentials, as Strapi 5 reads it: Public's
      // (earlier Vellum answered 401).
      for (const header of ['Basic dXNlcjpwYXNz', 'Bearer', 'Bearer ']) {
        assert.equal(
          (await server.publicApi.get('/api/tags', { headers: { authorization: header } })).status,
          200,
          header,
        );
        const denied = await server.publicApi.get('/api/users', { headers: { authorization: header } });
        assert.equal(denied.status, 403, header);
        assert.equal(denied.body.error.name, 'ForbiddenError');
      }
      const expiring = await token('full-access', undefined, 1);
      await new Promise((done) => setTimeout(done, 20));
      assert.equal((await client(expiring).get('/api/tags')).status, 401);
      const { token: info, accessKey } = await server.vellum.auth.tokens.create({
        name: 'to revoke',
        type: 'full-access',
      });
      assert.equal((await client(accessKey).get('/api/tags')).status, 200);
      await server.vellum.auth.tokens.revoke(String(info.id));
      assert.equal((await client(accessKey).get('/api/tags')).status, 401);
    });

    it('tokens are stored as a keyed hash, and their last use is recorded', async () => {
      const { token: info, accessKey } = await server.vellum.auth.tokens.create({ name: 'hashed', type: 'read-only' });
      const row = await server.vellum.database.db
        .selectFrom('strapi_api_tokens')
        .selectAll()
        .where('id', '=', info.id)
        .executeTakeFirstOrThrow();
      assert.notEqual(row.access_key, accessKey);
      assert.doesNotMatch(JSON.stringify(row), new RegExp(accessKey.slice(0, 32)));
      assert.equal(info.lastUsedAt, null);
      await client(accessKey).get('/api/tags');
      assert.ok((await server.vellum.auth.tokens.get(String(info.id))).lastUsedAt);
    });

    it('a grant or revoke applies to the next request, without restart, on every node', async () => {
      const other = await startServer(dialect, { nodeOf: server });
      try {
        const publicRole = (await server.vellum.auth.roles.get('public')).documentId;
        const nodes = [server, other];
        for (const node of nodes)
          assert.equal((await node.publicApi.post('/api/tags', { data: { name: 'p1' } })).status, 403);
        await server.vellum.auth.roles.grant(publicRole, ['api::tag.tag.create']);
        for (const node of nodes)
          assert.equal((await node.publicApi.post('/api/tags', { data: { name: `p-${Math.random()}` } })).status, 201);
        await server.vellum.auth.roles.revoke(publicRole, ['api::tag.tag.create']);
        for (const node of nodes)
          assert.equal((await node.publicApi.post('/api/tags', { data: { name: 'p3' } })).status, 403);
      } finally {
        await other.close();
      }
    });

    it('a custom role: users given it get its grants', async () => {
      const tagger = await server.vellum.auth.roles.create('Tagger');
      await server.vellum.auth.roles.grant(tagger.documentId, ['api::tag.tag.find', 'api::tag.tag.update']);
      await server.vellum.auth.users.create({
        username: 'eddie',
        email: 'ed@example.com',
        password: 'secret123',
        role: 'tagger',
      });
      const jwt = (await server.publicApi.post('/api/auth/local', { identifier: 'eddie', password: 'secret123' })).body
        .jwt;
      assert.deepEqual(await statuses(server, client(jwt)), {
        find: 200,
        findOne: 403,
        create: 403,
        update: 200,
        delete: 403,
      });
    });
  });
}
