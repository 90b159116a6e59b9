/**
 * The audit log of the admin API's other changes, on every dialect: sign-in and sign-out, API
 * tokens (never their key), roles and their permissions, users, administrators (never a password),
 * webhooks (never a header's value nor the secret), settings (the keys changed, never a provider's
 * secret), locales and media files; each with who and what. And the list's API: Strapi's filters,
 * sorts and pages, a cursor that goes past them, the administrators who have entries, and a 400
 * naming each bad parameter.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { HttpClient } from '../helpers/http.js';
import { DIALECTS } from '../helpers/server.js';
import { unique } from '../helpers/unique.js';
import { png, startUploadServer, type UploadServer } from '../helpers/uploads.js';
import { adminClient, type Entry } from '../helpers/audit.js';

/** Entries after `since` (an entry id), oldest first, with the fields a test compares. */
async function entriesSince(admin: HttpClient, since: number): Promise<Entry[]> {
  const res = await admin.get('/admin/audit-logs?sort=date:ASC&pageSize=100');
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const found: Entry[] = [];
  let page = res.body;
  for (;;) {
    found.push(...page.results.filter((entry: Entry) => entry.id > since));
    if (!page.pagination.next) break;
    page = (await admin.get(`/admin/audit-logs?sort=date:ASC&pageSize=100&cursor=${page.pagination.next}`)).body;
  }
  return found;
}

const latestId = async (admin: HttpClient): Promise<number> =>
  (await admin.get('/admin/audit-logs?pageSize=1')).body.results[0]?.id ?? 0;

const brief = (entry: Entry) => ({
  action: entry.action,
  ...(entry.payload.subject !== undefined ? { subject: entry.payload.subject } : {}),
  ...(entry.payload.uid !== undefined ? { uid: entry.payload.uid } : {}),
  ...(entry.payload.changedFields !== undefined ? { changed: entry.payload.changedFields } : {}),
});

for (const dialect of DIALECTS) {
  describe(`audit log of the admin API's changes [${dialect}]`, () => {
    let server: UploadServer;
    let ann: Awaited<ReturnType<typeof adminClient>>;
    before(async () => {
      server = await startUploadServer(dialect);
      ann = await adminClient(server, `${unique('ann')}@example.com`);
    });
    after(() => server?.close());

    it('records sign-in and sign-out as the administrator who did it', async () => {
      const since = await latestId(ann.client);
      const email = `${unique('bob')}@example.com`;
      const { id } = await server.vellum.auth.admins.create(email, 'a-password-of-bob');
      const login = await server.publicApi.post('/admin/login', { email, password: 'a-password-of-bob' });
      const bob = new HttpClient(server.url, { authorization: `Bearer ${login.body.data.token}` });
      // A refused sign-in records nothing.
      assert.equal((await server.publicApi.post('/admin/login', { email, password: 'wrong-password' })).status, 400);
      assert.equal((await bob.post('/admin/logout', {})).status, 200);
      const entries = await entriesSince(ann.client, since);
      assert.deepEqual(
        entries.map((entry) => [entry.action, entry.user?.id, entry.user?.email]),
        [
          ['admin.auth.success', id, email],
          ['admin.logout', id, email],
        ],
      );
    });

    it('records API tokens, roles and permissions, users and administrators, never a secret', async () => {
      const admin = ann.client;
      const since = await latestId(admin);
      const name = unique('token');
      const token = await admin.post('/admin/api-tokens', { name, type: 'read-only' });
      assert.equal(token.status, 201);
      assert.equal((await admin.delete(`/admin/api-tokens/${token.body.data.id}`)).status, 200);

      const roleName = unique('Editors');
      assert.equal((await admin.post('/admin/users-permissions/roles', { name: roleName })).status, 200);
      const role = (await admin.get('/admin/users-permissions/roles')).body.roles.find(
        (r: { name: string }) => r.name === roleName,
      );
      const tree = { 'api::article': { controllers: { article: { find: { enabled: true } } } } };
      assert.equal(
        (await admin.put(`/admin/users-permissions/roles/${role.id}`, { description: 'd', permissions: tree })).status,
        200,
      );
      assert.equal((await admin.delete(`/admin/users-permissions/roles/${role.id}`)).status, 200);

      const user = await admin.post('/admin/users-permissions/users', {
        username: unique('user'),
        email: `${unique('user')}@example.com`,
        password: 'a-user-password',
      });
      assert.equal(user.status, 201, JSON.stringify(user.body));
      assert.equal(
        (await admin.put(`/admin/users-permissions/users/${user.body.data.id}`, { blocked: true })).status,
        200,
      );
      assert.equal((await admin.delete(`/admin/users-permissions/users/${user.body.data.id}`)).status, 200);

      const adminEmail = `${unique('carol')}@example.com`;
      const carol = await admin.post('/admin/administrators', { email: adminEmail, password: 'carols-password' });
      assert.equal(carol.status, 201, JSON.stringify(carol.body));
      assert.equal((await admin.delete(`/admin/administrators/${carol.body.data.id}`)).status, 200);

      // Strapi's administrators and their roles: an invitation, an edit, a role and its permissions.
      const roleCreated = await admin.post('/admin/roles', { name: unique('Reviewers'), description: 'read' });
      assert.equal(roleCreated.status, 201, JSON.stringify(roleCreated.body));
      const adminRole = roleCreated.body.data.id;
      const permissions = await admin.put(`/admin/roles/${adminRole}/permissions`, {
        permissions: [{ action: 'plugin::content-manager.explorer.read', subject: 'api::article.article' }],
      });
      assert.equal(permissions.status, 200, JSON.stringify(permissions.body));
      const invited = await admin.post('/admin/users', {
        email: `${unique('dora')}@example.com`,
        firstname: 'Dora',
        roles: [adminRole],
      });
      assert.equal(invited.status, 201, JSON.stringify(invited.body));
      const dora = invited.body.data.id;
      assert.equal((await admin.put(`/admin/users/${dora}`, { lastname: 'Explorer', firstname: 'Dora' })).status, 200);
      assert.equal((await admin.delete(`/admin/users/${dora}`)).status, 200);
      assert.equal((await admin.delete(`/admin/roles/${adminRole}`)).status, 200);

      const entries = await entriesSince(admin, since);
      const userId = user.body.data.documentId;
      assert.deepEqual(entries.map(brief), [
        { action: 'api-token.create', subject: String(token.body.data.id) },
        { action: 'api-token.revoke', subject: String(token.body.data.id) },
        { action: 'role.create', uid: 'plugin::users-permissions.role', changed: ['name', 'type'] },
        { action: 'role.update', uid: 'plugin::users-permissions.role', changed: ['description'] },
        { action: 'permission.update', uid: 'plugin::users-permissions.role' },
        // Deleting the role revokes its grants first.
        { action: 'permission.delete', uid: 'plugin::users-permissions.role' },
        { action: 'role.delete', uid: 'plugin::users-permissions.role' },
        {
          action: 'entry.create',
          uid: 'plugin::users-permissions.user',
          changed: ['username', 'email', 'provider', 'password', 'confirmed', 'role'],
        },
        { action: 'entry.update', uid: 'plugin::users-permissions.user', changed: ['blocked'] },
        { action: 'entry.delete', uid: 'plugin::users-permissions.user' },
        { action: 'user.create', subject: String(carol.body.data.id) },
        { action: 'user.delete', subject: String(carol.body.data.id) },
        { action: 'role.create', subject: String(adminRole) },
        { action: 'permission.update', subject: String(adminRole), changed: ['plugin::content-manager.explorer.read'] },
        { action: 'user.create', subject: String(dora) },
        { action: 'user.update', subject: String(dora), changed: ['lastname'] },
        { action: 'user.delete', subject: String(dora) },
        { action: 'role.delete', subject: String(adminRole) },
      ]);
      assert.equal(entries[7]!.payload.documentId, userId);
      assert.deepEqual(entries[0]!.payload.details, { name, type: 'read-only' });
      assert.deepEqual(entries[4]!.payload.details, { added: ['api::article.article.find'], removed: [] });
      for (const entry of entries) assert.equal(entry.user?.id, ann.id);
      const text = JSON.stringify(entries);
      assert.ok(!text.includes(token.body.data.accessKey), 'the access key is never recorded');
      assert.ok(!text.includes('a-user-password') && !text.includes('carols-password'), 'no password is recorded');
    });

    it('records webhooks, settings and locales by the names of what changed, never a secret', async () => {
      const admin = ann.client;
      const since = await latestId(admin);
      const hook = await admin.post('/admin/webhooks', {
        name: unique('hook'),
        url: 'http://127.0.0.1:9/hook',
        headers: { Authorization: 'Bearer header-secret' },
        events: ['entry.create'],
        secret: 'signing-secret',
      });
      assert.equal(hook.status, 201, JSON.stringify(hook.body));
      const id = hook.body.data.id;
      await admin.put(`/admin/webhooks/${id}`, {
        events: ['entry.create', 'entry.update'],
        headers: { A: 'other-secret' },
      });
      await admin.delete(`/admin/webhooks/${id}`);
      assert.equal((await admin.put('/admin/users-permissions/advanced', { allow_register: false })).status, 200);
      const providers = await admin.put('/admin/users-permissions/providers', {
        providers: { github: { enabled: true, key: 'gh-key', secret: 'provider-secret' } },
      });
      assert.equal(providers.status, 200, JSON.stringify(providers.body));
      assert.equal((await admin.post('/admin/locales', { code: 'de' })).status, 201);
      assert.equal((await admin.put('/admin/locales/de', { name: 'Deutsch' })).status, 200);
      assert.equal((await admin.delete('/admin/locales/de')).status, 200);

      const entries = await entriesSince(admin, since);
      assert.deepEqual(entries.map(brief), [
        { action: 'webhook.create', subject: String(id) },
        { action: 'webhook.update', subject: String(id), changed: ['headers', 'events'] },
        { action: 'webhook.delete', subject: String(id) },
        { action: 'settings.update', subject: 'users-permissions.advanced', changed: ['allow_register'] },
        {
          action: 'settings.update',
          subject: 'users-permissions.providers',
          changed: ['github.enabled', 'github.key', 'github.secret'],
        },
        { action: 'locale.create', subject: 'de' },
        { action: 'locale.update', subject: 'de', changed: ['name'] },
        { action: 'locale.delete', subject: 'de' },
      ]);
      const text = JSON.stringify(entries);
      for (const secret of ['header-secret', 'other-secret', 'signing-secret', 'provider-secret', 'gh-key'])
        assert.ok(!text.includes(secret), `${secret} is not recorded`);
    });

    it('records media files uploaded, changed and deleted in the media library', async () => {
      const since = await latestId(ann.client);
      const bytes = await png(4, 4);
      const form = new FormData();
      form.append('files', new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'image/png' }), 'a.png');
      const created = await fetch(`${server.url}/admin/upload`, {
        method: 'POST',
        headers: ann.client.defaultHeaders,
        body: form,
      });
      assert.equal(created.status, 201);
      const [file] = (await created.json()) as { id: number; documentId: string }[];
      const info = new FormData();
      info.append('fileInfo', JSON.stringify({ alternativeText: 'a square' }));
      const changed = await fetch(`${server.url}/admin/upload?id=${file!.id}`, {
        method: 'POST',
        headers: ann.client.defaultHeaders,
        body: info,
      });
      assert.equal(changed.status, 200);
      assert.equal((await ann.client.delete(`/admin/upload/files/${file!.id}`)).status, 200);
      const entries = await entriesSince(ann.client, since);
      assert.deepEqual(
        entries.map((entry) => [
          entry.action,
          entry.payload.documentId,
          entry.payload.changedFields?.includes('alternativeText'),
        ]),
        [
          ['media.create', file!.documentId, false],
          ['media.update', file!.documentId, true],
          ['media.delete', file!.documentId, undefined],
        ],
      );
    });

    it("lists with Strapi's filters and sorts, pages with a cursor, and names each bad parameter", async () => {
      const admin = ann.client;
      const dan = await adminClient(server, `${unique('dan')}@example.com`);
      const type = '/admin/content-manager/collection-types/api::tag.tag';
      const made: string[] = [];
      for (let index = 0; index < 7; index++) {
        const created = await dan.client.post(type, { data: { name: unique(`tag${index}`) } });
        made.push(created.body.data.documentId);
      }
      const mine = `filters[$and][0][user][id][$eq]=${dan.id}&filters[$and][1][contentType][$eq]=api::tag.tag`;
      const first = await admin.get(`/admin/audit-logs?${mine}&pageSize=3`);
      assert.equal(first.status, 200);
      assert.deepEqual(
        { ...first.body.pagination, next: typeof first.body.pagination.next },
        { page: 1, pageSize: 3, pageCount: 3, total: 7, next: 'string' },
      );
      // Newest first; the cursor goes on where the page ended, to the last.
      const seen: string[] = first.body.results.map((entry: Entry) => entry.payload.documentId);
      let next = first.body.pagination.next;
      while (next) {
        const page = await admin.get(`/admin/audit-logs?${mine}&pageSize=3&cursor=${next}`);
        assert.equal(page.status, 200);
        assert.deepEqual(Object.keys(page.body.pagination).sort(), ['next', 'pageSize']);
        seen.push(...page.body.results.map((entry: Entry) => entry.payload.documentId));
        next = page.body.pagination.next;
      }
      assert.deepEqual(seen, [...made].reverse());
      // Offset pages agree with the cursor's.
      const third = await admin.get(`/admin/audit-logs?${mine}&pageSize=3&page=3`);
      assert.deepEqual(
        third.body.results.map((entry: Entry) => entry.payload.documentId),
        [made[0]],
      );
      // Dates: a range holding nothing, then everything.
      const future = new Date(Date.now() + 3_600_000).toISOString();
      const none = await admin.get(`/admin/audit-logs?${mine}&filters[$and][2][date][$gte]=${future}`);
      assert.equal(none.body.pagination.total, 0);
      const all = await admin.get(`/admin/audit-logs?${mine}&filters[$and][2][date][$lt]=${future}&pageSize=100`);
      assert.equal(all.body.pagination.total, 7);
      // Sorts: by action, and by date ascending.
      const byAction = await admin.get('/admin/audit-logs?sort=action:ASC&pageSize=100');
      const actions = byAction.body.results.map((entry: Entry) => entry.action);
      assert.deepEqual(actions, [...actions].sort());
      const oldest = await admin.get(`/admin/audit-logs?${mine}&sort=date:ASC&pageSize=1`);
      assert.equal(oldest.body.results[0].payload.documentId, made[0]);
      // $ne and $in.
      const notDan = await admin.get(`/admin/audit-logs?filters[user][id][$ne]=${dan.id}&pageSize=100`);
      assert.ok(notDan.body.results.every((entry: Entry) => entry.user?.id !== dan.id));
      const actionsIn = await admin.get(
        '/admin/audit-logs?filters[action][$in][0]=admin.auth.success&filters[action][$in][1]=user.create&pageSize=100',
      );
      assert.ok(actionsIn.body.results.length > 0);
      assert.ok(
        actionsIn.body.results.every((entry: Entry) => ['admin.auth.success', 'user.create'].includes(entry.action)),
      );
      // The administrators who have entries, each as their latest entry names them.
      const users = await admin.get('/admin/audit-logs/users?pageSize=100');
      assert.equal(users.status, 200);
      assert.ok(
        users.body.results.some(
          (user: { id: number; email: string }) => user.id === dan.id && user.email === dan.email,
        ),
      );
      assert.equal((await admin.get('/admin/audit-logs/settings')).body.data.retentionDays, 90);

      const refused: [string, RegExp][] = [
        ['filters[who][$eq]=1', /filtered by action, user, contentType, documentId, locale, date, not who/],
        ['filters[action][$like]=x', /filters\.action\.\$like: action takes \$eq, \$ne, \$in, \$notIn/],
        ['filters[date][$gte]=yesterday', /filters\.date\.\$gte must be a date/],
        ['filters[user][id][$eq]=ann', /must be an administrator's id/],
        ['filters[$or][0][action]=x', /combine conditions with \$and only/],
        ['sort=user:ASC', /sort must be one of date:DESC, date:ASC, action:ASC, action:DESC/],
        ['pageSize=500', /pageSize must be an integer from 1 to 100/],
        ['page=0', /page must be an integer from 1/],
        ['page=2000&pageSize=10', /past the first 10000 entries/],
        ['cursor=abc', /cursor must be the pagination.next of an earlier answer/],
        ['cursor=1_1&sort=action:ASC', /cursor pages are sorted by date/],
        ['limit=5', /Unknown parameter limit/],
      ];
      for (const [query, message] of refused) {
        const res = await admin.get(`/admin/audit-logs?${query}`);
        assert.equal(res.status, 400, query);
        assert.equal(res.body.error.name, 'ValidationError');
        assert.match(res.body.error.message, message, query);
      }
      assert.equal((await admin.get('/admin/audit-logs/999999999')).status, 404);
      assert.equal((await server.publicApi.get('/admin/audit-logs')).status, 401);
      // An Editor may not read it: a Super Admin's alone (Strapi's admin::audit-logs.read).
      const editor = await adminClient(server, `${unique('eve')}@example.com`);
      const editorRole = (await admin.get('/admin/roles')).body.data.find(
        (role: { code: string }) => role.code === 'strapi-editor',
      );
      assert.equal((await admin.put(`/admin/users/${editor.id}`, { roles: [editorRole.id] })).status, 200);
      const refusedToEditor = await editor.client.get('/admin/audit-logs');
      assert.equal(refusedToEditor.status, 403, JSON.stringify(refusedToEditor.body));
      assert.equal((await editor.client.get('/admin/audit-logs/users')).status, 403);
      assert.equal((await server.api.get('/admin/audit-logs')).status, 401);
    });
  });
}
