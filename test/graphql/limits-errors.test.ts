/** Spec 8's limits, error codes, and authorization through the access-control seam. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ForbiddenError, UnauthorizedError } from '../../src/core/errors.js';
import type { AccessControl } from '../../src/api/access.js';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';
import { graphql, graphqlData } from '../helpers/graphql.js';

/** Test access control: `x-test-deny: <uid>.<action>` refuses that permission; a bad token is a 401. */
const testAccess: AccessControl = {
  async authorize(headers, permission) {
    if (headers.authorization === 'Bearer invalid') throw new UnauthorizedError('Invalid token');
    const denied = String(headers['x-test-deny'] ?? '').split(',');
    if (denied.includes(`${permission.uid}.${permission.action}`)) throw new ForbiddenError('Forbidden');
    const hidden = String(headers['x-test-hide'] ?? '');
    return { canRead: (type) => type.uid !== hidden };
  },
};

for (const dialect of DIALECTS) {
  describe(`GraphQL limits, errors and authorization [${dialect}]`, () => {
    let server: TestServer;
    let author: string;

    before(async () => {
      server = await startServer(dialect, {
        access: testAccess,
        config: { plugins: { graphql: { config: { depthLimit: 7, amountLimit: 5, costLimit: 100 } } } },
      });
      author = (await server.api.post('/api/authors', { data: { name: 'Ann' } })).body.data.documentId;
      const tags = [];
      for (let i = 0; i < 8; i++)
        tags.push((await server.api.post('/api/tags', { data: { name: `t${i}` } })).body.data.documentId);
      for (let i = 0; i < 8; i++) await server.api.post('/api/articles', { data: { title: `a${i}`, author, tags } });
    });
    after(() => server?.close());

    it('depthLimit: deeper operations are refused before executing, HTTP 400', async () => {
      const before = server.vellum.database.statementCount;
      const response = await graphql(
        server,
        `
          query Deep {
            articles {
              data {
                attributes {
                  author {
                    data {
                      attributes {
                        articles {
                          data {
                            attributes {
                              title
                            }
                          }
                        }
                      }
                    }
                  }
                }
              }
            }
          }
        `,
      );
      assert.equal(response.status, 400);
      assert.equal(response.body.errors![0].extensions.code, 'GRAPHQL_VALIDATION_FAILED');
      // graphql-depth-limit's words, at the first field past the limit (Strapi 5.54).
      assert.deepEqual(response.body.errors, [
        {
          message: "'Deep' exceeds maximum operation depth of 7",
          locations: [{ line: 11, column: 29 }],
          extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
        },
      ]);
      assert.equal('data' in response.body, false, 'no data: the operation never ran');
      assert.equal(server.vellum.database.statementCount, before, 'nothing executed');
      await graphqlData(server, '{ articles { data { attributes { author { data { attributes { name } } } } } } }');
    });

    it('amountLimit caps root and nested lists', async () => {
      const data = await graphqlData(
        server,
        '{ articles(pagination: { pageSize: 50 }) { data { attributes { tags { data { id } } } } meta { pagination { pageSize total } } } }',
      );
      assert.equal(data.articles.data.length, 5);
      assert.deepEqual(data.articles.meta.pagination, { pageSize: 5, total: 8 });
      assert.equal(data.articles.data[0].attributes.tags.data.length, 5);
      const limited = await graphqlData(server, '{ articles(pagination: { limit: -1 }) { data { id } } }');
      assert.equal(limited.articles.data.length, 5);
    });

    it('operations too costly for the budget are refused: root pages before executing, the rest while reading', async () => {
      const list = 'tags { data { attributes { articles { data { id } } } } }';
      assert.equal(
        (await graphql(server, `{ a: ${list} b: ${list} c: ${list} }`)).status,
        200,
        '90 items read fit in 100',
      );
      // Four aliases read 4 x (5 tags + 5 x 5 articles) = 120 items: measured while executing, not guessed.
      const read = await graphql(server, `{ a: ${list} b: ${list} c: ${list} d: ${list} }`);
      assert.equal(read.status, 200);
      assert.ok(read.body.errors && read.body.errors.length >= 1);
      assert.equal(read.body.errors[0].extensions.error.name, 'CostLimitError');
      // 21 root pages of 5 ask for 105 items at their first level: refused before anything runs.
      const before = server.vellum.database.statementCount;
      const pages = await graphql(
        server,
        `{ ${Array.from({ length: 21 }, (_, i) => `p${i}: tags { data { id } }`).join(' ')} }`,
      );
      assert.equal(pages.status, 400);
      assert.equal(pages.body.errors![0].extensions.code, 'GRAPHQL_VALIDATION_FAILED');
      assert.match(pages.body.errors![0].message, /too costly/);
      assert.equal(server.vellum.database.statementCount, before, 'nothing executed');
    });

    it('maxRootFields: thousands of aliased single documents are refused before anything runs, fragments counted too', async () => {
      const id = (await server.api.get('/api/articles?pagination[pageSize]=1')).body.data[0].documentId;
      const many = (n: number) =>
        Array.from({ length: n }, (_, i) => `a${i}: article(id: "${id}") { data { id } }`).join(' ');
      assert.equal((await graphql(server, `{ ${many(100)} }`)).status, 200, '100 root fields: the default allowance');
      const before = server.vellum.database.statementCount;
      for (const query of [`{ ${many(5000)} }`, `query { ...F } fragment F on Query { ${many(101)} }`]) {
        const refused = await graphql(server, query);
        assert.equal(refused.status, 400, query.slice(0, 80));
        assert.equal(refused.body.errors![0].extensions.code, 'GRAPHQL_VALIDATION_FAILED');
        assert.match(refused.body.errors![0].message, /more than 100 root fields \(maxRootFields\)/);
      }
      assert.equal(server.vellum.database.statementCount, before, 'nothing executed');
    });

    it('validation errors: unknown field, syntax, bad variables are HTTP 400', async () => {
      const unknown = await graphql(server, '{ articles { data { nope } } }');
      assert.equal(unknown.status, 400);
      assert.equal(unknown.body.errors![0].extensions.code, 'GRAPHQL_VALIDATION_FAILED');
      const syntax = await graphql(server, '{ articles { ');
      assert.equal(syntax.status, 400);
      assert.equal(syntax.body.errors![0].extensions.code, 'GRAPHQL_PARSE_FAILED');
      const variables = await graphql(
        server,
        'query($n: Int) { articles(pagination: { pageSize: $n }) { data { id } } }',
        { n: 'x' },
      );
      assert.equal(variables.status, 400);
      // Strapi 5.54's answers (Apollo Server 4 behind koa-bodyparser): test/differential/graphql-requests.diff.ts.
      const malformed = await fetch(`${server.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"query": ',
      });
      assert.equal(malformed.status, 400);
      assert.deepEqual((await malformed.json()).error, {
        status: 400,
        name: 'SyntaxError',
        message: 'Unexpected end of JSON input',
        details: {},
      });
      for (const [body, message] of [
        ['[]', 'Operation batching disabled.'],
        ['{"query": 5}', 'GraphQL queries must be strings.'],
        ['{}', 'POST body missing, invalid Content-Type, or JSON object has no keys.'],
        ['{"variables": {}}', 'GraphQL operations must contain a non-empty `query` or a `persistedQuery` extension.'],
      ]) {
        const response = await fetch(`${server.url}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        });
        assert.equal(response.status, 400, body);
        assert.deepEqual(await response.json(), { errors: [{ message, extensions: { code: 'BAD_REQUEST' } }] }, body);
      }
    });

    it("a query that is not GraphQL, and GET with several operations and no name, answer graphql-js's words", async () => {
      // Under mercurius these answered "context.getDocument.definitions is not iterable" (the text
      // parsed as JSON) and "Cannot read properties of null (reading 'operation')".
      const braces = await graphql(server, '{}');
      assert.equal(braces.status, 400);
      assert.equal(braces.body.errors![0].extensions.code, 'GRAPHQL_PARSE_FAILED');
      assert.match(braces.body.errors![0].message, /^Syntax Error: Expected Name/);
      // Over GET, with the header Apollo's CSRF prevention asks for (as Strapi 5.54 does).
      const headers = { ...server.authHeaders, 'apollo-require-preflight': 'true' };
      const query = encodeURIComponent('query A { __typename } query B { __typename }');
      const unnamed = await fetch(`${server.url}/graphql?query=${query}`, { headers });
      assert.equal(unnamed.status, 400);
      assert.deepEqual(await unnamed.json(), {
        errors: [
          {
            message: 'Must provide operation name if query contains multiple operations.',
            extensions: { code: 'OPERATION_RESOLUTION_FAILURE' },
          },
        ],
      });
      const named = await fetch(`${server.url}/graphql?query=${query}&operationName=B`, { headers });
      assert.deepEqual(await named.json(), { data: { __typename: 'Query' } });
      const mutation = encodeURIComponent('query A { __typename } mutation B { __typename }');
      const viaGet = await fetch(`${server.url}/graphql?query=${mutation}&operationName=B`, { headers });
      assert.equal(viaGet.status, 405);
      assert.equal(viaGet.headers.get('allow'), 'POST');
      assert.deepEqual(await viaGet.json(), {
        errors: [
          {
            message: 'GET requests only support query operations, not mutation operations',
            extensions: { code: 'BAD_REQUEST' },
          },
        ],
      });
    });

    it('errors while resolving are HTTP 200 with Strapi codes and extensions.error', async () => {
      const badSort = await graphql(server, '{ articles(sort: "nope:asc") { data { id } } }');
      assert.equal(badSort.status, 200);
      assert.equal(badSort.body.errors![0].extensions.code, 'BAD_USER_INPUT');
      assert.equal(badSort.body.errors![0].extensions.error.name, 'ValidationError');
      assert.deepEqual(badSort.body.data, { articles: null });
      const badBody = await graphql(server, 'mutation { createArticle(data: { views: 3 }) { data { id } } }');
      assert.equal(badBody.body.errors![0].extensions.code, 'BAD_USER_INPUT');
      assert.ok(Array.isArray(badBody.body.errors![0].extensions.error.details.errors));
      const missing = await graphql(
        server,
        'mutation { updateArticle(id: "missing", data: { title: "x" }) { data { id } } }',
      );
      assert.equal(missing.status, 200);
      assert.equal(missing.body.errors![0].extensions.code, 'STRAPI_NOT_FOUND_ERROR');
      assert.equal(missing.body.errors![0].extensions.error.name, 'NotFoundError');
    });

    it('authorization per root field: find, findOne, create, update, delete', async () => {
      const deny = (permission: string) => ({ headers: { 'x-test-deny': `api::article.article.${permission}` } });
      const find = await graphql(server, '{ articles { data { id } } tags { data { id } } }', undefined, deny('find'));
      assert.equal(find.status, 200);
      assert.equal(find.body.errors![0].extensions.code, 'FORBIDDEN');
      assert.deepEqual(find.body.errors![0].path, ['articles']);
      assert.equal(find.body.errors![0].extensions.error.name, 'ForbiddenError');
      // Strapi's GraphQL words (its REST says "Forbidden").
      assert.equal(find.body.errors![0].message, 'Forbidden access');
      assert.equal(find.body.errors![0].extensions.error.message, 'Forbidden access');
      assert.equal(find.body.data!.articles, null);
      assert.equal(find.body.data!.tags.data.length, 5, 'other fields still resolve');
      const one = await graphql(server, '{ article(id: "x") { data { id } } }', undefined, deny('findOne'));
      assert.equal(one.body.errors![0].extensions.code, 'FORBIDDEN');
      for (const [permission, mutation] of [
        ['create', 'createArticle(data: { title: "x" })'],
        ['update', 'updateArticle(id: "x", data: { title: "x" })'],
        ['delete', 'deleteArticle(id: "x")'],
      ]) {
        const response = await graphql(
          server,
          `mutation { ${mutation} { data { id } } }`,
          undefined,
          deny(permission!),
        );
        assert.equal(response.body.errors?.[0]?.extensions.code, 'FORBIDDEN', permission);
      }
      const invalid = await graphql(server, '{ articles { data { id } } }', undefined, {
        headers: { authorization: 'Bearer invalid' },
      });
      assert.equal(invalid.body.errors![0].extensions.code, 'FORBIDDEN');
      assert.equal(invalid.body.errors![0].extensions.error.name, 'UnauthorizedError');
    });

    it('relations the caller may not read are left unpopulated, as in REST', async () => {
      const data = await graphql(
        server,
        '{ articles(pagination: { pageSize: 1 }) { data { attributes { title author { data { id } } } } } }',
        undefined,
        { headers: { 'x-test-hide': 'api::author.author' } },
      );
      assert.equal(data.body.errors, undefined);
      assert.deepEqual(data.body.data.articles.data[0].attributes.author, { data: null });
    });

    it('never a 500 page: a mutation over GET and other methods answer JSON, 405', async () => {
      const get = await fetch(
        `${server.url}/graphql?query=${encodeURIComponent('mutation { deleteArticle(id: "x") { data { id } } }')}`,
        { headers: { 'apollo-require-preflight': 'true' } },
      );
      assert.equal(get.status, 405);
      assert.ok((await get.json()).errors);
      const put = await fetch(`${server.url}/graphql`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ __typename }' }),
      });
      assert.equal(put.status, 405);
      assert.equal(put.headers.get('allow'), 'GET, POST');
      assert.deepEqual(await put.json(), {
        errors: [{ message: 'Apollo Server supports only GET/POST requests.', extensions: { code: 'BAD_REQUEST' } }],
      });
    });
  });
}

describe('GraphQL configuration', () => {
  it('a custom endpoint, the playground, and introspection off in production', async () => {
    const server = await startServer('sqlite', {
      env: { NODE_ENV: 'production', JWT_SECRET: 'a-production-secret-of-some-length' },
      config: { plugins: { graphql: { config: { endpoint: '/gql' } } } },
    });
    try {
      const ok = await graphql(server, '{ tags { data { id } } }', undefined, { path: '/gql' });
      assert.equal(ok.status, 200);
      const introspection = await graphql(server, '{ __schema { types { name } } }', undefined, { path: '/gql' });
      assert.equal(introspection.status, 400);
      assert.equal(introspection.body.errors![0].extensions.code, 'GRAPHQL_VALIDATION_FAILED');
      const page = await fetch(`${server.url}/gql`, { headers: { accept: 'text/html' } });
      assert.notEqual(
        (page.headers.get('content-type') ?? '').includes('text/html'),
        true,
        'no playground in production',
      );
      assert.equal((await fetch(`${server.url}/graphql`, { method: 'POST' })).status, 404);
    } finally {
      await server.close();
    }
    const dev = await startServer('sqlite', { env: { NODE_ENV: 'development' } });
    try {
      const page = await fetch(`${dev.url}/graphql`, { headers: { accept: 'text/html' } });
      assert.equal(page.status, 200);
      assert.match(await page.text(), /\/_vellum\/graphiql\/graphiql\.js/);
      assert.equal((await fetch(`${dev.url}/_vellum/graphiql/graphiql.js`)).status, 200);
      const introspection = await graphql(dev, '{ __schema { queryType { name } } }');
      assert.equal(introspection.status, 200);
    } finally {
      await dev.close();
    }
  });

  it('playgroundAlways serves the playground in production', async () => {
    const server = await startServer('sqlite', {
      env: { NODE_ENV: 'production', JWT_SECRET: 'a-production-secret-of-some-length' },
      config: { plugins: { graphql: { config: { playgroundAlways: true } } } },
    });
    try {
      const page = await fetch(`${server.url}/graphql`, { headers: { accept: 'text/html' } });
      assert.match(page.headers.get('content-type') ?? '', /text\/html/);
      assert.match(
        page.headers.get('content-security-policy') ?? '',
        /script-src 'self';/,
        'GraphiQL comes from this server',
      );
      assert.equal((await fetch(`${server.url}/_vellum/graphiql/graphiql.js`)).status, 200);
    } finally {
      await server.close();
    }
  });

  it('a bad configuration stops start-up with its path', async () => {
    await assert.rejects(
      startServer('sqlite', { config: { plugins: { graphql: { config: { depthLimit: 'deep' } } } } }),
      /graphql\.config\.depthLimit/,
    );
  });
});
