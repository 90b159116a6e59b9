/**
 * A user's sessions (devices) in `jwtManagement: 'refresh'` mode, side by side with Strapi 5.54:
 * `GET /api/auth/sessions` and `DELETE /api/auth/sessions/:sessionId` (issue 30). On demand:
 * `npm run test:strapi -- sessions`.
 *
 * Session ids are opaque on both (Strapi's change at each refresh, Vellum's do not), and times
 * differ: they are compared by shape.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { HttpClient } from '../helpers/http.js';
import { fixture } from '../helpers/paths.js';
import { diffName, openDifferential, type Differential } from './harness.js';

let diff: Differential;
before(async () => {
  diff = await openDifferential({
    name: diffName(import.meta.filename),
    project: fixture('users-refresh'),
    readyPath: '/api/notes',
  });
});
after(() => diff?.close());

const run = Date.now().toString(36);
const CHROME_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36';
const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const pause = (ms: number) => new Promise((done) => setTimeout(done, ms));

test('sessions: listed current first then by last activity, with device names; one ended by id; refusals', async () => {
  let sessionIds: { strapi: string[]; vellum: string[] } = { strapi: [], vellum: [] };
  await diff.same(
    async (api, side) => {
      const anonymous = new HttpClient(api.baseUrl);
      const p = `s${run}`;
      const credentials = { identifier: `${p}@example.com`, password: 'secret123' };
      // Registration takes no deviceId (Strapi's 400 "Invalid parameters: deviceId").
      const refused = await anonymous.post('/api/auth/local/register', {
        username: p,
        email: `${p}@example.com`,
        password: 'secret123',
        deviceId: 'phone',
      });
      const registered = await anonymous.post('/api/auth/local/register', {
        username: p,
        email: `${p}@example.com`,
        password: 'secret123',
      });
      // A second apart: the list's order is by the last sign-in or refresh.
      await pause(1100);
      const phone = await anonymous.post(
        '/api/auth/local',
        { ...credentials, deviceId: 'phone' },
        { headers: { 'user-agent': CHROME_MAC } },
      );
      await pause(1100);
      const laptop = await anonymous.post(
        '/api/auth/local',
        { ...credentials, deviceId: 'laptop' },
        { headers: { 'user-agent': FIREFOX_LINUX } },
      );
      await pause(1100);
      const bare = await anonymous.post('/api/auth/local', credentials, { headers: { 'user-agent': 'node' } });
      const asLaptop = new HttpClient(api.baseUrl, { authorization: `Bearer ${laptop.body.jwt}` });
      const listed = await asLaptop.get('/api/auth/sessions');
      const ids = (listed.body?.data ?? []).map((entry: { id: string }) => entry.id);
      sessionIds = { ...sessionIds, [side]: ids };
      const phoneId = ids[2];
      const revoked = await asLaptop.delete(`/api/auth/sessions/${phoneId}`);
      const again = await asLaptop.delete(`/api/auth/sessions/${phoneId}`);
      const unknown = await asLaptop.delete('/api/auth/sessions/nosuchsession');
      const afterRevoke = await asLaptop.get('/api/auth/sessions');
      const phoneRefresh = await anonymous.post('/api/auth/refresh', { refreshToken: phone.body.refreshToken });
      // Another user cannot end this user's sessions.
      const other = await anonymous.post('/api/auth/local/register', {
        username: `${p}o`,
        email: `${p}o@example.com`,
        password: 'secret123',
      });
      const asOther = new HttpClient(api.baseUrl, { authorization: `Bearer ${other.body.jwt}` });
      const foreign = await asOther.delete(`/api/auth/sessions/${ids[1]}`);
      const stillThere = await asLaptop.get('/api/auth/sessions');
      // Registration names a random device (a UUID) on both.
      for (const list of [listed, afterRevoke, stillThere]) {
        for (const entry of list.body?.data ?? []) if (UUID.test(entry.deviceId ?? '')) entry.deviceId = '<uuid>';
      }
      return [
        refused,
        registered,
        phone,
        laptop,
        bare,
        listed,
        revoked,
        again,
        unknown,
        afterRevoke,
        phoneRefresh,
        foreign,
        stillThere,
        await anonymous.get('/api/auth/sessions'),
        await anonymous.delete(`/api/auth/sessions/${ids[0]}`),
        // An API token is no user.
        await api.get('/api/auth/sessions'),
      ];
    },
    {
      messages: true,
      ignoreKeys: ['id', 'jwt', 'refreshToken', 'loginAt', 'lastActiveAt', 'createdAt', 'updatedAt', 'documentId'],
    },
  );
  for (const side of ['strapi', 'vellum'] as const)
    assert.equal(new Set(sessionIds[side]).size, 4, `${side}: four sessions listed`);
});
