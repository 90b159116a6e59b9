/**
 * Content history (docs/history.md), over HTTP on every dialect: every write of a document records
 * a version in its own transaction (content manager, content API and project code alike), listed
 * at Strapi 5.54's `GET /content-manager/history-versions` in its shapes, restored by
 * `PUT /content-manager/history-versions/:id/restore` as a new draft naming the relations whose
 * targets are gone; the content manager's permissions decide who lists and restores; one extra
 * statement per write (measured); storage that grows with what changed (measured); and a seeded
 * random sequence of writes checked against a model of what each version holds.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { DocumentService } from '../../src/core/documents/service.js';
import { HistoryRetention } from '../../src/features/history/index.js';
import { HttpClient } from '../helpers/http.js';
import { DIALECTS, fixture, startServer, type TestServer } from '../helpers/server.js';

const ARTICLE = 'api::article.article';
const TAG = 'api::tag.tag';
const CM = `/content-manager/collection-types/${ARTICLE}`;
const HISTORY = '/content-manager/history-versions';

type Item = Record<string, unknown>;

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
  describe(`content history (${dialect})`, () => {
    let server: TestServer;
    let root: HttpClient;
    let rootId: number;
    const as = (token: string) => new HttpClient(server.url, { authorization: `Bearer ${token}` });
    const documents = () => server.vellum.documents;
    const versions = async (client: HttpClient, documentId: string, locale = 'en', extra = ''): Promise<Item[]> => {
      const answer = await client.get(
        `${HISTORY}?contentType=${ARTICLE}&documentId=${documentId}&locale=${locale}${extra}`,
      );
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      return answer.body.data as Item[];
    };
    const tag = async (name: string): Promise<string> =>
      (await documents().of(TAG).create({ data: { name } })).documentId as string;
    const administrator = async (
      name: string,
      actions: string[],
      fields = ['title', 'body', 'views', 'tags', 'seo'],
    ): Promise<HttpClient> => {
      const role = await root.post('/admin/roles', { name });
      assert.equal(role.status, 201, JSON.stringify(role.body));
      const permissions = actions.map((action) => ({
        action: `plugin::content-manager.explorer.${action}`,
        subject: ARTICLE,
        properties: { fields, locales: ['en', 'fr'] },
        conditions: [],
      }));
      const set = await root.put(`/admin/roles/${role.body.data.id}/permissions`, { permissions });
      assert.equal(set.status, 200, JSON.stringify(set.body));
      const email = `${name.toLowerCase()}@example.com`;
      const invited = await root.post('/admin/users', { email, firstname: name, roles: [role.body.data.id] });
      assert.equal(invited.status, 201, JSON.stringify(invited.body));
      const registered = await server.publicApi.post('/admin/register', {
        registrationToken: invited.body.data.registrationToken,
        userInfo: { firstname: name, password: 'Passw0rd-History' },
      });
      assert.equal(registered.status, 200, JSON.stringify(registered.body));
      return as(registered.body.data.token);
    };

    before(async () => {
      server = await startServer(dialect, { project: fixture('history') });
      const first = await server.publicApi.post('/admin/register-admin', {
        email: 'root@example.com',
        password: 'Passw0rd-Root',
        firstname: 'Root',
        lastname: 'Admin',
      });
      assert.equal(first.status, 200, JSON.stringify(first.body));
      root = as(first.body.data.token);
      rootId = first.body.data.user.id as number;
    });
    after(() => server?.close());

    it('lists a document’s versions newest first in Strapi’s shape, with their author and status', async () => {
      const news = await tag('news');
      const created = await root.post(`${CM}?locale=en`, {
        title: 'First',
        body: 'Hello',
        tags: { connect: [{ documentId: news }] },
        seo: { metaTitle: 'Meta' },
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const id = created.body.data.documentId as string;
      const published = await root.post(`${CM}/${id}/actions/publish?locale=en`, {});
      assert.equal(published.status, 200, JSON.stringify(published.body));
      // The content API writes too (no author then).
      const edited = await server.api.put(`/api/articles/${id}?locale=en&status=draft`, { data: { title: 'Second' } });
      assert.equal(edited.status, 200, JSON.stringify(edited.body));

      // And GraphQL.
      const mutation = await server.api.post('/graphql', {
        query: `mutation { updateArticle(documentId: "${id}", locale: "en", status: DRAFT, data: { body: "Hello!" }) { documentId } }`,
      });
      assert.equal(mutation.status, 200, JSON.stringify(mutation.body));
      assert.equal(mutation.body.errors, undefined, JSON.stringify(mutation.body));
      const [graphql] = await versions(root, id);
      assert.deepEqual([(graphql!.data as Item).title, (graphql!.data as Item).body], ['Second', 'Hello!']);
      // The same write again through REST, as it was: the versions are read as they were.
      const restored = await server.api.put(`/api/articles/${id}?locale=en&status=draft`, { data: { body: 'Hello' } });
      assert.equal(restored.status, 200, JSON.stringify(restored.body));

      const answer = await root.get(`${HISTORY}?contentType=${ARTICLE}&documentId=${id}&locale=en&pageSize=2`);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.deepEqual(answer.body.meta, { pagination: { page: 1, pageSize: 2, pageCount: 3, total: 5 } });
      const [latest] = answer.body.data as Item[];
      const [, publish] = await versions(root, id, 'en', '&page=2&pageSize=2');
      assert.deepEqual(Object.keys(latest!).sort(), [
        'contentType',
        'createdAt',
        'data',
        'id',
        'locale',
        'meta',
        'relatedDocumentId',
        'schema',
        'status',
      ]);
      // A content API write has no author: no createdBy (Strapi's undefined, left out of JSON).
      assert.deepEqual(
        [latest!.contentType, latest!.relatedDocumentId, latest!.locale, latest!.status],
        [ARTICLE, id, { code: 'en', name: 'English (en)' }, 'modified'],
      );
      const data = latest!.data as Item;
      assert.equal(data.title, 'Second');
      assert.equal(data.body, 'Hello');
      assert.equal(data.views, 0);
      assert.deepEqual((data.seo as Item).metaTitle, 'Meta');
      const tags = data.tags as { results: Item[]; meta: Item };
      assert.deepEqual(tags.meta, { missingCount: 0 });
      assert.deepEqual(
        tags.results.map((entry) => [entry.documentId, entry.name, entry.status]),
        [[news, 'news', 'published']],
      );
      assert.deepEqual(latest!.meta, { unknownAttributes: { added: {}, removed: {} } });
      assert.equal(publish!.status, 'published');
      assert.equal((publish!.data as Item).title, 'First');
      assert.deepEqual(publish!.createdBy, {
        id: rootId,
        firstname: 'Root',
        lastname: 'Admin',
        username: null,
        email: 'root@example.com',
      });
      const third = await versions(root, id, 'en', '&page=3&pageSize=2');
      assert.deepEqual(
        third.map((version) => [version.status, (version.data as Item).title]),
        [['draft', 'First']],
      );
      // Another locale has its own versions.
      assert.deepEqual(await versions(root, id, 'fr'), []);
    });

    it('restores a version as a new draft, naming the relations whose targets are gone', async () => {
      const keep = await tag('keep');
      const gone = await tag('gone');
      const article = await documents()
        .of(ARTICLE)
        .create({ locale: 'en', data: { title: 'Old', body: 'Old body', tags: [keep, gone] } });
      const id = article.documentId as string;
      await documents()
        .of(ARTICLE)
        .update({ documentId: id, locale: 'en', data: { title: 'New', tags: { set: [keep] } } });
      await documents().of(TAG).delete({ documentId: gone });
      const [, old] = await versions(root, id);
      assert.deepEqual((old!.data as Item).tags, {
        results: [
          {
            id: (old!.data as { tags: { results: Item[] } }).tags.results[0]!.id,
            documentId: keep,
            locale: null,
            status: 'published',
            name: 'keep',
          },
        ],
        meta: { missingCount: 1 },
      });
      const refused = await root.put(`${HISTORY}/${old!.id}/restore`, {});
      assert.equal(refused.status, 400, JSON.stringify(refused.body));
      const restored = await root.put(`${HISTORY}/${old!.id}/restore`, { contentType: ARTICLE });
      assert.equal(restored.status, 200, JSON.stringify(restored.body));
      assert.deepEqual(restored.body, {
        data: { documentId: id },
        meta: { missingRelations: [{ attribute: 'tags', documentId: gone, locale: null }] },
      });
      const draft = await documents()
        .of(ARTICLE)
        .findOne({ documentId: id, locale: 'en', status: 'draft', populate: ['tags'] });
      assert.deepEqual(
        [draft!.title, draft!.body, (draft!.tags as Item[]).map((entry) => entry.documentId)],
        ['Old', 'Old body', [keep]],
      );
      // The restore is a version of its own, by its administrator.
      const [latest] = await versions(root, id);
      assert.equal((latest!.data as Item).title, 'Old');
      assert.equal((latest!.createdBy as Item).id, rootId);
      const unknown = await root.put(`${HISTORY}/999999999/restore`, { contentType: ARTICLE });
      assert.equal(unknown.status, 404, JSON.stringify(unknown.body));
    });

    it('lets the content manager’s permissions decide who lists and restores', async () => {
      const id = (
        await documents()
          .of(ARTICLE)
          .create({ locale: 'en', data: { title: 'Guarded' } })
      ).documentId as string;
      const [version] = await versions(root, id);
      const reader = await administrator('Historian', ['read'], ['title']);
      const editor = await administrator('Restorer', ['read', 'update']);
      const nobody = await administrator('Outsider', []);
      // A role that may read only the title sees only the title.
      assert.deepEqual(
        (await versions(reader, id)).map((item) => item.data),
        [{ title: 'Guarded' }],
      );
      const denied = await reader.put(`${HISTORY}/${version!.id}/restore`, { contentType: ARTICLE });
      assert.equal(denied.status, 403, JSON.stringify(denied.body));
      const list = await nobody.get(`${HISTORY}?contentType=${ARTICLE}&documentId=${id}`);
      assert.equal(list.status, 403, JSON.stringify(list.body));
      const restored = await editor.put(`${HISTORY}/${version!.id}/restore`, { contentType: ARTICLE });
      assert.equal(restored.status, 200, JSON.stringify(restored.body));
      const anonymous = await server.publicApi.get(`${HISTORY}?contentType=${ARTICLE}&documentId=${id}`);
      assert.equal(anonymous.status, 401);
      const missing = await root.get(`${HISTORY}?contentType=${ARTICLE}`);
      assert.equal(missing.status, 403);
      assert.equal(missing.body.error.message, 'contentType and documentId are required');
    });

    it('costs one statement per write, and stores what changed rather than the document', async () => {
      const { database } = server.vellum;
      const plain = new DocumentService({
        database,
        schema: documents().schema,
        i18n: documents().i18n,
        rest: server.vellum.config.api.rest,
        // The same outbox as the node's (one read of the webhooks per write): only history differs.
        outbox: server.vellum.webhooks,
        passwords: documents().passwords,
      });
      const cost = async (service: DocumentService): Promise<number[]> => {
        const counts: number[] = [];
        const measure = async (write: () => Promise<unknown>) => {
          const before = database.statementCount;
          await write();
          counts.push(database.statementCount - before);
        };
        const of = service.of(ARTICLE);
        let id = '';
        await measure(async () => {
          id = (await of.create({ locale: 'en', data: { title: 'Count' } })).documentId as string;
        });
        await measure(() => of.update({ documentId: id, locale: 'en', data: { title: 'Count 2' } }));
        await measure(() => of.publish({ documentId: id, locale: 'en' }));
        await measure(() => of.update({ documentId: id, locale: 'en', data: { body: 'x' } }));
        await measure(() => of.discardDraft({ documentId: id, locale: 'en' }));
        await measure(() => of.unpublish({ documentId: id, locale: 'en' }));
        return counts;
      };
      const without = await cost(plain);
      const withHistory = await cost(documents());
      assert.deepEqual(
        withHistory,
        without.map((count) => count + 1),
        `with history ${JSON.stringify(withHistory)}, without ${JSON.stringify(without)}`,
      );

      // 50 saves of a 100 kB document, each changing its title: the body is stored once.
      const body = 'lorem ipsum '.repeat(8_500);
      const big = (
        await documents()
          .of(ARTICLE)
          .create({ locale: 'en', data: { title: 'Big 0', body } })
      ).documentId as string;
      for (let save = 1; save < 50; save++)
        await documents()
          .of(ARTICLE)
          .update({ documentId: big, locale: 'en', data: { title: `Big ${save}`, body } });
      const { bytes, total } = (
        await sql<{ bytes: number | string; total: number | string }>`
        select sum(length(data)) as bytes, count(*) as total from vellum_history_versions
        where related_document_id = ${big}`.execute(database.db)
      ).rows[0]!;
      assert.equal(Number(total), 50);
      // One body (102 kB) and 50 small rows; full snapshots would be 50 bodies (5.1 MB).
      assert.ok(Number(bytes) < body.length + 50 * 200, `${bytes} bytes for 50 saves`);
      // A page costs the same statements whatever the chain's length (one read of it, folded in memory).
      const small = (
        await documents()
          .of(ARTICLE)
          .create({ locale: 'en', data: { title: 'Small' } })
      ).documentId as string;
      const listing = async (documentId: string) => {
        const before = database.statementCount;
        await versions(root, documentId, 'en', '&pageSize=20');
        return database.statementCount - before;
      };
      await listing(small);
      assert.equal(await listing(big), await listing(small));
      const [latest] = await versions(root, big, 'en', '&pageSize=1');
      assert.equal((latest!.data as Item).title, 'Big 49');
      assert.equal((latest!.data as Item).body, body);
    });
    it('lists and restores a single type’s versions without a documentId, as Strapi', async () => {
      const HOME = 'api::home.home';
      const home = documents().of(HOME);
      const { documentId } = await home.update({ status: 'draft', data: { headline: 'First' } });
      await home.update({ status: 'draft', data: { headline: 'Second' } });
      const listed = await root.get(`${HISTORY}?contentType=${HOME}`);
      assert.equal(listed.status, 200, JSON.stringify(listed.body));
      const [latest, first] = listed.body.data as Item[];
      assert.deepEqual(
        [(latest!.data as Item).headline, (first!.data as Item).headline, first!.relatedDocumentId],
        ['Second', 'First', documentId],
      );
      const restored = await root.put(`${HISTORY}/${first!.id}/restore`, { contentType: HOME });
      assert.equal(restored.status, 200, JSON.stringify(restored.body));
      assert.equal((await home.findFirst({ status: 'draft' }))!.headline, 'First');
    });

    it('keeps what retention leaves readable as it was: the oldest kept version becomes whole', async () => {
      const of = documents().of(ARTICLE);
      const id = (await of.create({ locale: 'en', data: { title: 'a', body: 'kept body' } })).documentId as string;
      await of.publish({ documentId: id, locale: 'en' });
      for (const title of ['b', 'c', 'd'])
        await of.update({ documentId: id, locale: 'en', status: 'draft', data: { title } });
      await of.discardDraft({ documentId: id, locale: 'en' });
      const before = await versions(root, id, 'en', '&pageSize=100');
      assert.deepEqual(
        before.map((version) => (version.data as Item).title),
        ['a', 'd', 'c', 'b', 'a', 'a'],
      );
      const key = { related_document_id: id, content_type: ARTICLE };
      const { database } = server.vellum;
      const byCount = new HistoryRetention(database, { retentionDays: 90, maxVersionsPerDocument: 2 });
      assert.equal(await byCount.due(), true);
      assert.equal(await byCount.trim(key), 4);
      // The discard still goes back to what was published, though the publish's row is gone.
      assert.deepEqual(await versions(root, id, 'en', '&pageSize=100'), before.slice(0, 2));
      const later = Date.now() + 2 * 86_400_000;
      const byAge = new HistoryRetention(
        database,
        { retentionDays: 1, maxVersionsPerDocument: 100 },
        { now: () => later },
      );
      assert.equal(await byAge.due(), true);
      assert.equal(await byAge.trim(key), 2);
      assert.deepEqual(await versions(root, id), []);
    });

    it('keeps what each write left, through a seeded random sequence of writes and restores', async () => {
      const seed = Number(process.env.SEQ_SEED ?? Date.now() % 100_000);
      const steps = Number(process.env.SEQ_STEPS ?? 40);
      const rand = random(seed);
      const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)]!;
      const of = documents().of(ARTICLE);
      interface State {
        title: string | null;
        body: string | null;
        views: number | null;
        tags: string[];
      }
      interface Chain {
        documentId: string;
        locale: 'en' | 'fr';
        draft: State | null;
        published: State | null;
        /** What each version must hold, oldest first (price: the locales share it). */
        versions: { state: State; price: number | null; status: string }[];
      }
      /** The shared price of each document: its drafts', and its published versions'. */
      const prices = new Map<string, { draft: number | null; published: number | null }>();
      const tags = await Promise.all(['a', 'b', 'c', 'd'].map((name) => tag(`seq-${seed}-${name}`)));
      const live = new Set(tags);
      const chains: Chain[] = [];
      const chainOf = (documentId: string, locale: 'en' | 'fr') => {
        let chain = chains.find((item) => item.documentId === documentId && item.locale === locale);
        if (!chain) {
          chain = { documentId, locale, draft: null, published: null, versions: [] };
          chains.push(chain);
        }
        return chain;
      };
      const record = (chain: Chain, status: string) =>
        chain.versions.push({
          state: { ...chain.draft!, tags: [...chain.draft!.tags] },
          price: prices.get(chain.documentId)!.draft,
          status,
        });
      const someTags = () => tags.filter(() => rand() < 0.4).filter((id) => live.has(id));
      const log: string[] = [];
      for (let step = 0; step < steps; step++) {
        const existing = chains.filter((chain) => chain.draft !== null);
        const roll = rand();
        if (existing.length === 0 || roll < 0.15) {
          const state: State = {
            title: `t${step}`,
            body: rand() < 0.5 ? `b${step}` : null,
            views: 0,
            tags: someTags(),
          };
          const publish = rand() < 0.3;
          const price = rand() < 0.5 ? step : null;
          const created = await of.create({
            locale: 'en',
            status: publish ? 'published' : 'draft',
            data: {
              title: state.title,
              ...(state.body === null ? {} : { body: state.body }),
              ...(price === null ? {} : { price }),
              tags: state.tags,
            },
          });
          const chain = chainOf(created.documentId as string, 'en');
          prices.set(chain.documentId, { draft: price, published: publish ? price : null });
          chain.draft = state;
          chain.published = publish ? state : null;
          record(chain, publish ? 'published' : 'draft');
          log.push(`create ${chain.documentId} ${publish}`);
        } else if (roll < 0.5) {
          const base = pick(existing);
          const locale = rand() < 0.2 ? (base.locale === 'en' ? 'fr' : 'en') : base.locale;
          const chain = chainOf(base.documentId, locale);
          const data: Item = {};
          const isNew = chain.draft === null;
          const state: State = isNew
            ? { title: null, body: null, views: 0, tags: [] }
            : { ...chain.draft!, tags: [...chain.draft!.tags] };
          if (isNew || rand() < 0.6) state.title = data.title = `t${step}`;
          if (rand() < 0.3) state.body = data.body = `b${step}`;
          if (rand() < 0.2) state.views = data.views = step;
          const price = prices.get(base.documentId)!;
          if (rand() < 0.25) price.draft = data.price = step;
          const how = rand();
          if (how < 0.3) {
            state.tags = someTags();
            data.tags = { set: state.tags.map((documentId) => ({ documentId })) };
          } else if (how < 0.6) {
            const add = pick(tags);
            if (live.has(add)) {
              state.tags = [...state.tags.filter((id) => id !== add), add];
              data.tags = { connect: [{ documentId: add }] };
            }
          } else if (how < 0.75 && state.tags.some((id) => live.has(id))) {
            const remove = pick(state.tags.filter((id) => live.has(id)));
            state.tags = state.tags.filter((id) => id !== remove);
            data.tags = { disconnect: [{ documentId: remove }] };
          }
          const publish = rand() < 0.2;
          await of.update({ documentId: base.documentId, locale, status: publish ? 'published' : 'draft', data });
          chain.draft = state;
          if (publish) {
            chain.published = state;
            price.published = price.draft;
          }
          record(chain, publish ? 'published' : chain.published ? 'modified' : 'draft');
          log.push(`update ${chain.documentId} ${locale} ${JSON.stringify(data)} ${publish}`);
        } else if (roll < 0.6) {
          const chain = pick(existing);
          await of.publish({ documentId: chain.documentId, locale: chain.locale });
          chain.published = chain.draft;
          prices.get(chain.documentId)!.published = prices.get(chain.documentId)!.draft;
          record(chain, 'published');
          log.push(`publish ${chain.documentId} ${chain.locale}`);
        } else if (roll < 0.68) {
          const chain = existing.find((item) => item.published !== null);
          if (!chain) continue;
          await of.unpublish({ documentId: chain.documentId, locale: chain.locale });
          chain.published = null;
          record(chain, 'draft');
          log.push(`unpublish ${chain.documentId} ${chain.locale}`);
        } else if (roll < 0.76) {
          const chain = existing.find((item) => item.published !== null);
          if (!chain) continue;
          await of.discardDraft({ documentId: chain.documentId, locale: chain.locale });
          chain.draft = chain.published;
          prices.get(chain.documentId)!.draft = prices.get(chain.documentId)!.published;
          record(chain, 'published');
          log.push(`discard ${chain.documentId} ${chain.locale}`);
        } else if (roll < 0.8) {
          const gone = pick([...live]);
          if (!gone || live.size <= 1) continue;
          await documents().of(TAG).delete({ documentId: gone });
          live.delete(gone);
          log.push(`delete tag ${gone}`);
        } else {
          const chain = pick(chains.filter((item) => item.versions.length > 0));
          if (chain.draft === null) continue;
          const listed = await versions(root, chain.documentId, chain.locale, '&pageSize=100');
          const index = Math.floor(rand() * listed.length);
          const expected = chain.versions[chain.versions.length - 1 - index]!;
          const answer = await root.put(`${HISTORY}/${listed[index]!.id}/restore`, { contentType: ARTICLE });
          assert.equal(answer.status, 200, JSON.stringify(answer.body));
          assert.deepEqual(
            (answer.body.meta.missingRelations as Item[]).map((item) => item.documentId),
            expected.state.tags.filter((id) => !live.has(id)),
            `seed ${seed}, step ${step}: ${log.join('\n')}`,
          );
          chain.draft = { ...expected.state, tags: expected.state.tags.filter((id) => live.has(id)) };
          prices.get(chain.documentId)!.draft = expected.price;
          record(chain, chain.published ? 'modified' : 'draft');
          log.push(`restore ${chain.documentId} ${chain.locale} #${index}`);
        }
      }
      for (const chain of chains) {
        const listed = (await versions(root, chain.documentId, chain.locale, '&pageSize=100')).reverse();
        const seen = listed.map((version) => {
          const data = version.data as Item;
          const relation = data.tags as { results: Item[]; meta: { missingCount: number } };
          return {
            status: version.status,
            title: data.title,
            body: data.body,
            views: data.views,
            price: data.price,
            tags: relation.results.map((entry) => entry.documentId),
            missing: relation.meta.missingCount,
          };
        });
        const wanted = chain.versions.map(({ state, price, status }) => ({
          status,
          title: state.title,
          body: state.body,
          views: state.views,
          price,
          tags: state.tags.filter((id) => live.has(id)),
          missing: state.tags.filter((id) => !live.has(id)).length,
        }));
        assert.deepEqual(
          seen,
          wanted,
          `seed ${seed} (SEQ_SEED to replay), ${chain.documentId} ${chain.locale}:\n${log.join('\n')}`,
        );
        if (chain.draft) {
          const draft = await of.findOne({
            documentId: chain.documentId,
            locale: chain.locale,
            status: 'draft',
            populate: ['tags'],
          });
          assert.deepEqual(
            [
              draft!.title,
              draft!.body,
              draft!.views,
              draft!.price,
              (draft!.tags as Item[]).map((entry) => entry.documentId),
            ],
            [
              chain.draft.title,
              chain.draft.body,
              chain.draft.views,
              prices.get(chain.documentId)!.draft,
              chain.draft.tags.filter((id) => live.has(id)),
            ],
            `seed ${seed}: the model's draft`,
          );
        }
      }
    });
  });
}
