/**
 * A project's lifecycles, bootstrap and Document Service middleware over HTTP
 * (test/fixtures/lifecycles, written as Strapi's docs and real projects write them): a slug
 * lifecycle, an afterCreate changing the answer, lifecycles per row, a bootstrap granting Public
 * `find` through `strapi.db.query(...permission).create`, a document middleware setting the
 * default populate, the entity service and the core store. The same fixture runs against Strapi
 * 5.54 in test/differential/lifecycles.diff.ts. The fixture logs what its lifecycles see to
 * LIFECYCLES_LOG; each test reads the events of the rows it named.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { HttpClient } from '../helpers/http.js';
import { DIALECTS, fixture, startServer, type TestServer } from '../helpers/server.js';

const LOG = join(tmpdir(), `vellum-lifecycles-${process.pid}.jsonl`);
process.env.LIFECYCLES_LOG = LOG;
writeFileSync(LOG, '');
after(() => rmSync(LOG, { force: true }));

const tag = () => randomUUID().slice(0, 8);

interface Entry {
  source: string;
  uid: string;
  action: string;
  label?: string;
  labels?: string[];
  publishedAt?: null | 'set';
}

/** The events logged for the row (or list) named `label`, as `action` or `action(draft|published)`. */
function eventsOf(label: string, kinds = /./): string[] {
  return readFileSync(LOG, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Entry)
    .filter((entry) => (entry.label === label || entry.labels?.includes(label)) && kinds.test(entry.action))
    .map(
      (entry) =>
        `${entry.action}${'publishedAt' in entry ? `(${entry.publishedAt === null ? 'draft' : 'published'})` : ''}`,
    );
}

const WRITES = /^(before|after)(Create|Update|Delete)$/;

for (const dialect of DIALECTS) {
  describe(`project lifecycles, bootstrap and document middlewares [${dialect}]`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect, { project: fixture('lifecycles') });
    });
    after(() => server?.close());

    it('loads the lifecycles file without warnings', () => {
      assert.deepEqual(server.vellum.warnings, []);
    });

    it('beforeCreate fills the slug from the title, beforeUpdate renews it; what they set is stored', async () => {
      const title = `Slug Me ${tag()}`;
      const created = await server.api.post('/api/articles', { data: { title } });
      assert.equal(created.status, 201);
      const slug = title.toLowerCase().replace(/[^a-z0-9]+/g, '-');
      assert.equal(created.body.data.slug, slug);
      const id = created.body.data.documentId;
      assert.equal((await server.api.get(`/api/articles/${id}`)).body.data.slug, slug);
      assert.equal((await server.api.get(`/api/articles/${id}?status=draft`)).body.data.slug, slug);
      const renamed = await server.api.put(`/api/articles/${id}`, { data: { title: `${title} Again` } });
      assert.equal(renamed.body.data.slug, `${slug}-again`);
      // A slug given in the body is kept by beforeCreate.
      const given = await server.api.post('/api/articles', { data: { title: `Given ${tag()}`, slug: 'my-own' } });
      assert.equal(given.body.data.slug, 'my-own');
    });

    it('afterCreate changes the answer, not what is stored; afterFindOne runs inside the POST', async () => {
      const title = `Counted ${tag()}`;
      const created = await server.api.post('/api/articles', { data: { title, body: 'one two three four' } });
      assert.equal(created.body.data.wordCount, 4);
      assert.equal(created.body.data.seenBy, 'afterFindOne');
      const read = await server.api.get(`/api/articles/${created.body.data.documentId}`);
      assert.equal(read.body.data.wordCount, undefined);
      assert.equal(read.body.data.seenBy, 'afterFindOne');
      const listed = await server.api.get(`/api/articles?filters[title][$eq]=${encodeURIComponent(title)}`);
      assert.equal(listed.body.data[0].seenBy, undefined, 'a list is read by findMany');
    });

    it('lifecycles fire per row: a published create twice, a draft create once, a publishing PUT update + delete + create, a DELETE once per row', async () => {
      const title = `Rows ${tag()}`;
      const created = await server.api.post('/api/articles', { data: { title } });
      assert.deepEqual(eventsOf(title, WRITES), [
        'beforeCreate(draft)',
        'beforeCreate(published)',
        'afterCreate(draft)',
        'afterCreate(published)',
      ]);
      const draftTitle = `Draft rows ${tag()}`;
      await server.api.post('/api/articles?status=draft', { data: { title: draftTitle } });
      assert.deepEqual(eventsOf(draftTitle, WRITES), ['beforeCreate(draft)', 'afterCreate(draft)']);
      const id = created.body.data.documentId;
      const updated = `Rows updated ${tag()}`;
      await server.api.put(`/api/articles/${id}`, { data: { title: updated } });
      // Vellum fires the before events of a write first, then its after events once committed.
      assert.deepEqual(eventsOf(updated, WRITES), [
        'beforeUpdate(draft)',
        'beforeCreate(published)',
        'afterUpdate(draft)',
        'afterCreate(published)',
      ]);
      // beforeDelete sees `where: { id }` only: the log names the row from afterDelete's result.
      assert.deepEqual(eventsOf(title, WRITES).slice(4), ['afterDelete'], 'the old published row is deleted');
      await server.api.delete(`/api/articles/${id}`);
      assert.deepEqual(eventsOf(updated, WRITES).slice(4), ['afterDelete', 'afterDelete']);
    });

    it('reads: afterFindMany sees the list, afterFindOne the document; a function subscriber sees every event of its model', async () => {
      const title = `Read ${tag()}`;
      const created = await server.api.post('/api/articles', { data: { title } });
      const before = eventsOf(title, /Find/).length;
      await server.api.get(`/api/articles?filters[title][$eq]=${encodeURIComponent(title)}`);
      await server.api.get(`/api/articles/${created.body.data.documentId}`);
      assert.deepEqual(eventsOf(title, /Find/).slice(before), ['afterFindMany', 'afterFindOne']);
      const name = `Category ${tag()}`;
      await server.api.post('/api/categories', { data: { name } });
      assert.deepEqual(eventsOf(name), ['beforeCreate(published)', 'afterFindOne', 'afterCreate(published)']);
    });

    it('GraphQL writes fire the same lifecycles', async () => {
      const title = `GraphQL ${tag()}`;
      const graphql = new HttpClient(server.url, server.authHeaders);
      const answer = await graphql.post('/graphql', {
        query: `mutation { createArticle(data: { title: ${JSON.stringify(title)} }) { slug } }`,
      });
      assert.equal(answer.status, 200, answer.text);
      assert.equal(answer.body.data.createArticle.slug, title.toLowerCase().replace(/[^a-z0-9]+/g, '-'));
      assert.deepEqual(eventsOf(title, WRITES), [
        'beforeCreate(draft)',
        'beforeCreate(published)',
        'afterCreate(draft)',
        'afterCreate(published)',
      ]);
    });

    it("GraphQL resolversConfig names the project's policy and middleware: 403 without the header, a field marked", async () => {
      const graphql = new HttpClient(server.url, server.authHeaders);
      const refused = await graphql.post('/graphql', { query: '{ pages { title } }' });
      assert.equal(refused.body.errors[0].extensions.code, 'FORBIDDEN');
      assert.equal(refused.body.errors[0].extensions.error.name, 'PolicyError');
      const allowed = await graphql.post(
        '/graphql',
        { query: '{ pages { title } }' },
        { headers: { 'x-allow': 'yes' } },
      );
      assert.equal(allowed.body.errors, undefined, allowed.text);
      const name = `Marked ${tag()}`;
      await server.api.post('/api/categories', { data: { name } });
      const categories = await graphql.post('/graphql', {
        query: `{ categories(filters: { name: { eq: ${JSON.stringify(name)} } }) { name } }`,
      });
      assert.deepEqual(categories.body.data.categories, [{ name: `${name} (marked)` }]);
    });

    it('an ApplicationError thrown by beforeCreate is a 400 and aborts the write: nothing is written', async () => {
      const title = `Forbidden ${tag()}`;
      const refused = await server.api.post('/api/articles', { data: { title } });
      assert.equal(refused.status, 400, refused.text);
      assert.equal(refused.body.error.name, 'ApplicationError');
      assert.equal(refused.body.error.message, 'Titles may not start with Forbidden');
      assert.deepEqual(refused.body.error.details, { title });
      assert.equal(
        (await server.api.get(`/api/articles?filters[title][$eq]=${encodeURIComponent(title)}&status=draft`)).body.data
          .length,
        0,
      );
      assert.equal(
        (await server.api.get(`/api/articles?filters[title][$eq]=${encodeURIComponent(title)}`)).body.data.length,
        0,
      );
      assert.deepEqual(eventsOf(title, WRITES), ['beforeCreate(draft)']);
    });

    it('the bootstrap granted Public find through strapi.db.query: anonymous reads succeed, writes and other types do not', async () => {
      const title = `Public ${tag()}`;
      await server.api.post('/api/articles', { data: { title } });
      const listed = await server.publicApi.get(`/api/articles?filters[title][$eq]=${encodeURIComponent(title)}`);
      assert.equal(listed.status, 200);
      assert.equal(listed.body.data.length, 1);
      assert.equal((await server.publicApi.post('/api/articles', { data: { title: 'x' } })).status, 403);
      assert.equal((await server.publicApi.get('/api/categories')).status, 403);
    });

    it('a document middleware sets the default populate of pages: REST answers with it, an explicit populate wins', async () => {
      const title = `Page ${tag()}`;
      await server.api.post('/api/pages', {
        data: { title, seo: { metaTitle: 'Meta' }, sections: [{ metaTitle: 'S1' }] },
      });
      const path = `/api/pages?filters[title][$eq]=${encodeURIComponent(title)}`;
      for (let i = 0; i < 2; i++) {
        const page = (await server.publicApi.get(path)).body.data[0];
        assert.equal(page.seo.metaTitle, 'Meta');
        assert.equal(page.sections, undefined);
      }
      const explicit = (await server.publicApi.get(`${path}&populate=sections`)).body.data[0];
      assert.equal(explicit.seo, undefined);
      assert.equal(explicit.sections[0].metaTitle, 'S1');
    });

    it('a document middleware of findMany sees json values as values, not as stored text', async () => {
      const title = `Meta ${tag()}`;
      await server.api.post('/api/pages', { data: { title, meta: { kind: 'landing', order: [1, 2] } } });
      const page = (await server.publicApi.get(`/api/pages?filters[title][$eq]=${encodeURIComponent(title)}`)).body
        .data[0];
      assert.deepEqual(page.meta, { kind: 'landing', order: [1, 2], listed: true });
    });

    it('the entity service seeded a category; the core store kept its values; another node sees them and counts its own boot', async () => {
      const seeded = await server.api.get('/api/categories?filters[name][$eq]=Seeded by the entity service');
      assert.equal(seeded.body.data.length, 1);
      const setting = (await server.api.get('/api/setting')).body.data;
      assert.equal(setting.boots, 1);
      assert.deepEqual(setting.stored, { nested: { list: [1, 'two'] }, flag: true });
      assert.equal(setting.seededCategories, 1);
      assert.deepEqual(setting.plugins, {
        locales: ['en'],
        defaultLocale: 'en',
        roles: ['authenticated', 'public'],
        jwtId: 7,
        passwordChecks: [true, false],
        users: 0,
      });
      // The role service's updateRole granted Public find on the setting.
      assert.equal((await server.publicApi.get('/api/setting')).status, 200);
      const second = await startServer(dialect, { project: fixture('lifecycles'), nodeOf: server });
      try {
        assert.equal((await second.api.get('/api/setting')).body.data.boots, 2);
        assert.equal(
          (await second.api.get('/api/categories?filters[name][$eq]=Seeded by the entity service')).body.data.length,
          1,
        );
      } finally {
        await second.close();
      }
    });
  });
}
