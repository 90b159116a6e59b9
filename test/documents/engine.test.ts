/**
 * The query engine (`strapi.db.query(uid)`, `vellum.documents.engine`) on the blog example, as
 * project code calls it: rows, not documents (draft and published rows apart, `publishedAt` and
 * `locale` answered, no status or locale defaults), Strapi's operators in `where`, relations by
 * nested objects and ids, `select` (no `id` unless a populate needs it), `populate`, `orderBy`,
 * `limit`/`offset`, the writes, and the users-permissions permission model mapped onto
 * `up_permissions`. Each test names its rows with a tag of its own.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';

const tag = () => randomUUID().slice(0, 8);

for (const dialect of DIALECTS) {
  describe(`query engine [${dialect}]`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect);
    });
    after(() => server?.close());

    const query = (uid: string) => server.vellum.documents.engine.query(uid);

    it('reads rows: a published document is two rows, each with publishedAt and locale; where, select, orderBy, limit, offset', async () => {
      const prefix = tag();
      for (const [title, views] of [
        ['b', 2],
        ['a', 1],
        ['c', 3],
      ] as const)
        await server.api.post('/api/articles', { data: { title: `${prefix} ${title}`, views } });
      const articles = query('api::article.article');
      const rows = await articles.findMany({
        where: { title: { $startsWith: prefix } },
        orderBy: [{ views: 'desc' }, { id: 'asc' }],
      });
      assert.equal(rows.length, 6);
      assert.deepEqual(
        rows.map((row) => row.views),
        [3, 3, 2, 2, 1, 1],
      );
      assert.deepEqual(
        rows.slice(0, 2).map((row) => row.publishedAt === null),
        [true, false],
      );
      assert.equal(rows[0]!.locale, 'en');
      assert.deepEqual(
        await articles.findMany({
          select: ['title'],
          where: { title: { $startsWith: prefix }, publishedAt: { $notNull: true } },
          orderBy: 'title',
        }),
        [{ title: `${prefix} a` }, { title: `${prefix} b` }, { title: `${prefix} c` }],
      );
      const page = await articles.findMany({
        select: ['title'],
        where: { title: { $startsWith: prefix }, publishedAt: { $null: true } },
        orderBy: { title: 'desc' },
        limit: 1,
        offset: 1,
      });
      assert.deepEqual(page, [{ title: `${prefix} b` }]);
      assert.equal(await articles.count({ where: { title: { $startsWith: prefix } } }), 6);
      assert.equal(
        await articles.count({
          where: {
            $and: [
              { title: { $startsWith: prefix } },
              { $or: [{ views: 1 }, { views: { $gte: 3 } }] },
              { $not: { publishedAt: { $null: true } } },
            ],
          },
        }),
        2,
      );
      const [found, total] = await articles.findWithCount({
        select: ['id'],
        where: { title: { $startsWith: prefix } },
        limit: 2,
      });
      assert.equal(found.length, 2);
      assert.equal(total, 6);
      const paged = await articles.findPage({
        page: 2,
        pageSize: 4,
        select: ['views'],
        where: { title: { $startsWith: prefix } },
      });
      assert.deepEqual(paged.pagination, { page: 2, pageSize: 4, pageCount: 2, total: 6 });
      assert.equal(paged.results.length, 2);
      assert.equal(
        (await articles.findOne({ where: { title: `${prefix} a` }, orderBy: { id: 'desc' } }))?.publishedAt !== null,
        true,
      );
    });

    it('relations: where by a nested object or an id, each row in its own status; populate (id added to a select)', async () => {
      const prefix = tag();
      const category = await server.api.post('/api/categories', { data: { name: `${prefix} cat` } });
      await server.api.post('/api/articles', {
        data: { title: `${prefix} linked`, category: category.body.data.documentId },
      });
      await server.api.post('/api/articles', { data: { title: `${prefix} alone` } });
      const articles = query('api::article.article');
      const byName = await articles.findMany({ select: ['title'], where: { category: { name: `${prefix} cat` } } });
      assert.deepEqual(byName, [{ title: `${prefix} linked` }, { title: `${prefix} linked` }]);
      const byId = await articles.findMany({
        select: ['title'],
        where: { category: category.body.data.id, title: { $startsWith: prefix } },
      });
      assert.equal(byId.length, 2);
      const populated = await articles.findMany({
        select: ['title'],
        where: { title: { $startsWith: prefix } },
        populate: { category: { select: ['name'] } },
        orderBy: 'id',
      });
      assert.deepEqual(Object.keys(populated[0]!), ['id', 'title', 'category']);
      assert.equal(
        populated.find((row) => row.title === `${prefix} linked`)?.category &&
          (populated.find((row) => row.title === `${prefix} linked`)!.category as { name: string }).name,
        `${prefix} cat`,
      );
      assert.equal(populated.find((row) => row.title === `${prefix} alone`)?.category, null);
      const cat = await query('api::category.category').findOne({
        where: { name: `${prefix} cat` },
        populate: ['articles'],
      });
      // A category (no draft and publish) links both rows of its published article, as Strapi 5.54's
      // rows do (test/differential/draft-only-targets.diff.ts): the draft, then the published row.
      assert.deepEqual(
        (cat?.articles as { publishedAt: unknown }[]).map((row) => (row.publishedAt ? 'published' : 'draft')),
        ['draft', 'published'],
      );
    });

    it('private attributes are answered and may be filtered (trusted code): a user row carries its password hash', async () => {
      const email = `${tag()}@example.com`;
      await server.vellum.auth.users.create({ username: `u${tag()}`, email, password: 'secret123' });
      const user = await query('plugin::users-permissions.user').findOne({ where: { email }, populate: ['role'] });
      assert.match(String(user?.password), /^\$2[aby]\$/);
      assert.equal((user?.role as { type: string }).type, 'authenticated');
    });

    it('writes: create (published unless publishedAt is given), update, updateMany, delete, deleteMany, createMany', async () => {
      const prefix = tag();
      const tags = query('api::tag.tag');
      const created = await tags.create({ data: { name: `${prefix} one` } });
      assert.equal(typeof created.documentId, 'string');
      assert.notEqual(created.publishedAt, null);
      const articles = query('api::article.article');
      const draft = await articles.create({
        data: { title: `${prefix} draft`, publishedAt: null, tags: [created.id] },
        populate: ['tags'],
      });
      assert.equal(draft.publishedAt, null);
      assert.deepEqual(
        (draft.tags as { name: string }[]).map((t) => t.name),
        [`${prefix} one`],
      );
      const read = await server.api.get(`/api/articles/${draft.documentId}?status=draft`);
      assert.equal(read.body.data.title, `${prefix} draft`);
      const updated = await articles.update({ where: { id: draft.id }, data: { views: 7 } });
      assert.equal(updated?.views, 7);
      assert.equal(await articles.update({ where: { id: -1 }, data: { views: 1 } }), null);
      const many = await tags.createMany({ data: [{ name: `${prefix} two` }, { name: `${prefix} three` }] });
      assert.equal(many.count, 2);
      assert.equal(many.ids.length, 2);
      assert.deepEqual(
        await tags.updateMany({ where: { name: { $startsWith: prefix } }, data: { name: `${prefix} renamed` } }),
        { count: 3 },
      );
      const deleted = await articles.delete({ where: { id: draft.id } });
      assert.equal(deleted?.title, `${prefix} draft`);
      assert.equal(await articles.delete({ where: { id: draft.id } }), null);
      assert.equal((await server.api.get(`/api/articles/${draft.documentId}?status=draft`)).status, 404);
      assert.deepEqual(await tags.deleteMany({ where: { name: `${prefix} renamed` } }), { count: 3 });
    });

    it('bad input is a 4xx error naming what is wrong', async () => {
      const articles = query('api::article.article');
      await assert.rejects(articles.findMany({ where: { nope: 1 } }), { name: 'ValidationError', status: 400 });
      await assert.rejects(articles.findMany({ select: ['category'] }), { name: 'ValidationError', status: 400 });
      await assert.rejects(articles.create({ data: { title: 'x', views: 'many' } }), {
        name: 'ValidationError',
        status: 400,
      });
      await assert.rejects(articles.create({}), { name: 'ValidationError' });
      await assert.rejects(articles.update({ data: { views: 1 } }), { name: 'ValidationError' });
      await assert.rejects(query('api::tag.tag').updateMany({ where: {}, data: { articles: [1] } }), {
        name: 'ValidationError',
      });
      assert.throws(() => query('api::nope.nope'), { name: 'NotFoundError', status: 404 });
    });

    it('permissions: a grant created for Public opens the type to anonymous reads; listed by role; revoked by delete', async () => {
      const role = await query('plugin::users-permissions.role').findOne({ where: { type: 'public' } });
      assert.equal(role?.type, 'public');
      // The blog's config/permissions grants Public no access to authors' creation.
      assert.equal((await server.publicApi.post('/api/authors', { data: { name: 'Anon' } })).status, 403);
      const permissions = query('plugin::users-permissions.permission');
      const action = 'api::author.author.create';
      const created = await permissions.create({ data: { action, role: role!.id } });
      assert.deepEqual(Object.keys(created).sort(), ['action', 'id']);
      // Strapi 4's `enabled` (and any key the row has no attribute for) is ignored, as Strapi 5's query engine does.
      const again = await permissions.create({
        data: { action, role: { connect: [{ id: role!.id }] }, enabled: true },
      });
      assert.equal(again.id, created.id, 'a grant the role has is not added twice');
      const anonymous = await server.publicApi.post('/api/authors', { data: { name: `Anon ${tag()}` } });
      assert.equal(anonymous.status, 201);
      const listed = await permissions.findMany({ where: { role: role!.id } });
      assert.ok(listed.some((row) => row.action === action));
      assert.equal(await permissions.count({ where: { action, role: { type: 'public' } } }), 1);
      const populated = await permissions.findOne({ where: { action, role: role!.id }, populate: ['role'] });
      assert.equal((populated?.role as { type: string }).type, 'public');
      assert.deepEqual(await permissions.findMany({ where: { action, role: { type: 'no-such-role' } } }), []);
      assert.equal(
        await permissions.count({ where: { action, $not: { role: { type: 'public' } } } }),
        1,
        'Authenticated has it through config/permissions',
      );
      assert.equal((await permissions.update({ where: { id: created.id }, data: { enabled: true } }))?.id, created.id);
      const removed = await permissions.delete({ where: { action, role: role!.id } });
      assert.equal(removed?.id, created.id);
      assert.equal((await server.publicApi.post('/api/authors', { data: { name: 'Anon' } })).status, 403);
      await assert.rejects(permissions.create({ data: { action, role: 999999 } }), { name: 'ValidationError' });
      await assert.rejects(permissions.create({ data: { action: '', role: role!.id } }), { name: 'ValidationError' });
    });
  });
}
