/**
 * The OpenAPI document (docs/openapi.md): `vellum openapi generate` writes the text a node serves
 * at `/openapi.json`, on every dialect, for a copy of the blog with a project route of its own; the
 * reference page at `/openapi`; the document says what the routes answer; `config/openapi`
 * `serve: false` leaves both unserved; and a client generated from it with openapi-typescript
 * type-checks a call to every route (and refuses wrong ones).
 */
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { cliOutput } from '../helpers/cli.js';
import { BLOG, DIALECTS, startServer, type TestServer } from '../helpers/server.js';
import { unique } from '../helpers/unique.js';

type Json = Record<string, unknown>;
interface Document extends Json {
  paths: Record<string, Record<string, Json & { responses: Record<string, Json>; parameters: Json[] }>>;
  components: { schemas: Record<string, Json & { properties?: Json }> };
}

/** A copy of the blog with a package.json and a route of its own (a function handler, public). */
function projectCopy(openapiConfig?: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'vellum-openapi-'));
  cpSync(BLOG, dir, { recursive: true, filter: (source) => !source.includes('.tmp') });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'openapi-blog', version: '2.0.0' }));
  writeFileSync(
    join(dir, 'src/api/article/routes/01-featured.js'),
    `module.exports = { routes: [{ method: 'GET', path: '/articles/featured/:slug', config: { auth: false },
      handler: async (ctx) => { ctx.body = { slug: ctx.params.slug }; } }] };\n`,
  );
  if (openapiConfig) writeFileSync(join(dir, 'config/openapi.js'), openapiConfig);
  return dir;
}

let project: string;
let cliText: string;
let cliDocument: Document;

before(async () => {
  project = projectCopy();
  const file = join(project, 'out/specification.json');
  const env = { ...process.env, NODE_ENV: 'test', DATABASE_FILENAME: join(project, 'cli.db') };
  const output = await cliOutput(['openapi', 'generate', '--project', project, '--output', file], { env });
  assert.match(
    output,
    /^Generated an OpenAPI specification for "openapi-blog v2\.0\.0" at .*specification\.json in \d+ms\n$/,
  );
  cliText = readFileSync(file, 'utf8');
  cliDocument = JSON.parse(cliText) as Document;
});
after(() => rmSync(project, { recursive: true, force: true }));

/** Every key of a value is a property of the schema (a document as answered, its populated parts too). */
function assertDescribed(document: Document, value: Json, schemaName: string, where: string): void {
  const properties = document.components.schemas[schemaName]!.properties!;
  for (const key of Object.keys(value)) assert.ok(key in properties, `${where}: ${key} is not in ${schemaName}`);
}

for (const dialect of DIALECTS) {
  describe(`OpenAPI (${dialect})`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect, { project });
    });
    after(async () => server?.close());

    it('serves at /openapi.json the text vellum openapi generate writes', async () => {
      const response = await fetch(`${server.url}/openapi.json`);
      assert.equal(response.status, 200);
      assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
      assert.equal(await response.text(), cliText);
      // The project's own route is in it, tagged by its API, with its path parameter.
      const featured = cliDocument.paths['/articles/featured/{slug}']!.get!;
      assert.equal(featured.operationId, 'article/get/articles_featured_by_slug');
      assert.deepEqual(featured.tags, ['article']);
      assert.equal((await server.publicApi.get('/api/articles/featured/x')).status, 200);
    });

    it('serves the reference page at /openapi: every operation, nothing from elsewhere', async () => {
      const response = await fetch(`${server.url}/openapi`);
      assert.equal(response.status, 200);
      assert.match(response.headers.get('content-type') ?? '', /^text\/html/);
      assert.match(response.headers.get('content-security-policy') ?? '', /default-src 'none'/);
      const page = await response.text();
      assert.match(page, /<title>openapi-blog: API reference<\/title>/);
      for (const item of Object.values(cliDocument.paths))
        for (const operation of Object.values(item))
          assert.ok(page.includes(String(operation.operationId).replace(/[^A-Za-z0-9_-]/g, '-')));
      assert.doesNotMatch(page, /<script|<link|src="http/);
    });

    it('says what the routes answer: statuses, documents as populated, pagination', async () => {
      const name = unique('openapi');
      const author = await server.api.post('/api/authors', { data: { name } });
      assert.equal(author.status, 201);
      assert.ok(cliDocument.paths['/authors']!.post!.responses['201']);
      const created = await server.api.post('/api/articles', {
        data: {
          title: name,
          featured: true,
          author: author.body.data.documentId,
          seo: { metaTitle: name },
          links: [{ label: 'a', url: 'https://example.com' }],
          blocks: [{ __component: 'shared.quote', title: 'q', body: 'b' }],
        },
      });
      assert.equal(created.status, 201);
      const read = await server.api.get(`/api/articles/${created.body.data.documentId}?populate=*`);
      assert.equal(read.status, 200);
      const article = read.body.data as Json;
      assertDescribed(cliDocument, article, 'ApiArticleArticleDocument', 'article');
      assertDescribed(cliDocument, article.author as Json, 'ApiAuthorAuthorDocument', 'author');
      assertDescribed(cliDocument, article.seo as Json, 'SharedSeoEntry', 'seo');
      const { __component, ...quote } = (article.blocks as Json[])[0]!;
      assert.equal(__component, 'shared.quote');
      assertDescribed(cliDocument, quote, 'SharedQuoteEntry', 'blocks');
      const list = await server.api.get(`/api/articles?filters[title][$eq]=${name}`);
      assert.deepEqual(Object.keys(list.body.meta.pagination).sort(), ['page', 'pageCount', 'pageSize', 'total']);
      const deleted = await server.api.delete(`/api/articles/${created.body.data.documentId}`);
      assert.equal(deleted.status, 204);
      assert.deepEqual(Object.keys(cliDocument.paths['/articles/{id}']!.delete!.responses)[0], '204');
    });
  });
}

describe('OpenAPI, not served', () => {
  let dir: string;
  let server: TestServer;
  before(async () => {
    dir = projectCopy('module.exports = { serve: false };\n');
    server = await startServer(DIALECTS[0]!, { project: dir });
  });
  after(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('config/openapi serve: false leaves /openapi.json and /openapi unserved', async () => {
    assert.equal((await fetch(`${server.url}/openapi.json`)).status, 404);
    assert.equal((await fetch(`${server.url}/openapi`)).status, 404);
  });
});

/** A value the schema takes: its required members only (`$ref` resolved, the first alternative). */
function sample(document: Document, schema: Json | undefined): unknown {
  if (!schema) return null;
  if (typeof schema.$ref === 'string')
    return sample(document, document.components.schemas[schema.$ref.split('/').pop()!]);
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const alternatives = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  if (alternatives)
    return sample(
      document,
      alternatives.find((alternative) => alternative.type !== 'null'),
    );
  if (Array.isArray(schema.allOf))
    return Object.assign({}, ...schema.allOf.map((part) => sample(document, part as Json)));
  const type = [schema.type].flat().find((name) => name !== 'null');
  switch (type) {
    case 'string':
      return schema.format === 'email' ? 'someone@example.com' : 'x';
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object':
      return Object.fromEntries(
        ((schema.required as string[] | undefined) ?? []).map((name) => [
          name,
          sample(document, (schema.properties as Record<string, Json>)[name]),
        ]),
      );
    default:
      return 'x';
  }
}

/** A typed call of each operation: its path parameters, its required query and body. */
function callsOfEveryRoute(document: Document): string[] {
  const calls: string[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const params: Record<string, Json> = {};
      for (const parameter of operation.parameters) {
        if (!parameter.required) continue;
        const place = parameter.in as string;
        params[place] = { ...params[place], [String(parameter.name)]: sample(document, parameter.schema as Json) };
      }
      const init: Json = { params };
      const body = operation.requestBody as
        { required?: boolean; content: Record<string, { schema: Json }> } | undefined;
      if (body?.required) init.body = sample(document, Object.values(body.content)[0]!.schema);
      calls.push(`await call(${JSON.stringify(path)}, ${JSON.stringify(method)}, ${JSON.stringify(init)});`);
    }
  }
  return calls;
}

const CLIENT = `import type { paths } from './schema.js';

type Method = 'get' | 'post' | 'put' | 'delete' | 'patch';
type Params<O> = O extends { parameters: infer P } ? P : never;
type Init<O> = { params: Params<O> } & (O extends { requestBody: { content: infer C } }
  ? { body: C[keyof C] }
  : O extends { requestBody?: { content: infer C } }
    ? { body?: C[keyof C] }
    : object);
type Success<O> = O extends { responses: infer R }
  ? { [S in keyof R & (200 | 201 | 202)]: R[S] extends { content: { 'application/json': infer J } } ? J : never }[keyof R &
      (200 | 201 | 202)]
  : never;
declare function call<P extends keyof paths, M extends Method & keyof paths[P]>(
  path: P,
  method: M,
  init: Init<NonNullable<paths[P][M]>>,
): Promise<Success<NonNullable<paths[P][M]>>>;
`;

/** Calls whose types say something: what a list answers, what a body takes, and what is refused. */
const TYPED_CALLS = `
export async function typed(): Promise<void> {
  const list = await call('/articles', 'get', {
    params: { query: { 'pagination[page]': 1, sort: ['title:desc'], populate: { author: { fields: ['name'] } }, filters: { title: { $eq: 'x' } } } },
  });
  const title: string | null | undefined = list.data[0]?.title;
  const total: number | undefined = 'page' in list.meta.pagination ? list.meta.pagination.total : undefined;
  const created = await call('/articles', 'post', {
    params: {},
    body: { data: { title: 'x', featured: true, tags: ['a-document-id'], seo: { metaTitle: 'm' }, blocks: [{ __component: 'shared.quote', title: 'q' }] } },
  });
  const documentId: string = created.data.documentId;
  const signedIn = await call('/auth/local', 'post', { params: {}, body: { identifier: 'a', password: 'b' } });
  const jwt: string = signedIn.jwt;
  const featured = await call('/articles/featured/{slug}', 'get', { params: { path: { slug: 'x' } } });
  void [title, total, documentId, jwt, featured];
  // @ts-expect-error fields names the type's fields only
  await call('/articles', 'get', { params: { query: { fields: ['nope'] } } });
  // @ts-expect-error a boolean attribute takes a boolean
  await call('/articles', 'post', { params: {}, body: { data: { featured: 'yes' } } });
  // @ts-expect-error no PATCH route
  await call('/articles', 'patch', { params: {} });
  // @ts-expect-error the documentId is a path parameter
  await call('/articles/{id}', 'get', { params: {} });
  // @ts-expect-error sign-in takes an identifier and a password
  await call('/auth/local', 'post', { params: {}, body: { email: 'a' } });
}
`;

describe('OpenAPI client', () => {
  it('openapi-typescript types from the document type-check a call to every route', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vellum-openapi-client-'));
    try {
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'schema.ts'), astToString(await openapiTS(cliDocument as never)));
      const calls = callsOfEveryRoute(cliDocument);
      const operations = Object.values(cliDocument.paths).flatMap((item) => Object.keys(item)).length;
      assert.equal(calls.length, operations);
      writeFileSync(
        join(dir, 'calls.ts'),
        `${CLIENT}\nexport async function everyRoute(): Promise<void> {\n  ${calls.join('\n  ')}\n}\n${TYPED_CALLS}`,
      );
      const program = ts.createProgram([join(dir, 'calls.ts')], {
        strict: true,
        noEmit: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.ESNext,
        moduleResolution: ts.ModuleResolutionKind.Bundler,
        lib: ['lib.es2022.d.ts'],
        types: [],
        skipLibCheck: true,
      });
      const diagnostics = ts.getPreEmitDiagnostics(program).map((diagnostic) => {
        const where = diagnostic.file?.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
        const line = where ? diagnostic.file!.text.split('\n')[where.line] : '';
        return `${diagnostic.file?.fileName}:${(where?.line ?? 0) + 1}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}\n  ${line}`;
      });
      assert.deepEqual(diagnostics, []);
    } finally {
      if (!process.env.KEEP) rmSync(dir, { recursive: true, force: true });
    }
  });
});
