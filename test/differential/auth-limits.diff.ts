/**
 * Rate limits of the users-permissions routes, side by side with Strapi 5.54, at the defaults.
 * On demand: `npm run test:strapi -- auth-limits`.
 *
 * What Strapi 5.54 answers (checked 2026-11-24): `GET /api/connect/:provider` and its `/callback`
 * are limited per path and client address (its rateLimit middleware on `/connect/(.*)`), at the
 * plugin's default `ratelimit` of 10 in 60 s: ten answers, then 429 `RateLimitError`. The
 * frontend's `/api/auth/:provider/callback` is not limited. Vellum limits the same routes the same
 * way, at the same default (its stricter counting, `ratelimit.perAccount`, is a setting).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Response } from '../helpers/http.js';
import { BLOG } from '../helpers/server.js';
import { diffName, openDifferential, type Differential } from './harness.js';

let diff: Differential;
before(async () => {
  diff = await openDifferential({ name: diffName(import.meta.filename), project: BLOG });
});
after(() => diff?.close());

const statuses = (answers: Response[]) => answers.map((answer) => answer.status);

test('GET /api/connect/:provider and its callback: limited per path and address; /api/auth/:provider/callback is not', async () => {
  const { strapi, vellum } = await diff.both(async (api) => {
    const connect: Response[] = [];
    const callback: Response[] = [];
    const frontend: Response[] = [];
    for (let i = 0; i < 12; i++) {
      connect.push(await api.get('/api/connect/github'));
      callback.push(await api.get('/api/connect/github/callback'));
      frontend.push(await api.get('/api/auth/github/callback'));
    }
    return { connect: connect as never, callback: callback as never, frontend: frontend as never };
  });
  for (const [side, answers, limit] of [
    ['strapi', strapi, 10],
    ['vellum', vellum, 10],
  ] as const) {
    const named = answers as unknown as Record<'connect' | 'callback' | 'frontend', Response[]>;
    for (const route of ['connect', 'callback'] as const) {
      const expected = [...Array(limit).fill(400), ...Array(12 - limit).fill(429)];
      assert.deepEqual(statuses(named[route]), expected, `${side} ${route}`);
      assert.equal(named[route][0]!.body.error.message, 'This provider is disabled', `${side} ${route}`);
      assert.equal(named[route].at(-1)!.body.error.name, 'RateLimitError', `${side} ${route}`);
    }
    assert.ok(!statuses(named.frontend).includes(429), `${side}: the frontend's callback is not limited`);
  }
});
