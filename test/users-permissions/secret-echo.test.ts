/**
 * No echo of secrets: a validation error never repeats the value sent for a password (REST bodies,
 * registration and login, GraphQL variables), and production GraphQL errors suggest no names.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { graphql } from '../helpers/graphql.js';
import { DIALECTS, fixture, startServer, type TestServer } from '../helpers/server.js';
import { unique } from '../helpers/unique.js';

interface FieldError {
  path: string[];
  message: string;
  value?: unknown;
}

const fieldError = (errors: FieldError[] | undefined, field: string): FieldError => {
  const found = errors?.find((error) => error.path.join('.') === field);
  assert.ok(found, `an error at ${field}: ${JSON.stringify(errors)}`);
  return found;
};

for (const dialect of DIALECTS) {
  describe(`password attributes are never repeated in errors [${dialect}]`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect, { project: fixture('input-rules') });
    });
    after(() => server?.close());

    it('REST: a password too short, of another type, or holding NUL is refused without its value', async () => {
      for (const secret of ['Sh0rt!x', 12345678, 'long-enough\u0000-secret']) {
        const res = await server.api.post('/api/records', { data: { name: unique('rec'), secret } });
        assert.equal(res.status, 400, JSON.stringify(res.body));
        const error = fieldError(res.body.error.details.errors, 'secret');
        assert.ok(!('value' in error), JSON.stringify(error));
        assert.ok(!res.text.includes(String(secret).split('\u0000')[0]!), res.text);
      }
      // Other attributes keep Strapi's `value`.
      const named = await server.api.post('/api/records', { data: { name: 'x', secret: 'a-good-secret' } });
      assert.equal(fieldError(named.body.error.details.errors, 'name').value, 'x');
    });

    it('GraphQL: the same validation errors, in extensions.error.details', async () => {
      const res = await graphql(server, 'mutation($data: RecordInput!) { createRecord(data: $data) { data { id } } }', {
        data: { name: unique('rec'), secret: 'Sh0rt!x' },
      });
      const error = res.body.errors?.[0]?.extensions?.error;
      assert.equal(error?.name, 'ValidationError', JSON.stringify(res.body));
      assert.ok(!('value' in fieldError(error.details.errors, 'secret')));
      assert.ok(!JSON.stringify(res.body).includes('Sh0rt!x'));
    });
  });

  describe(`registration and login never repeat a password [${dialect}]`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect);
    });
    after(() => server?.close());

    it('REST register: a password too short or of another type', async () => {
      const short = await server.publicApi.post('/api/auth/local/register', {
        username: unique('u'),
        email: `${unique('e')}@example.com`,
        password: 'Pw5!x',
      });
      assert.equal(short.status, 400, JSON.stringify(short.body));
      assert.ok(!('value' in fieldError(short.body.error.details.errors, 'password')));
      assert.ok(!short.text.includes('Pw5!x'), short.text);
      const typed = await server.publicApi.post('/api/auth/local/register', {
        username: unique('u'),
        email: `${unique('e')}@example.com`,
        password: 98765432,
      });
      assert.equal(typed.status, 400);
      assert.ok(!('value' in fieldError(typed.body.error.details.errors, 'password')));
      assert.ok(!typed.text.includes('98765432'), typed.text);
    });

    it('REST login: a password of another type (the identifier keeps its value)', async () => {
      const res = await server.publicApi.post('/api/auth/local', { identifier: 7, password: 98765432 });
      assert.equal(res.status, 400);
      assert.equal(fieldError(res.body.error.details.errors, 'identifier').value, 7);
      assert.ok(!('value' in fieldError(res.body.error.details.errors, 'password')));
      assert.ok(!res.text.includes('98765432'), res.text);
    });

    it('GraphQL register: a refused input variable is not repeated when it holds a password', async () => {
      const register = 'mutation($input: UsersPermissionsRegisterInput!) { register(input: $input) { jwt } }';
      const password = 'a-Real-passw0rd';
      for (const input of [
        { username: unique('u'), password },
        { username: unique('u'), email: `${unique('e')}@example.com`, password, captcha: 'x' },
      ]) {
        const res = await graphql(server, register, { input }, { anonymous: true });
        assert.equal(res.status, 400, JSON.stringify(res.body));
        assert.match(
          res.body.errors![0].message,
          /^Variable "\$input" got invalid value \(not repeated: it holds a password\); Field "(email|captcha)"/,
        );
        assert.ok(!JSON.stringify(res.body).includes(password), JSON.stringify(res.body));
      }
      const short = await graphql(
        server,
        register,
        { input: { username: unique('u'), email: `${unique('e')}@example.com`, password: 'Pw5!x' } },
        { anonymous: true },
      );
      assert.ok(!JSON.stringify(short.body).includes('Pw5!x'), JSON.stringify(short.body));
    });
  });
}

describe('GraphQL suggestions', () => {
  const STRONG = 'Zq3vN8pXr2LkW5tYb7HcJ0mD4sFgA9eU';
  let production: TestServer;
  let development: TestServer;
  before(async () => {
    production = await startServer('sqlite', { env: { NODE_ENV: 'production', JWT_SECRET: STRONG } });
    development = await startServer('sqlite', { env: { NODE_ENV: 'development' } });
  });
  after(async () => {
    await production?.close();
    await development?.close();
  });

  const probes = [
    '{ articles { data { id attributes { titel } } } }',
    '{ articles(filter: { title: { eq: "x" } }) { data { id } } }',
    '{ articls { data { id } } }',
    'query($f: ArticleFiltersInput) { articles(filters: $f) { data { id } } }',
  ];
  const variables = { f: { titel: { eq: 'x' } } };

  it('production errors name no field, argument or type the request did not', async () => {
    for (const query of probes) {
      const res = await graphql(production, query, variables);
      assert.equal(res.status, 400, JSON.stringify(res.body));
      for (const error of res.body.errors!) assert.doesNotMatch(error.message, /Did you mean/, query);
    }
  });

  it('outside production graphql-js suggestions help the developer', async () => {
    for (const query of probes) {
      const res = await graphql(development, query, variables);
      assert.ok(
        res.body.errors!.some((error: { message: string }) =>
          /Did you mean "(title|filters|articles|article)"/.test(error.message),
        ),
        JSON.stringify(res.body),
      );
    }
  });

  it('apolloServer.hideSchemaDetailsFromClientErrors decides when set, as in Apollo', async () => {
    const server = await startServer('sqlite', {
      config: { plugins: { graphql: { config: { apolloServer: { hideSchemaDetailsFromClientErrors: true } } } } },
    });
    try {
      const res = await graphql(server, probes[0]!);
      assert.equal(res.body.errors![0].message, 'Cannot query field "titel" on type "Article".');
    } finally {
      await server.close();
    }
  });
});
