import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { graphql } from '../helpers/graphql.js';
import { DIALECTS, fixture, startServer, type TestServer } from '../helpers/server.js';

/**
 * Input that a database or the JSON serialiser cannot take is a 4xx naming the problem, never a
 * 500 (Strapi 5.54 answers 500 to a json value nested 5,000 levels deep and to a GraphQL `in` list
 * of 40,000 values).
 */
const tag = () => randomUUID().slice(0, 8);
const deep = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

for (const dialect of DIALECTS) {
  describe(`input limits [${dialect}]`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect, { project: fixture('all-types') });
    });
    after(() => server?.close());

    const raw = (path: string, body: string) =>
      server.api.request('POST', path, { rawBody: body, headers: { 'content-type': 'application/json' } });

    it('a NUL character in a string attribute is a 400 naming it, on every database', async () => {
      for (const data of [
        { name: `a\u0000b` },
        { name: tag(), notes: 'x\u0000' },
        { name: tag(), state: 'draft\u0000' },
      ]) {
        const res = await server.api.post('/api/samples', { data });
        assert.equal(res.status, 400, JSON.stringify(res.body));
        assert.equal(res.body.error.name, 'ValidationError');
        assert.match(res.body.error.message, /NUL/);
      }
      // Inside a json value it is an escape in the stored text: kept.
      const json = await server.api.post('/api/samples', { data: { name: tag(), extra: { text: 'a\u0000b' } } });
      assert.equal(json.status, 201, JSON.stringify(json.body));
      assert.equal(json.body.data.extra.text, 'a\u0000b');
    });

    it('a NUL character in a filter or a path is a 4xx', async () => {
      const filter = await server.api.get('/api/samples?filters[name][$eq]=a%00b');
      assert.ok(filter.status === 400 || filter.status === 200, `${filter.status}`);
      if (filter.status === 200) assert.deepEqual(filter.body.data, []);
      else assert.equal(filter.body.error.name, 'ValidationError');
      const path = await server.api.get('/api/samples/abc%00def');
      assert.ok(path.status === 400 || path.status === 404, `${path.status} ${JSON.stringify(path.body)}`);
      const login = await server.publicApi.post('/api/auth/local', {
        identifier: 'a\u0000b',
        password: 'whatever-password',
      });
      assert.equal(login.status, 400, JSON.stringify(login.body));
    });

    it('a json value nested thousands of levels deep is a 400; a hundred levels are kept', async () => {
      for (const depth of [101, 5000, 100_000]) {
        const res = await raw('/api/samples', `{"data":{"name":"${tag()}","extra":${deep(depth)}}}`);
        assert.equal(res.status, 400, `${depth}: ${res.text.slice(0, 200)}`);
        assert.equal(res.body.error.name, 'ValidationError');
        assert.deepEqual(res.body.error.details.errors[0].path, ['extra']);
      }
      const objects = await raw(
        '/api/samples',
        `{"data":{"name":"${tag()}","extra":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}}`,
      );
      assert.equal(objects.status, 400);
      const blocks = await raw(
        '/api/samples',
        `{"data":{"name":"${tag()}","content":[{"type":"paragraph","children":${deep(5000)}}]}}`,
      );
      assert.equal(blocks.status, 400);
      assert.deepEqual(blocks.body.error.details.errors[0].path, ['content']);
      const ok = await raw('/api/samples', `{"data":{"name":"${tag()}","extra":${deep(100)}}}`);
      assert.equal(ok.status, 201, ok.text.slice(0, 200));
    });

    it('a GraphQL filter list of 40,000 values is a 400; 2,000 are answered', async () => {
      const values = Array.from({ length: 40_000 }, (_, i) => String(i));
      const response = await graphql(
        server,
        'query($v: [String]) { samples(filters: { name: { in: $v } }) { data { id } } }',
        { v: values },
      );
      assert.ok(response.body.errors?.length, JSON.stringify(response.body).slice(0, 300));
      const error = response.body.errors![0];
      assert.match(error.message, /Too many values/);
      assert.equal(error.extensions?.error?.name, 'ValidationError');
      const ints = await graphql(
        server,
        'query($v: [Int]) { samples(filters: { count: { notIn: $v } }) { data { id } } }',
        { v: values.map(Number) },
      );
      assert.match(ints.body.errors?.[0]?.message ?? '', /Too many values/);
      const fine = await graphql(
        server,
        'query($v: [String]) { samples(filters: { name: { in: $v } }) { data { id } } }',
        { v: values.slice(0, 2000) },
      );
      assert.equal(fine.body.errors, undefined, JSON.stringify(fine.body.errors));
    });

    it('an API token lifespan of 1e308 (or any beyond 100 years) is a 400', async () => {
      for (const lifespan of [1e308, 1e300, 4e12, -1, 1.5, 0]) {
        await assert.rejects(
          server.vellum.auth.tokens.create({ name: `t ${tag()}`, type: 'read-only', lifespan }),
          (error: { status?: number; name?: string; details?: any }) => {
            assert.equal(error.status, 400, String(lifespan));
            assert.equal(error.name, 'ValidationError');
            assert.deepEqual(error.details.errors[0].path, ['lifespan']);
            return true;
          },
        );
      }
      const week = await server.vellum.auth.tokens.create({
        name: `t ${tag()}`,
        type: 'read-only',
        lifespan: 604_800_000,
      });
      assert.ok(week.token.expiresAt);
    });

    it('the admin API answers a lifespan of 1e308 with a 400', async () => {
      const email = `admin-${tag()}@example.com`;
      await server.vellum.auth.admins.create(email, 'a-long-password');
      const login = await server.publicApi.post('/admin/login', { email, password: 'a-long-password' });
      assert.equal(login.status, 200, JSON.stringify(login.body));
      const headers = { authorization: `Bearer ${login.body.data.token}` };
      const res = await server.publicApi.request('POST', '/admin/api-tokens', {
        rawBody: `{"name":"t ${tag()}","type":"read-only","lifespan":1e308}`,
        headers: { ...headers, 'content-type': 'application/json' },
      });
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.error.name, 'ValidationError');
      assert.deepEqual(res.body.error.details.errors[0].path, ['lifespan']);
    });
  });
}
