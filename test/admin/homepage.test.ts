/**
 * The home page's API (docs/admin-panel.md "Home page"), over HTTP on every dialect, on a project
 * of two localized types with draft and publish (posts, pages), a localized type without it
 * (notes), a type without a string attribute (counters) and a single type (home):
 * `GET /content-manager/homepage/recent-documents?action=update|publish` in the shapes Strapi 5.54
 * answered for the same steps (test/differential/homepage.diff.ts compares them side by side),
 * `GET /content-manager/homepage/count-documents`, what a role lets an administrator see there,
 * and a seeded random sequence of two administrators' writes checked against a model of the lists.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import type { HttpClient } from '../helpers/http.js';
import {
  createRole,
  emailOf,
  explorerPermission as permission,
  inviteAdmin,
  registerFirstAdmin,
  type Permission,
} from '../helpers/admins.js';
import { DIALECTS, fixture, startServer, type TestServer } from '../helpers/server.js';

const CM = '/content-manager/collection-types';
const POSTS = `${CM}/api::post.post`;
const PAGES = `${CM}/api::page.page`;
const NOTES = `${CM}/api::note.note`;
const COUNTERS = `${CM}/api::counter.counter`;
const HOME = '/content-manager/single-types/api::home.home';
const RECENT = '/content-manager/homepage/recent-documents';
const COUNT = '/content-manager/homepage/count-documents';
const DOCUMENT_ID = /^[a-z0-9]{24}$/;

type Item = Record<string, unknown>;
type Counts = { draft: number; published: number; modified: number };

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

/** Returns once the clock has moved past the last answer: the next write gets a later timestamp. */
async function nextMillisecond(): Promise<void> {
  const now = Date.now();
  while (Date.now() <= now) await new Promise((resolve) => setImmediate(resolve));
}

for (const dialect of DIALECTS) {
  describe(`home page: recent documents and counts (${dialect})`, () => {
    let server: TestServer;
    let root: HttpClient;
    const recent = async (client: HttpClient, action: 'update' | 'publish'): Promise<Item[]> => {
      const answer = await client.get(`${RECENT}?action=${action}`);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      return answer.body.data as Item[];
    };
    const counts = async (client: HttpClient): Promise<Counts> => {
      const answer = await client.get(COUNT);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      return answer.body.data as Counts;
    };
    /** Writes through the content manager, then waits for the clock to move on. */
    const write = async (
      client: HttpClient,
      method: 'post' | 'put' | 'delete',
      path: string,
      body?: unknown,
    ): Promise<Item> => {
      const answer =
        method === 'delete' ? await client.delete(path) : await client[method](path, body === undefined ? {} : body);
      assert.ok(answer.status < 300, `${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
      await nextMillisecond();
      return answer.body?.data as Item;
    };
    /** A role with these permissions, and an administrator of it, registered: their client. */
    const administrator = async (name: string, permissions: Permission[]): Promise<HttpClient> => {
      const role = await createRole(root, name, permissions);
      const who = { email: emailOf(name), firstname: name, password: 'Passw0rd-Home' };
      return (await inviteAdmin(server, root, [role], who)).client;
    };

    before(async () => {
      server = await startServer(dialect, { project: fixture('homepage') });
      root = (await registerFirstAdmin(server)).client;
    });
    after(() => server?.close());

    it('lists the drafts last edited and the versions last published, with their status, as Strapi does', async () => {
      const created = await write(root, 'post', `${POSTS}?locale=en`, { title: 'First post' });
      const id = created.documentId as string;
      const [draft] = await recent(root, 'update');
      assert.deepEqual(draft, {
        documentId: id,
        locale: 'en',
        title: 'First post',
        contentTypeUid: 'api::post.post',
        contentTypeDisplayName: 'Post',
        kind: 'collectionType',
        updatedAt: created.updatedAt,
        publishedAt: null,
        status: 'draft',
      });
      assert.deepEqual(Object.keys(draft!), [
        'documentId',
        'locale',
        'title',
        'contentTypeUid',
        'contentTypeDisplayName',
        'kind',
        'updatedAt',
        'publishedAt',
        'status',
      ]);
      assert.ok(!(await recent(root, 'publish')).some((item) => item.documentId === id));

      const published = await write(root, 'post', `${POSTS}/${id}/actions/publish?locale=en`);
      const [edited] = await recent(root, 'update');
      assert.equal(edited!.status, 'published');
      const [last] = await recent(root, 'publish');
      assert.deepEqual(last, {
        ...draft,
        updatedAt: published.updatedAt,
        publishedAt: published.publishedAt,
        status: 'published',
      });

      await write(root, 'put', `${POSTS}/${id}?locale=en`, { title: 'First post, edited' });
      const [modified] = await recent(root, 'update');
      assert.deepEqual([modified!.title, modified!.status], ['First post, edited', 'modified']);
      const [stillPublished] = await recent(root, 'publish');
      assert.deepEqual([stillPublished!.title, stillPublished!.status], ['First post', 'modified']);

      // Each locale is an entry of its own.
      await write(root, 'put', `${POSTS}/${id}?locale=fr`, { title: 'Premier article' });
      const [french, english] = await recent(root, 'update');
      assert.deepEqual(
        [french, english].map((item) => [item!.documentId, item!.locale, item!.title, item!.status]),
        [
          [id, 'fr', 'Premier article', 'draft'],
          [id, 'en', 'First post, edited', 'modified'],
        ],
      );

      // Discarding the draft brings the published values (and time) back.
      await write(root, 'post', `${POSTS}/${id}/actions/discard?locale=en`);
      const afterDiscard = await recent(root, 'update');
      const englishNow = afterDiscard.find((item) => item.documentId === id && item.locale === 'en')!;
      assert.deepEqual([englishNow.title, englishNow.status], ['First post', 'published']);
    });

    it('names each type’s documents by its main field, and leaves status out without draft and publish', async () => {
      const page = await write(root, 'post', `${PAGES}?locale=en`, { code: 7, heading: 'About us' });
      const note = await write(root, 'post', `${NOTES}?locale=fr`, { label: 'Une note' });
      const counter = await write(root, 'post', COUNTERS, { value: 3 });
      const home = await write(root, 'put', `${HOME}?locale=en`, { headline: 'Welcome' });
      const list = await recent(root, 'update');
      assert.deepEqual(list, [
        {
          documentId: home.documentId,
          locale: 'en',
          title: 'Welcome',
          contentTypeUid: 'api::home.home',
          contentTypeDisplayName: 'Home',
          kind: 'singleType',
          updatedAt: home.updatedAt,
          publishedAt: null,
          status: 'draft',
        },
        {
          // A type without a string attribute: its documentId, as Strapi (its default main field
          // there, `id`, is no field a permission reads).
          documentId: counter.documentId,
          locale: null,
          title: counter.documentId,
          contentTypeUid: 'api::counter.counter',
          contentTypeDisplayName: 'Counter',
          kind: 'collectionType',
          updatedAt: counter.updatedAt,
          publishedAt: null,
        },
        {
          documentId: note.documentId,
          locale: 'fr',
          title: 'Une note',
          contentTypeUid: 'api::note.note',
          contentTypeDisplayName: 'Note',
          kind: 'collectionType',
          updatedAt: note.updatedAt,
          publishedAt: null,
        },
        {
          // The first string attribute, wherever it is.
          documentId: page.documentId,
          locale: 'en',
          title: 'About us',
          contentTypeUid: 'api::page.page',
          contentTypeDisplayName: 'Page',
          kind: 'collectionType',
          updatedAt: page.updatedAt,
          publishedAt: null,
          status: 'draft',
        },
      ]);
      // Only types with draft and publish are published.
      assert.ok((await recent(root, 'publish')).every((item) => item.status !== undefined));
    });

    it('takes the title from the main field the content manager’s stored configuration names', async () => {
      const key = 'plugin_content_manager_configuration_content_types::api::page.page';
      const store = server.vellum.database.system;
      await store
        .insertInto('strapi_core_store_settings')
        .values({
          key,
          value: JSON.stringify({ uid: 'api::page.page', settings: { mainField: 'code', pageSize: 10 } }),
          type: 'object',
          environment: null,
          tag: null,
        })
        .execute();
      try {
        await write(root, 'post', `${PAGES}?locale=en`, { code: 42, heading: 'Configured' });
        const [page] = await recent(root, 'update');
        assert.equal(page!.title, 42);
      } finally {
        await store.deleteFrom('strapi_core_store_settings').where('key', '=', key).execute();
      }
      const [page] = await recent(root, 'update');
      assert.equal(page!.title, 'Configured');
    });

    it('includes the content API’s users, named by their username', async () => {
      const role = (await root.get('/admin/users-permissions/roles')).body.roles[0].id as number;
      const user = await write(root, 'post', `${CM}/plugin::users-permissions.user`, {
        username: 'home-reader',
        email: `home-reader-${dialect}@example.com`,
        password: 'Passw0rd-User',
        role,
      });
      const [item] = await recent(root, 'update');
      assert.deepEqual(
        [item!.documentId, item!.title, item!.contentTypeUid, item!.contentTypeDisplayName, item!.locale],
        [user.documentId, 'home-reader', 'plugin::users-permissions.user', 'User', null],
      );
    });

    it('refuses a missing or unknown action, and anybody but an administrator', async () => {
      for (const query of ['', '?action=', '?action=delete', '?action[0]=update']) {
        const answer = await root.get(`${RECENT}${query}`);
        assert.equal(answer.status, 400, query);
        assert.deepEqual(answer.body.error, {
          status: 400,
          name: 'ValidationError',
          message: 'Invalid option: expected one of "update"|"publish"',
          details: {},
        });
      }
      for (const client of [server.publicApi, server.api]) {
        for (const path of [`${RECENT}?action=update`, COUNT]) {
          const answer = await client.get(path);
          assert.equal(answer.status, 401, path);
          assert.equal(answer.body.error.name, 'UnauthorizedError');
        }
      }
    });

    it('answers the project statistics and keeps each administrator’s widget layout, as Strapi’s admin home page', async () => {
      const statistics = async () => {
        const answer = await root.get('/admin/homepage/key-statistics');
        assert.equal(answer.status, 200, JSON.stringify(answer.body));
        return answer.body.data as Record<string, number>;
      };
      const before = await statistics();
      // Five project types and the content API's users (Strapi's count, compared in homepage.diff.ts).
      assert.deepEqual(
        { contentTypes: before.contentTypes, components: before.components, locales: before.locales },
        { contentTypes: 6, components: 0, locales: 2 },
      );
      const token = await root.post('/admin/api-tokens', { name: `stats-${dialect}`, type: 'read-only' });
      assert.equal(token.status, 201, JSON.stringify(token.body));
      const hook = await root.post('/admin/webhooks', { name: 'stats', url: 'http://127.0.0.1:9/hook', events: [] });
      assert.equal(hook.status, 201, JSON.stringify(hook.body));
      const other = await administrator('Layouts', []);
      const after = await statistics();
      assert.deepEqual(
        { apiTokens: after.apiTokens, webhooks: after.webhooks, admins: after.admins, assets: after.assets },
        {
          apiTokens: before.apiTokens + 1,
          webhooks: before.webhooks + 1,
          admins: before.admins + 1,
          assets: before.assets,
        },
      );
      assert.equal((await server.publicApi.get('/admin/homepage/key-statistics')).status, 401);

      assert.deepEqual((await root.get('/admin/homepage/layout')).body, { data: null });
      const layout = {
        widgets: [{ uid: 'plugin::admin.key-statistics', width: 12 }],
        updatedAt: '2026-11-29T10:00:00Z',
      };
      const saved = await root.put('/admin/homepage/layout', layout);
      assert.deepEqual(saved.body, { data: { version: 1, ...layout } });
      assert.deepEqual((await root.get('/admin/homepage/layout')).body, saved.body);
      // Each administrator has their own.
      assert.deepEqual((await other.get('/admin/homepage/layout')).body, { data: null });
      const refused = await root.put('/admin/homepage/layout', { widgets: [{ uid: 'x', width: 5 }], colour: 'red' });
      assert.equal(refused.status, 400);
      assert.deepEqual(
        refused.body.error.details.errors.map((error: { path: string[] }) => error.path.join('.')),
        ['colour', 'widgets.0.width'],
      );
      assert.deepEqual((await root.get('/admin/homepage/layout')).body, saved.body);
    });

    it('counts documents by status: a draft, published, modified (by their latest versions)', async () => {
      const start = await counts(root);
      const delta = async (): Promise<Counts> => {
        const now = await counts(root);
        return {
          draft: now.draft - start.draft,
          published: now.published - start.published,
          modified: now.modified - start.modified,
        };
      };
      const a = (await write(root, 'post', `${POSTS}?locale=en`, { title: 'Counted a' })).documentId as string;
      const b = (await write(root, 'post', `${POSTS}?locale=en`, { title: 'Counted b' })).documentId as string;
      await write(root, 'post', `${NOTES}?locale=en`, { label: 'Counted note' });
      assert.deepEqual(await delta(), { draft: 2, published: 1, modified: 0 });
      await write(root, 'post', `${POSTS}/${a}/actions/publish?locale=en`);
      assert.deepEqual(await delta(), { draft: 1, published: 2, modified: 0 });
      // A document is one, whatever its locales: a new French draft makes it modified.
      await write(root, 'put', `${POSTS}/${a}?locale=fr`, { title: 'Compté' });
      assert.deepEqual(await delta(), { draft: 1, published: 1, modified: 1 });
      await write(root, 'post', `${POSTS}/${a}/actions/publish?locale=fr`);
      await write(root, 'delete', `${POSTS}/${b}?locale=en`);
      assert.deepEqual(await delta(), { draft: 0, published: 2, modified: 0 });
    });

    it('shows an administrator only the types, locales, documents and titles their roles let them read', async () => {
      const reader = await administrator(`Home readers ${dialect}`, [
        // Posts: their own, in French, without the title.
        permission('read', 'api::post.post', { fields: ['body'], locales: ['fr'] }, ['admin::is-creator']),
        permission('create', 'api::post.post', { fields: ['title', 'body'], locales: ['fr'] }),
        permission('update', 'api::post.post', { fields: ['title', 'body'], locales: ['fr'] }, ['admin::is-creator']),
        permission('publish', 'api::post.post', { locales: ['fr'] }, ['admin::is-creator']),
        // Notes: all of them, in English.
        permission('read', 'api::note.note', { fields: ['label'], locales: ['en'] }),
      ]);
      // Before they write anything: English notes only.
      for (const item of await recent(reader, 'update'))
        assert.deepEqual([item.contentTypeUid, item.locale], ['api::note.note', 'en']);
      const others = await write(root, 'post', `${POSTS}?locale=fr`, { title: 'Not theirs' });
      const english = await write(root, 'post', `${NOTES}?locale=en`, { label: 'An English note' });
      await write(root, 'post', `${NOTES}?locale=fr`, { label: 'Une note française' });
      await write(root, 'post', `${PAGES}?locale=fr`, { heading: 'No pages for them' });
      const mine = await write(reader, 'post', `${POSTS}?locale=fr`, { title: 'Le mien', body: 'b' });
      const id = mine.documentId as string;
      const list = await recent(reader, 'update');
      assert.deepEqual(
        list.slice(0, 2).map((item) => [item.contentTypeUid, item.documentId, item.locale, item.title, item.status]),
        [
          // The title they may not read: the documentId stands for it, as in Strapi.
          ['api::post.post', id, 'fr', id, 'draft'],
          ['api::note.note', english.documentId, 'en', 'An English note', undefined],
        ],
      );
      for (const item of list) {
        assert.notEqual(item.documentId, others.documentId);
        assert.ok(item.contentTypeUid === 'api::note.note' ? item.locale === 'en' : item.documentId === id);
      }
      assert.deepEqual(await recent(reader, 'publish'), []);
      await write(reader, 'post', `${POSTS}/${id}/actions/publish?locale=fr`);
      assert.deepEqual(
        (await recent(reader, 'publish')).map((item) => [item.documentId, item.title, item.status]),
        [[id, id, 'published']],
      );
      // Their counts are of what they may read: their French post and the English notes.
      const notes = (
        await root.get('/content-manager/collection-types/api::note.note?locale=en&pagination[pageSize]=1')
      ).body.pagination.total as number;
      assert.deepEqual(await counts(reader), { draft: 0, published: notes + 1, modified: 0 });
      // A role without any read permission sees nothing.
      const none = await administrator(`Home nobody ${dialect}`, []);
      assert.deepEqual(await recent(none, 'update'), []);
      assert.deepEqual(await recent(none, 'publish'), []);
      assert.deepEqual(await counts(none), { draft: 0, published: 0, modified: 0 });
    });

    it('reads a bounded number of statements, however many documents the types hold', async () => {
      const statements = async (path: string) => {
        const before = server.vellum.database.statementCount;
        assert.equal((await root.get(path)).status, 200);
        return server.vellum.database.statementCount - before;
      };
      const paths = [`${RECENT}?action=update`, `${RECENT}?action=publish`, COUNT];
      const bulk = async (rounds: number) => {
        for (let i = 0; i < rounds; i++) {
          const locale = i % 2 ? 'fr' : 'en';
          const post = await root.post(`${POSTS}?locale=${locale}`, { title: `Bulk ${i}` });
          await root.post(`${POSTS}/${post.body.data.documentId}/actions/publish?locale=${locale}`, {});
          await root.post(`${PAGES}?locale=en`, { heading: `Bulk page ${i}` });
        }
        const measured = [];
        for (const path of paths) measured.push(await statements(path));
        return measured;
      };
      // The same kinds of documents make the lists both times; the second time the tables hold more.
      const first = await bulk(2);
      const second = await bulk(12);
      assert.deepEqual(second, first);
      // At most three for the administrator and their roles, one for the types' stored
      // configurations (the lists only); then per readable type (six: the project's five and the
      // users; three with draft and publish) one read, and one status read per type that made the
      // list (four at most). On SQLite a page's rows are read by id apart from its ids
      // (Dialect.pageRowsById): one more per read that found rows.
      const rows = server.vellum.database.dialect.pageRowsById ? 1 : 0;
      assert.ok(second[0]! <= 3 + 1 + 6 * (1 + rows) + 4 * (1 + rows), `recent documents: ${second[0]} statements`);
      assert.ok(second[1]! <= 3 + 1 + 3 * (1 + rows) + 4 * (1 + rows), `recently published: ${second[1]} statements`);
      assert.ok(second[2]! <= 3 + 6, `counts: ${second[2]} statements`);
    });

    it('walks an index for each list, sorting no more than the ties (SQLite’s plans)', async (t) => {
      if (dialect !== 'sqlite') return t.skip('query plans are read on SQLite');
      const seen: string[] = [];
      const stop = server.vellum.database.observe((statement) => seen.push(statement));
      try {
        await recent(root, 'update');
        await recent(root, 'publish');
      } finally {
        stop();
      }
      // The page of ids each list reads from posts (a localized type with draft and publish) and
      // from notes (localized, without): the page statement itself on SQLite (its rows are read by
      // id apart), elsewhere the statement's inner select.
      const pages = seen
        .map(
          (statement) =>
            /(select "t0"\."id" from "(?:posts|notes)" as "t0" where [^?]*? limit 4 offset 0)/.exec(statement)?.[1],
        )
        .filter((page): page is string => page !== undefined);
      assert.equal(pages.length, 3, seen.join('\n'));
      for (const page of pages) {
        const { rows } = await sql
          .raw<{ detail: string }>(`explain query plan ${page}`)
          .execute(server.vellum.database.db);
        const details = rows.map((row) => row.detail);
        assert.ok(
          details.some((detail) => /USING (COVERING )?INDEX/.test(detail)),
          `${page}: ${details.join('; ')}`,
        );
        assert.ok(
          !details.includes('USE TEMP B-TREE FOR ORDER BY'),
          `${page} sorts every match: ${details.join('; ')}`,
        );
      }
    });

    it('follows a seeded random sequence of two administrators’ writes, as a model of the lists says', async () => {
      const seed = 20261130 + DIALECTS.indexOf(dialect);
      const next = random(seed);
      const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
      const all = ['read', 'create', 'update', 'delete', 'publish'];
      // `locales: null`: every locale (a permission naming none gets the default locale only, as in Strapi).
      const everyLocale = { locales: null };
      const editor = await administrator(`Home editors ${seed}`, [
        ...all.map((action) => permission(action, 'api::post.post', everyLocale)),
        ...all.map((action) => permission(action, 'api::page.page', everyLocale)),
        ...['read', 'create', 'update', 'delete'].map((action) => permission(action, 'api::note.note', everyLocale)),
      ]);
      const author = await administrator(`Home authors ${seed}`, [
        ...all.map((action) =>
          permission(
            action,
            'api::post.post',
            action === 'delete' || action === 'publish' ? { locales: ['fr'] } : { fields: ['title'], locales: ['fr'] },
            action === 'create' ? [] : ['admin::is-creator'],
          ),
        ),
        // Every page, without their heading: titled by documentId.
        permission('read', 'api::page.page', { fields: ['code'], ...everyLocale }),
      ]);
      const paths = {
        'api::post.post': POSTS,
        'api::page.page': PAGES,
        'api::note.note': NOTES,
      } as const;
      type Uid = keyof typeof paths;
      const titleKey: Record<Uid, string> = {
        'api::post.post': 'title',
        'api::page.page': 'heading',
        'api::note.note': 'label',
      };
      const publishable = (uid: Uid) => uid !== 'api::note.note';

      /** One locale of one document: its draft (the only row without draft and publish) and published version. */
      interface Entry {
        uid: Uid;
        documentId: string;
        locale: 'en' | 'fr';
        creator: 'editor' | 'author';
        draft?: { title: string; at: number };
        published?: { title: string; at: number; publishedAt: number };
      }
      const entries = new Map<string, Entry>();
      const keyOf = (uid: string, documentId: string, locale: string) => `${uid} ${documentId} ${locale}`;
      let clock = 0;

      type Observer = {
        name: string;
        client: HttpClient;
        sees: (entry: Entry) => boolean;
        titled: (uid: Uid) => boolean;
      };
      const observers: Observer[] = [
        { name: 'editor', client: editor, sees: () => true, titled: () => true },
        {
          name: 'author',
          client: author,
          sees: (entry) =>
            entry.uid === 'api::page.page' ||
            (entry.uid === 'api::post.post' && entry.locale === 'fr' && entry.creator === 'author'),
          titled: (uid) => uid === 'api::post.post',
        },
        { name: 'root', client: root, sees: () => true, titled: () => true },
      ];
      const project = (item: Item) =>
        JSON.stringify([
          item.contentTypeUid,
          item.documentId,
          item.locale,
          item.title,
          item.status ?? null,
          item.publishedAt === null,
        ]);
      // What each observer saw before: other tests' documents, older than every write of this one.
      const baseline = new Map<string, { update: Item[]; publish: Item[]; counts: Counts }>();
      for (const observer of observers)
        baseline.set(observer.name, {
          update: await recent(observer.client, 'update'),
          publish: await recent(observer.client, 'publish'),
          counts: await counts(observer.client),
        });

      const statusOf = (entry: Entry) =>
        !publishable(entry.uid)
          ? null
          : !entry.published
            ? 'draft'
            : entry.draft!.at > entry.published.at
              ? 'modified'
              : 'published';
      const expected = (observer: Observer) => {
        const seen = [...entries.values()].filter(observer.sees);
        const item = (entry: Entry, version: { title: string }, published: boolean) =>
          JSON.stringify([
            entry.uid,
            entry.documentId,
            entry.locale,
            observer.titled(entry.uid) ? version.title : entry.documentId,
            statusOf(entry),
            !published,
          ]);
        const before = baseline.get(observer.name)!;
        const update = [
          ...seen
            .filter((entry) => entry.draft)
            .sort((a, b) => b.draft!.at - a.draft!.at)
            .map((entry) => item(entry, entry.draft!, false)),
          ...before.update.map(project),
        ].slice(0, 4);
        const publish = [
          ...seen
            .filter((entry) => entry.published)
            .sort((a, b) => b.published!.publishedAt - a.published!.publishedAt)
            .map((entry) => item(entry, entry.published!, true)),
          ...before.publish.map(project),
        ].slice(0, 4);
        // By document: a draft unless a locale is published, modified when its latest draft is newer.
        const documents = new Map<string, Entry[]>();
        for (const entry of seen)
          documents.set(`${entry.uid} ${entry.documentId}`, [
            ...(documents.get(`${entry.uid} ${entry.documentId}`) ?? []),
            entry,
          ]);
        const tally = { ...before.counts };
        for (const versions of documents.values()) {
          if (!publishable(versions[0]!.uid)) tally.published++;
          else if (!versions.some((entry) => entry.published)) tally.draft++;
          else {
            const draft = Math.max(...versions.map((entry) => entry.draft?.at ?? -1));
            const published = Math.max(...versions.map((entry) => entry.published?.at ?? -1));
            tally[draft > published ? 'modified' : 'published']++;
          }
        }
        return { update, publish, counts: tally };
      };

      for (let step = 0; step < 40; step++) {
        clock++;
        const actorName = next() < 0.6 ? 'editor' : 'author';
        const client = actorName === 'editor' ? editor : author;
        const mine = [...entries.values()].filter(
          (entry) => actorName === 'editor' || (entry.creator === 'author' && entry.uid === 'api::post.post'),
        );
        const kinds = ['create', 'create', 'update', 'update', 'publish', 'unpublish', 'discard', 'delete', 'locale'];
        let kind = mine.length === 0 ? 'create' : pick(kinds);
        const target = mine.length ? pick(mine) : undefined;
        if (target && !publishable(target.uid) && ['publish', 'unpublish', 'discard'].includes(kind)) kind = 'update';
        if (target && ['unpublish', 'discard'].includes(kind) && !target.published) kind = 'publish';
        if (kind === 'locale' && (actorName === 'author' || !target)) kind = 'update';
        const title = `${actorName} ${kind} s${step}`;
        const where = `seed ${seed} step ${step}: ${actorName} ${kind} ${kind !== 'create' && target ? keyOf(target.uid, target.documentId, target.locale) : ''}`;
        if (kind === 'create') {
          const uid: Uid = actorName === 'author' ? 'api::post.post' : pick(Object.keys(paths) as Uid[]);
          const locale = actorName === 'author' ? 'fr' : pick(['en', 'fr'] as const);
          const created = await write(client, 'post', `${paths[uid]}?locale=${locale}`, { [titleKey[uid]]: title });
          const documentId = created.documentId as string;
          assert.match(documentId, DOCUMENT_ID, where);
          entries.set(keyOf(uid, documentId, locale), {
            uid,
            documentId,
            locale,
            creator: actorName,
            draft: { title, at: clock },
          });
        } else {
          const entry = target!;
          const path = `${paths[entry.uid]}/${entry.documentId}`;
          if (kind === 'update') {
            await write(client, 'put', `${path}?locale=${entry.locale}`, { [titleKey[entry.uid]]: title });
            entry.draft = { title, at: clock };
          } else if (kind === 'locale') {
            // The document's other locale: written when it has none yet, edited otherwise.
            const locale = entry.locale === 'en' ? 'fr' : 'en';
            await write(client, 'put', `${path}?locale=${locale}`, { [titleKey[entry.uid]]: title });
            const other = entries.get(keyOf(entry.uid, entry.documentId, locale));
            if (other) other.draft = { title, at: clock };
            else
              entries.set(keyOf(entry.uid, entry.documentId, locale), {
                uid: entry.uid,
                documentId: entry.documentId,
                locale,
                creator: actorName,
                draft: { title, at: clock },
              });
          } else if (kind === 'publish') {
            await write(client, 'post', `${path}/actions/publish?locale=${entry.locale}`);
            entry.draft = { ...entry.draft!, at: clock };
            entry.published = { title: entry.draft.title, at: clock, publishedAt: clock };
          } else if (kind === 'unpublish') {
            await write(client, 'post', `${path}/actions/unpublish?locale=${entry.locale}`);
            delete entry.published;
          } else if (kind === 'discard') {
            await write(client, 'post', `${path}/actions/discard?locale=${entry.locale}`);
            entry.draft = { title: entry.published!.title, at: entry.published!.at };
          } else {
            await write(client, 'delete', `${path}?locale=${entry.locale}`);
            entries.delete(keyOf(entry.uid, entry.documentId, entry.locale));
          }
        }
        for (const observer of observers) {
          const want = expected(observer);
          const at = `${where} (as ${observer.name})`;
          assert.deepEqual((await recent(observer.client, 'update')).map(project), want.update, `${at}: last edited`);
          assert.deepEqual(
            (await recent(observer.client, 'publish')).map(project),
            want.publish,
            `${at}: last published`,
          );
          assert.deepEqual(await counts(observer.client), want.counts, `${at}: counts`);
        }
      }
    });
  });
}
