/**
 * Any project Strapi 5 starts on, Vellum starts on: Strapi's own TypeScript templates
 * (test/fixtures/strapi-ts-project, shaped after Strapi's LaunchPad demo), and schemas with the
 * oddities Strapi accepts (test/fixtures/strapi-odd-schemas). What Vellum cannot honour is left
 * out with one warning line naming the file and the attribute.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createVellum } from '../../src/app/server.js';
import { createTestDatabase } from '../helpers/databases.js';
import { graphql } from '../helpers/graphql.js';
import { HttpClient } from '../helpers/http.js';
import { DIALECTS, fixture, fullAccessHeaders, startServer, type TestServer } from '../helpers/server.js';
import { png, upload } from '../helpers/uploads.js';

const TS_PROJECT = fixture('strapi-ts-project');
const ODD = fixture('strapi-odd-schemas');
const STARTUP = fixture('strapi-startup');

const unique = (label: string) => `${label}-${randomUUID().slice(0, 8)}`;

/** Starts a project with only `env` (no database override), as `vellum start` would; returns a client and a stop. */
async function startPlain(project: string, env: NodeJS.ProcessEnv) {
  const vellum = await createVellum(project, { env, overrides: { server: { host: '127.0.0.1', port: 0 } } });
  const url = await vellum.listen();
  const api = new HttpClient(url, await fullAccessHeaders(vellum));
  return { vellum, api, close: () => vellum.close() };
}

for (const dialect of DIALECTS) {
  describe(`a Strapi TypeScript project with Strapi's default config files [${dialect}]`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect, { project: TS_PROJECT });
    });
    after(() => server?.close());

    it('starts without a warning and serves its types, components, zones and relations', async () => {
      // Its routers, controllers and services run (Vellum's own @strapi/strapi); only the test's probe plugin is not Vellum's.
      assert.deepEqual(server.vellum.warnings, [
        'config/plugins: "probe" is not a plugin Vellum has (it serves users-permissions, upload, i18n, graphql, email); its configuration is ignored',
      ]);
      assert.deepEqual(server.vellum.skippedCode, []);
      // src/index.ts imports ./utils/locales (TypeScript importing TypeScript), as config/server.ts imports ./cron-tasks.
      assert.deepEqual((globalThis as Record<string, unknown>).__strapiTsProjectLocales, ['en', 'fr']);
      const name = unique('launch');
      const product = await server.api.post('/api/products', {
        data: {
          name,
          price: 10,
          perks: [{ text: 'fast' }],
          dynamic_zone: [
            { __component: 'dynamic-zone.cta', heading: 'Buy', CTAs: [{ text: 'Go', URL: '/go', target: '_blank' }] },
          ],
        },
      });
      assert.equal(product.status, 201, product.text);
      const plan = await server.api.post('/api/plans', {
        data: { name: `${name}-plan`, price: 5, CTA: { text: 'Pick' }, product: product.body.data.documentId },
      });
      assert.equal(plan.status, 201, plan.text);
      const category = await server.api.post('/api/categories', {
        data: { name: `${name}-cat`, product: product.body.data.documentId },
      });
      assert.equal(category.status, 201, category.text);

      const read = await server.api.get(`/api/products/${product.body.data.documentId}?populate=*`);
      assert.equal(read.status, 200, read.text);
      const data = read.body.data;
      assert.equal(data.slug, name, 'uid generated from targetField');
      assert.deepEqual(
        data.plans.map((p: { name: string }) => p.name),
        [`${name}-plan`],
      );
      assert.deepEqual(
        data.categories.map((c: { name: string }) => c.name),
        [`${name}-cat`],
      );
      assert.equal(data.dynamic_zone[0].__component, 'dynamic-zone.cta');
      assert.equal(data.featured, false);
      const planRead = await server.api.get(`/api/plans/${plan.body.data.documentId}?populate=CTA`);
      assert.equal(planRead.body.data.CTA.variant, 'primary', 'component default');
    });

    it('require.resolve in config/*.ts answers a plain path, and __dirname is the built dist/config', async () => {
      const probe = (server.vellum.config.plugins.probe as { config: Record<string, string> }).config;
      assert.ok(!probe.graphqlPackage!.includes('?'), probe.graphqlPackage);
      assert.ok(existsSync(probe.graphqlPackage!), probe.graphqlPackage);
      assert.equal(probe.configDir, join(TS_PROJECT, 'dist', 'config'));
      assert.equal(probe.cwdRelative, 'plugins.js');
    });

    it('an upload provider named by require.resolve in config/plugins.ts is loaded', async () => {
      const res = await upload(server, [{ name: `${unique('cover')}.png`, bytes: await png(40, 30) }]);
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.match(res.body[0].url, /^https:\/\/cdn\.example\.com\//);
    });
  });

  describe(`a project extending the users-permissions user, with its own REST prefix [${dialect}]`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect, { project: fixture('strapi-users-extension') });
    });
    after(() => server?.close());

    it("registers users with the extension's fields and relates orders to them", async () => {
      assert.deepEqual(server.vellum.warnings, []);
      const username = unique('ann');
      const registered = await server.publicApi.post('/v1/auth/local/register', {
        username,
        email: `${username}@example.com`,
        password: 'secret123',
        fullName: 'Ann A',
      });
      assert.equal(registered.status, 200, registered.text);
      assert.equal(registered.body.user.fullName, 'Ann A');
      const user = registered.body.user;
      const order = await server.api.post('/v1/orders', {
        data: {
          total: 12.5,
          user: user.documentId,
          lines: [{ sku: 'A1', price: 2.5 }],
          shipping: { city: 'Paris', zip: '75001' },
        },
      });
      assert.equal(order.status, 201, order.text);
      assert.equal(order.body.data.status, 'pending');
      const read = await server.api.get(`/v1/orders/${order.body.data.documentId}?populate=*`);
      assert.equal(read.body.data.user.fullName, 'Ann A');
      assert.equal(read.body.data.lines[0].quantity, 1, 'component default');
      assert.equal(read.body.data.shipping.city, 'Paris');
      const badZip = await server.api.post('/v1/orders', { data: { shipping: { city: 'Paris', zip: 'lower case' } } });
      assert.equal(badZip.status, 400, badZip.text);
      const review = await server.api.post('/v1/reviews', { data: { rating: 6, author: user.documentId } });
      assert.equal(review.status, 400, 'max 5');
      assert.equal((await server.api.get('/api/orders')).status, 404, 'the prefix is /v1');
      const page = await server.api.get('/v1/orders?pagination[pageSize]=60');
      assert.equal(page.body.meta.pagination.pageSize, 50, 'maxLimit');
    });

    it('config/middlewares as Strapi projects write it: a raised JSON limit, CORS origins, CSP sources', async () => {
      const big = await server.api.post('/v1/orders', { data: { reference: 'x'.repeat(2 * 1024 * 1024) } });
      assert.notEqual(big.status, 413, 'strapi::body jsonLimit 4mb');
      const tooBig = await server.api.post('/v1/orders', { data: { reference: 'x'.repeat(5 * 1024 * 1024) } });
      assert.equal(tooBig.status, 413);
      const preflight = await fetch(`${server.url}/v1/orders`, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://shop.example.com',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'x-custom',
        },
      });
      assert.equal(preflight.headers.get('access-control-allow-origin'), 'https://shop.example.com');
      const list = await server.api.get('/v1/orders');
      assert.match(list.headers.get('content-security-policy') ?? '', /img-src[^;]*res\.cloudinary\.com/);
    });

    it('landingPage: false turns the playground off', async () => {
      const response = await fetch(`${server.url}/graphql`, { headers: { accept: 'text/html' } });
      assert.doesNotMatch(await response.text(), /graphiql/i);
    });
  });

  describe(`Strapi's default config/database.ts [${dialect}]`, () => {
    // The template joins __dirname with '..', '..': it is written for dist/config.
    it('puts the database where the template means it', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'vellum-strapi-project-'));
      const project = join(dir, 'project');
      mkdirSync(join(project, 'config'), { recursive: true });
      cpSync(join(TS_PROJECT, 'src'), join(project, 'src'), { recursive: true });
      cpSync(join(TS_PROJECT, 'config', 'database.ts'), join(project, 'config', 'database.ts'));
      const database = dialect === 'sqlite' ? undefined : await createTestDatabase(dialect);
      try {
        let env: NodeJS.ProcessEnv = { NODE_ENV: 'test' };
        if (dialect === 'postgres') {
          const connection = (
            database!.config.connection as { connection: Record<string, string | number | undefined> }
          ).connection;
          env = {
            ...env,
            DATABASE_CLIENT: 'postgres',
            DATABASE_HOST: String(connection.host),
            DATABASE_PORT: String(connection.port),
            DATABASE_NAME: String(connection.database),
            DATABASE_USERNAME: String(connection.user),
            DATABASE_PASSWORD: connection.password === undefined ? undefined : String(connection.password),
            DATABASE_SCHEMA: String(connection.schema),
          };
        }
        if (dialect === 'mysql') {
          // The template's MySQL password defaults to "strapi": an empty DATABASE_PASSWORD is
          // another change's; here the template is loaded and its connection replaced.
          const server = await startServer(dialect, { project });
          try {
            assert.equal((await server.api.get('/api/products')).status, 200);
          } finally {
            await server.close();
          }
          return;
        }
        const node = await startPlain(project, env);
        try {
          const name = unique('placed');
          assert.equal((await node.api.post('/api/categories', { data: { name } })).status, 201);
          assert.equal((await node.api.get(`/api/categories?filters[name]=${name}`)).body.data.length, 1);
          if (dialect === 'sqlite') {
            assert.equal(
              node.vellum.config.database.client === 'sqlite' && node.vellum.config.database.filename,
              join(project, '.tmp', 'data.db'),
            );
            assert.ok(existsSync(join(project, '.tmp', 'data.db')), "the file is in the project's .tmp/");
            assert.ok(!existsSync(join(dir, '.tmp')), 'nothing beside the project');
          } else {
            assert.equal(node.vellum.config.database.client, 'postgres');
          }
        } finally {
          await node.close();
        }
      } finally {
        await database?.drop();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });

  describe(`a project's .env and config/ files [${dialect}]`, () => {
    let server: TestServer;
    before(async () => {
      // The project's .env sets STARTUP_* too; the environment's values win (test/differential/startup.diff.ts).
      server = await startServer(dialect, {
        project: STARTUP,
        env: { NODE_ENV: 'test', STARTUP_BOTH: 'from the environment', STARTUP_EMPTY: '' },
      });
    });
    after(() => server?.close());

    it(".env is read before the configuration (the environment winning), and config/custom.js is strapi.config.get('custom')", async () => {
      const probe = await server.publicApi.get('/api/startup-probe/config');
      assert.equal(probe.status, 200, probe.text);
      const custom = {
        greeting: 'hello from config/custom.js',
        fromDotenv: 'from .env',
        both: 'from the environment',
        empty: '',
        quoted: '{\\"a\\": \\"b # c\\"}',
        list: [1, 2],
      };
      assert.deepEqual(probe.body, { custom, greeting: custom.greeting, has: true, missing: 'fallback' });
    });
  });

  describe(`schemas Strapi starts on [${dialect}]`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect, { project: ODD });
    });
    after(() => server?.close());

    it('starts, with one line per thing it does not honour, naming the file and the attribute', () => {
      const warnings = server.vellum.warnings;
      const expect = (file: string, attribute: string, fragment: RegExp) => {
        const line = warnings.find((w) => w.startsWith(`${file}: attribute "${attribute}"`));
        assert.ok(line, `a warning for ${file} ${attribute} in:\n${warnings.join('\n')}`);
        assert.match(line, fragment);
        assert.ok(!line.includes('\n'), 'one line');
      };
      const schema = (api: string) => `src/api/${api}/content-types/${api}/schema.json`;
      expect(schema('left'), 'rights', /mappedBy "left", which api::right\.right does not declare; it is left out/);
      expect(schema('memo'), 'owner', /admin::user.*left out/);
      expect(schema('memo'), 'language', /plugin::i18n\.locale.*left out/);
      expect(schema('memo'), 'attachedTo', /polymorphic.*left out/);
      expect(schema('memo'), 'locale', /left out/);
      expect('src/components/bits/bit.json', 'reviewer', /admin::user.*left out/);
      expect(schema('ticket'), 'status', /draft and publish/);
      expect(schema('note'), 'localizations', /left out/);
      expect(schema('gadget'), 'size', /"medium".*ignored/);
      expect(schema('gadget'), 'code', /invalid regex/);
      expect(schema('gadget'), 'slug', /targetField "title"/);
      assert.ok(
        warnings.some((w) => w.startsWith(`${schema('user')}: api::user.user is served at /users`)),
        warnings.join('\n'),
      );
      assert.equal(warnings.length, 12, warnings.join('\n'));
    });

    it('an attribute named status on a type without draft and publish is an ordinary attribute', async () => {
      const title = unique('note');
      const created = await server.api.post('/api/notes', { data: { title, meta: { a: 1 }, _internal: 'x' } });
      assert.equal(created.status, 201, created.text);
      assert.equal(created.body.data.status, 'open', 'its default');
      assert.deepEqual(created.body.data.meta, { a: 1 });
      assert.equal(created.body.data._internal, 'x');
      const closed = await server.api.post('/api/notes', { data: { title: `${title}-b`, status: 'closed' } });
      assert.equal(closed.body.data.status, 'closed');
      const filtered = await server.api.get(
        `/api/notes?filters[title][$startsWith]=${title}&filters[status][$eq]=closed`,
      );
      assert.deepEqual(
        filtered.body.data.map((n: { title: string }) => n.title),
        [`${title}-b`],
      );
      const sorted = await server.api.get(`/api/notes?filters[title][$startsWith]=${title}&sort=status:desc`);
      assert.deepEqual(
        sorted.body.data.map((n: { status: string }) => n.status),
        ['open', 'closed'],
      );
      const invalid = await server.api.post('/api/notes', { data: { title: `${title}-c`, status: 'shut' } });
      assert.equal(invalid.status, 400);
      const gql = await graphql(
        server,
        `
          query ($t: String) {
            notes(filters: { title: { startsWith: $t }, status: { eq: "closed" } }) {
              data {
                attributes {
                  title
                  status
                }
              }
            }
          }
        `,
        { t: title },
      );
      assert.deepEqual(gql.body.errors, undefined);
      assert.deepEqual(
        gql.body.data.notes.data.map((n: { attributes: { status: string } }) => n.attributes.status),
        ['closed'],
      );
    });

    it('with draft and publish, ?status= stays the publication state and data.status the attribute', async () => {
      const subject = unique('ticket');
      const draft = await server.api.post('/api/tickets?status=draft', { data: { subject, status: 'waiting' } });
      assert.equal(draft.status, 201, draft.text);
      assert.equal(draft.body.data.status, 'waiting');
      assert.equal(draft.body.data.publishedAt, null);
      const published = await server.api.get(`/api/tickets?filters[subject]=${subject}`);
      assert.equal(published.body.data.length, 0, 'not published');
      const drafts = await server.api.get(
        `/api/tickets?status=draft&filters[subject]=${subject}&filters[status]=waiting`,
      );
      assert.equal(drafts.body.data.length, 1);
    });

    it('a type whose mappedBy names nothing on the other side works without that attribute', async () => {
      const right = await server.api.post('/api/rights', { data: { name: unique('right') } });
      const name = unique('left');
      const created = await server.api.post('/api/lefts', {
        data: { name, partners: [right.body.data.documentId], buddy: right.body.data.documentId },
      });
      assert.equal(created.status, 201, created.text);
      const read = await server.api.get(`/api/lefts/${created.body.data.documentId}?populate=*`);
      assert.equal(read.status, 200, read.text);
      assert.deepEqual(
        Object.keys(read.body.data)
          .filter((k) => ['rights', 'partners', 'buddy'].includes(k))
          .sort(),
        ['buddy', 'partners'],
      );
      assert.equal(read.body.data.partners.length, 1);
      const pal = await server.api.get(`/api/rights/${right.body.data.documentId}?populate=pal`);
      assert.equal(pal.body.data.pal.name, name, 'the other relation keeps both sides');
      const refused = await server.api.post('/api/lefts', { data: { name: `${name}-x`, rights: [] } });
      assert.equal(refused.status, 400, 'a left-out attribute is an unknown key');
    });

    it("relations to Strapi's own types and polymorphic ones are left out; the rest of the type works", async () => {
      const title = unique('memo');
      const created = await server.api.post('/api/memos', { data: { title, bits: [{ label: 'b', locale: 'fr' }] } });
      assert.equal(created.status, 201, created.text);
      const read = await server.api.get(`/api/memos/${created.body.data.documentId}?populate=*`);
      assert.equal(read.status, 200, read.text);
      assert.deepEqual(
        read.body.data.bits.map((b: { label: string; locale: string }) => [b.label, b.locale]),
        [['b', 'fr']],
      );
      for (const key of ['owner', 'language', 'attachedTo', 'createdBy']) assert.ok(!(key in read.body.data), key);
      assert.equal(typeof read.body.data.createdAt, 'string', "the engine's own timestamp");
      assert.equal((await server.api.post('/api/memos', { data: { title, owner: 1 } })).status, 400);
      // A front end populating them is answered without them, as Strapi's content API does.
      for (const query of [
        'populate[owner]=true',
        'populate=owner',
        'populate[owner][fields][0]=firstname',
        'populate[bits][populate][reviewer]=true',
      ]) {
        const populated = await server.api.get(`/api/memos/${created.body.data.documentId}?${query}`);
        assert.equal(populated.status, 200, `${query}: ${populated.text}`);
        assert.ok(!('owner' in populated.body.data) && !('createdBy' in populated.body.data), query);
      }
    });

    it("types named user, file and role are the project's, at /api/users, /api/files and /api/roles", async () => {
      for (const plural of ['users', 'files', 'roles']) {
        const name = unique(plural);
        const created = await server.api.post(`/api/${plural}`, { data: { name } });
        assert.equal(created.status, 201, `${plural}: ${created.text}`);
        const listed = await server.api.get(`/api/${plural}?filters[name]=${name}`);
        assert.deepEqual(
          listed.body.data.map((d: { name: string }) => d.name),
          [name],
          plural,
        );
      }
      // users-permissions' routes under /users give way, as in Strapi; logging in still works.
      assert.equal((await server.api.get('/api/users/count')).status, 404);
      const username = unique('bob');
      const registered = await server.publicApi.post('/api/auth/local/register', {
        username,
        email: `${username}@example.com`,
        password: 'secret123',
      });
      assert.equal(registered.status, 200, registered.text);
    });

    it('loose attribute options Strapi accepts: numbers as strings, null options, no kind', async () => {
      const name = unique('gadget');
      const created = await server.api.post('/api/gadgets', { data: { name, level: 3, code: '[a-', zone: [] } });
      assert.equal(created.status, 201, created.text);
      assert.equal(created.body.data.size, null, 'the invalid default is not applied');
      assert.equal(created.body.data.slug, null);
      assert.equal(created.body.data.retiredAt, null);
      const tooHigh = await server.api.post('/api/gadgets', { data: { name: `${name}-b`, level: 11 } });
      assert.equal(tooHigh.status, 400, '"max": "10" is 10');
      const tooLong = await server.api.post('/api/gadgets', { data: { name: 'x'.repeat(41) } });
      assert.equal(tooLong.status, 400, '"maxLength": "40" is 40');
      const zoned = await server.api.post('/api/gadgets', {
        data: { name: `${name}-c`, zone: [{ __component: 'bits.bit', label: 'no' }] },
      });
      assert.equal(zoned.status, 400, 'an empty zone accepts no component');
    });
  });
}
