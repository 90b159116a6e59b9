/**
 * GraphQL side by side with Strapi 5.54 on a Strapi 5 project (test/fixtures/strapi5-shop: its
 * package.json depends on `@strapi/strapi` 5, its config/plugins leaves `v4CompatibilityMode`
 * unset): Strapi 5's flat shape on both, lists with filters, sort and pagination, `_connection`,
 * drafts, a single type, a dynamic zone of eight component kinds with nested lists, errors, and the
 * schema's types, fields and arguments. On demand: `npm run test:strapi -- graphql`.
 * What it found is pinned in test/graphql/strapi5-project.test.ts.
 */
import { test } from 'node:test';
import type { HttpClient, Response } from '../helpers/http.js';
import { PRODUCT_PAGE, productSections } from '../helpers/strapi5-shop.js';
import { runNames, shopDifferential, type GraphqlError } from './graphql-shop.js';

const diff = shopDifferential(import.meta.filename);
const R = runNames('gl');

/**
 * One operation; errors are compared by their code, error name and path (messages are graphql-js'
 * or Vellum's own words, docs/graphql.md).
 */
async function gql(api: HttpClient, query: string, variables?: Record<string, unknown>): Promise<Response> {
  const response = await api.post('/graphql', { query, variables });
  const body = response.body as { data?: unknown; errors?: GraphqlError[] };
  if (!body?.errors) return response;
  const errors = body.errors.map((e) => ({ code: e.extensions?.code, name: e.extensions?.error?.name, path: e.path }));
  // A 400 is compared by status alone in the harness: keep the codes in a 200-like body.
  return {
    ...response,
    status: response.status === 400 ? 299 : response.status,
    body: { data: body.data ?? null, errors },
  };
}

const docId = async (api: HttpClient, path: string, data: Record<string, unknown>) => {
  const response = await api.post(path, { data });
  if (response.status !== 201) throw new Error(`${path}: ${response.status} ${response.text.slice(0, 300)}`);
  return response.body.data.documentId as string;
};

test('lists: filters, sort, pagination, and _connection with pageInfo', async () => {
  await diff().same(async (api) => {
    const category = await docId(api, '/api/categories', { name: `${R}-tools` });
    for (const [name, price, stock] of [
      [`${R}-a`, 10, 5],
      [`${R}-b`, 20, 5],
      [`${R}-c`, 30, 1],
      [`${R}-d`, 40, 0],
    ] as const)
      await docId(api, '/api/products', { name, price, stock, category });
    const scoped = `filters: { name: { startsWith: "${R}-" } }`;
    return [
      await gql(
        api,
        `{ products(${scoped}, sort: ["stock:desc", "price:asc"]) { name price stock category { name } } }`,
      ),
      await gql(
        api,
        `{ products(filters: { name: { startsWith: "${R}-" }, or: [{ price: { lt: 15 } }, { stock: { eq: 0 } }] }, sort: "name") { name } }`,
      ),
      await gql(
        api,
        `{ products(filters: { name: { startsWith: "${R}-" }, not: { price: { between: [15, 35] } } }, sort: "name:desc") { name } }`,
      ),
      await gql(
        api,
        `{ products(filters: { category: { name: { eq: "${R}-tools" } }, name: { in: ["${R}-a", "${R}-c"] } }, sort: "name") { name } }`,
      ),
      await gql(api, `{ products(${scoped}, sort: "name", pagination: { page: 2, pageSize: 3 }) { name } }`),
      await gql(api, `{ products(${scoped}, sort: "name", pagination: { start: 1, limit: 2 }) { name } }`),
      await gql(
        api,
        `{ products_connection(${scoped}, sort: "name", pagination: { page: 2, pageSize: 3 }) { nodes { name } pageInfo { total page pageSize pageCount } } }`,
      ),
      await gql(
        api,
        `{ products_connection(${scoped}, pagination: { start: 1, limit: 2 }) { pageInfo { total page pageSize pageCount } } }`,
      ),
      await gql(
        api,
        `{ categories(filters: { name: { eq: "${R}-tools" } }) { name products(sort: "price:desc", pagination: { limit: 2 }) { name } } }`,
      ),
      await gql(
        api,
        `{ categories(filters: { name: { eq: "${R}-tools" } }) { products_connection(filters: { stock: { gt: 0 } }, sort: "name") { nodes { name } } } }`,
      ),
    ];
  });
});

test('publication cohorts: publicationFilter and hasPublishedVersion', async () => {
  await diff().same(async (api) => {
    const never = await gql(
      api,
      `mutation { createProduct(status: DRAFT, data: { name: "${R}-pf-never" }) { documentId } }`,
    );
    const both = (await gql(api, `mutation { createProduct(data: { name: "${R}-pf-published" }) { documentId } }`))
      .body as { data: { createProduct: { documentId: string } } };
    await gql(
      api,
      `mutation { updateProduct(documentId: "${both.data.createProduct.documentId}", status: DRAFT, data: { name: "${R}-pf-published", stock: 3 }) { documentId } }`,
    );
    const scoped = `filters: { name: { startsWith: "${R}-pf-" } }, sort: "name"`;
    return [
      never,
      await gql(api, `{ products(${scoped}, status: DRAFT, publicationFilter: NEVER_PUBLISHED) { name } }`),
      await gql(api, `{ products(${scoped}, status: DRAFT, publicationFilter: HAS_PUBLISHED_VERSION) { name } }`),
      await gql(api, `{ products(${scoped}, status: DRAFT, publicationFilter: MODIFIED) { name stock } }`),
      await gql(api, `{ products(${scoped}, status: DRAFT, hasPublishedVersion: false) { name } }`),
      await gql(
        api,
        `{ products_connection(${scoped}, status: DRAFT, hasPublishedVersion: true) { nodes { name } pageInfo { total } } }`,
      ),
    ];
  });
});

test('repeatable components: filters, sort and pagination per field', async () => {
  await diff().same(async (api) => {
    const page = await docId(api, '/api/products', { name: `${R}-cmp`, sections: productSections([]) });
    return [
      await gql(
        api,
        `query($d: ID!) { product(documentId: $d) { sections { ... on ComponentBlocksPricing {
        byName: plans(sort: "name:desc") { name }
        pro: plans(filters: { name: { eq: "Pro" } }) { name price }
        dear: plans(filters: { price: { gt: 10 } }) { name }
        top: plans(sort: "price:desc", pagination: { limit: 1 }) { name perks(sort: "text:desc") { text } }
        withPerk: plans(filters: { perks: { text: { eq: "b3" } } }) { name }
      } ... on ComponentBlocksFeatureList { features(filters: { or: [{ title: { eq: "F2" } }, { bullets: { text: { eq: "b2" } } }] }, sort: "title:desc") { title } } } } }`,
        { d: page },
      ),
    ];
  });
});

test('drafts: status DRAFT writes and reads drafts, PUBLISHED (the default) does not see them', async () => {
  await diff().same(async (api) => {
    const created = await gql(
      api,
      `mutation { createProduct(status: DRAFT, data: { name: "${R}-draft", price: 1 }) { documentId name publishedAt } }`,
    );
    const id = (created.body as { data: { createProduct: { documentId: string } } }).data.createProduct.documentId;
    return [
      created,
      await gql(api, `{ product(documentId: "${id}") { name } }`),
      await gql(api, `{ product(documentId: "${id}", status: DRAFT) { name publishedAt } }`),
      await gql(api, `{ products(status: DRAFT, filters: { name: { eq: "${R}-draft" } }) { name } }`),
      await gql(api, `{ products(filters: { name: { eq: "${R}-draft" } }) { name } }`),
      await gql(
        api,
        `mutation { updateProduct(documentId: "${id}", status: PUBLISHED, data: { price: 2 }) { name price } }`,
      ),
      await gql(api, `{ product(documentId: "${id}") { name price } }`),
      await gql(api, `mutation { deleteProduct(documentId: "${id}") { documentId } }`),
      await gql(api, `{ product(documentId: "${id}") { name } }`),
    ];
  });
});

test('a single type: update, read, read the draft, delete', async () => {
  await diff().same(async (api) => [
    await gql(
      api,
      `mutation { updateHomepage(data: { title: "${R}-home", sections: [{ __typename: "ComponentBlocksText", body: "hello" }] }) { title sections { __typename ... on ComponentBlocksText { body } } } }`,
    ),
    await gql(api, '{ homepage { title sections { __typename ... on ComponentBlocksText { body } } } }'),
    await gql(api, '{ homepage(status: DRAFT) { title publishedAt } }'),
    await gql(api, 'mutation { deleteHomepage { documentId } }'),
    await gql(api, '{ homepage { title } }'),
  ]);
});

test('a product page: a zone of eight component kinds with nested lists, in one query', async () => {
  await diff().same(async (api) => {
    const category = await docId(api, '/api/categories', { name: `${R}-page-cat` });
    const related = [
      await docId(api, '/api/products', { name: `${R}-rel-1`, category }),
      await docId(api, '/api/products', { name: `${R}-rel-2`, category }),
    ];
    const page = await docId(api, '/api/products', {
      name: `${R}-page`,
      price: 5,
      category,
      sections: productSections(related),
    });
    return [
      await gql(api, PRODUCT_PAGE, { documentId: page }),
      await gql(
        api,
        `query($d: ID!) { product(documentId: $d) { sections { ... on ComponentBlocksPricing { plans(pagination: { limit: 1 }) { name perks(pagination: { start: 1, limit: 2 }) { text } } } } } }`,
        { d: page },
      ),
      await gql(
        api,
        `mutation($d: ID!) { updateProduct(documentId: $d, data: { sections: [{ __typename: "ComponentBlocksFaq", items: [{ question: "q", answer: "a" }] }] }) { sections { __typename ... on ComponentBlocksFaq { items { question answer } } } } }`,
        { d: page },
      ),
    ];
  });
});

test('errors: unknown fields and arguments, bad variables and enums, missing documents, bad pagination', async () => {
  await diff().same(async (api) => [
    await gql(api, '{ products { nope } }'),
    await gql(api, '{ products(nope: 1) { name } }'),
    await gql(api, '{ products { data { id } } }'),
    await gql(api, 'query($n: Int) { products(pagination: { pageSize: $n }) { name } }', { n: 'x' }),
    await gql(api, '{ products(status: LIVE) { name } }'),
    await gql(api, '{ product(documentId: "no-such-document") { name } }'),
    await gql(api, '{ product { name } }'),
    await gql(api, '{ products(pagination: { page: 1, start: 1 }) { name } }'),
    await gql(api, 'mutation { createProduct(data: { price: 3 }) { name } }'),
    await gql(api, '{ products('),
  ]);
});

const TYPE_FIELDS = `query($name: String!) { __type(name: $name) { kind name
  fields { name args { name type { ...T } defaultValue } type { ...T } }
  inputFields { name type { ...T } }
  enumValues { name } possibleTypes { name } } }
  fragment T on __Type { kind name ofType { kind name ofType { kind name ofType { kind name } } } }`;

/** The project's types as both serve them (fields, arguments, their types), and the root fields of its content-types. */
test('the schema: the types, fields and arguments of the project', async () => {
  const names = [
    'Product',
    'Category',
    'Homepage',
    'ProductEntityResponseCollection',
    'ProductRelationResponseCollection',
    'Pagination',
    'PaginationArg',
    'ProductFiltersInput',
    'CategoryFiltersInput',
    'ProductInput',
    'CategoryInput',
    'HomepageInput',
    'ProductSectionsDynamicZone',
    'HomepageSectionsDynamicZone',
    'ComponentBlocksHero',
    'ComponentBlocksText',
    'ComponentBlocksFeatureList',
    'ComponentBlocksFaq',
    'ComponentBlocksSpecs',
    'ComponentBlocksRelated',
    'ComponentBlocksPricing',
    'ComponentBlocksCta',
    'ComponentSharedFeature',
    'ComponentSharedPlan',
    'ComponentSharedButtonInput',
    'ComponentSharedFeatureFiltersInput',
    'PublicationStatus',
    'PublicationFilter',
    'DeleteMutationResponse',
    'StringFilterInput',
    'IDFilterInput',
    'FloatFilterInput',
    'I18NLocaleCode',
  ];
  // Vellum's filter inputs also take startsWithi and endsWithi, as its REST filters do
  // (docs/graphql.md): left out of its answer, the rest must be Strapi's.
  const sorted = (response: Response, side: string) => {
    const type = (response.body as { data: { __type: Record<string, { name: string }[] | null> | null } }).data.__type;
    if (type?.inputFields && side === 'vellum')
      type.inputFields = type.inputFields.filter((field) => field.name !== 'startsWithi' && field.name !== 'endsWithi');
    for (const key of ['fields', 'inputFields', 'enumValues', 'possibleTypes'])
      type?.[key]?.sort((a, b) => a.name.localeCompare(b.name));
    return response;
  };
  await diff().same(async (api, side) =>
    Object.fromEntries(
      await Promise.all(names.map(async (name) => [name, sorted(await gql(api, TYPE_FIELDS, { name }), side)])),
    ),
  );
  const project =
    /^(products?|products_connection|categor(y|ies)|categories_connection|homepage|(create|update|delete)(Product|Category|Homepage))$/;
  await diff().same(async (api) => {
    const root = await gql(
      api,
      '{ query: __type(name: "Query") { fields { name args { name type { name kind ofType { name } } defaultValue } type { name kind ofType { name kind ofType { name } } } } } mutation: __type(name: "Mutation") { fields { name args { name type { name kind ofType { name } } defaultValue } type { name kind } } } }',
    );
    const body = root.body as { data: Record<string, { fields: { name: string }[] }> };
    for (const type of Object.values(body.data)) {
      type.fields = type.fields
        .filter((field) => project.test(field.name))
        .sort((a, b) => a.name.localeCompare(b.name));
      for (const field of type.fields as unknown as { args: { name: string }[] }[])
        field.args.sort((a, b) => a.name.localeCompare(b.name));
    }
    return root;
  });
});

test("errors' codes as Strapi's formatGraphqlError gives them; a write to a missing document; a bad token is HTTP 401", async () => {
  await diff().same(
    async (api) => {
      const { HttpClient } = await import('../helpers/http.js');
      const bad = new HttpClient(api.baseUrl, { authorization: 'Bearer garbage' });
      return [
        await bad.post('/graphql', { query: '{ products { name } }' }),
        await gql(
          api,
          'mutation { updateProduct(documentId: "nope00000000000000000000", data: { name: "x" }) { name } }',
        ),
        await gql(api, 'mutation { deleteProduct(documentId: "nope00000000000000000000") { documentId } }'),
        await gql(
          api,
          'mutation { updateUsersPermissionsUser(id: "999999", data: { username: "xyz" }) { data { documentId } } }',
        ),
        // (deleteUsersPermissionsUser of an unknown id is an HTTP 204 without a body on Strapi 5.54, no
        // GraphQL answer at all; Vellum answers STRAPI_NOT_FOUND_ERROR, as updating it does there.)
        await gql(api, 'mutation { deleteUsersPermissionsRole(id: "999999") { ok } }'),
      ];
    },
    { messages: true },
  );
});
