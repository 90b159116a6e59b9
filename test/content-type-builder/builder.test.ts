/**
 * The Content-Type Builder's admin API (docs/content-type-builder.md), on every dialect: its reads
 * answer as Strapi 5.54's did for the blog (test/fixtures/content-type-builder/strapi-reads.json,
 * taken from Strapi), its refusals with Strapi's messages (strapi-refusals.json), and a sequence of
 * four batches (create every attribute and relation kind, edit, delete components and types)
 * leaves the project's files byte for byte as Strapi's builder left them (strapi-files.json), while
 * the content API serves each step at once. Outside `vellum develop` every write is refused.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { registerFirstAdmin } from '../helpers/admins.js';
import { openDevelopProject, schemaApplied } from '../helpers/develop.js';
import { HttpClient } from '../helpers/http.js';
import { projectFiles } from '../helpers/projects.js';
import { BLOG, DIALECTS, startServer, type TestServer } from '../helpers/server.js';

const FIXTURES = new URL('../fixtures/content-type-builder/', import.meta.url);
const json = (name: string) => JSON.parse(readFileSync(new URL(name, FIXTURES), 'utf8'));
const batches = json('batches.json') as { name: string; body: unknown }[];
const strapiFiles = json('strapi-files.json') as { name: string; files: Record<string, string>; removed: string[] }[];
const strapiReads = json('strapi-reads.json');
const legacySteps = json('strapi-legacy.json') as {
  method: string;
  path: string;
  body?: unknown;
  answer: { status: number; body: unknown };
  files: Record<string, string>;
  removed: string[];
}[];
const refusals = json('strapi-refusals.json') as { name: string; body: unknown; status: number; answer: unknown }[];

/** What differs from the blog example: changed and new files, removed ones. */
function changesFrom(blog: Record<string, string>, now: Record<string, string>) {
  return {
    files: Object.fromEntries(
      Object.entries(now)
        .filter(([file, text]) => blog[file] !== text)
        .sort(([a], [b]) => (a < b ? -1 : 1)),
    ),
    removed: Object.keys(blog)
      .filter((file) => !(file in now))
      .sort(),
  };
}

/** An administrator's Authorization header, for requests sent as is. */
const authorization = (admin: HttpClient): string => admin.defaultHeaders.authorization!;

/** The blog example's files, as every project starts. */
const blog = projectFiles(BLOG);

for (const dialect of DIALECTS) {
  describe(`Content-Type Builder under vellum develop [${dialect}]`, () => {
    const project = openDevelopProject(dialect);

    it("answers the reads as Strapi's builder does", async () => {
      const schema = (await project.admin.get('/content-type-builder/schema')).body.data;
      for (const [uid, expected] of Object.entries(strapiReads.schema.contentTypes))
        assert.deepEqual(schema.contentTypes[uid], expected, uid);
      assert.deepEqual(schema.components, strapiReads.schema.components);
      const list = (await project.admin.get('/content-type-builder/content-types')).body.data as { uid: string }[];
      for (const expected of strapiReads.contentTypes as { uid: string }[])
        assert.deepEqual(
          list.find((type) => type.uid === expected.uid),
          expected,
        );
      assert.deepEqual(
        (await project.admin.get('/content-type-builder/content-types?kind=singleType')).body.data.map(
          (type: { uid: string }) => type.uid,
        ),
        ['api::global.global'],
      );
      assert.deepEqual(
        (await project.admin.get('/content-type-builder/content-types/api::article.article')).body,
        strapiReads.article,
      );
      // Strapi lists them in its loading order (reverse file names here); the order is no contract.
      const byUid = (list: { uid: string }[]) => [...list].sort((a, b) => (a.uid < b.uid ? -1 : 1));
      assert.deepEqual(
        byUid((await project.admin.get('/content-type-builder/components')).body.data),
        byUid(strapiReads.components.data),
      );
      assert.deepEqual(
        (await project.admin.get('/content-type-builder/reserved-names')).body,
        strapiReads.reservedNames,
      );
      const bad = await project.admin.get('/content-type-builder/content-types?kind=bad');
      assert.equal(bad.status, 400);
      assert.deepEqual(bad.body, strapiReads.badKind);
      for (const path of ['content-types/plugin::upload.file', 'content-types/api::nope.nope']) {
        const missing = await project.admin.get(`/content-type-builder/${path}`);
        assert.deepEqual([missing.status, missing.body], [404, { error: 'contentType.notFound' }], path);
      }
      const component = await project.admin.get('/content-type-builder/components/shared.nope');
      assert.deepEqual([component.status, component.body], [404, { error: 'component.notFound' }]);
      const anonymous = await new HttpClient(project.dev.url).get('/content-type-builder/schema');
      assert.equal(anonymous.status, 401);
      // A content API token is no administrator.
      assert.equal((await project.api.get('/content-type-builder/schema')).status, 401);
    });

    it('refuses what Strapi refuses, with its messages, and writes nothing', async () => {
      for (const refusal of refusals) {
        const answer = await fetch(`${project.dev.url}/content-type-builder/update-schema`, {
          method: 'POST',
          headers: { authorization: authorization(project.admin), 'content-type': 'application/json' },
          body: refusal.body === null ? undefined : JSON.stringify(refusal.body),
        });
        assert.deepEqual([answer.status, await answer.json()], [refusal.status, refusal.answer], refusal.name);
      }
      assert.deepEqual(projectFiles(project.dir), blog);
    });

    it('refuses a batch that would leave a schema that does not load, or a column type the data would not survive', async () => {
      const zone = await project.admin.post('/content-type-builder/update-schema', {
        data: {
          contentTypes: [
            {
              action: 'update',
              uid: 'api::global.global',
              kind: 'singleType',
              displayName: 'Global',
              draftAndPublish: false,
              attributes: [
                { action: 'create', name: 'parts', properties: { type: 'dynamiczone', components: ['shared.nope'] } },
              ],
            },
          ],
        },
      });
      assert.equal(zone.status, 400);
      assert.match(zone.body.error, /shared\.nope/);
      assert.deepEqual(projectFiles(project.dir), blog);
      // A column whose stored values the new type would not keep: the next start would refuse it.
      const retyped = await project.admin.post('/content-type-builder/update-schema', {
        data: {
          contentTypes: [
            {
              action: 'update',
              uid: 'api::tag.tag',
              kind: 'collectionType',
              displayName: 'Tag',
              draftAndPublish: false,
              attributes: [{ action: 'update', name: 'name', properties: { type: 'integer' } }],
            },
          ],
        },
      });
      assert.equal(retyped.status, 400);
      assert.match(retyped.body.error, /tags\.name is stored as string and the schema now asks for integer/);
      assert.deepEqual(projectFiles(project.dir), blog);
      assert.equal((await project.admin.get('/content-type-builder/update-schema-status')).body.data.isUpdating, false);
    });

    it("applies a sequence of batches as Strapi's builder writes them, each served at once", async () => {
      for (const [step, batch] of batches.entries()) {
        const answer = await project.admin.post('/content-type-builder/update-schema', batch.body);
        assert.deepEqual([answer.status, answer.body], [200, {}], batch.name);
        await schemaApplied(project.admin);
        assert.deepEqual(
          changesFrom(blog, projectFiles(project.dir)),
          { files: strapiFiles[step]!.files, removed: strapiFiles[step]!.removed },
          batch.name,
        );

        if (step === 0) {
          // The new types are served: documents with components, a zone and relations.
          const author = await project.api.post('/api/authors', { data: { name: 'Chef' } });
          const created = await project.api.post('/api/dishes', {
            data: {
              title: 'Soup',
              course: 'starter',
              servings: 4,
              station: { name: 'Stove', tools: [{ label: 'Pot' }] },
              sections: [{ __component: 'kitchen.tool', label: 'Ladle' }],
              chef: author.body.data.documentId,
            },
          });
          assert.equal(created.status, 201, created.text);
          const read = await project.api.get(
            `/api/dishes/${created.body.data.documentId}?status=draft&populate[station][populate]=tools&populate[sections]=*&populate=chef`,
          );
          assert.equal(read.status, 200, read.text);
          assert.equal(read.body.data.station.tools[0].label, 'Pot');
          assert.equal(read.body.data.sections[0].label, 'Ladle');
          assert.equal(read.body.data.chef.name, 'Chef');
          const menu = await project.api.put('/api/menu', { data: { headline: 'Today' } });
          assert.equal(menu.status, 200, menu.text);
          // The other side of a two-sided relation is served on the existing type.
          const chef = await project.api.get(`/api/authors/${author.body.data.documentId}?populate=dishes`);
          assert.equal(chef.status, 200, chef.text);
          assert.ok(Array.isArray(chef.body.data.dishes));
        }
        if (step === 1) {
          const dish = (await project.api.get('/api/dishes?status=draft&populate=chef')).body.data[0];
          assert.equal(dish.method, undefined, 'a deleted attribute is no longer served');
          assert.equal(dish.spicy, null);
        }
        if (step === 2) assert.equal((await project.api.get('/api/menu')).status, 404);
        if (step === 3) assert.equal((await project.api.get('/api/dishes')).status, 404);
      }
      assert.deepEqual(changesFrom(blog, projectFiles(project.dir)).removed, []);
      // Each content-type and component changed is in the audit log, by its administrator.
      type Model = { action: string; uid: string };
      const expected = batches.flatMap(({ body }) => {
        const data = (body as { data: { contentTypes?: Model[]; components?: Model[] } }).data;
        return [
          ...(data.contentTypes ?? []).map((model) => `content-type.${model.action} ${model.uid}`),
          ...(data.components ?? []).map((model) => `component.${model.action} ${model.uid}`),
        ];
      });
      const log = await project.admin.get('/admin/audit-logs?sort=date:ASC&pageSize=100');
      const recorded = (log.body.results as { action: string; user: unknown; payload: { subject: string } }[])
        .filter((entry) => /^(content-type|component)\./.test(entry.action))
        .map((entry) => `${entry.action} ${entry.payload.subject}`);
      assert.deepEqual(recorded, expected);
    });
  });

  describe(`Content-Type Builder's older routes under vellum develop [${dialect}]`, () => {
    const project = openDevelopProject(dialect);

    it("serves Strapi's older per-model routes as Strapi answers them, with the same files", async () => {
      for (const step of legacySteps) {
        const answer = await fetch(`${project.dev.url}/content-type-builder${step.path}`, {
          method: step.method,
          headers: { authorization: authorization(project.admin), 'content-type': 'application/json' },
          body: step.body === undefined ? undefined : JSON.stringify(step.body),
        });
        const label = `${step.method} ${step.path}`;
        assert.deepEqual({ status: answer.status, body: await answer.json() }, step.answer, label);
        await schemaApplied(project.admin);
        assert.deepEqual(
          changesFrom(blog, projectFiles(project.dir)),
          { files: step.files, removed: step.removed },
          label,
        );
        if (label === 'POST /content-types') {
          const created = await project.api.post('/api/recipes', {
            data: { title: 'Bread', steps: [{ text: 'Knead' }] },
          });
          assert.equal(created.status, 201, created.text);
        }
      }
    });
  });
}

describe('Content-Type Builder outside vellum develop', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer('sqlite');
  });
  after(() => server?.close());

  it('serves its reads on the content API behind their users-permissions actions, as Strapi', async () => {
    const base = '/api/content-type-builder';
    assert.deepEqual((await server.api.get(`${base}/content-types/api::article.article`)).body, strapiReads.article);
    assert.deepEqual((await server.api.get(`${base}/content-types?kind=bad`)).body, strapiReads.badKind);
    assert.equal((await server.api.get(`${base}/components`)).body.data.length, 5);
    assert.deepEqual((await server.api.get(`${base}/components/shared.nope`)).body, { error: 'component.notFound' });
    for (const path of ['content-types', 'content-types/api::article.article', 'components', 'components/shared.seo'])
      assert.equal((await server.publicApi.get(`${base}/${path}`)).status, 403, path);
    // Public granted the components' list alone.
    const publicRole = (await server.vellum.auth.roles.list()).find((role) => role.type === 'public')!;
    await server.vellum.auth.roles.grant(publicRole.documentId, [
      'plugin::content-type-builder.components.getComponents',
    ]);
    assert.equal((await server.publicApi.get(`${base}/components`)).status, 200);
    assert.equal((await server.publicApi.get(`${base}/content-types`)).status, 403);
    // Strapi's permissions tree lists them.
    const tree = (await server.api.get('/api/users-permissions/permissions')).body.permissions;
    assert.deepEqual(tree['plugin::content-type-builder'], {
      controllers: {
        components: { getComponent: { enabled: false, policy: '' }, getComponents: { enabled: false, policy: '' } },
        'content-types': {
          getContentType: { enabled: false, policy: '' },
          getContentTypes: { enabled: false, policy: '' },
        },
      },
    });
  });

  it("answers the reads and refuses every write with Strapi's 403, changing nothing", async () => {
    const admin = (await registerFirstAdmin(server)).client;
    assert.equal((await admin.get('/content-type-builder/schema')).status, 200);
    const write = await admin.post('/content-type-builder/update-schema', batches[0]!.body);
    assert.equal(write.status, 403);
    assert.equal(write.body.error.name, 'PolicyError');
    assert.equal(
      write.body.error.message,
      'Content-Type Builder modifications are disabled in production mode. Schema changes can only be made when running with autoReload enabled (strapi develop).',
    );
    for (const [method, path] of [
      ['POST', '/content-types'],
      ['PUT', '/content-types/api::tag.tag'],
      ['DELETE', '/content-types/api::tag.tag'],
      ['POST', '/components'],
      ['PUT', '/components/shared.seo'],
      ['DELETE', '/components/shared.seo'],
      ['PUT', '/component-categories/shared'],
      ['DELETE', '/component-categories/shared'],
    ] as const) {
      const answer = await fetch(`${server.url}/content-type-builder${path}`, {
        method,
        headers: { authorization: authorization(admin), 'content-type': 'application/json' },
        body: method === 'DELETE' ? undefined : '{}',
      });
      assert.equal(answer.status, 403, `${method} ${path}`);
    }
    assert.equal((await admin.get('/content-type-builder/update-schema-status')).body.data.isUpdating, false);
    assert.ok(existsSync(join(BLOG, 'src/components/shared/seo.json')));
  });
});
