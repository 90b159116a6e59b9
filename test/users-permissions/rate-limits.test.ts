/**
 * Rate limits at their defaults count what Strapi 5.54's users-permissions `rateLimit` middleware
 * counts, by the same key (issue 30, point 16; `test/differential/users.diff.ts` compares them):
 * 10 requests per minute per route and client address, and per body email on sign-ups; every
 * request counts, whatever its outcome. A front end's test suite that signs up a dozen users from
 * one address passes. Vellum's stricter counting (`ratelimit.perAccount`) is pinned in
 * accounts.test.ts.
 *
 * Every test sends from its own client addresses (random, forwarded through a trusted proxy).
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { graphql } from '../helpers/graphql.js';
import type { Response } from '../helpers/http.js';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';
import { unique } from '../helpers/unique.js';

const address = () => `10.${[...randomBytes(3)].join('.')}`;
const statuses = (responses: Response[]) => responses.map((r) => r.status);
// `ratelimit: {}`: the defaults (the test helper would otherwise allow 10,000).
const defaults = {
  server: { proxy: { koa: true, maxIpsCount: 1 } },
  plugins: { 'users-permissions': { config: { ratelimit: {} } } },
};

for (const dialect of DIALECTS) {
  describe(`rate limits at Strapi's defaults [${dialect}]`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect, { config: defaults });
    });
    after(() => server?.close());

    const via = (client: string) => ({ 'x-forwarded-for': client });
    const register = (username: string, client: string, email = `${username}@example.com`) =>
      server.publicApi.post(
        '/api/auth/local/register',
        { username, email, password: 'secret123' },
        { headers: via(client) },
      );

    it('twelve sign-ups with twelve emails from one address all pass', async () => {
      const prefix = unique('twelve');
      const client = address();
      const answers: Response[] = [];
      for (let i = 0; i < 12; i++) answers.push(await register(`${prefix}-${i}`, client));
      assert.deepEqual(
        statuses(answers),
        Array(12).fill(200),
        JSON.stringify(answers.find((a) => a.status !== 200)?.body),
      );
    });

    it("one email from one address: ten sign-ups, refused ones included, then 429 with Strapi's words", async () => {
      const prefix = unique('same');
      const client = address();
      const email = `${prefix}@example.com`;
      const answers: Response[] = [];
      for (let i = 0; i < 12; i++) answers.push(await register(`${prefix}-${i}`, client, email));
      assert.deepEqual(statuses(answers), [200, ...Array(9).fill(400), 429, 429]);
      assert.deepEqual(
        [answers[11]!.body.error.name, answers[11]!.body.error.message],
        ['RateLimitError', 'Too many requests, please try again later.'],
      );
      assert.equal(
        (await register(`${prefix}-other`, address(), email)).status,
        400,
        'another address has its own count (the email is taken)',
      );
    });

    it('logins: every one counts per address, right passwords included; the eleventh is 429; REST and GraphQL share the count', async () => {
      const username = unique('login');
      assert.equal((await register(username, address())).status, 200);
      const client = address();
      const answers: Response[] = [];
      for (let i = 0; i < 10; i++) {
        answers.push(
          await server.publicApi.post(
            '/api/auth/local',
            { identifier: username, password: i % 2 ? 'secret123' : 'wrong-one' },
            { headers: via(client) },
          ),
        );
      }
      assert.deepEqual(
        statuses(answers),
        Array.from({ length: 10 }, (_, i) => (i % 2 ? 200 : 400)),
      );
      const refused = await server.publicApi.post(
        '/api/auth/local',
        { identifier: username, password: 'secret123' },
        { headers: via(client) },
      );
      assert.equal(refused.status, 429);
      const gql = await graphql(
        server,
        `mutation { login(input: { identifier: "${username}", password: "secret123" }) { jwt } }`,
        undefined,
        { anonymous: true, headers: via(client) },
      );
      assert.equal(gql.body.errors?.[0]?.extensions?.code, 'STRAPI_RATE_LIMIT_ERROR', JSON.stringify(gql.body));
      const elsewhere = await server.publicApi.post(
        '/api/auth/local',
        { identifier: username, password: 'secret123' },
        { headers: via(address()) },
      );
      assert.equal(elsewhere.status, 200, 'another address logs in');
    });
  });
}
