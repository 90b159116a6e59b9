/**
 * Malformed and edge GraphQL requests side by side with Strapi 5.54 (Apollo Server 4 behind
 * koa-bodyparser) on test/fixtures/strapi5-shop: bodies that are not JSON objects, parameters of
 * the wrong type, batches, CSRF prevention (GET and simple content types without a preflight
 * header), forms, other methods, persisted queries, syntax, validation, depth, operation names and
 * variables. Each answer is compared by status, `allow`, the body's top-level keys, and each error's
 * message, `extensions.code`, keys and locations (an envelope error by name and message); `data` too.
 * On demand: `npm run test:strapi -- graphql-requests`. What it found is pinned in
 * test/graphql/limits-errors.test.ts and test/graphql/requests.test.ts.
 */
import { test } from 'node:test';
import { createHash } from 'node:crypto';
import { HttpClient, type Response } from '../helpers/http.js';
import { runNames, shopDifferential, type GraphqlError } from './graphql-shop.js';

const diff = shopDifferential(import.meta.filename);
const R = runNames('gr');
const QUERY = `{ products(filters: { name: { startsWith: "${R}" } }) { name } }`;
const JSON_TYPE = { 'content-type': 'application/json' };
const PREFLIGHT = { 'apollo-require-preflight': 'true' };
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const enc = encodeURIComponent;

/** What is compared of an answer, as a 200 whose body the harness compares whole. */
function answer(response: Response): Response {
  const body = response.body as { errors?: GraphqlError[]; error?: { name: string; message: string }; data?: unknown };
  const projection: Record<string, unknown> = {
    status: response.status,
    allow: response.headers.get('allow'),
    keys: body && typeof body === 'object' ? Object.keys(body).sort() : typeof body,
  };
  if (Array.isArray(body?.errors))
    projection.errors = body.errors.map((error) => ({
      message: error.message,
      code: error.extensions?.code,
      keys: Object.keys(error).sort(),
      locations: error.locations,
    }));
  // Strapi's error middleware (a body its parser refused): by name and message; Vellum's `details`
  // is a deliberate difference (docs/coming-from-strapi.md).
  if (body?.error) projection.error = { name: body.error.name, message: body.error.message };
  if (body && typeof body === 'object' && 'data' in body) projection.data = body.data;
  return { ...response, status: 200, body: projection };
}

const post = (api: HttpClient, rawBody: string, headers: Record<string, string> = JSON_TYPE) =>
  api.request('POST', '/graphql', { rawBody, headers }).then(answer);
const postJson = (api: HttpClient, body: unknown) => post(api, JSON.stringify(body));
const get = (api: HttpClient, search: string, headers: Record<string, string> = PREFLIGHT) =>
  api.request('GET', `/graphql${search}`, { headers }).then(answer);

/** As `post`, with the answer's media type compared too. */
const typed = (api: HttpClient, rawBody: string, headers: Record<string, string>) =>
  api.request('POST', '/graphql', { rawBody, headers }).then((response) => {
    const projected = answer(response);
    return { ...projected, body: { ...projected.body, type: response.headers.get('content-type') } };
  });

/** An operation nested `levels` below `categories`, its leaf `name` at depth `levels + 1`. */
const deep = (head: string, levels: number) => {
  let inner = 'name';
  for (let i = levels; i >= 1; i--) inner = `${i % 2 ? 'products' : 'category'} { ${inner} }`;
  return `${head}{ categories { ${inner} } }`;
};

test('POST bodies: not objects, empty, batches, unparseable JSON', async () => {
  await diff().same(async (api) => [
    await post(api, '{}'),
    await post(api, ''),
    await post(api, '   '),
    await post(api, '{bad'),
    await post(api, '[1'),
    await post(api, '"x"'),
    await post(api, 'null'),
    await post(api, '5'),
    await post(api, JSON.stringify([{ query: QUERY }])),
    await post(api, '[]'),
    await post(api, `  ${JSON.stringify({ query: QUERY })}`),
  ]);
});

test('POST parameters: query, variables, operationName, extensions of the wrong type or null', async () => {
  await diff().same(async (api) => [
    await postJson(api, { variables: {} }),
    await postJson(api, { query: '' }),
    await postJson(api, { query: null }),
    await postJson(api, { query: 5 }),
    await postJson(api, { query: { kind: 'Document', definitions: [] } }),
    await postJson(api, { query: QUERY, variables: '{}' }),
    await postJson(api, { query: QUERY, variables: [1] }),
    await postJson(api, { query: QUERY, variables: 5 }),
    await postJson(api, { query: QUERY, variables: null }),
    await postJson(api, { query: QUERY, operationName: 5 }),
    await postJson(api, { query: QUERY, operationName: null }),
    await postJson(api, { query: QUERY, extensions: 'x' }),
    await postJson(api, { query: QUERY, extensions: 5 }),
    await postJson(api, { query: QUERY, extensions: null }),
    await postJson(api, { query: QUERY, extensions: { tracing: true } }),
    await postJson(api, { query: QUERY, variables: { undeclared: 1 } }),
  ]);
});

test('content types and CSRF prevention: forms, text, none, application/graphql, not a type', async () => {
  const form = `query=${enc(QUERY)}`;
  const body = JSON.stringify({ query: QUERY });
  await diff().same(async (api) => [
    await post(api, form, FORM),
    await post(api, form, { ...FORM, ...PREFLIGHT }),
    await post(api, `${form}&variables=${enc('{}')}`, { ...FORM, ...PREFLIGHT }),
    await post(api, body, { 'content-type': 'text/plain' }),
    await post(api, body, { 'content-type': 'text/plain', ...PREFLIGHT }),
    await post(api, body, {}),
    await post(api, body, { 'x-apollo-operation-name': 'x' }),
    await post(api, '--XX\r\nContent-Disposition: form-data; name="query"\r\n\r\n{ __typename }\r\n--XX--\r\n', {
      'content-type': 'multipart/form-data; boundary=XX',
    }),
    await post(api, QUERY, { 'content-type': 'application/graphql' }),
    await post(api, body, { 'content-type': 'application/json; charset=utf-8' }),
    await post(api, body, { 'content-type': '???' }),
  ]);
});

test('GET: CSRF prevention, parameters in the URL, a mutation, other methods', async () => {
  const mutation = enc('mutation { deleteHomepage { documentId } }');
  await diff().same(async (api) => [
    await get(api, `?query=${enc(QUERY)}`, {}),
    await get(api, `?query=${enc(QUERY)}`),
    await get(api, `?query=${enc(QUERY)}`, { 'x-apollo-operation-name': 'x' }),
    await get(api, `?query=${enc(QUERY)}`, JSON_TYPE),
    await get(api, ''),
    await get(api, `?query=${enc(QUERY)}&variables=${enc('{bad')}`),
    await get(api, `?query=${enc(QUERY)}&variables=${enc('[1]')}`),
    await get(api, `?query=${enc(QUERY)}&variables=`),
    await get(api, `?query=${enc(QUERY)}&extensions=x`),
    await get(api, `?query=${enc(QUERY)}&query=${enc(QUERY)}`),
    await get(
      api,
      `?query=${enc('query($n: Int) { products(pagination: { pageSize: $n }) { name } }')}&variables=${enc('{"n":1}')}`,
    ),
    await get(api, `?query=${enc('query A { __typename } query B { categories { name } }')}&operationName=A`),
    await get(api, `?query=${mutation}`),
    await get(api, `?query=${mutation}`, {}),
    await api
      .request('PUT', '/graphql', { rawBody: JSON.stringify({ query: QUERY }), headers: JSON_TYPE })
      .then(answer),
    await api
      .request('PATCH', '/graphql', { rawBody: JSON.stringify({ query: QUERY }), headers: JSON_TYPE })
      .then(answer),
    await api.request('DELETE', '/graphql').then(answer),
    await api.request('HEAD', `/graphql?query=${enc(QUERY)}`, { headers: PREFLIGHT }).then(answer),
  ]);
});

test('documents: syntax, unknown and private fields, depth, operation names, variables, subscriptions', async () => {
  await diff().same(async (api) => [
    await postJson(api, { query: '{ products(' }),
    await postJson(api, { query: '{ products { nope nada } }' }),
    await postJson(api, { query: '{ usersPermissionsUsers { password } }' }),
    await postJson(api, { query: 'fragment F on Product { name }' }),
    await postJson(api, { query: deep('query Deep ', 10) }),
    await postJson(api, { query: deep('', 9) }),
    await postJson(api, { query: deep('', 10) }),
    await postJson(api, { query: `${deep('query A ', 10)} ${deep('query B ', 11)}`, operationName: 'A' }),
    await postJson(api, { query: 'query A { __typename } query B { __typename }' }),
    await postJson(api, { query: 'query A { __typename }', operationName: 'B' }),
    await postJson(api, { query: 'query A { __typename }', operationName: '' }),
    await postJson(api, {
      query: 'query($n: Int) { products(pagination: { pageSize: $n }) { name } }',
      variables: { n: 'x' },
    }),
    await postJson(api, { query: 'query($n: Int!) { products(pagination: { pageSize: $n }) { name } }' }),
    await postJson(api, {
      query: 'query($n: Int!) { products(pagination: { pageSize: $n }) { name } }',
      variables: { n: null },
    }),
    await postJson(api, { query: 'subscription { products { name } }' }),
  ]);
});

test('automatic persisted queries: unknown hash, wrong hash, versions, then the hash alone', async () => {
  const hash = createHash('sha256').update(QUERY).digest('hex');
  const persisted = (extra: Record<string, unknown>) => ({ version: 1, sha256Hash: hash, ...extra });
  await diff().same(async (api) => [
    await postJson(api, { extensions: { persistedQuery: persisted({}) } }),
    await get(api, `?extensions=${enc(JSON.stringify({ persistedQuery: persisted({}) }))}`),
    await postJson(api, { query: QUERY, extensions: { persistedQuery: persisted({ sha256Hash: 'abc' }) } }),
    await postJson(api, { query: QUERY, extensions: { persistedQuery: persisted({ version: 2 }) } }),
    await postJson(api, { query: QUERY, extensions: { persistedQuery: 5 } }),
    await postJson(api, { query: QUERY, extensions: { persistedQuery: persisted({}) } }),
    await postJson(api, { extensions: { persistedQuery: persisted({}) } }),
  ]);
});

test('authentication comes first; Public gets FORBIDDEN with errors before data', async () => {
  await diff().same(async (api) => {
    const bad = new HttpClient(api.baseUrl, { authorization: 'Bearer nope' });
    const anonymous = new HttpClient(api.baseUrl);
    return [
      await get(bad, `?query=${enc(QUERY)}`, {}),
      await bad.request('DELETE', '/graphql').then(answer),
      await postJson(bad, { query: 5 }),
      await postJson(anonymous, { query: QUERY }),
      await get(anonymous, `?query=${enc(QUERY)}`, {}),
    ];
  });
});

test('deliberate: a browser opening the endpoint with the playground off', async () => {
  // Strapi serves Apollo's production landing page (its scripts from Apollo's CDN); Vellum serves
  // no third-party page: the request is refused as any GET without a preflight header.
  await diff().same(async (api) => [await get(api, '', { accept: 'text/html' })], {
    deliberate: 'Vellum serves no Apollo landing page (docs/coming-from-strapi.md)',
  });
});

test('the Accept header: the media type Apollo negotiates, 406 when neither JSON type is accepted', async () => {
  const body = JSON.stringify({ query: QUERY });
  await diff().same(async (api) => {
    const accept = (value: string, raw = body, headers = JSON_TYPE) => typed(api, raw, { ...headers, accept: value });
    return [
      await accept('application/graphql-response+json'),
      await accept('application/json'),
      await accept('*/*'),
      await accept('application/json, application/graphql-response+json'),
      await accept('application/json;q=0.9, application/graphql-response+json'),
      await accept('application/*, application/graphql-response+json'),
      await accept('application/json; callbackSpec=1.0'),
      await accept('text/html'),
      await accept('application/json; charset=latin1'),
      await accept('text/html, application/xhtml+xml, application/xml;q=0.9, */*;q=0.8'),
      await accept('application/graphql-response+json', JSON.stringify({ query: '{' })),
      await accept('application/graphql-response+json', JSON.stringify({ query: '{ nope }' })),
      await accept('text/html', JSON.stringify({ query: '{' })),
      await accept('text/html', JSON.stringify({ variables: {} })),
      await accept('application/graphql-response+json', JSON.stringify({ variables: {} })),
      await accept('text/html', body, { 'content-type': 'text/plain' }),
      await accept('application/graphql-response+json', body, { 'content-type': 'text/plain' }),
      await accept('text/html', '{}'),
    ];
  });
});
