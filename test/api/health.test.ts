/**
 * `/_health` as Strapi 5 answers it (load balancers probe it): 204 with no body on any method,
 * Strapi's `strapi` header, the security headers of every answer, no credentials needed.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';

for (const dialect of DIALECTS) {
  describe(`/_health [${dialect}]`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect);
    });
    after(() => server?.close());

    for (const method of ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']) {
      it(`${method} answers 204 with no body and Strapi's header`, async () => {
        const response = await fetch(`${server.url}/_health`, { method });
        assert.equal(response.status, 204);
        assert.equal(await response.text(), '');
        assert.equal(response.headers.get('strapi'), 'You are so French!');
        assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
      });
    }

    it('needs no credentials, and a bad token does not make it fail', async () => {
      const response = await fetch(`${server.url}/_health`, { headers: { authorization: 'Bearer not-a-token' } });
      assert.equal(response.status, 204);
    });

    it('answers with a query string and a trailing slash too', async () => {
      assert.equal((await fetch(`${server.url}/_health?probe=1`)).status, 204);
      assert.equal((await fetch(`${server.url}/_health/`)).status, 204);
    });
  });
}
