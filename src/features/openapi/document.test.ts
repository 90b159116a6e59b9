import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { builtInTypes } from '../../app/built-ins.js';
import type { VellumConfig } from '../../core/config/load.js';
import { loadProjectSchema } from '../../core/schema/load.js';
import { BLOG, ROOT } from '../../../test/helpers/paths.js';
import { contentRoutes } from './content.js';
import { openApiDocument, type DescribedRoute } from './document.js';
import { openApiServed } from './index.js';
import { referencePage } from './page.js';
import { pluginRoutes } from './plugins.js';
import { operationId, schemaName, type Operation } from './spec.js';

const { schema } = loadProjectSchema(BLOG, builtInTypes(BLOG));

/** What a node without routers of its own registers for the blog (the integration test reads a real node's). */
function blogRoutes(): DescribedRoute[] {
  const url = (key: string) => ({ method: key.split(' ')[0]!, path: key.split(' ')[1]! });
  const routes: DescribedRoute[] = [];
  const add = (key: string, path: string) =>
    routes.push({ method: url(key).method, url: `/api${path.replace(/\{(\w+)\}/g, ':$1')}` });
  for (const type of schema.contentTypes.values())
    if (!type.builtIn) for (const [key, { path }] of contentRoutes(type)) add(key, path);
  for (const [key, { path }] of pluginRoutes(schema)) add(key, path);
  return routes;
}

const input = (routes: DescribedRoute[] = blogRoutes()) => ({
  schema,
  routes,
  prefix: '/api',
  info: { name: 'blog', version: '1.2.3' },
  serverUrl: '',
});

const operations = (document: ReturnType<typeof openApiDocument>) =>
  new Map(
    Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]) => [`${method.toUpperCase()} ${path}`, operation as Operation]),
    ),
  );

/** Strapi 5.54's document of the blog (test/fixtures/openapi/strapi-blog.json, from `strapi openapi generate`). */
const strapi = JSON.parse(readFileSync(`${ROOT}/test/fixtures/openapi/strapi-blog.json`, 'utf8')) as {
  operations: [string, string, string, string, string][];
  schemas: string[];
};

/** Strapi's operations Vellum does not serve (docs/openapi.md "Differences from Strapi's document"). */
const NOT_SERVED = new Set([
  // Upload's paged list (Vellum's content API lists files as a plain array).
  'GET /upload/files/page',
  // Served as /connect/{provider} and /connect/{provider}/callback.
  'GET /connect/(.*)',
]);

/** Parameters Vellum's routes take that Strapi's document leaves out (its routes take them too). */
const MORE_PARAMETERS: Record<string, string> = {
  'GET /auth/{provider}/callback': 'provider access_token',
  'GET /auth/email-confirmation': 'confirmation',
  'DELETE /auth/sessions/{sessionId}': 'sessionId',
};

describe('the OpenAPI document', () => {
  it("names schemas and operations as Strapi 5.54's @strapi/openapi does", () => {
    assert.equal(schemaName('api::category.category'), 'ApiCategoryCategoryDocument');
    assert.equal(schemaName('plugin::users-permissions.user'), 'PluginUsersPermissionsUserDocument');
    assert.equal(schemaName('shared.rich-text'), 'SharedRichTextEntry');
    assert.equal(operationId('article', 'GET', '/articles/:id'), 'article/get/articles_by_id');
    assert.equal(operationId('users-permissions', 'GET', '/connect/(.*)'), 'users-permissions/get/connect_____');
    assert.equal(operationId(undefined, 'GET', '/'), 'get');
    // Strapi's global regular expression reads a parameter right after another as a word.
    assert.equal(operationId('a', 'GET', '/a/:x/:y'), 'a/get/a_by_x__y');
  });

  it('is valid OpenAPI 3.1 (a maintained validator, every $ref resolved)', async () => {
    const validator = new Validator();
    const result = await validator.validate({ ...openApiDocument(input()) });
    assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2));
    assert.equal(validator.version, '3.1');
    const broken = openApiDocument(input());
    broken.paths['/articles']!.get!.responses['200'] = {
      description: 'OK',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Nope' } } },
    };
    assert.equal((await new Validator().validate({ ...broken })).valid, false);
  });

  it("has Strapi's paths, operation ids, tags, parameters and schema names for the blog, where Vellum serves the route", () => {
    const document = openApiDocument(input());
    const ours = operations(document);
    for (const [method, path, id, tag, parameters] of strapi.operations) {
      const key = `${method} ${path}`;
      if (NOT_SERVED.has(key)) {
        assert.equal(ours.has(key), false, key);
        continue;
      }
      const operation = ours.get(key);
      const names = operation?.parameters.map((parameter) => parameter.name).join(' ');
      assert.deepEqual(
        [operation?.operationId, operation?.tags, names],
        [id, [tag], MORE_PARAMETERS[key] ?? parameters],
        key,
      );
    }
    for (const name of strapi.schemas) assert.ok(document.components.schemas[name], name);
    // Vellum's own: the publication actions and the two /connect paths.
    assert.equal(
      ours.get('POST /articles/{id}/actions/publish')?.operationId,
      'article/post/articles_by_id_actions_publish',
    );
    assert.equal(
      ours.get('GET /connect/{provider}/callback')?.operationId,
      'users-permissions/get/connect_by_provider_callback',
    );
  });

  it('answers what the routes answer: 201 on a create, 204 without body on a delete, meta.pagination on a list', () => {
    const ours = operations(openApiDocument(input()));
    assert.deepEqual(Object.keys(ours.get('POST /articles')!.responses).slice(0, 1), ['201']);
    assert.deepEqual(ours.get('DELETE /articles/{id}')!.responses['204'], { description: 'Deleted (no body)' });
    const list = ours.get('GET /articles')!.responses['200']!.content!['application/json']!.schema;
    assert.deepEqual((list.properties as Record<string, unknown>).meta, {
      type: 'object',
      properties: { pagination: { $ref: '#/components/schemas/Pagination' } },
      required: ['pagination'],
    });
    assert.equal(ours.get('POST /users')!.responses['201']?.description, 'Created');
    assert.ok(ours.get('GET /connect/{provider}')!.responses['302']);
  });

  it('describes documents as answered: only id and documentId always there, nullable attributes, entries with their id', () => {
    const { schemas } = openApiDocument(input()).components;
    const article = schemas.ApiArticleArticleDocument as { properties: Record<string, unknown>; required: string[] };
    assert.deepEqual(article.required, ['id', 'documentId']);
    assert.deepEqual(article.properties.featured, { type: ['boolean', 'null'] });
    assert.deepEqual(article.properties.author, {
      anyOf: [{ $ref: '#/components/schemas/ApiAuthorAuthorDocument' }, { type: 'null' }],
    });
    assert.deepEqual(Object.keys(article.properties).slice(-5), [
      'createdAt',
      'updatedAt',
      'publishedAt',
      'locale',
      'localizations',
    ]);
    assert.deepEqual((schemas.SharedSeoEntry as { required: string[] }).required, ['id']);
    // Private and password attributes are never answered.
    const user = schemas.PluginUsersPermissionsUserDocument as { properties: Record<string, unknown> };
    assert.equal('password' in user.properties, false);
    assert.equal('resetPasswordToken' in user.properties, false);
    // Bodies: a boolean is a boolean (Strapi's document says a string of "0", "1", "t", ...).
    const body = schemas.ApiArticleArticleDocumentInput as {
      properties: Record<string, unknown>;
      description: string;
    };
    assert.deepEqual(body.properties.featured, { type: ['boolean', 'null'] });
    assert.equal(body.description, 'Required to publish (or on a new entry): title');
    assert.equal('publishedAt' in body.properties, false);
  });

  it('describes a project route by its path, tagged by its origin; ignores HEAD, admin and other prefixes', () => {
    const routes: DescribedRoute[] = [
      { method: 'GET', url: '/api/articles/featured/:slug(^[a-z-]+$)', origin: 'article' },
      { method: 'HEAD', url: '/api/articles/featured/:slug(^[a-z-]+$)', origin: 'article' },
      { method: 'POST', url: '/api/reports/run' },
      { method: 'GET', url: '/admin/users' },
      { method: 'GET', url: '/apix' },
    ];
    const ours = operations(openApiDocument(input(routes)));
    assert.deepEqual([...ours.keys()], ['GET /articles/featured/{slug}', 'POST /reports/run']);
    const featured = ours.get('GET /articles/featured/{slug}')!;
    assert.equal(featured.operationId, 'article/get/articles_featured_by_slug');
    assert.deepEqual(featured.tags, ['article']);
    assert.deepEqual(featured.parameters, [{ name: 'slug', in: 'path', required: true, schema: { type: 'string' } }]);
    assert.equal(ours.get('POST /reports/run')!.operationId, 'post/reports_run');
  });

  it("puts the REST prefix in servers (Strapi's default server misses it), or config/openapi's", () => {
    assert.deepEqual(openApiDocument(input()).servers, [{ url: '/api', description: 'Default server' }]);
    const absolute = openApiDocument({ ...input(), serverUrl: 'https://cms.example.com/' });
    assert.equal(absolute.servers[0]!.url, 'https://cms.example.com/api');
    const configured = openApiDocument({ ...input(), config: { servers: [{ url: 'https://x.test/api' }] } });
    assert.deepEqual(configured.servers, [{ url: 'https://x.test/api' }]);
    assert.deepEqual(openApiDocument(input()).info, {
      title: 'blog',
      description: 'API documentation for blog v1.2.3',
      version: '1.2.3',
    });
  });

  it('is served outside production unless config/openapi says otherwise', () => {
    const config = (environment: string, openapi?: unknown) =>
      ({ environment, custom: openapi === undefined ? {} : { openapi } }) as unknown as VellumConfig;
    assert.equal(openApiServed(config('development')), true);
    assert.equal(openApiServed(config('production')), false);
    assert.equal(openApiServed(config('production', { serve: true })), true);
    assert.equal(openApiServed(config('development', { serve: false })), false);
  });

  it('renders a reference page with every operation and schema, no script, escaped', () => {
    const document = openApiDocument(input());
    const page = referencePage(document, '/openapi.json');
    for (const operation of operations(document).values())
      assert.ok(page.includes(`id="op-${operation.operationId.replace(/[^A-Za-z0-9_-]/g, '-')}"`));
    for (const name of Object.keys(document.components.schemas)) assert.ok(page.includes(`id="schema-${name}"`), name);
    assert.doesNotMatch(page, /<script|https?:\/\//);
    const hostile = openApiDocument({ ...input(), info: { name: '<img src=x>', version: '1' } });
    assert.doesNotMatch(referencePage(hostile, '/openapi.json'), /<img/);
  });
});
