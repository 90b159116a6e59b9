/**
 * Administrator roles and permissions (docs/admin-panel.md "Roles"), over HTTP on every dialect:
 * Strapi 5.54's three roles and `GET /admin/permissions` as it answered them for the blog fixture
 * (test/fixtures/admin-roles/), invitations, the last Super Admin kept, and the content manager
 * enforcing roles: an Author sees and edits only what they created and may not publish, a role
 * limited to some fields reads and writes only those, a role limited to some locales only those.
 * A seeded random sequence of editors' steps checks each answer against a model.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { fixture, DIALECTS, startServer, type TestServer } from '../helpers/server.js';
import { HttpClient } from '../helpers/http.js';
import { createRole, explorerPermission, registerFirstAdmin } from '../helpers/admins.js';

const ARTICLE = 'api::article.article';
const ARTICLES = `/admin/content-manager/collection-types/${ARTICLE}`;
const strapi = (name: string) =>
  JSON.parse(readFileSync(fixture(`admin-roles/strapi-${name}.json`), 'utf8')) as { data: any };

/** A random generator with a seed (mulberry32): a failing sequence is replayed from its seed. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

for (const dialect of DIALECTS) {
  describe(`administrator roles (${dialect})`, () => {
    let server: TestServer;
    let root: HttpClient;
    const as = (token: string) => new HttpClient(server.url, { authorization: `Bearer ${token}` });

    /** Invites an administrator with these roles and registers them; answers their client and id. */
    const invite = async (email: string, roles: number[]): Promise<{ client: HttpClient; id: number }> => {
      const invited = await root.post('/admin/users', { email, firstname: email.split('@')[0], roles });
      assert.equal(invited.status, 201, JSON.stringify(invited.body));
      const code = invited.body.data.registrationToken as string;
      const info = await server.publicApi.get(`/admin/registration-info?registrationToken=${code}`);
      assert.equal(info.body.data.email, email);
      const registered = await server.publicApi.post('/admin/register', {
        registrationToken: code,
        userInfo: { firstname: 'Reg', password: 'Passw0rd-Reg' },
      });
      assert.equal(registered.status, 200, JSON.stringify(registered.body));
      assert.deepEqual(
        registered.body.data.user.roles.map((role: { id: number }) => role.id),
        roles,
      );
      // The code works once.
      assert.equal((await server.publicApi.get(`/admin/registration-info?registrationToken=${code}`)).status, 400);
      return { client: as(registered.body.data.token), id: registered.body.data.user.id };
    };

    before(async () => {
      server = await startServer(dialect);
      root = (
        await registerFirstAdmin(server, {
          email: 'root@example.com',
          password: 'Passw0rd-Root',
          firstname: 'Root',
          lastname: 'Admin',
        })
      ).client;
    });
    after(() => server?.close());

    it('makes Strapi’s three roles, and the first administrator a Super Admin', async () => {
      const roles = await root.get('/admin/roles');
      assert.deepEqual(
        roles.body.data.map((role: Record<string, unknown>) => [role.name, role.code, role.usersCount]),
        [
          ['Super Admin', 'strapi-super-admin', 1],
          ['Editor', 'strapi-editor', 0],
          ['Author', 'strapi-author', 0],
        ],
      );
      assert.deepEqual(Object.keys(roles.body.data[0]).sort(), Object.keys(strapi('roles').data[0]).sort());
      const me = await root.get('/admin/users/me');
      assert.deepEqual(Object.keys(me.body.data).sort(), Object.keys(strapi('users-me').data).sort());
      assert.equal(me.body.data.firstname, 'Root');
      assert.deepEqual(me.body.data.roles, strapi('users-me').data.roles);
      const page = await root.get('/admin/users');
      assert.deepEqual(page.body.data.pagination, { page: 1, pageSize: 10, pageCount: 1, total: 1 });
    });

    it('answers GET /admin/permissions as Strapi 5.54 does for the same schema, with its Enterprise audit log action', async () => {
      const answer = await root.get('/admin/permissions');
      // Strapi lists its releases' actions only with a license (its free edition answered the
      // fixture); Vellum gives releases free, so they follow the content manager's, as Strapi orders plugins.
      const expected = strapi('permissions');
      const releases = [
        ['read', 'Read'],
        ['create', 'Create'],
        ['update', 'Edit'],
        ['delete', 'Delete'],
        ['publish', 'Publish'],
        ['delete-action', 'Remove an entry from a release'],
        ['create-action', 'Add an entry to a release'],
      ].map(([uid, displayName]) => ({
        displayName,
        plugin: 'content-releases',
        subCategory: 'general',
        action: `plugin::content-releases.${uid}`,
      }));
      expected.data.sections.plugins.splice(3, 0, ...releases);
      // Their settings (a default time zone) after the free plugins' settings, as Strapi registers them.
      const afterLocales =
        expected.data.sections.settings.findIndex(
          (item: Record<string, unknown>) => item.action === 'plugin::i18n.locale.delete',
        ) + 1;
      expected.data.sections.settings.splice(
        afterLocales,
        0,
        ...[
          ['read', 'Read'],
          ['update', 'Edit'],
        ].map(([uid, displayName]) => ({
          displayName,
          category: 'content releases',
          subCategory: 'options',
          action: `plugin::content-releases.settings.${uid}`,
        })),
      );
      // Strapi's free edition ends its settings with the transfer tokens; its Enterprise edition adds
      // the audit log's read action after them, which Vellum grants freely.
      expected.data.sections.settings.push({
        displayName: 'Read',
        category: 'audit logs',
        subCategory: 'options',
        action: 'admin::audit-logs.read',
      });
      assert.deepEqual(answer.body, expected);
    });

    it('gives the Editor and the Author Strapi’s permissions, with every locale (a deliberate difference)', async () => {
      const strip = (list: Record<string, any>[]) =>
        list
          .map(({ id: _id, ...permission }) => {
            // Strapi's default roles leave out the locales of localized types, and with them the
            // delete and publish permissions of those types: Vellum's roles hold every locale.
            if (permission.subject === ARTICLE) return undefined;
            return JSON.stringify(permission);
          })
          .filter((item): item is string => item !== undefined)
          .sort();
      for (const [id, name] of [
        [2, 'roles_2_permissions'],
        [3, 'roles_3_permissions'],
      ] as const) {
        const ours = await root.get(`/admin/roles/${id}/permissions`);
        assert.deepEqual(strip(ours.body.data), strip(strapi(name).data));
        const article = ours.body.data.filter((p: { subject: string }) => p.subject === ARTICLE);
        assert.ok(article.every((p: { properties: { locales: string[] } }) => p.properties.locales.length === 2));
      }
    });

    it('enforces "is creator", publishing and the admin settings on the Author and the Editor', async () => {
      const author = await invite('author@example.com', [3]);
      const editor = await invite('editor@example.com', [2]);
      const rootArticle = await root.post(ARTICLES, { data: { title: 'By root' } });
      assert.equal(rootArticle.status, 201);
      const mine = await author.client.post(ARTICLES, { data: { title: 'By the author' } });
      assert.equal(mine.status, 201, JSON.stringify(mine.body));
      const mineId = mine.body.data.documentId as string;
      const listed = await author.client.get(ARTICLES);
      assert.deepEqual(
        listed.body.data.map((doc: { title: string }) => doc.title),
        ['By the author'],
      );
      const other = `${ARTICLES}/${rootArticle.body.data.documentId}`;
      assert.equal((await author.client.get(other)).status, 403);
      assert.equal((await author.client.put(other, { data: { title: 'taken' } })).status, 403);
      assert.equal((await author.client.delete(other)).status, 403);
      const publish = await author.client.post(`${ARTICLES}/${mineId}/actions/publish`, {});
      assert.equal(publish.status, 403);
      assert.equal(publish.body.error.name, 'PolicyError');
      assert.equal((await author.client.put(`${ARTICLES}/${mineId}`, { data: { title: 'Edited' } })).status, 200);
      // The editor edits and publishes anybody's, but manages no administrators.
      assert.equal((await editor.client.get(ARTICLES)).body.data.length, 2);
      assert.equal((await editor.client.post(`${ARTICLES}/${mineId}/actions/publish`, {})).status, 200);
      const users = await editor.client.get('/admin/users');
      assert.equal(users.status, 403);
      assert.deepEqual(users.body.error, { status: 403, name: 'PolicyError', message: 'Policy Failed', details: {} });
      assert.equal((await editor.client.get('/admin/api-tokens')).status, 403);
      assert.equal((await editor.client.get('/content-type-builder/schema')).status, 403);
      assert.equal((await root.get('/content-type-builder/schema')).status, 200);
      assert.equal((await editor.client.get('/admin/upload/files')).status, 200);
      assert.equal((await author.client.get('/admin/scheduled-actions')).status, 403);
      assert.equal((await editor.client.get('/admin/scheduled-actions')).status, 200);
      // The creator fields record who wrote what.
      const rows = await server.vellum.database.db
        .selectFrom('articles')
        .select(['title', 'created_by_id', 'updated_by_id', 'published_at'])
        .where('document_id', '=', mineId)
        .execute();
      assert.ok(rows.length === 2);
      for (const row of rows as { created_by_id: number; updated_by_id: number }[]) {
        assert.equal(Number(row.created_by_id), author.id);
        assert.equal(Number(row.updated_by_id), editor.id);
      }
    });

    it('limits a custom role to some fields and some locales', async () => {
      const properties = { fields: ['title', 'seo.metaTitle'], locales: ['fr'] };
      const permissions = ['create', 'read', 'update'].map((action) => explorerPermission(action, ARTICLE, properties));
      const roleId = await createRole(root, 'Titles only', permissions, 'French titles');
      const limited = await invite('titles@example.com', [roleId]);
      assert.equal((await limited.client.get(`${ARTICLES}?locale=en`)).status, 403);
      const written = await limited.client.post(`${ARTICLES}?locale=fr`, {
        data: { title: 'Titre', body: 'dropped', seo: { metaTitle: 'kept', metaDescription: 'dropped' } },
      });
      assert.equal(written.status, 201, JSON.stringify(written.body));
      const read = await root.get(`${ARTICLES}/${written.body.data.documentId}?locale=fr&populate=seo`);
      assert.equal(read.body.data.title, 'Titre');
      assert.equal(read.body.data.body ?? null, null);
      assert.equal(read.body.data.seo.metaTitle, 'kept');
      assert.equal(read.body.data.seo.metaDescription ?? null, null);
      const checked = await limited.client.post('/admin/permissions/check', {
        permissions: [
          { action: 'plugin::content-manager.explorer.read', subject: ARTICLE, field: 'title' },
          { action: 'plugin::content-manager.explorer.read', subject: ARTICLE, field: 'body' },
          { action: 'plugin::content-manager.explorer.read', subject: ARTICLE, field: 'seo.metaTitle' },
          { action: 'plugin::content-manager.explorer.publish', subject: ARTICLE },
          { action: 'admin::users.read' },
        ],
      });
      assert.deepEqual(checked.body.data, [true, false, true, false, false]);
      const seen = await limited.client.get(`${ARTICLES}?locale=fr`);
      assert.ok(seen.body.data.length >= 1);
      for (const doc of seen.body.data) assert.equal('body' in doc, false);
      // Refusals in Strapi's words.
      const bad = await root.put(`/admin/roles/${roleId}/permissions`, {
        permissions: [{ action: 'plugin::content-manager.explorer.fly', subject: ARTICLE }],
      });
      assert.equal(bad.status, 400);
      assert.equal(bad.body.error.message, 'action is not an existing permission action');
      const superAdmin = await root.put('/admin/roles/1/permissions', { permissions: [] });
      assert.equal(superAdmin.body.error.message, "Super admin permissions can't be edited.");
      const held = await root.delete(`/admin/roles/${roleId}`);
      assert.equal(held.status, 400);
      assert.equal(held.body.error.message, 'Some roles are still assigned to some users');
    });

    it('stores a permission that names no locales with the default locale, as Strapi does; null is every locale', async () => {
      const created = await root.post('/admin/roles', { name: 'Locales as Strapi', description: '' });
      const roleId = created.body.data.id as number;
      const read = (properties: Record<string, unknown>) => ({
        action: 'plugin::content-manager.explorer.read',
        subject: ARTICLE,
        properties,
        conditions: [],
      });
      const set = await root.put(`/admin/roles/${roleId}/permissions`, {
        permissions: [read({}), { ...read({ locales: [] }), action: 'plugin::content-manager.explorer.update' }],
      });
      assert.equal(set.status, 200, JSON.stringify(set.body));
      assert.deepEqual(
        set.body.data.map((p: { properties: unknown }) => p.properties),
        [{ locales: ['en'] }, { locales: ['en'] }],
      );
      const member = await invite('default-locale@example.com', [roleId]);
      assert.equal((await member.client.get(`${ARTICLES}?locale=en`)).status, 200);
      assert.equal((await member.client.get(`${ARTICLES}?locale=fr`)).status, 403);
      const every = await root.put(`/admin/roles/${roleId}/permissions`, { permissions: [read({ locales: null })] });
      assert.deepEqual(every.body.data[0].properties, { locales: null });
      assert.equal((await member.client.get(`${ARTICLES}?locale=fr`)).status, 200);
    });

    it('lets a role granted admin::audit-logs.read (Strapi’s Enterprise action) read the audit log', async () => {
      const created = await root.post('/admin/roles', { name: 'Auditors', description: '' });
      const roleId = created.body.data.id as number;
      const auditor = await invite('auditor@example.com', [roleId]);
      assert.equal((await auditor.client.get('/admin/audit-logs')).status, 403);
      const set = await root.put(`/admin/roles/${roleId}/permissions`, {
        permissions: [{ action: 'admin::audit-logs.read', subject: null, properties: {}, conditions: [] }],
      });
      assert.equal(set.status, 200, JSON.stringify(set.body));
      const page = await auditor.client.get('/admin/audit-logs');
      assert.equal(page.status, 200, JSON.stringify(page.body));
      assert.ok(page.body.results.some((entry: { action: string }) => entry.action === 'permission.update'));
      assert.equal((await auditor.client.get('/admin/audit-logs/settings')).status, 200);
    });

    it('keeps an Author to the media they uploaded: Strapi’s "is creator" on the media library', async () => {
      /** `POST /admin/upload` of one small text file as this administrator (`?id=` replaces one). */
      const send = async (client: HttpClient, name: string, id?: number) => {
        const form = new FormData();
        form.append('files', new Blob([`${name}\n`], { type: 'text/plain' }), name);
        const response = await fetch(`${server.url}/admin/upload${id === undefined ? '' : `?id=${id}`}`, {
          method: 'POST',
          body: form,
          headers: client.defaultHeaders,
        });
        const body = await response.json();
        return { status: response.status, body };
      };
      const author = await invite('media-author@example.com', [3]);
      const other = await invite('media-other@example.com', [3]);
      const byRoot = await send(root, 'root-file.txt');
      assert.equal(byRoot.status, 201, JSON.stringify(byRoot.body));
      const byAuthor = await send(author.client, 'author-file.txt');
      assert.equal(byAuthor.status, 201, JSON.stringify(byAuthor.body));
      const rootFile = byRoot.body[0].id as number;
      const authorFile = byAuthor.body[0].id as number;
      const names = async (client: HttpClient) =>
        ((await client.get('/admin/upload/files?pageSize=100')).body.results as { name: string }[])
          .map((file) => file.name)
          .filter((name) => name.endsWith('-file.txt'))
          .sort();
      assert.deepEqual(await names(author.client), ['author-file.txt']);
      assert.deepEqual(await names(other.client), []);
      assert.deepEqual(await names(root), ['author-file.txt', 'root-file.txt']);
      assert.equal((await author.client.get(`/admin/upload/files/${authorFile}`)).status, 200);
      assert.equal((await author.client.get(`/admin/upload/files/${rootFile}`)).status, 403);
      assert.equal((await author.client.get('/admin/upload/files/999999')).status, 404);
      assert.equal((await send(author.client, 'replaced.txt', rootFile)).status, 403);
      assert.equal((await author.client.delete(`/admin/upload/files/${rootFile}`)).status, 403);
      assert.equal((await other.client.delete(`/admin/upload/files/${authorFile}`)).status, 403);
      assert.equal((await send(author.client, 'author-file-2.txt', authorFile)).status, 200);
      assert.equal((await author.client.delete(`/admin/upload/files/${authorFile}`)).status, 200);
      // The Editor's media library is everybody's.
      const editor = await invite('media-editor@example.com', [2]);
      assert.deepEqual(await names(editor.client), ['root-file.txt']);
    });

    it('lets a role with "has same role as creator" reach the documents of its members only', async () => {
      const team = async (name: string) => {
        const sameRole = ['admin::has-same-role-as-creator'];
        return createRole(root, name, [
          explorerPermission('create', ARTICLE),
          ...['read', 'update'].map((action) => explorerPermission(action, ARTICLE, {}, sameRole)),
        ]);
      };
      const blue = await team(`Blue ${dialect}`);
      const green = await team(`Green ${dialect}`);
      const b1 = await invite(`b1-${dialect}@example.com`, [blue]);
      const b2 = await invite(`b2-${dialect}@example.com`, [blue]);
      const g1 = await invite(`g1-${dialect}@example.com`, [green]);
      const written = await b1.client.post(ARTICLES, { data: { title: 'Blue team' } });
      assert.equal(written.status, 201);
      const path = `${ARTICLES}/${written.body.data.documentId}`;
      assert.equal((await b2.client.get(path)).status, 200);
      assert.equal((await b2.client.put(path, { data: { title: 'Blue team, edited' } })).status, 200);
      assert.equal((await g1.client.get(path)).status, 403);
      assert.deepEqual(
        (await g1.client.get(ARTICLES)).body.data.map((doc: { documentId: string }) => doc.documentId),
        [],
      );
    });

    it('refuses an administrator made inactive: their login, and the tokens they hold', async () => {
      const email = `inactive-${dialect}@example.com`;
      const { client, id } = await invite(email, [2]);
      assert.equal((await client.get('/admin/users/me')).status, 200);
      const off = await root.put(`/admin/users/${id}`, { isActive: false });
      assert.equal(off.status, 200);
      assert.equal(off.body.data.isActive, false);
      assert.equal((await client.get('/admin/users/me')).status, 401);
      const login = await server.publicApi.post('/admin/login', { email, password: 'Passw0rd-Reg' });
      assert.equal(login.status, 400);
      assert.equal(login.body.error.message, 'User not active');
      // A wrong password says nothing of the account.
      const wrong = await server.publicApi.post('/admin/login', { email, password: 'Not-the-passw0rd' });
      assert.equal(wrong.body.error.message, 'Invalid credentials');
      assert.equal((await root.put(`/admin/users/${id}`, { isActive: true })).status, 200);
      assert.equal((await server.publicApi.post('/admin/login', { email, password: 'Passw0rd-Reg' })).status, 200);
    });

    it('keeps one Super Admin', async () => {
      const me = (await root.get('/admin/users/me')).body.data;
      const demote = await root.put(`/admin/users/${me.id}`, { roles: [2] });
      assert.equal(demote.status, 400);
      assert.equal(demote.body.error.message, 'You must have at least one user with super admin role.');
      const self = await root.delete(`/admin/users/${me.id}`);
      // Strapi's answer: the last Super Admin's check comes first.
      assert.equal(self.body.error.message, 'You must have at least one user with super admin role.');
    });

    it('answers a seeded random sequence of editors’ steps as the model says', async () => {
      const seed = 20261129 + DIALECTS.indexOf(dialect);
      const next = random(seed);
      const a1 = await invite(`a1-${seed}@example.com`, [3]);
      const a2 = await invite(`a2-${seed}@example.com`, [3]);
      const ed = await invite(`ed-${seed}@example.com`, [2]);
      const actors = [
        { name: 'a1', ...a1, author: true },
        { name: 'a2', ...a2, author: true },
        { name: 'ed', ...ed, author: false },
      ];
      const model = new Map<string, string>(); // documentId -> creator's name
      for (let step = 0; step < 40; step++) {
        const actor = actors[Math.floor(next() * actors.length)]!;
        const ids = [...model.keys()];
        const kind =
          ids.length === 0 ? 'create' : ['create', 'update', 'publish', 'delete', 'read'][Math.floor(next() * 5)]!;
        const target = ids[Math.floor(next() * ids.length)];
        const own = target !== undefined && model.get(target) === actor.name;
        const where = `seed ${seed} step ${step}: ${actor.name} ${kind} ${target ?? ''}`;
        if (kind === 'create') {
          const answer = await actor.client.post(ARTICLES, { data: { title: `${actor.name} ${step}` } });
          assert.equal(answer.status, 201, where);
          model.set(answer.body.data.documentId, actor.name);
        } else if (kind === 'update') {
          const answer = await actor.client.put(`${ARTICLES}/${target}`, { data: { title: `u ${step}` } });
          assert.equal(answer.status, actor.author && !own ? 403 : 200, where);
        } else if (kind === 'publish') {
          const answer = await actor.client.post(`${ARTICLES}/${target}/actions/publish`, {});
          assert.equal(answer.status, actor.author ? 403 : 200, where);
        } else if (kind === 'delete') {
          const answer = await actor.client.delete(`${ARTICLES}/${target}`);
          const allowed = !actor.author || own;
          assert.equal(answer.status, allowed ? 204 : 403, where);
          if (allowed) model.delete(target!);
        } else {
          const answer = await actor.client.get(`${ARTICLES}?pagination[pageSize]=100`);
          const titles = new Set(answer.body.data.map((doc: { documentId: string }) => doc.documentId));
          for (const [id, creator] of model) {
            const visible = !actor.author || creator === actor.name;
            if (visible) assert.ok(titles.has(id), `${where}: ${id} missing`);
            else assert.ok(!titles.has(id), `${where}: ${id} shown`);
          }
        }
      }
    });
  });
}
