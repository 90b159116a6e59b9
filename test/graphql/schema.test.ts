/**
 * The generated SDL of the blog fixture, in both shapes, against the snapshots checked in beside
 * this file. `UPDATE_SNAPSHOTS=1 node test/run.mjs features/graphql/schema` rewrites them.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { buildClientSchema, getIntrospectionQuery, printSchema } from 'graphql';
import { ROOT } from '../helpers/paths.js';
import { DIALECTS, startServer } from '../helpers/server.js';
import { graphqlData } from '../helpers/graphql.js';

const SNAPSHOTS = join(ROOT, 'test/graphql/__snapshots__');

async function sdl(v4CompatibilityMode: boolean): Promise<string> {
  const server = await startServer(DIALECTS[0]!, {
    config: { plugins: { graphql: { config: { v4CompatibilityMode } } } },
  });
  try {
    return printSchema(buildClientSchema(await graphqlData(server, getIntrospectionQuery()))) + '\n';
  } finally {
    await server.close();
  }
}

function matchSnapshot(name: string, actual: string): void {
  const file = join(SNAPSHOTS, name);
  if (process.env.UPDATE_SNAPSHOTS === '1' || !existsSync(file)) {
    writeFileSync(file, actual);
    return;
  }
  assert.equal(
    actual,
    readFileSync(file, 'utf8'),
    `${name} differs; run UPDATE_SNAPSHOTS=1 node test/run.mjs features/graphql/schema if the change is intended`,
  );
}

describe('GraphQL schema (SDL snapshots)', () => {
  it('the earlier shape (default)', async () => {
    const text = await sdl(true);
    matchSnapshot('blog.v4.graphql', text);
    for (const expected of [
      'type ArticleEntity {\n  id: ID\n  attributes: Article\n}',
      'type ArticleEntityResponse {\n  data: ArticleEntity\n}',
      'type ArticleEntityResponseCollection {\n  data: [ArticleEntity!]!\n  meta: ResponseCollectionMeta!\n}',
      'type ArticleRelationResponseCollection {\n  data: [ArticleEntity!]!\n}',
      'articles(filters: ArticleFiltersInput, pagination: PaginationArg = {}, sort: [String] = [], publicationState: PublicationState = LIVE',
      'union ArticleBlocksDynamicZone = ComponentSharedQuote | ComponentSharedRichText | ComponentSharedMedia | Error',
      'input StringFilterInput {',
      'enum ENUM_ARTICLE_KIND {',
      'type ComponentSharedSeo {',
      'createArticle(data: ArticleInput!',
      'updateArticle(id: ID!, data: ArticleInput!',
      'deleteArticle(id: ID!',
    ])
      assert.ok(text.includes(expected), expected);
  });

  it("Strapi 5's flat shape", async () => {
    const text = await sdl(false);
    matchSnapshot('blog.v5.graphql', text);
    for (const expected of [
      'articles(filters: ArticleFiltersInput, pagination: PaginationArg = {}, sort: [String] = [], status: PublicationStatus = PUBLISHED',
      'articles_connection(',
      'type ArticleEntityResponseCollection {\n  nodes: [Article!]!\n  pageInfo: Pagination!\n}',
      'documentId: ID!',
      'deleteArticle(documentId: ID!',
    ])
      assert.ok(text.includes(expected), expected);
    assert.ok(!text.includes('ArticleEntity {'));
  });
});
