/**
 * The audit log of the content manager's writes, on every dialect: each administrator's create,
 * update, publish, unpublish, discard and delete is one entry, with who (as they were), when, the
 * content-type, documentId and locale, and the names of the attributes an update changed; a write
 * that fails (a validation error, a unique value refused inside the transaction, an audit insert
 * that fails) records nothing and changes nothing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';
import { unique } from '../helpers/unique.js';
import { adminClient, entriesOf, type Entry } from '../helpers/audit.js';

const ARTICLES = '/admin/content-manager/collection-types/api::article.article';
const AUTHORS = '/admin/content-manager/collection-types/api::author.author';
const ARTICLE = 'api::article.article';

for (const dialect of DIALECTS) {
  describe(`audit log of document writes [${dialect}]`, () => {
    let server: TestServer;
    let ann: Awaited<ReturnType<typeof adminClient>>;
    before(async () => {
      server = await startServer(dialect);
      ann = await adminClient(server);
    });
    after(() => server?.close());

    it('records each write of the content manager with who, what and the changed fields', async () => {
      const admin = ann.client;
      const title = unique('audited');
      const created = await admin.post(`${ARTICLES}?locale=en`, { data: { title, views: 3 } });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const documentId = created.body.data.documentId as string;
      const at = `${ARTICLES}/${documentId}`;
      // An update of two attributes, one of them to the value it had: only the other changed.
      assert.equal((await admin.put(`${at}?locale=en`, { data: { title: `${title} 2`, views: 3 } })).status, 200);
      // Nothing changed: nothing recorded.
      assert.equal((await admin.put(`${at}?locale=en`, { data: { title: `${title} 2` } })).status, 200);
      assert.equal((await admin.post(`${at}/actions/publish?locale=en`, {})).status, 200);
      // A component and a relation change count by their values.
      const tag = await server.api.post('/api/tags', { data: { name: unique('tag') } });
      const edited = await admin.put(`${at}?locale=en`, {
        data: { seo: { metaTitle: 'Meta' }, tags: [tag.body.data.documentId] },
      });
      assert.equal(edited.status, 200, JSON.stringify(edited.body));
      assert.equal((await admin.post(`${at}/actions/discard?locale=en`, {})).status, 200);
      assert.equal((await admin.post(`${at}/actions/unpublish?locale=en`, {})).status, 200);
      // A second locale: created by an update in that locale.
      assert.equal((await admin.put(`${at}?locale=fr`, { data: { title: `${title} fr` } })).status, 200);
      assert.equal((await admin.delete(`${at}?locale=fr`)).status, 204);
      assert.equal((await admin.delete(`${at}?locale=en`)).status, 204);

      const entries = await entriesOf(admin, documentId);
      assert.deepEqual(
        entries.map((entry) => [entry.action, entry.payload.locale, entry.payload.changedFields]),
        [
          ['entry.create', 'en', ['title', 'views']],
          ['entry.update', 'en', ['title']],
          ['entry.publish', 'en', undefined],
          ['entry.update', 'en', ['tags', 'seo']],
          ['entry.draft-discard', 'en', ['tags', 'seo']],
          ['entry.unpublish', 'en', undefined],
          ['entry.create', 'fr', ['title']],
          ['entry.delete', 'fr', undefined],
          ['entry.delete', 'en', undefined],
        ],
      );
      for (const entry of entries) {
        assert.deepEqual(entry.user, { id: ann.id, email: ann.email, displayName: ann.email });
        assert.equal(entry.payload.uid, ARTICLE);
        assert.ok(Math.abs(Date.parse(entry.date) - Date.now()) < 60_000, entry.date);
      }
      // One entry by id, as the list shows it.
      const one = await admin.get(`/admin/audit-logs/${entries[1]!.id}`);
      assert.equal(one.status, 200);
      assert.deepEqual(one.body, entries[1]);
    });

    it("records the writes of the content manager at Strapi's paths too", async () => {
      const STRAPI_TAGS = '/content-manager/collection-types/api::tag.tag';
      const created = await ann.client.post(STRAPI_TAGS, { name: unique('strapi-path') });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const documentId = created.body.data.documentId;
      assert.equal((await ann.client.put(`${STRAPI_TAGS}/${documentId}`, { name: unique('renamed') })).status, 200);
      assert.equal((await ann.client.delete(`${STRAPI_TAGS}/${documentId}`)).status, 200);
      assert.deepEqual(
        (await entriesOf(ann.client, documentId)).map((entry) => [
          entry.action,
          entry.payload.changedFields,
          entry.user?.id,
        ]),
        [
          ['entry.create', ['name'], ann.id],
          ['entry.update', ['name'], ann.id],
          ['entry.delete', undefined, ann.id],
        ],
      );
    });

    it('records nothing for writes outside the admin API (content API, no administrator)', async () => {
      const created = await server.api.post('/api/articles', { data: { title: unique('content-api') } });
      assert.equal(created.status, 201);
      assert.deepEqual(await entriesOf(ann.client, created.body.data.documentId), []);
    });

    it('records nothing for a write that fails validation', async () => {
      const title = unique('invalid');
      const total = async () => (await ann.client.get('/admin/audit-logs')).body.pagination.total as number;
      const before = await total();
      const refused = await ann.client.post(ARTICLES, { data: { title, views: 'many' } });
      assert.equal(refused.status, 400);
      assert.equal(await total(), before);
      const created = await ann.client.post(ARTICLES, { data: { title } });
      const documentId = created.body.data.documentId;
      const at = `${ARTICLES}/${documentId}`;
      assert.equal((await ann.client.put(at, { data: { views: 'many' } })).status, 400);
      assert.deepEqual(
        (await entriesOf(ann.client, documentId)).map((entry) => entry.action),
        ['entry.create'],
      );
    });

    it('records nothing when a unique value is refused inside the transaction, after the update was recorded in it', async () => {
      const slug = unique('slug');
      const first = await ann.client.post(ARTICLES, { data: { title: unique('first'), slug } });
      const second = await ann.client.post(ARTICLES, { data: { title: unique('second'), slug } });
      const firstId = first.body.data.documentId;
      const secondId = second.body.data.documentId;
      assert.equal((await ann.client.post(`${ARTICLES}/${firstId}/actions/publish`, {})).status, 200);
      // Publishing saves the draft first (an entry.update of the title, in the transaction), then
      // refuses the published slug: the whole transaction, entry included, is rolled back.
      const refused = await ann.client.post(`${ARTICLES}/${secondId}/actions/publish`, {
        data: { title: 'changed before the refusal' },
      });
      assert.equal(refused.status, 400, JSON.stringify(refused.body));
      assert.deepEqual(
        (await entriesOf(ann.client, secondId)).map((entry) => entry.action),
        ['entry.create'],
      );
      const draft = await ann.client.get(`${ARTICLES}/${secondId}`);
      assert.notEqual(draft.body.data.title, 'changed before the refusal');
    });

    it('records exactly one create when concurrent creates race for one unique value', async () => {
      const email = `${unique('author')}@example.com`;
      const answers = await Promise.all(
        Array.from({ length: 5 }, (_, index) => ann.client.post(AUTHORS, { data: { name: `racer ${index}`, email } })),
      );
      const won = answers.filter((answer) => answer.status === 201);
      assert.equal(won.length, 1, JSON.stringify(answers.map((answer) => answer.status)));
      assert.ok(answers.every((answer) => answer.status === 201 || answer.status === 400));
      const logged = await ann.client.get(
        '/admin/audit-logs?pageSize=100&filters[$and][0][contentType][$eq]=api::author.author&filters[$and][1][action][$eq]=entry.create',
      );
      const mine = logged.body.results.filter(
        (entry: Entry) => entry.payload.documentId === won[0]!.body.data.documentId,
      );
      assert.equal(mine.length, 1);
      const authors = await server.api.get(`/api/authors?filters[email][$eq]=${encodeURIComponent(email)}`);
      assert.equal(authors.body.data.length, 1);
    });

    it('a change whose entry cannot be written is not made: one transaction', async () => {
      const { db } = server.vellum.database;
      const title = unique('unlogged');
      await db.schema.alterTable('vellum_audit_logs').renameTo('vellum_audit_logs_away').execute();
      try {
        const refused = await ann.client.post(ARTICLES, { data: { title } });
        assert.equal(refused.status, 500);
      } finally {
        await db.schema.alterTable('vellum_audit_logs_away').renameTo('vellum_audit_logs').execute();
      }
      const found = await server.api.get(`/api/articles?status=draft&filters[title][$eq]=${title}`);
      assert.equal(found.body.data.length, 0);
    });
  });
}
