/**
 * Strapi 5.54's rate limits at the defaults, side by side with Vellum: sign-ups, one email, logins
 * (issue 30). In a file of its own, so that each server counts only these requests: its window is a
 * minute, and the logins of another scenario before it would be counted too. On demand:
 * `npm run test:strapi -- rate-limits`.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { HttpClient, type Response } from '../helpers/http.js';
import { BLOG } from '../helpers/server.js';
import { diffName, openDifferential, type Differential } from './harness.js';

let diff: Differential;
before(async () => {
  diff = await openDifferential({ name: diffName(import.meta.filename), project: BLOG });
});
after(() => diff?.close());

const run = Date.now().toString(36);
const statuses = (answers: Response[]) => answers.map((answer) => answer.status);
const user = (name: string, extra: Record<string, unknown> = {}) => ({
  username: name,
  email: `${name}@example.com`,
  password: 'secret123',
  ...extra,
});

test('rate limits: twelve sign-ups with twelve emails pass; the same email and logins stop after ten', async () => {
  const { strapi, vellum } = await diff.both(async (_api, side) => {
    const anonymous = new HttpClient(side === 'strapi' ? diff.strapi.baseUrl : diff.vellum.baseUrl);
    const p = `l${run}`;
    const signUps: Response[] = [];
    for (let i = 0; i < 12; i++) signUps.push(await anonymous.post('/api/auth/local/register', user(`${p}${i}`)));
    const sameEmail: Response[] = [];
    for (let i = 0; i < 12; i++)
      sameEmail.push(
        await anonymous.post('/api/auth/local/register', { ...user(`${p}x${i}`), email: `${p}same@example.com` }),
      );
    const logins: Response[] = [];
    for (let i = 0; i < 12; i++)
      logins.push(
        await anonymous.post('/api/auth/local', {
          identifier: `${p}${i % 2}`,
          password: i % 3 ? 'secret123' : 'wrong-password',
        }),
      );
    return { signUps, sameEmail, logins } as never;
  });
  const answers = { strapi, vellum } as unknown as Record<
    string,
    Record<'signUps' | 'sameEmail' | 'logins', Response[]>
  >;
  for (const side of ['strapi', 'vellum']) {
    const { signUps, sameEmail, logins } = answers[side]!;
    assert.deepEqual(statuses(signUps), Array(12).fill(200), `${side}: sign-ups`);
    assert.deepEqual(statuses(sameEmail), [200, ...Array(9).fill(400), 429, 429], `${side}: one email`);
    assert.deepEqual(statuses(logins).slice(10), [429, 429], `${side}: logins`);
    assert.ok(!statuses(logins).slice(0, 10).includes(429), `${side}: logins`);
    assert.equal(logins[11]!.body.error.name, 'RateLimitError');
    assert.equal(logins[11]!.body.error.message, 'Too many requests, please try again later.');
  }
});
