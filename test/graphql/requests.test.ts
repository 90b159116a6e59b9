/**
 * GraphQL requests read and refused as Strapi 5.54 reads them (Apollo Server 4 behind
 * koa-bodyparser), pinned from test/differential/graphql-requests.diff.ts: CSRF prevention, bodies
 * and content types, GET parameters, persisted queries, refused requests never answered from
 * the response cache, and the media type the `Accept` header chooses.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';
import { unique } from '../helpers/unique.js';

const CSRF =
  "This operation has been blocked as a potential Cross-Site Request Forgery (CSRF). Please either specify a 'content-type' header " +
  '(with a type that is not one of application/x-www-form-urlencoded, multipart/form-data, text/plain) or provide a non-empty value ' +
  'for one of the following headers: x-apollo-operation-name, apollo-require-preflight\n';
const NO_BODY = 'POST body missing, invalid Content-Type, or JSON object has no keys.';
const PREFLIGHT = { 'apollo-require-preflight': 'true' };
const JSON_TYPE = { 'content-type': 'application/json' };

const JSON_UTF8 = 'application/json; charset=utf-8';
const GRAPHQL_RESPONSE = 'application/graphql-response+json; charset=utf-8';
const NOT_ACCEPTABLE = `An 'accept' header was provided for this request which does not accept ${JSON_UTF8} or ${GRAPHQL_RESPONSE}`;

/** Apollo's answer to a refused request: `errors` alone, no `data`. */
const refused = (message: string, code = 'BAD_REQUEST') => ({ errors: [{ message, extensions: { code } }] });

for (const dialect of DIALECTS) {
  describe(`GraphQL requests as Strapi 5.54 reads them [${dialect}]`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect, { config: { api: { rest: { cache: { holdAfterWriteMs: 0 } } } } });
    });
    after(() => server?.close());

    const send = async (method: string, path: string, headers: Record<string, string>, body?: string) => {
      const response = await fetch(`${server.url}${path}`, {
        method,
        headers: { ...server.authHeaders, ...headers },
        body,
      });
      const text = await response.text();
      return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
    };
    const post = (body: string, headers: Record<string, string> = JSON_TYPE) => send('POST', '/graphql', headers, body);

    it('CSRF prevention: GET and simple content types need a preflight header or a JSON content type; csrfPrevention: false', async () => {
      const query = `?query=${encodeURIComponent('{ __typename }')}`;
      const plain = await send('GET', `/graphql${query}`, {});
      assert.equal(plain.status, 400);
      assert.deepEqual(plain.body, refused(CSRF));
      for (const headers of [PREFLIGHT, { 'x-apollo-operation-name': 'x' }, JSON_TYPE]) {
        const allowed = await send('GET', `/graphql${query}`, headers);
        assert.deepEqual(
          [allowed.status, allowed.body],
          [200, { data: { __typename: 'Query' } }],
          JSON.stringify(headers),
        );
      }
      const body = JSON.stringify({ query: '{ __typename }' });
      for (const headers of [
        { 'content-type': 'text/plain' } as Record<string, string>,
        { 'content-type': 'application/x-www-form-urlencoded' },
        {},
      ]) {
        const blocked = await post(body, headers);
        assert.deepEqual([blocked.status, blocked.body], [400, refused(CSRF)], JSON.stringify(headers));
      }
      // Other methods too, before Apollo's 405.
      assert.deepEqual((await send('DELETE', '/graphql', {})).body, refused(CSRF));
      // apolloServer.csrfPrevention: false switches it off, as in Strapi.
      const open = await startServer(dialect, {
        config: { plugins: { graphql: { config: { apolloServer: { csrfPrevention: false } } } } },
      });
      try {
        const response = await fetch(`${open.url}/graphql?query=${encodeURIComponent('{ __typename }')}`, {
          headers: open.authHeaders,
        });
        assert.deepEqual(await response.json(), { data: { __typename: 'Query' } });
      } finally {
        await open.close();
      }
    });

    it('bodies as koa-bodyparser reads them: strict JSON, forms, anything else unread', async () => {
      assert.deepEqual((await post('')).body, refused(NO_BODY));
      const notObject = await post('"x"');
      assert.equal(notObject.status, 400);
      assert.deepEqual(notObject.body.error, {
        status: 400,
        name: 'SyntaxError',
        message: 'invalid JSON, only supports object and array',
        details: {},
      });
      const form = `query=${encodeURIComponent('{ __typename }')}`;
      const read = await post(form, { 'content-type': 'application/x-www-form-urlencoded', ...PREFLIGHT });
      assert.deepEqual(read.body, { data: { __typename: 'Query' } });
      for (const type of ['text/plain', 'application/graphql', 'multipart/form-data; boundary=x', '???']) {
        const unread = await post('{ __typename }', { 'content-type': type, ...PREFLIGHT });
        assert.deepEqual([unread.status, unread.body], [400, refused(NO_BODY)], type);
      }
    });

    it('GET parameters: once each, variables and extensions JSON objects', async () => {
      const query = `?query=${encodeURIComponent('{ __typename }')}`;
      for (const [search, message] of [
        [`${query}${query.replace('?', '&')}`, "The 'query' search parameter may only be specified once."],
        [`${query}&variables=%7Bbad`, 'The variables search parameter contains invalid JSON.'],
        [`${query}&variables=`, 'The variables search parameter contains invalid JSON.'],
        [`${query}&variables=%5B1%5D`, 'The variables search parameter should contain a JSON-encoded object.'],
        ['', 'GraphQL operations must contain a non-empty `query` or a `persistedQuery` extension.'],
      ]) {
        const response = await send('GET', `/graphql${search}`, PREFLIGHT);
        assert.deepEqual([response.status, response.body], [400, refused(message!)], search);
      }
    });

    it('POST parameters of the wrong type, in Apollo words', async () => {
      for (const [body, message] of [
        [
          { query: '{ __typename }', variables: '{}' },
          '`variables` in a POST body should be provided as an object, not a recursively JSON-encoded string.',
        ],
        [{ query: '{ __typename }', variables: [1] }, '`variables` in a POST body must be an object if provided.'],
        [{ query: '{ __typename }', extensions: 5 }, '`extensions` in a POST body must be an object if provided.'],
        [{ query: '{ __typename }', operationName: 5 }, '`operationName` in a POST body must be a string if provided.'],
      ] as const) {
        const response = await post(JSON.stringify(body));
        assert.deepEqual([response.status, response.body], [400, refused(message)], JSON.stringify(body));
      }
      const nulls = await post(
        JSON.stringify({ query: '{ __typename }', variables: null, operationName: null, extensions: null }),
      );
      assert.deepEqual(nulls.body, { data: { __typename: 'Query' } });
      const unknown = await post(JSON.stringify({ query: 'query A { __typename }', operationName: 'B' }));
      assert.deepEqual(
        [unknown.status, unknown.body],
        [400, refused('Unknown operation named "B".', 'OPERATION_RESOLUTION_FAILURE')],
      );
      const subscription = await post(JSON.stringify({ query: 'subscription { articles { data { id } } }' }));
      assert.equal(subscription.status, 200);
      assert.deepEqual(subscription.body, {
        errors: [
          {
            message: 'Schema is not configured to execute subscription operation.',
            locations: [{ line: 1, column: 1 }],
            extensions: { code: 'INTERNAL_SERVER_ERROR' },
          },
        ],
        data: null,
      });
    });

    it('automatic persisted queries: the hash alone once the query was sent with it', async () => {
      const title = unique('apq');
      const query = `{ articles(filters: { title: { eq: "${title}" } }) { data { id } } }`;
      const persistedQuery = { version: 1, sha256Hash: createHash('sha256').update(query).digest('hex') };
      const missing = await post(JSON.stringify({ extensions: { persistedQuery } }));
      assert.deepEqual(
        [missing.status, missing.body],
        [200, refused('PersistedQueryNotFound', 'PERSISTED_QUERY_NOT_FOUND')],
      );
      assert.equal(missing.headers.get('cache-control'), 'private, no-cache, must-revalidate');
      const wrong = await post(
        JSON.stringify({ query, extensions: { persistedQuery: { ...persistedQuery, sha256Hash: 'abc' } } }),
      );
      assert.deepEqual(
        [wrong.status, wrong.body],
        [400, refused('provided sha does not match query', 'INTERNAL_SERVER_ERROR')],
      );
      // Answered from the response cache, the query sent with its hash is kept too.
      for (let i = 0; i < 2; i++) assert.equal((await post(JSON.stringify({ query }))).status, 200);
      const sent = await post(JSON.stringify({ query, extensions: { persistedQuery } }));
      assert.deepEqual(sent.body, { data: { articles: { data: [] } } });
      const hashOnly = await post(JSON.stringify({ extensions: { persistedQuery } }));
      assert.deepEqual(hashOnly.body, { data: { articles: { data: [] } } });
    });

    it('the Accept header chooses the media type as Apollo Server 4 does: graphql-response+json when preferred, else JSON; 406 when neither', async () => {
      const typename = JSON.stringify({ query: '{ __typename }' });
      const answer = async (accept: string, body = typename) => {
        const response = await post(body, { ...JSON_TYPE, accept });
        return [response.status, response.headers.get('content-type'), response.body];
      };
      const ok = { data: { __typename: 'Query' } };
      assert.deepEqual(await answer('application/graphql-response+json'), [200, GRAPHQL_RESPONSE, ok]);
      assert.deepEqual(await answer('application/json, application/graphql-response+json'), [200, JSON_UTF8, ok]);
      assert.deepEqual(await answer('application/json;q=0.9, application/graphql-response+json'), [
        200,
        GRAPHQL_RESPONSE,
        ok,
      ]);
      assert.deepEqual(await answer('*/*'), [200, JSON_UTF8, ok]);
      // Statuses are the same in either media type (Strapi's Apollo answers a request error with a 400 in both).
      const syntax = await answer('application/graphql-response+json', JSON.stringify({ query: '{' }));
      assert.deepEqual(syntax.slice(0, 2), [400, GRAPHQL_RESPONSE]);
      assert.equal(
        (syntax[2] as { errors: { extensions: { code: string } }[] }).errors[0]!.extensions.code,
        'GRAPHQL_PARSE_FAILED',
      );
      // Neither JSON type accepted: 406, in JSON; a refusal of the pipeline (no query) too.
      assert.deepEqual(await answer('text/html'), [406, JSON_UTF8, refused(NOT_ACCEPTABLE)]);
      assert.deepEqual(await answer('application/json; charset=latin1', JSON.stringify({ variables: {} })), [
        406,
        JSON_UTF8,
        refused(NOT_ACCEPTABLE),
      ]);
      // A refusal of Apollo's HTTP layer (CSRF prevention) is in the preferred type, JSON when none: never a 406.
      const csrf = async (accept: string) => {
        const response = await post(typename, { 'content-type': 'text/plain', accept });
        return [response.status, response.headers.get('content-type'), response.body];
      };
      assert.deepEqual(await csrf('application/graphql-response+json'), [400, GRAPHQL_RESPONSE, refused(CSRF)]);
      assert.deepEqual(await csrf('text/html'), [400, JSON_UTF8, refused(CSRF)]);
      // An answer from the response cache: in the media type of the request it answers.
      const query = JSON.stringify({
        query: `{ articles(filters: { title: { eq: "${unique('accept')}" } }) { data { id } } }`,
      });
      const empty = { data: { articles: { data: [] } } };
      for (const accept of ['application/json', 'application/graphql-response+json', 'application/json'])
        assert.deepEqual(await answer(accept, query), [
          200,
          accept === 'application/json' ? JSON_UTF8 : GRAPHQL_RESPONSE,
          empty,
        ]);
      assert.deepEqual(await answer('text/html', query), [406, JSON_UTF8, refused(NOT_ACCEPTABLE)]);
    });

    it('a refused request is never answered from the response cache', async () => {
      const query = `{ articles(filters: { title: { eq: "${unique('cached')}" } }) { data { id } } }`;
      for (let i = 0; i < 2; i++) assert.equal((await post(JSON.stringify({ query }))).status, 200);
      const refusedExtensions = await post(JSON.stringify({ query, extensions: 'x' }));
      assert.equal(refusedExtensions.status, 400);
      const get = `/graphql?query=${encodeURIComponent(query)}`;
      for (let i = 0; i < 2; i++) assert.equal((await send('GET', get, PREFLIGHT)).status, 200);
      assert.deepEqual((await send('GET', get, {})).body, refused(CSRF));
    });
  });
}
