/**
 * The document service's facade as project code and the other APIs call it (`vellum.documents`):
 * what REST cannot reach — an unknown uid, findFirst, count, a caller's read grants, page limits,
 * documentId rules. Each test makes its own documents, named with a tag of its own.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';

const tag = () => randomUUID().slice(0, 8);

for (const dialect of DIALECTS) {
  describe(`document service facade [${dialect}]`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect);
    });
    after(() => server?.close());

    const documents = () => server.vellum.documents;

    it('of: an unknown uid is a NotFoundError naming it; known types are handed out once, by uid or type', () => {
      assert.throws(
        () => documents().of('api::unknown.unknown'),
        (error: Error & { status?: number }) =>
          error.name === 'NotFoundError' && error.status === 404 && /api::unknown\.unknown/.test(error.message),
      );
      const type = documents().schema.contentTypes.get('api::tag.tag')!;
      assert.equal(documents().of('api::tag.tag'), documents().of(type));
    });

    it('create, findOne, update and delete with raw parameters; read back as the parameters ask', async () => {
      const authors = documents().of('api::author.author');
      const name = `Ann ${tag()}`;
      const created = await authors.create({ data: { name, email: `${tag()}@example.com` }, fields: ['name'] });
      assert.deepEqual(Object.keys(created).sort(), ['documentId', 'id', 'name']);
      const documentId = created.documentId as string;
      assert.equal((await authors.findOne({ documentId }))?.name, name);
      assert.equal(
        await authors.findOne({ documentId, filters: { name: { $eq: 'someone else' } } }),
        null,
        'filters apply to one document',
      );
      const updated = await authors.update({ documentId, data: { bio: 'Writes.' } });
      assert.equal(updated.bio, 'Writes.');
      assert.deepEqual(await authors.delete({ documentId }), { documentId });
      assert.equal(await authors.findOne({ documentId }), null);
      await assert.rejects(authors.delete({ documentId }), { name: 'NotFoundError' });
    });

    it('findFirst answers the first of a list (filters, sort), or null', async () => {
      const tags = documents().of('api::tag.tag');
      const prefix = tag();
      for (const name of ['b', 'c', 'a']) await tags.create({ data: { name: `${prefix} ${name}` } });
      const filters = { name: { $startsWith: prefix } };
      assert.equal((await tags.findFirst({ filters, sort: 'name:asc' }))?.name, `${prefix} a`);
      assert.equal((await tags.findFirst({ filters, sort: ['name:desc'] }))?.name, `${prefix} c`);
      assert.equal(await tags.findFirst({ filters: { name: { $eq: `${prefix} none` } } }), null);
    });

    it('count: the documents matching filters and _q, in the versions of status and locale', async () => {
      const articles = documents().of('api::article.article');
      const prefix = tag();
      await articles.create({ data: { title: `${prefix} one` } });
      await articles.create({ data: { title: `${prefix} two` } });
      await articles.create({ data: { title: `${prefix} draft` }, status: 'draft' });
      const french = await articles.create({ data: { title: `${prefix} un` }, locale: 'fr' });
      const filters = { title: { $startsWith: prefix } };
      assert.equal(await articles.count({ filters }), 2, 'published, default locale');
      assert.equal(await articles.count({ filters, status: 'draft' }), 3, 'every document has a draft');
      assert.equal(await articles.count({ filters, locale: 'fr' }), 1);
      assert.equal(await articles.count({ filters, locale: '*' }), 3);
      assert.equal(await articles.count({ _q: `${prefix} tw` }), 1);
      assert.equal(
        await articles.count({ filters, pagination: { pageSize: 1 } }),
        2,
        'pagination does not limit a count',
      );
      assert.equal(french.locale, 'fr');
      await assert.rejects(articles.count({ filters: { nope: 1 } }), { name: 'ValidationError' });
    });

    it('a caller that may not read a type: it is left out of populate, and filters through it are refused', async () => {
      const articles = documents().of('api::article.article');
      const title = `Post ${tag()}`;
      const author = await documents()
        .of('api::author.author')
        .create({ data: { name: `Sam ${tag()}`, email: `${tag()}@example.com` } });
      const created = await articles.create({ data: { title, author: author.documentId } });
      const caller = { canRead: (type: { uid: string }) => type.uid !== 'api::author.author' };
      const documentId = created.documentId as string;
      assert.equal(
        ((await articles.findOne({ documentId, populate: ['author'] })) as { author?: { name: string } }).author?.name,
        author.name,
      );
      assert.equal((await articles.findOne({ documentId, populate: ['author'] }, caller))?.author, undefined);
      await assert.rejects(articles.findMany({ filters: { author: { name: { $eq: author.name } } } }, caller), {
        name: 'ValidationError',
      });
    });

    it('publish, unpublish and discardDraft answer the version they leave', async () => {
      const articles = documents().of('api::article.article');
      const title = `Draft ${tag()}`;
      const draft = await articles.create({ data: { title }, status: 'draft' });
      const documentId = draft.documentId as string;
      assert.equal(await articles.findOne({ documentId }), null, 'nothing published yet');
      assert.ok((await articles.publish({ documentId }))?.publishedAt);
      assert.equal((await articles.findOne({ documentId }))?.title, title);
      assert.equal((await articles.unpublish({ documentId }))?.publishedAt, null);
      assert.equal(await articles.findOne({ documentId }), null);
      await articles.publish({ documentId });
      await articles.update({ documentId, data: { title: `${title} edited` }, status: 'draft' });
      assert.equal((await articles.discardDraft({ documentId }))?.title, title);
    });

    it('documentId: needed for one document of a collection type; a single type has its own', async () => {
      const tags = documents().of('api::tag.tag');
      await assert.rejects(tags.findOne({}), { name: 'ValidationError' });
      await assert.rejects(tags.update({ data: { name: 'x' } }), { name: 'ValidationError' });
      await assert.rejects(tags.findOne({ documentId: 42 as unknown as string }), { name: 'ValidationError' });
      await assert.rejects(tags.create({} as never), { name: 'ValidationError' }, 'create needs data');

      const global = documents().of('api::global.global');
      const siteName = `Site ${tag()}`;
      const first = await global.update({ data: { siteName } });
      const second = await global.update({ data: { siteDescription: 'Hello' } });
      assert.equal(second.documentId, first.documentId, 'the first update creates, the next updates');
      assert.deepEqual(
        [(await global.findOne({}))?.siteName, (await global.findOne({}))?.siteDescription],
        [siteName, 'Hello'],
      );
      assert.deepEqual(await global.delete(), { documentId: first.documentId });
      assert.equal(await global.findOne({}), null);
      await assert.rejects(global.delete(), { name: 'NotFoundError' });
    });

    it('withPageLimits: another default page size and cap, the same documents', async () => {
      const tags = documents().of('api::tag.tag');
      const prefix = tag();
      for (let i = 0; i < 4; i++) await tags.create({ data: { name: `${prefix} ${i}` } });
      const filters = { name: { $startsWith: prefix } };
      const limited = documents().withPageLimits({ defaultLimit: 2, maxLimit: 3 }).of('api::tag.tag');
      assert.deepEqual((await limited.findMany({ filters })).pagination, {
        page: 1,
        pageSize: 2,
        pageCount: 2,
        total: 4,
      });
      assert.equal((await limited.findMany({ filters, pagination: { pageSize: 10 } })).results.length, 3, 'capped');
      assert.equal((await tags.findMany({ filters })).results.length, 4, 'the service itself keeps config/api');
    });
  });
}
