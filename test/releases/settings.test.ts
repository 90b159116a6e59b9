/**
 * The releases' settings (docs/releases.md), Strapi 5.54's `GET|PUT /content-releases/settings`:
 * `{ data: { defaultTimezone } }`, null by default, stored in the core store (`content-releases`,
 * key `settings`), checked as Strapi's yup schema checks it, audited as `release.settings.update`
 * with its changes when something changed, and guarded by `plugin::content-releases.settings.read`
 * and `settings.update`. On every dialect.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ok, type HttpClient } from '../helpers/http.js';
import {
  createRole,
  emailOf,
  inviteAdmin,
  permission,
  registerFirstAdmin,
  setRolePermissions,
} from '../helpers/admins.js';
import { DIALECTS, fixture, startServer, type TestServer } from '../helpers/server.js';
import { unique } from '../helpers/unique.js';

const SETTINGS = '/content-releases/settings';

for (const dialect of DIALECTS) {
  describe(`releases' settings [${dialect}]`, () => {
    let server: TestServer;
    let root: HttpClient;

    before(async () => {
      server = await startServer(dialect, { project: fixture('releases') });
      root = (await registerFirstAdmin(server)).client;
    });
    after(() => server?.close());

    const refused = async (body: unknown) => {
      const answer = await root.put(SETTINGS, body);
      assert.equal(answer.status, 400, JSON.stringify(answer.body));
      assert.equal(answer.body.error.name, 'ValidationError');
      return answer.body.error;
    };
    const audited = async () =>
      (
        await ok(
          root.get(
            '/admin/audit-logs?sort=date:ASC&pageSize=100&filters[$and][0][action][$eq]=release.settings.update',
          ),
        )
      ).results.map((entry: any) => entry.payload.details);

    it('reads the default, stores a time zone in the core store, audits each change once', async () => {
      assert.deepEqual(await ok(root.get(SETTINGS)), { data: { defaultTimezone: null } });
      assert.deepEqual(await ok(root.put(SETTINGS, { defaultTimezone: 'Europe/Paris' })), {
        data: { defaultTimezone: 'Europe/Paris' },
      });
      assert.deepEqual(await ok(root.get(SETTINGS)), { data: { defaultTimezone: 'Europe/Paris' } });
      const row = await server.vellum.database.system
        .selectFrom('strapi_core_store_settings')
        .select(['value', 'type'])
        .where('key', '=', 'core_content-releases_settings')
        .executeTakeFirstOrThrow();
      assert.deepEqual([row.type, JSON.parse(row.value!)], ['object', { defaultTimezone: 'Europe/Paris' }]);
      // The same value again: stored, not audited.
      await ok(root.put(SETTINGS, { defaultTimezone: 'Europe/Paris' }));
      // An empty body is stored as given (Strapi's strict schema fills no default): null again.
      assert.deepEqual(await ok(root.put(SETTINGS, {})), { data: {} });
      assert.deepEqual(await ok(root.get(SETTINGS)), { data: { defaultTimezone: null } });
      assert.deepEqual(await audited(), [
        { changes: { defaultTimezone: { before: null, after: 'Europe/Paris' } } },
        { changes: { defaultTimezone: { before: 'Europe/Paris', after: null } } },
      ]);

      // Refusals, in Strapi's words (the zone check is Vellum's, as on a release).
      const number = await refused({ defaultTimezone: 5 });
      assert.equal(number.message, 'defaultTimezone must be a `string` type, but the final value was: `5`.');
      assert.deepEqual(number.details.errors[0].path, ['defaultTimezone']);
      const extra = await refused({ defaultTimezone: null, colour: 'red' });
      assert.equal(extra.message, 'this field has unspecified keys: colour');
      const both = await refused({ defaultTimezone: true, colour: 'red' });
      assert.equal(both.message, '2 errors occurred');
      const zone = await refused({ defaultTimezone: 'Mars/Olympus' });
      assert.equal(zone.details.errors[0].path[0], 'defaultTimezone');
      const list = await refused(['Europe/Paris']);
      assert.equal(list.message, 'this must be a `object` type, but the final value was: `["Europe/Paris"]`.');
      assert.deepEqual(await ok(root.get(SETTINGS)), { data: { defaultTimezone: null } });
      assert.equal((await audited()).length, 2);
    });

    it('asks for settings.read to read and settings.update to write', async () => {
      const role = await createRole(root, unique('Settings readers'), []);
      const grant = (actions: string[]) =>
        setRolePermissions(
          root,
          role,
          actions.map((action) => permission(action)),
        );
      const { client: reader } = await inviteAdmin(server, root, [role], {
        email: emailOf(unique('settings')),
        firstname: 'Sam',
        password: 'Passw0rd-Settings',
      });
      for (const answer of [await reader.get(SETTINGS), await reader.put(SETTINGS, {})]) {
        assert.equal(answer.status, 403);
        assert.equal(answer.body.error.name, 'PolicyError');
      }
      await grant(['plugin::content-releases.settings.read']);
      assert.equal((await reader.get(SETTINGS)).status, 200);
      assert.equal((await reader.put(SETTINGS, {})).status, 403);
      await grant(['plugin::content-releases.settings.read', 'plugin::content-releases.settings.update']);
      assert.equal((await reader.put(SETTINGS, { colour: 'red' })).status, 400);
      assert.equal((await server.publicApi.get(SETTINGS)).status, 401);
      assert.equal((await server.publicApi.put(SETTINGS, {})).status, 401);
    });
  });
}
