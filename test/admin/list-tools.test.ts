/**
 * The content manager's list tools at Strapi 5.54's paths (docs/admin-panel.md "List tools"), on
 * every dialect: bulk publish, unpublish and delete with a summary of what could not be done,
 * duplicating a document (`clone`, `auto-clone`), roles deciding per entry, and a seeded random
 * sequence of them against a model of the documents' states.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { HttpClient } from '../helpers/http.js';
import {
  createRole,
  emailOf,
  explorerPermission as permission,
  inviteAdmin,
  registerFirstAdmin,
  type Permission,
} from '../helpers/admins.js';
import { insertFile } from '../helpers/files.js';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';

const CM = '/content-manager/collection-types';
const ARTICLES = `${CM}/api::article.article`;
const TAGS = `${CM}/api::tag.tag`;
const AUTHORS = `${CM}/api::author.author`;

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
  describe(`content manager list tools (${dialect})`, () => {
    let server: TestServer;
    let root: HttpClient;
    const create = async (client: HttpClient, body: Item, locale = 'en'): Promise<string> => {
      const answer = await client.post(`${ARTICLES}?locale=${locale}`, body);
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      return answer.body.data.documentId as string;
    };
    const statusOf = async (documentId: string, locale = 'en') => {
      const answer = await root.get(`${ARTICLES}/${documentId}?locale=${locale}`);
      return answer.status === 404 ? 'gone' : (answer.body.data.status as string);
    };
    const administrator = async (name: string, permissions: Permission[]): Promise<HttpClient> => {
      const role = await createRole(root, name, permissions);
      const who = { email: emailOf(name), firstname: name, password: 'Passw0rd-List' };
      return (await inviteAdmin(server, root, [role], who)).client;
    };

    before(async () => {
      server = await startServer(dialect);
      root = (await registerFirstAdmin(server)).client;
    });
    after(() => server?.close());

    it('publishes, unpublishes and deletes a batch, and tells what could not be done and why', async () => {
      const a = await create(root, { title: 'Bulk a' });
      const b = await create(root, { title: 'Bulk b' });
      // A draft may lack its required title; publishing it may not.
      const untitled = await create(root, { body: 'no title' });
      const published = await root.post(`${ARTICLES}/actions/bulkPublish`, {
        documentIds: [a, b, untitled, 'nosuchdocumentid000000000', a],
        locale: 'en',
      });
      assert.equal(published.status, 200, JSON.stringify(published.body));
      assert.equal(published.body.count, 2);
      assert.deepEqual(
        published.body.errors.map((e: Item) => [
          e.documentId,
          e.locale,
          (e.error as Item).status,
          (e.error as Item).name,
        ]),
        [
          [untitled, 'en', 400, 'ValidationError'],
          ['nosuchdocumentid000000000', 'en', 404, 'NotFoundError'],
        ],
      );
      assert.deepEqual(
        [await statusOf(a), await statusOf(b), await statusOf(untitled)],
        ['published', 'published', 'draft'],
      );

      const unpublished = await root.post(`${ARTICLES}/actions/bulkUnpublish?locale=en`, {
        documentIds: [a, untitled],
      });
      assert.equal(unpublished.body.count, 1);
      assert.deepEqual(
        unpublished.body.errors.map((e: Item) => [e.documentId, (e.error as Item).message]),
        [[untitled, 'The document has no published version']],
      );
      assert.equal(await statusOf(a), 'draft');

      // Everything done: Strapi's `{ count }` alone.
      const deleted = await root.post(`${ARTICLES}/actions/bulkDelete`, { documentIds: [a, b], locale: 'en' });
      assert.deepEqual(deleted.body, { count: 2 });
      assert.deepEqual([await statusOf(a), await statusOf(b)], ['gone', 'gone']);
      // The published version of b went with its draft.
      assert.equal((await server.api.get(`/api/articles/${b}`)).status, 404);
    });

    it('acts on each locale named, and refuses bad batches whole', async () => {
      const id = await create(root, { title: 'Both' });
      await root.put(`${ARTICLES}/${id}?locale=fr`, { title: 'Les deux' });
      const both = await root.post(`${ARTICLES}/actions/bulkPublish`, { documentIds: [id], locale: ['en', 'fr'] });
      assert.deepEqual(both.body, { count: 2 });
      assert.deepEqual([await statusOf(id, 'en'), await statusOf(id, 'fr')], ['published', 'published']);

      for (const body of [
        {},
        { documentIds: [] },
        { documentIds: 'x' },
        { documentIds: [{}] },
        { documentIds: ['a'], locale: 3 },
      ]) {
        const answer = await root.post(`${ARTICLES}/actions/bulkPublish`, body);
        assert.equal(answer.status, 400, JSON.stringify(body));
        assert.equal(answer.body.error.name, 'ValidationError');
      }
      const tooMany = Array.from({ length: 101 }, (_, i) => `id${i}`);
      const big = await root.post(`${ARTICLES}/actions/bulkDelete`, { documentIds: tooMany });
      assert.equal(big.status, 400);
      assert.match(big.body.error.message, /at most 100/);
      const noDraft = await root.post(`${AUTHORS}/actions/bulkPublish`, { documentIds: ['x'] });
      assert.equal(noDraft.status, 400);
      assert.equal((await server.publicApi.post(`${ARTICLES}/actions/bulkDelete`, { documentIds: [id] })).status, 401);
    });

    it('lets the role decide per entry: its conditions and locales', async () => {
      const editor = await administrator(`Own en ${dialect}`, [
        permission('create', 'api::article.article', { fields: ['title', 'body'], locales: ['en'] }),
        permission('read', 'api::article.article', { fields: ['title', 'body'], locales: ['en'] }, [
          'admin::is-creator',
        ]),
        permission('publish', 'api::article.article', { locales: ['en'] }, ['admin::is-creator']),
        permission('delete', 'api::article.article', { locales: ['en'] }, ['admin::is-creator']),
      ]);
      const others = await create(root, { title: 'Root’s' });
      const mine = await create(editor, { title: 'Mine' });
      const answer = await editor.post(`${ARTICLES}/actions/bulkPublish`, {
        documentIds: [others, mine],
        locale: 'en',
      });
      assert.equal(answer.body.count, 1);
      assert.deepEqual(
        answer.body.errors.map((e: Item) => [e.documentId, (e.error as Item).status]),
        [[others, 403]],
      );
      assert.deepEqual([await statusOf(others), await statusOf(mine)], ['draft', 'published']);
      // No version in that locale at all: Strapi's 404 for the batch.
      const french = await editor.post(`${ARTICLES}/actions/bulkDelete`, { documentIds: [mine], locale: 'fr' });
      assert.equal(french.status, 404);
      await root.put(`${ARTICLES}/${mine}?locale=fr`, { title: 'Le mien' });
      const frenchNow = await editor.post(`${ARTICLES}/actions/bulkDelete`, { documentIds: [mine], locale: 'fr' });
      assert.deepEqual(
        frenchNow.body.errors.map((e: Item) => [e.documentId, e.locale, (e.error as Item).status]),
        [[mine, 'fr', 403]],
      );
      assert.equal(await statusOf(mine, 'fr'), 'draft');
      // Without the action at all: Strapi's 403 for the whole request.
      const reader = await administrator(`Readers ${dialect}`, [permission('read', 'api::article.article')]);
      const refused = await reader.post(`${ARTICLES}/actions/bulkDelete`, { documentIds: [mine] });
      assert.equal(refused.status, 403);
      assert.equal(refused.body.error.name, 'PolicyError');
      // A copy takes the create permission, and a source the administrator may read.
      assert.equal((await editor.post(`${ARTICLES}/clone/${others}?locale=en`, {})).status, 403);
      const copy = await editor.post(`${ARTICLES}/clone/${mine}?locale=en`, { body: 'copied' });
      assert.equal(copy.status, 200, JSON.stringify(copy.body));
      assert.equal(copy.body.data.title, 'Mine');
    });

    it('duplicates a document: relations, media and components copied, unique fields refused unattended', async () => {
      const tag = (await root.post(TAGS, { name: 'dup-tag' })).body.data.documentId as string;
      const cover = await insertFile(server, `dup-cover-${dialect}.png`);
      const source = await create(root, {
        title: 'Original',
        slug: 'original',
        tags: [tag],
        cover,
        seo: { metaTitle: 'meta' },
        links: [{ label: 'one', url: 'https://one.example' }],
        blocks: [{ __component: 'shared.quote', title: 'Q', body: 'quoted' }],
      });
      const auto = await root.post(`${ARTICLES}/auto-clone/${source}?locale=en`, {});
      assert.equal(auto.status, 400);
      assert.deepEqual(auto.body.error.details, { prohibitedFields: [[['slug'], 'unique']] });
      const copy = await root.post(`${ARTICLES}/clone/${source}?locale=en`, { slug: 'copy', title: 'Copy' });
      assert.equal(copy.status, 200, JSON.stringify(copy.body));
      const { data, meta } = copy.body;
      assert.notEqual(data.documentId, source);
      assert.deepEqual(
        [data.title, data.slug, data.status, data.tags, data.cover?.id],
        ['Copy', 'copy', 'draft', { count: 1 }, cover],
      );
      assert.equal(data.seo.metaTitle, 'meta');
      assert.deepEqual(meta, { availableLocales: [], availableStatus: [] });
      const original = (await root.get(`${ARTICLES}/${source}?locale=en`)).body.data;
      assert.notEqual(data.seo.id, original.seo.id);
      assert.deepEqual(
        [data.links.map((l: Item) => l.label), data.blocks.map((b: Item) => b.body)],
        [['one'], ['quoted']],
      );
      assert.equal(original.title, 'Original');
      // A type with nothing unique is copied unattended.
      const tagCopy = await root.post(`${TAGS}/auto-clone/${tag}`, {});
      assert.equal(tagCopy.status, 200, JSON.stringify(tagCopy.body));
      assert.equal(tagCopy.body.data.name, 'dup-tag');
      // Its articles too (drafts: the source and its copy), from the relation's other side.
      const linked = await server.api.get(`/api/tags/${tagCopy.body.data.documentId}?populate=articles&status=draft`);
      assert.deepEqual(linked.body.data.articles.map((article: Item) => article.title).sort(), ['Copy', 'Original']);
      assert.equal((await root.post(`${ARTICLES}/clone/nosuchdocument?locale=en`, {})).status, 404);
    });

    it('filters the list by status as Strapi’s panel asks: never published, published, modified or not', async () => {
      const tag = `status-${dialect}`;
      const draft = await create(root, { title: 'Never published', body: tag });
      const published = await create(root, { title: 'Published', body: tag });
      const modified = await create(root, { title: 'Modified', body: tag });
      await root.post(`${ARTICLES}/actions/bulkPublish`, { documentIds: [published, modified], locale: 'en' });
      await new Promise((resolve) => setTimeout(resolve, 5));
      await root.put(`${ARTICLES}/${modified}?locale=en`, { title: 'Modified since' });
      const listed = async (status: string) => {
        const answer = await root.get(
          `${ARTICLES}?locale=en&sort=title:asc&filters[$and][0][body][$eq]=${tag}&filters[$and][1][__status][$eq]=${status}`,
        );
        assert.equal(answer.status, 200, JSON.stringify(answer.body));
        return answer.body.results.map((doc: Item) => doc.documentId);
      };
      assert.deepEqual(await listed('draft'), [draft]);
      assert.deepEqual(await listed('published'), [modified, published]);
      assert.deepEqual(await listed('published-modified'), [modified]);
      assert.deepEqual(await listed('published-unmodified'), [published]);
      const bad = await root.get(`${ARTICLES}?filters[$and][0][__status][$eq]=archived`);
      assert.equal(bad.status, 400);
    });

    it('keeps every document where a seeded random sequence of bulk actions and copies leaves it', async () => {
      const seed = Number(process.env.SEQ_SEED ?? Date.now() % 100_000);
      const steps = Number(process.env.SEQ_STEPS ?? 25);
      const next = random(seed);
      const pick = <T>(items: T[]): T => items[Math.floor(next() * items.length)]!;
      // The model: each document's state in `en`.
      const model = new Map<string, 'draft' | 'published'>();
      const tag = `seq-${dialect}-${seed}`;
      for (let step = 0; step < steps; step += 1) {
        const where = `seed ${seed}, step ${step}`;
        const ids = [...model.keys()];
        const batch = ids.filter(() => next() < 0.5);
        if (next() < 0.2) batch.push(`missing${step}`);
        const op = ids.length < 2 ? 'create' : pick(['create', 'publish', 'unpublish', 'delete', 'clone'] as const);
        if (op === 'create') {
          model.set(await create(root, { title: `${tag} ${step}`, body: tag }), 'draft');
        } else if (op === 'clone') {
          const from = pick(ids);
          const copy = await root.post(`${ARTICLES}/clone/${from}?locale=en`, { slug: null });
          assert.equal(copy.status, 200, `${where}: ${JSON.stringify(copy.body)}`);
          model.set(copy.body.data.documentId, 'draft');
        } else if (batch.length) {
          const path = { publish: 'bulkPublish', unpublish: 'bulkUnpublish', delete: 'bulkDelete' }[op];
          const answer = await root.post(`${ARTICLES}/actions/${path}`, { documentIds: batch, locale: 'en' });
          let done = 0;
          const failed: string[] = [];
          for (const id of batch) {
            const state = model.get(id);
            const applies = state !== undefined && (op !== 'unpublish' || state === 'published');
            if (!applies) failed.push(id);
            else {
              done += 1;
              if (op === 'delete') model.delete(id);
              else model.set(id, op === 'publish' ? 'published' : 'draft');
            }
          }
          // A deletion of nothing that exists is Strapi's 404.
          if (op === 'delete' && done === 0) assert.equal(answer.status, 404, where);
          else {
            assert.equal(answer.status, 200, `${where}: ${JSON.stringify(answer.body)}`);
            assert.equal(answer.body.count, done, where);
            assert.deepEqual(
              (answer.body.errors ?? []).map((e: Item) => e.documentId),
              failed,
              where,
            );
          }
        }
        const list = await root.get(`${ARTICLES}?locale=en&pageSize=100&filters[body][$eq]=${tag}`);
        const seen = new Map(list.body.results.map((doc: Item) => [doc.documentId, doc.status]));
        assert.deepEqual(seen, new Map(model), where);
      }
    });
  });
}
