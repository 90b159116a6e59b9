/**
 * Shadow CRUD in the earlier shape (the default): every query and mutation of docs/graphql.md
 * "Operations per content-type",
 * filters, sort, pagination, publicationState, locales, relations, components, zones and media.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { GraphQLClient, gql } from 'graphql-request';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';
import { insertFile } from '../helpers/files.js';
import { graphql, graphqlData } from '../helpers/graphql.js';
import { unique } from '../helpers/unique.js';

for (const dialect of DIALECTS) {
  describe(`GraphQL operations, spec shape [${dialect}]`, () => {
    let server: TestServer;
    let client: GraphQLClient;
    const ids: Record<string, string> = {};
    let fileIds: number[];
    /** The seed articles carry it in `body`: reads of the seed are scoped to it (other tests add articles). */
    const seed = unique('seed');
    const inSeed = `body: { eq: "${seed}" }`;

    before(async () => {
      // The no-N+1 test asks 100 articles' authors' and tags' articles: over the default costLimit.
      server = await startServer(dialect, { config: { plugins: { graphql: { config: { costLimit: 2_000_000 } } } } });
      client = new GraphQLClient(`${server.url}/graphql`, { headers: server.authHeaders });
      fileIds = [await insertFile(server, 'cover.png'), await insertFile(server, 'g1.png')];
      const api = server.api;
      ids.ann = (await api.post('/api/authors', { data: { name: 'Ann' } })).body.data.documentId;
      ids.bob = (await api.post('/api/authors', { data: { name: 'Bob' } })).body.data.documentId;
      for (const name of ['red', 'green', 'blue'])
        ids[name] = (await api.post('/api/tags', { data: { name } })).body.data.documentId;
      const articles = [
        { title: 'Alpha', views: 10, kind: 'news', author: ids.ann, tags: [ids.red, ids.green] },
        { title: 'Beta', views: 30, kind: 'tutorial', author: ids.bob, tags: [ids.blue] },
        { title: 'Gamma', views: 20, kind: 'news', author: ids.ann, tags: [] },
      ];
      for (const data of articles)
        ids[data.title] = (await api.post('/api/articles', { data: { ...data, body: seed } })).body.data.documentId;
      ids.draft = (
        await api.post('/api/articles?status=draft', { data: { title: 'Draft only', views: 1 } })
      ).body.data.documentId;
    });
    after(() => server?.close());

    it('lists with data, id (the documentId), attributes and meta.pagination, through graphql-request', async () => {
      const data = await client.request<any>(
        gql`
          query List($size: Int, $seed: String) {
            articles(filters: { body: { eq: $seed } }, sort: ["title:asc"], pagination: { pageSize: $size }) {
              data {
                id
                attributes {
                  title
                }
              }
              meta {
                pagination {
                  total
                  page
                  pageSize
                  pageCount
                }
              }
            }
          }
        `,
        { size: 2, seed },
      );
      assert.deepEqual(
        data.articles.data.map((d: any) => d.attributes.title),
        ['Alpha', 'Beta'],
      );
      assert.equal(data.articles.data[0].id, ids.Alpha);
      assert.deepEqual(data.articles.meta.pagination, { total: 3, page: 1, pageSize: 2, pageCount: 2 });
    });

    it('the same identifier works in REST and GraphQL', async () => {
      const data = await graphqlData(server, `{ article(id: "${ids.Beta}") { data { id attributes { title } } } }`);
      assert.equal(data.article.data.attributes.title, 'Beta');
      const rest = await server.api.get(`/api/articles/${data.article.data.id}`);
      assert.equal(rest.body.data.title, 'Beta');
    });

    it('a missing document is null data, not an error', async () => {
      const response = await graphql(server, '{ article(id: "nope") { data { id } } }');
      assert.equal(response.status, 200);
      assert.equal(response.body.errors, undefined);
      assert.deepEqual(response.body.data, { article: { data: null } });
    });

    it('filters: operators, and/or/not, relations, documentId as id', async () => {
      const titles = async (filters: string) =>
        (
          await graphqlData(
            server,
            `{ articles(filters: { and: [{ ${inSeed} }, ${filters}] }, sort: "title") { data { attributes { title } } } }`,
          )
        ).articles.data.map((d: any) => d.attributes.title);
      assert.deepEqual(await titles('{ title: { eq: "Alpha" } }'), ['Alpha']);
      assert.deepEqual(await titles('{ title: { containsi: "A" } }'), ['Alpha', 'Beta', 'Gamma']);
      assert.deepEqual(await titles('{ views: { gt: 15 } }'), ['Beta', 'Gamma']);
      assert.deepEqual(await titles('{ views: { between: [15, 25] } }'), ['Gamma']);
      assert.deepEqual(await titles('{ kind: { in: ["tutorial"] } }'), ['Beta']);
      assert.deepEqual(await titles('{ or: [{ title: { eq: "Alpha" } }, { views: { eq: 30 } }] }'), ['Alpha', 'Beta']);
      assert.deepEqual(await titles('{ and: [{ kind: { eq: "news" } }, { views: { lt: 15 } }] }'), ['Alpha']);
      assert.deepEqual(await titles('{ not: { kind: { eq: "news" } } }'), ['Beta']);
      assert.deepEqual(await titles('{ title: { not: { eq: "Alpha" } } }'), ['Beta', 'Gamma']);
      assert.deepEqual(await titles('{ author: { name: { eq: "Ann" } } }'), ['Alpha', 'Gamma']);
      assert.deepEqual(await titles('{ tags: { name: { eq: "blue" } } }'), ['Beta']);
      assert.deepEqual(await titles(`{ id: { eq: "${ids.Gamma}" } }`), ['Gamma']);
      assert.deepEqual(await titles('{ publishDate: { null: true }, featured: { eq: false } }'), [
        'Alpha',
        'Beta',
        'Gamma',
      ]);
    });

    it('sort and both kinds of pagination', async () => {
      const list = async (args: string) => {
        const data = await graphqlData(
          server,
          `{ articles(filters: { ${inSeed} }, ${args}) { data { attributes { title } } meta { pagination { page pageSize total pageCount } } } }`,
        );
        return { titles: data.articles.data.map((d: any) => d.attributes.title), meta: data.articles.meta.pagination };
      };
      assert.deepEqual((await list('sort: ["views:desc"]')).titles, ['Beta', 'Gamma', 'Alpha']);
      assert.deepEqual((await list('sort: ["kind:asc", "views:asc"]')).titles, ['Alpha', 'Gamma', 'Beta']);
      const page2 = await list('sort: "views", pagination: { page: 2, pageSize: 2 }');
      assert.deepEqual(page2.titles, ['Beta']);
      assert.deepEqual(page2.meta, { page: 2, pageSize: 2, total: 3, pageCount: 2 });
      const offset = await list('sort: "views", pagination: { start: 1, limit: 1 }');
      assert.deepEqual(offset.titles, ['Gamma']);
      assert.deepEqual(offset.meta, { page: 2, pageSize: 1, total: 3, pageCount: 3 });
    });

    it('publicationState: LIVE by default, PREVIEW shows drafts', async () => {
      const live = await graphqlData(server, '{ articles { data { id } } }');
      assert.equal(
        live.articles.data.some((d: any) => d.id === ids.draft),
        false,
      );
      const preview = await graphqlData(
        server,
        `{ articles(publicationState: PREVIEW, filters: { id: { eq: "${ids.draft}" } }) { data { id attributes { title publishedAt } } } }`,
      );
      assert.equal(preview.articles.data.length, 1);
      assert.equal(preview.articles.data[0].attributes.publishedAt, null);
    });

    it('relations with nested arguments, both directions', async () => {
      const data = await graphqlData(
        server,
        `{
        articles(sort: "title", filters: { title: { eq: "Alpha" } }) { data { attributes {
          author { data { id attributes { name articles(sort: "title:desc") { data { attributes { title } } } } } }
          tags(sort: "name:asc") { data { attributes { name } } }
          first: tags(pagination: { limit: 1 }, sort: "name:asc") { data { attributes { name } } }
          category { data { id } }
        } } }
      }`,
      );
      const alpha = data.articles.data[0].attributes;
      assert.equal(alpha.author.data.id, ids.ann);
      assert.deepEqual(
        alpha.author.data.attributes.articles.data.map((d: any) => d.attributes.title),
        ['Gamma', 'Alpha'],
      );
      assert.deepEqual(
        alpha.tags.data.map((d: any) => d.attributes.name),
        ['green', 'red'],
      );
      assert.deepEqual(
        alpha.first.data.map((d: any) => d.attributes.name),
        ['green'],
      );
      assert.deepEqual(alpha.category, { data: null });
      const filtered = await graphqlData(
        server,
        `{ author(id: "${ids.ann}") { data { attributes { articles(filters: { views: { gt: 15 } }) { data { attributes { title } } } } } } }`,
      );
      assert.deepEqual(
        filtered.author.data.attributes.articles.data.map((d: any) => d.attributes.title),
        ['Gamma'],
      );
    });

    it('creates, updates and deletes, with relations, components, a dynamic zone and media', async () => {
      const author = (await server.api.post('/api/authors', { data: { name: unique('Writer') } })).body.data.documentId;
      const tag = (await server.api.post('/api/tags', { data: { name: unique('tag') } })).body.data.documentId;
      const created = await graphqlData(
        server,
        `mutation($data: ArticleInput!) { createArticle(data: $data) { data { id attributes {
          title kind author { data { id } } tags { data { id } }
          seo { id metaTitle shareImage { data { id attributes { name } } } }
          links { label url }
          blocks { __typename ... on ComponentSharedQuote { title } ... on ComponentSharedMedia { file { data { attributes { name } } } } }
          cover { data { id attributes { name url mime } } }
          gallery { data { id } }
        } } } }`,
        {
          data: {
            title: 'Created',
            kind: 'opinion',
            author,
            tags: [tag],
            seo: { metaTitle: 'SEO', shareImage: String(fileIds[1]) },
            links: [{ label: 'a', url: 'u' }],
            blocks: [
              { __typename: 'ComponentSharedQuote', title: 'Q' },
              { __component: 'shared.media', file: fileIds[0] },
            ],
            cover: String(fileIds[0]),
            gallery: [String(fileIds[1]), String(fileIds[0])],
          },
        },
      );
      const doc = created.createArticle.data;
      assert.equal(doc.attributes.title, 'Created');
      assert.equal(doc.attributes.kind, 'opinion');
      assert.equal(doc.attributes.author.data.id, author);
      assert.deepEqual(doc.attributes.tags.data, [{ id: tag }]);
      assert.equal(doc.attributes.seo.metaTitle, 'SEO');
      assert.equal(doc.attributes.seo.shareImage.data.attributes.name, 'g1.png');
      assert.deepEqual(doc.attributes.links, [{ label: 'a', url: 'u' }]);
      assert.deepEqual(doc.attributes.blocks, [
        { __typename: 'ComponentSharedQuote', title: 'Q' },
        { __typename: 'ComponentSharedMedia', file: { data: { attributes: { name: 'cover.png' } } } },
      ]);
      assert.equal(doc.attributes.cover.data.id, String(fileIds[0]));
      assert.equal(doc.attributes.cover.data.attributes.mime, 'image/png');
      assert.deepEqual(
        doc.attributes.gallery.data.map((f: any) => f.id),
        [String(fileIds[1]), String(fileIds[0])],
      );

      const updated = await graphqlData(
        server,
        `mutation { updateArticle(id: "${doc.id}", data: { title: "Renamed", tags: [] }) { data { id attributes { title tags { data { id } } author { data { id } } } } } }`,
      );
      assert.equal(updated.updateArticle.data.attributes.title, 'Renamed');
      assert.deepEqual(updated.updateArticle.data.attributes.tags.data, []);
      assert.equal(updated.updateArticle.data.attributes.author.data.id, author, 'partial update');
      assert.equal((await server.api.get(`/api/articles/${doc.id}`)).body.data.title, 'Renamed');

      const deleted = await graphqlData(
        server,
        `mutation { deleteArticle(id: "${doc.id}") { data { id attributes { title } } } }`,
      );
      assert.deepEqual(deleted.deleteArticle.data, { id: doc.id, attributes: { title: 'Renamed' } });
      assert.equal((await server.api.get(`/api/articles/${doc.id}`)).status, 404);
    });

    it('publishedAt: null in the data creates a draft only', async () => {
      const created = await graphqlData(
        server,
        'mutation { createArticle(data: { title: "Later", publishedAt: null }) { data { id attributes { publishedAt } } } }',
      );
      assert.equal(created.createArticle.data.attributes.publishedAt, null);
      assert.equal((await server.api.get(`/api/articles/${created.createArticle.data.id}`)).status, 404);
      assert.equal((await server.api.get(`/api/articles/${created.createArticle.data.id}?status=draft`)).status, 200);
    });

    it('locales: create and read a translation', async () => {
      const title = unique('Delta');
      const en = (await server.api.post('/api/articles', { data: { title } })).body.data.documentId;
      const fr = await graphqlData(
        server,
        `mutation { updateArticle(id: "${en}", locale: "fr", data: { title: "${title} FR" }) { data { id attributes { title locale } } } }`,
      );
      assert.deepEqual(fr.updateArticle.data.attributes, { title: `${title} FR`, locale: 'fr' });
      const list = await graphqlData(
        server,
        `{ articles(locale: "fr", filters: { title: { startsWith: "${title}" } }) { data { id attributes { title locale localizations { data { attributes { locale } } } } } } }`,
      );
      assert.deepEqual(
        list.articles.data.map((d: any) => d.attributes.title),
        [`${title} FR`],
      );
      assert.deepEqual(
        list.articles.data[0].attributes.localizations.data.map((d: any) => d.attributes.locale),
        ['en'],
      );
    });

    it('single types: read, update (creating it), delete', async () => {
      assert.deepEqual((await graphqlData(server, '{ global { data { id } } }')).global, { data: null });
      const updated = await graphqlData(
        server,
        'mutation { updateGlobal(data: { siteName: "Site", defaultSeo: { metaTitle: "T" } }) { data { id attributes { siteName defaultSeo { metaTitle } } } } }',
      );
      assert.equal(updated.updateGlobal.data.attributes.siteName, 'Site');
      assert.equal(updated.updateGlobal.data.attributes.defaultSeo.metaTitle, 'T');
      assert.equal(
        (await graphqlData(server, '{ global { data { attributes { siteName } } } }')).global.data.attributes.siteName,
        'Site',
      );
      const deleted = await graphqlData(server, 'mutation { deleteGlobal { data { attributes { siteName } } } }');
      assert.equal(deleted.deleteGlobal.data.attributes.siteName, 'Site');
      assert.deepEqual((await graphqlData(server, '{ global { data { id } } }')).global, { data: null });
    });

    it('other collection types: authors, categories, tags', async () => {
      const created = await graphqlData(
        server,
        'mutation { createCategory(data: { name: "News" }) { data { id attributes { name slug } } } }',
      );
      assert.equal(created.createCategory.data.attributes.slug, 'news');
      const data = await graphqlData(
        server,
        `{ authors(sort: "name", filters: { id: { in: ["${ids.ann}", "${ids.bob}"] } }) { data { attributes { name } } } categories(filters: { name: { eq: "News" } }) { data { id } } tag(id: "${ids.red}") { data { attributes { name } } } }`,
      );
      assert.deepEqual(
        data.authors.data.map((d: any) => d.attributes.name),
        ['Ann', 'Bob'],
      );
      assert.equal(data.categories.data.length, 1);
      assert.equal(data.tag.data.attributes.name, 'red');
      const removed = await graphqlData(
        server,
        `mutation { deleteCategory(id: "${created.createCategory.data.id}") { data { id } } }`,
      );
      assert.equal(removed.deleteCategory.data.id, created.createCategory.data.id);
    });

    it('fragments, aliases, variables and @include', async () => {
      const data = await graphqlData(
        server,
        `query($withAuthor: Boolean!) {
          a: articles(filters: { title: { eq: "Beta" } }) { ...list }
        }
        fragment list on ArticleEntityResponseCollection { data { id attributes { ...fields author @include(if: $withAuthor) { data { attributes { name } } } } } }
        fragment fields on Article { title views }`,
        { withAuthor: true },
      );
      assert.deepEqual(data.a.data[0].attributes, {
        title: 'Beta',
        views: 30,
        author: { data: { attributes: { name: 'Bob' } } },
      });
    });

    it('a list of 100 with two nested levels takes as many statements as a list of 1 (no N+1)', async () => {
      // Its own author, tags and articles: the seed stays as the other tests read it.
      const prefix = unique('bulk');
      const author = (await server.api.post('/api/authors', { data: { name: `${prefix} author` } })).body.data
        .documentId;
      const tags: string[] = [];
      for (const name of ['x', 'y'])
        tags.push((await server.api.post('/api/tags', { data: { name: `${prefix} ${name}` } })).body.data.documentId);
      const query = `{ articles(pagination: { pageSize: 100 }, publicationState: PREVIEW, filters: { title: { startsWith: "${prefix}" } }) { data { id attributes {
        title author { data { attributes { name articles { data { attributes { title } } } } } }
        tags { data { attributes { name articles { data { id } } } } }
        seo { metaTitle } blocks { __typename }
      } } } }`;
      // Each read is a new body (a comment apart): a body answered before would first be looked up
      // in the response cache, one authorization more.
      const count = async () => {
        const before = server.vellum.database.statementCount;
        const data = await graphqlData(server, `# ${unique('read')}\n${query}`);
        return { statements: server.vellum.database.statementCount - before, rows: data.articles.data.length };
      };
      const bulk = (i: number) =>
        server.api.post('/api/articles', {
          data: {
            title: `${prefix} ${i}`,
            author,
            tags,
            seo: { metaTitle: 's' },
            blocks: [{ __component: 'shared.quote', title: 'q' }],
          },
        });
      await bulk(0);
      const small = await count();
      for (let i = 1; i < 100; i++) await bulk(i);
      const large = await count();
      assert.equal(small.rows, 1);
      assert.equal(large.rows, 100);
      assert.equal(
        large.statements,
        small.statements,
        `${small.statements} statements for ${small.rows} rows, ${large.statements} for ${large.rows}`,
      );
      assert.ok(large.statements <= 15, `${large.statements} statements`);
    });
  });
}
