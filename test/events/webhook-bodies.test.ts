/**
 * Webhook bodies exactly as Strapi 5.54 sends them, where Vellum differed (found side by side in
 * test/differential/webhooks.diff.ts): no `locale` on types without i18n, media of an entry as
 * whole files, users' writes (registration, update; a deletion sends nothing), and the content
 * manager's publish saving the draft first. Each test has its own receiver and webhook and looks
 * only at what its own documents caused.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { HttpClient } from '../helpers/http.js';
import { ARTICLE_SCHEMA, copyProject } from '../helpers/projects.js';
import { Receiver } from '../helpers/receiver.js';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';
import { unique } from '../helpers/unique.js';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const USER_UID = 'plugin::users-permissions.user';

for (const dialect of DIALECTS) {
  describe(`webhook bodies as Strapi's [${dialect}]`, () => {
    let server: TestServer;
    let admin: HttpClient;
    const receivers: Receiver[] = [];

    const hook = async (events: string[]) => {
      const receiver = await Receiver.start();
      receivers.push(receiver);
      const created = await admin.post('/admin/webhooks', {
        name: unique('hook'),
        url: receiver.url,
        headers: {},
        events,
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      return { receiver, id: created.body.data.id as string };
    };
    const about = (receiver: Receiver, documentId: string) =>
      receiver.delivered.filter((r) => (r.body.entry ?? r.body.media)?.documentId === documentId);

    before(async () => {
      server = await startServer(dialect, { config: { server: { webhooks: { pollInterval: 50, retryDelay: 50 } } } });
      await server.vellum.auth.admins.create('bodies@example.com', 'an-admin-password');
      const login = await server.publicApi.post('/admin/login', {
        email: 'bodies@example.com',
        password: 'an-admin-password',
      });
      admin = new HttpClient(server.url, { authorization: `Bearer ${login.body.data.token}` });
    });
    after(async () => {
      await server?.close();
      for (const receiver of receivers) await receiver.close();
    });

    it('no locale in the entry of a type without i18n, nor in a file; a localized entry keeps it', async () => {
      const { receiver } = await hook(['entry.create', 'entry.update', 'entry.delete', 'media.create']);
      const author = (await server.api.post('/api/authors', { data: { name: unique('No locale') } })).body.data
        .documentId;
      await server.api.put(`/api/authors/${author}`, { data: { bio: 'b' } });
      await server.api.delete(`/api/authors/${author}`);
      const article = (await server.api.post('/api/articles?status=draft', { data: { title: unique('With locale') } }))
        .body.data.documentId;
      const form = new FormData();
      form.append('files', new Blob([PNG], { type: 'image/png' }), `${unique('no-locale')}.png`);
      const file = (
        (await (
          await fetch(`${server.url}/api/upload`, { method: 'POST', headers: server.authHeaders, body: form })
        ).json()) as { documentId: string }[]
      )[0]!;
      await receiver.until(
        () =>
          about(receiver, author).length >= 3 &&
          about(receiver, article).length >= 1 &&
          about(receiver, file.documentId).length >= 1,
        'the events',
      );
      assert.deepEqual(
        about(receiver, author).map((r) => [r.body.event, 'locale' in r.body.entry]),
        [
          ['entry.create', false],
          ['entry.update', false],
          ['entry.delete', false],
        ],
      );
      assert.equal(about(receiver, article)[0]!.body.entry.locale, 'en');
      assert.ok(!('locale' in about(receiver, file.documentId)[0]!.body.media));
    });

    it("a type without draft and publish lists every linked version of a target that has them, as Strapi's query engine", async () => {
      const { receiver } = await hook(['entry.create', 'entry.update']);
      const published = (await server.api.post('/api/articles', { data: { title: unique('Both versions') } })).body.data
        .documentId;
      const draft = (await server.api.post('/api/articles?status=draft', { data: { title: unique('Draft only') } }))
        .body.data.documentId;
      const category = (
        await server.api.post('/api/categories', { data: { name: unique('Every version'), articles: [published] } })
      ).body.data.documentId;
      await server.api.put(`/api/categories/${category}`, { data: { articles: { connect: [draft] } } });
      await receiver.until(() => about(receiver, category).length >= 2, "the category's events");
      const [created, updated] = about(receiver, category).map((r) =>
        r.body.entry.articles.map((a: { documentId: string; publishedAt: string | null }) => [
          a.documentId,
          a.publishedAt === null ? 'draft' : 'published',
        ]),
      );
      // The REST answer lists the published versions only; the event, every row linked.
      assert.deepEqual(created, [
        [published, 'draft'],
        [published, 'published'],
      ]);
      assert.deepEqual(updated, [
        [published, 'draft'],
        [published, 'published'],
        [draft, 'draft'],
      ]);
    });

    it("an entry's media are whole files, as Strapi populates them (select *)", async () => {
      const { receiver } = await hook(['entry.create', 'entry.publish']);
      const name = `${unique('whole')}.png`;
      const form = new FormData();
      form.append('files', new Blob([PNG], { type: 'image/png' }), name);
      form.append('fileInfo', JSON.stringify({ alternativeText: 'Alt', caption: 'Cap' }));
      const file = (
        (await (
          await fetch(`${server.url}/api/upload`, { method: 'POST', headers: server.authHeaders, body: form })
        ).json()) as { id: number; url: string }[]
      )[0]!;
      const author = (await server.api.post('/api/authors', { data: { name: unique('Avatar'), avatar: file.id } })).body
        .data.documentId;
      const article = (
        await server.api.post('/api/articles', { data: { title: unique('Cover'), cover: file.id, gallery: [file.id] } })
      ).body.data.documentId;
      await receiver.until(
        () => about(receiver, author).length >= 1 && about(receiver, article).length >= 2,
        'the events',
      );
      const whole = {
        id: file.id,
        name,
        alternativeText: 'Alt',
        caption: 'Cap',
        mime: 'image/png',
        ext: '.png',
        width: 1,
        height: 1,
        url: file.url,
        provider: 'local',
      };
      const keys = [
        'id',
        'documentId',
        'name',
        'alternativeText',
        'caption',
        'focalPoint',
        'width',
        'height',
        'formats',
        'hash',
        'ext',
        'mime',
        'size',
        'url',
        'previewUrl',
        'provider',
        'provider_metadata',
        'createdAt',
        'updatedAt',
        'publishedAt',
      ];
      const avatar = about(receiver, author)[0]!.body.entry.avatar;
      assert.deepEqual(Object.keys(avatar).sort(), [...keys].sort());
      assert.deepEqual(Object.fromEntries(Object.keys(whole).map((key) => [key, avatar[key]])), whole);
      for (const event of about(receiver, article)) {
        assert.equal(event.body.entry.cover.name, name, event.body.event);
        assert.equal(event.body.entry.gallery[0].mime, 'image/png', event.body.event);
      }
    });

    it('users: registering and updating send entry.create and entry.update of the user, role populated, nothing private; deleting sends nothing', async () => {
      const { receiver, id: webhookId } = await hook(['entry.create', 'entry.update', 'entry.delete']);
      const username = unique('hooked');
      const registered = await server.publicApi.post('/api/auth/local/register', {
        username,
        email: `${username}@example.com`,
        password: 'a-Passw0rd!',
      });
      assert.equal(registered.status, 200, JSON.stringify(registered.body));
      const { id, documentId } = registered.body.user;
      assert.equal((await server.api.put(`/api/users/${id}`, { username: `${username}-b` })).status, 200);
      await receiver.until(() => about(receiver, documentId).length >= 2, "the user's events");
      const [created, updated] = about(receiver, documentId);
      assert.deepEqual(Object.keys(created!.body), ['event', 'createdAt', 'model', 'uid', 'entry']);
      assert.deepEqual(
        [created!.body.event, created!.body.model, created!.body.uid],
        ['entry.create', 'user', USER_UID],
      );
      assert.equal(created!.body.entry.username, username);
      assert.equal(created!.body.entry.role.type, 'authenticated');
      assert.ok(
        !('password' in created!.body.entry) && !('locale' in created!.body.entry),
        JSON.stringify(created!.body.entry),
      );
      assert.ok(!created!.raw.includes('a-Passw0rd!'));
      assert.deepEqual([updated!.body.event, updated!.body.entry.username], ['entry.update', `${username}-b`]);

      // Strapi's users-permissions deletes with the query engine: no event. The outbox records an
      // event in the write's transaction, so the delivery log tells at once.
      assert.equal((await server.api.delete(`/api/users/${id}`)).status, 200);
      const log = await admin.get(`/admin/webhooks/${webhookId}/deliveries?pageSize=100`);
      assert.equal(log.status, 200, JSON.stringify(log.body));
      assert.deepEqual(
        log.body.data
          .filter((d: { key: string }) => d.key === `${USER_UID}:${documentId}`)
          .map((d: { event: string }) => d.event)
          .sort(),
        ['entry.create', 'entry.update'],
      );
    });

    it('a reset password request sends entry.update of the user, as Strapi storing its token', async () => {
      const { receiver } = await hook(['entry.update']);
      const username = unique('forgot');
      const registered = await server.publicApi.post('/api/auth/local/register', {
        username,
        email: `${username}@example.com`,
        password: 'a-Passw0rd!',
      });
      assert.equal(registered.status, 200, JSON.stringify(registered.body));
      const { documentId, updatedAt } = registered.body.user;
      const asked = await server.publicApi.post('/api/auth/forgot-password', { email: `${username}@example.com` });
      assert.equal(asked.status, 200, JSON.stringify(asked.body));
      await receiver.until(() => about(receiver, documentId).length >= 1, 'entry.update of the user');
      const [updated] = about(receiver, documentId);
      assert.deepEqual(
        [updated!.body.event, updated!.body.model, updated!.body.entry.username],
        ['entry.update', 'user', username],
      );
      assert.ok(!('resetPasswordToken' in updated!.body.entry));
      assert.ok(Date.parse(updated!.body.entry.updatedAt) >= Date.parse(updatedAt));
    });

    it("the content manager's publish saves the draft first: entry.update, then entry.publish", async () => {
      const { receiver } = await hook(['entry.update', 'entry.publish']);
      const id = (await server.api.post('/api/articles?status=draft', { data: { title: unique('CM publish') } })).body
        .data.documentId;
      const published = await admin.post(
        `/admin/content-manager/collection-types/api::article.article/${id}/actions/publish`,
      );
      assert.equal(published.status, 200, JSON.stringify(published.body));
      await receiver.until(() => about(receiver, id).length >= 2, "the publication's events");
      const events = about(receiver, id);
      assert.deepEqual(
        events.map((r) => [r.body.event, r.body.entry.publishedAt === null]),
        [
          ['entry.update', true],
          ['entry.publish', false],
        ],
      );
      // Strapi's content manager names the discard action `discard`.
      assert.equal(
        (await admin.post(`/admin/content-manager/collection-types/api::article.article/${id}/actions/discard`)).status,
        200,
      );
    });

    it("the content manager's publish of a draft that cannot be published saves nothing and emits nothing, as Strapi (one transaction)", async () => {
      const { receiver } = await hook(['entry.update', 'entry.publish']);
      const id = (await server.api.post('/api/articles?status=draft', { data: { body: 'as it was' } })).body.data
        .documentId;
      const refused = await admin.post(
        `/admin/content-manager/collection-types/api::article.article/${id}/actions/publish`,
        { data: { body: 'changed' } },
      );
      assert.equal(refused.status, 400, JSON.stringify(refused.body));
      assert.equal((await server.api.get(`/api/articles/${id}?status=draft`)).body.data.body, 'as it was');
      // A publication after it: its events arrive, none of the refused one's before them.
      const marker = (await server.api.post('/api/articles?status=draft', { data: { title: unique('After') } })).body
        .data.documentId;
      assert.equal(
        (await admin.post(`/admin/content-manager/collection-types/api::article.article/${marker}/actions/publish`))
          .status,
        200,
      );
      await receiver.until(() => about(receiver, marker).length >= 2, 'the later publication');
      assert.deepEqual(about(receiver, id), []);
    });

    it("the content manager's unpublish sends the removed version with its deep populate: relations counted, media, components, localizations", async () => {
      const { receiver } = await hook(['entry.unpublish']);
      const tag = (await server.api.post('/api/tags', { data: { name: unique('counted') } })).body.data.documentId;
      const id = (
        await server.api.post('/api/articles', {
          data: { title: unique('CM unpublish'), tags: [tag], seo: { metaTitle: 'Meta' } },
        })
      ).body.data.documentId;
      const unpublished = await admin.post(
        `/admin/content-manager/collection-types/api::article.article/${id}/actions/unpublish`,
      );
      assert.equal(unpublished.status, 200, JSON.stringify(unpublished.body));
      await receiver.until(() => about(receiver, id).length >= 1, 'entry.unpublish');
      const { entry } = about(receiver, id)[0]!.body;
      assert.ok(entry.publishedAt, 'the published version');
      assert.deepEqual([entry.tags, entry.author, entry.category], [{ count: 1 }, { count: 0 }, { count: 0 }]);
      assert.deepEqual([entry.cover, entry.gallery, entry.links, entry.blocks], [null, [], [], []]);
      assert.equal(entry.seo.metaTitle, 'Meta');
      assert.equal(entry.seo.shareImage, null);
      // Strapi's localizations of a row it reads itself: every other row of the document, this locale's draft too.
      assert.deepEqual(
        entry.localizations.map((row: { locale: string; publishedAt: string | null; documentId: string }) => [
          row.documentId,
          row.locale,
          row.publishedAt,
        ]),
        [[id, 'en', null]],
      );
    });

    it("the unpublish event's localizations carry what Strapi's content manager validates: a required media, not an optional component", async () => {
      const project = copyProject();
      project.editJson(ARTICLE_SCHEMA, (json) => {
        json.attributes.cover.required = true;
      });
      const strict = await startServer(dialect, {
        project: project.dir,
        config: { server: { webhooks: { pollInterval: 50, retryDelay: 50 } } },
      });
      const receiver = await Receiver.start();
      try {
        await strict.vellum.auth.admins.create('localizations@example.com', 'an-admin-password');
        const login = await strict.publicApi.post('/admin/login', {
          email: 'localizations@example.com',
          password: 'an-admin-password',
        });
        const strictAdmin = new HttpClient(strict.url, { authorization: `Bearer ${login.body.data.token}` });
        assert.equal(
          (
            await strictAdmin.post('/admin/webhooks', {
              name: unique('hook'),
              url: receiver.url,
              headers: {},
              events: ['entry.unpublish'],
            })
          ).status,
          201,
        );
        const form = new FormData();
        form.append('files', new Blob([PNG], { type: 'image/png' }), `${unique('cover')}.png`);
        const file = (
          (await (
            await fetch(`${strict.url}/api/upload`, { method: 'POST', headers: strict.authHeaders, body: form })
          ).json()) as { id: number }[]
        )[0]!;
        const id = (
          await strict.api.post('/api/articles', {
            data: { title: unique('Required cover'), cover: file.id, seo: { metaTitle: 'Meta' } },
          })
        ).body.data.documentId;
        assert.equal(
          (
            await strictAdmin.post(
              `/admin/content-manager/collection-types/api::article.article/${id}/actions/unpublish`,
            )
          ).status,
          200,
        );
        await receiver.until(() => receiver.delivered.some((r) => r.body.entry?.documentId === id), 'entry.unpublish');
        const [draft] = receiver.delivered.find((r) => r.body.entry?.documentId === id)!.body.entry.localizations;
        assert.equal(draft.cover?.id, file.id, 'the required media, populated');
        assert.ok(!('seo' in draft), 'a component with nothing to validate is left out');
      } finally {
        await strict.close();
        await receiver.close();
        project.remove();
      }
    });
  });
}
