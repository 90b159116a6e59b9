/** The extension service (docs/graphql.md "GraphQL extensions") driven from a project's `src/index.ts`. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ForbiddenError } from '../../src/core/errors.js';
import type { AccessControl } from '../../src/api/access.js';
import { DIALECTS, fixture, startServer, type TestServer } from '../helpers/server.js';
import { graphql, graphqlData } from '../helpers/graphql.js';

const PROJECT = fixture('graphql-extension');

/** `x-test-deny: <uid>.<action>,...` refuses those permissions. */
const testAccess: AccessControl = {
  async authorize(headers, permission) {
    if (
      String(headers['x-test-deny'] ?? '')
        .split(',')
        .includes(`${permission.uid}.${permission.action}`)
    )
      throw new ForbiddenError();
    return {};
  },
};

const deny = (...permissions: string[]) => ({ headers: { 'x-test-deny': permissions.join(',') } });

for (const dialect of DIALECTS) {
  describe(`GraphQL extension service [${dialect}]`, () => {
    let server: TestServer;
    const fields = async (type: string, kind: 'fields' | 'inputFields' = 'fields') => {
      const data = await graphqlData(server, `{ __type(name: "${type}") { ${kind} { name } } }`);
      return data.__type ? data.__type[kind].map((f: { name: string }) => f.name) : null;
    };

    before(async () => {
      server = await startServer(dialect, { project: PROJECT, access: testAccess });
      await server.api.post('/api/articles', { data: { title: 'Hello', views: 3, rating: 4.5, metadata: { a: 1 } } });
    });
    after(() => server?.close());

    it('runs register and bootstrap of the project code; getters answer', () => {
      assert.equal((globalThis as any).__bootstrapped, true);
      assert.deepEqual((globalThis as any).__graphqlGetters, {
        categoryEnabled: false,
        tagMutationsEnabled: false,
        tagQueriesEnabled: true,
        authorDeleteDisabled: true,
        authorFindEnabled: true,
        ratingDisabled: true,
        slugFilters: false,
        slugOutput: true,
        slugInput: true,
      });
    });

    it('disable(), disableMutations(), disableAction()', async () => {
      assert.equal(await fields('Category'), null);
      const query = await fields('Query');
      const mutation = await fields('Mutation');
      assert.ok(!query.includes('categories') && !mutation.includes('createCategory'));
      assert.ok(query.includes('tags') && !mutation.includes('createTag'));
      assert.ok(mutation.includes('createAuthor') && !mutation.includes('deleteAuthor'));
      assert.ok(!(await fields('Article')).includes('category'), 'relations to a disabled type go too');
    });

    it('field switches: disable, disableOutput, disableInput, disableFilters', async () => {
      const output = await fields('Article');
      const input = await fields('ArticleInput', 'inputFields');
      const filters = await fields('ArticleFiltersInput', 'inputFields');
      assert.ok(!output.includes('rating') && !input.includes('rating') && !filters.includes('rating'));
      assert.ok(!output.includes('metadata') && input.includes('metadata') && filters.includes('metadata'));
      assert.ok(output.includes('views') && !input.includes('views') && filters.includes('views'));
      assert.ok(output.includes('slug') && input.includes('slug') && !filters.includes('slug'));
    });

    it('use(): typeDefs and resolvers, including a field on a generated type', async () => {
      const data = await graphqlData(
        server,
        '{ articles { data { attributes { titleLength } } } secret: hello(name: "x") }',
      );
      assert.deepEqual(data.articles.data, [{ attributes: { titleLength: 5 } }]);
      assert.equal((await graphqlData(server, 'mutation { ping }')).ping, 'pong');
    });

    it('middlewares wrap the resolver, first one outermost', async () => {
      assert.equal((await graphqlData(server, '{ hello(name: "ann") }')).hello, 'HELLO ANN!');
    });

    it('policies returning false are FORBIDDEN', async () => {
      const refused = await graphql(server, '{ secret }');
      assert.equal(refused.status, 200);
      assert.equal(refused.body.errors![0].extensions.code, 'FORBIDDEN');
      // As Strapi 5.54 rebuilds a resolver's error: the path stays, the locations go.
      assert.deepEqual(refused.body.errors![0].path, ['secret']);
      assert.equal('locations' in refused.body.errors![0], false);
      assert.equal(refused.body.data!.secret, null);
      const allowed = await graphql(server, '{ secret }', undefined, { headers: { 'x-allow': 'yes' } });
      assert.equal(allowed.body.data!.secret, 's3cret');
    });

    it('auth: false skips authorization; auth.scope replaces it', async () => {
      const open = await graphql(server, '{ articles { data { id } } }', undefined, deny('api::article.article.find'));
      assert.equal(open.body.errors, undefined);
      const scoped = await graphql(server, '{ authors { data { id } } }', undefined, deny('api::author.author.find'));
      assert.equal(scoped.body.errors, undefined, 'the scope, not author.find, decides');
      const refused = await graphql(server, '{ authors { data { id } } }', undefined, deny('api::tag.tag.find'));
      assert.equal(refused.body.errors![0].extensions.code, 'FORBIDDEN');
      const custom = await graphql(server, '{ guarded }', undefined, deny('api::author.author.find'));
      assert.equal(custom.body.errors![0].extensions.code, 'FORBIDDEN');
      assert.equal((await graphqlData(server, '{ guarded }')).guarded, 'guarded');
    });
  });
}

describe('GraphQL with shadowCRUD: false', () => {
  it("serves only the extensions (and users-permissions' me, register, login)", async () => {
    const server = await startServer('sqlite', {
      project: PROJECT,
      config: { plugins: { graphql: { config: { shadowCRUD: false } } } },
    });
    try {
      const data = await graphqlData(server, '{ __schema { queryType { fields { name } } types { name } } }');
      assert.deepEqual(
        data.__schema.queryType.fields.map((f: { name: string }) => f.name),
        ['me', 'hello', 'secret', 'guarded'],
      );
      assert.equal(
        data.__schema.types.some((t: { name: string }) => t.name === 'Article'),
        false,
      );
      assert.equal((await graphqlData(server, '{ hello }')).hello, 'HELLO WORLD!');
    } finally {
      await server.close();
    }
  });
});
