/**
 * What a client sends cannot fill the server's memory: the hashes of API keys are remembered only
 * for keys that named a token, at most 1,000 of them. (Issue 17, point 4: random 60 KB tokens, all
 * invalid, were each kept in memory.)
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';

for (const dialect of DIALECTS) {
  describe(`API key cache [${dialect}]`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect);
    });
    after(() => server?.close());

    it('never remembers keys that name no token, whatever their size', async () => {
      const tokens = server.vellum.auth.tokens;
      assert.equal((await server.api.get('/api/articles')).status, 200);
      const before = tokens.cachedKeys;
      assert.ok(before >= 1, 'a valid key is remembered');
      for (let i = 0; i < 40; i++) {
        const key = i % 2 ? randomBytes(30 * 1024).toString('hex') : randomBytes(128).toString('hex');
        const res = await fetch(`${server.url}/api/articles`, { headers: { authorization: `Bearer ${key}` } });
        assert.equal(res.status, 401);
        await res.arrayBuffer();
      }
      assert.equal(tokens.cachedKeys, before);
      // The valid key still works and is still one entry.
      assert.equal((await server.api.get('/api/articles')).status, 200);
      assert.equal(tokens.cachedKeys, before);
    });

    it('remembers valid keys; a revoked one is refused all the same', async () => {
      const tokens = server.vellum.auth.tokens;
      const created = [];
      for (let i = 0; i < 5; i++)
        created.push((await tokens.create({ name: `cache ${i}`, type: 'read-only' })).accessKey);
      for (const key of created) await tokens.verify(key);
      assert.ok(tokens.cachedKeys <= 1000);
      assert.ok(tokens.cachedKeys >= created.length);
      // A revoked key is refused, whether or not its hash is remembered.
      await tokens.revoke('cache 0');
      await assert.rejects(tokens.verify(created[0]!), { name: 'UnauthorizedError' });
    });
  });
}
