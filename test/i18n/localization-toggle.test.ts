/**
 * A type's i18n turned on or off between two starts moves its entries as Strapi 5.54's core
 * migration does (docs/configuration.md "Turning i18n on or off"): turned on, every existing
 * version gets the default locale, readable over REST with its relations; turned off, the versions
 * of the other locales go (with their components and links) and the default locale's stay, without
 * a locale. The blog is copied, started, stopped, its schema files changed and started again on
 * the same database (and, last, changed through the Content-Type Builder under `vellum develop`);
 * each test on its own copy and database, on every dialect. Compared with Strapi 5.54 by
 * test/differential/i18n-moves.diff.ts (docs/configuration.md "Turning i18n on or off").
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { registerFirstAdmin } from '../helpers/admins.js';
import { openDevelopProject, schemaApplied } from '../helpers/develop.js';
import { createTestDatabase, type TestDatabase } from '../helpers/databases.js';
import { copyProject, type TempProject } from '../helpers/projects.js';
import { BLOG, DIALECTS, startServer, type DialectName, type TestServer } from '../helpers/server.js';
import { unique } from '../helpers/unique.js';
import { indexName } from '../../src/core/schema/naming.js';

type SchemaJson = { pluginOptions?: unknown; attributes: Record<string, Record<string, unknown>> };
type Answer = Promise<{ status: number; body: any }>;

const ok = async (promise: Answer, status = 200): Promise<any> => {
  const answer = await promise;
  assert.equal(answer.status, status, JSON.stringify(answer.body));
  return answer.body;
};

/** i18n on a type and its fields, as the Content-Type Builder writes it. */
const localized = (schema: SchemaJson) => {
  schema.pluginOptions = { i18n: { localized: true } };
  for (const attribute of Object.values(schema.attributes))
    if (attribute.type !== 'relation') attribute.pluginOptions = { i18n: { localized: true } };
};
const unlocalized = (schema: SchemaJson) => {
  delete schema.pluginOptions;
  for (const attribute of Object.values(schema.attributes)) delete attribute.pluginOptions;
};

/** The blog copied, on a database of its own, started and stopped at will. */
class Project {
  servers: TestServer[] = [];

  private constructor(
    private readonly dialect: DialectName,
    private readonly copy: TempProject,
    private readonly database: TestDatabase,
  ) {}

  static async open(dialect: DialectName): Promise<Project> {
    const project = new Project(dialect, copyProject(BLOG), await createTestDatabase(dialect));
    await project.start(1);
    return project;
  }

  get server(): TestServer {
    return this.servers[0]!;
  }

  private async start(nodes: number): Promise<void> {
    // The database outlives each server: dropped by close() alone.
    const database = { config: this.database.config, drop: async () => undefined };
    this.servers = await Promise.all(
      Array.from({ length: nodes }, () => startServer(this.dialect, { project: this.copy.dir, database })),
    );
  }

  /** Stops the servers, changes the schema files named, starts `nodes` servers at once. */
  async restartWith(changes: Record<string, (schema: SchemaJson) => void>, nodes = 1): Promise<void> {
    await this.stop();
    for (const [name, change] of Object.entries(changes)) this.copy.editSchema(name, change);
    await this.start(nodes);
  }

  /** What the starts moved, every node's lines. */
  moved(): string[] {
    return this.servers.flatMap((server) => server.vellum.sync.moved);
  }

  private async stop(): Promise<void> {
    for (const server of this.servers) await server.close();
    this.servers = [];
  }

  async close(): Promise<void> {
    await this.stop();
    await this.database.drop();
    this.copy.remove();
  }
}

for (const dialect of DIALECTS) {
  describe(`i18n turned on or off between starts [${dialect}]`, () => {
    it('turned on: every version gets the default locale, readable with its relations from both sides', async () => {
      const project = await Project.open(dialect);
      try {
        const { api } = project.server;
        const name = unique('Gardening');
        const category = (await ok(api.post('/api/categories', { data: { name } }), 201)).data.documentId;
        const title = unique('Roses');
        const article = (
          await ok(api.post('/api/articles?locale=en', { data: { title, category, seo: { metaTitle: title } } }), 201)
        ).data.documentId;
        await ok(api.put(`/api/articles/${article}?locale=fr`, { data: { title: `${title} (fr)`, category } }));

        // Two nodes at once: one of them moves the categories, the other finds them moved.
        await project.restartWith({ category: localized }, 2);
        assert.deepEqual(
          project.moved().filter((line) => line.includes('api::category.category')),
          ['api::category.category: i18n turned on: 1 documents (1 versions) given the default locale "en"'],
        );
        for (const server of project.servers) {
          const listed = await ok(server.api.get(`/api/categories?filters[name][$eq]=${encodeURIComponent(name)}`));
          assert.deepEqual(
            listed.data.map((entry: { documentId: string; locale: string }) => [entry.documentId, entry.locale]),
            [[category, 'en']],
          );
        }
        const { api: after } = project.server;
        // The content manager's list, in the default locale, shows it too.
        const { client: admin } = await registerFirstAdmin(project.server);
        const managed = await ok(
          admin.get(
            `/content-manager/collection-types/api::category.category?locale=en&filters[$and][0][name][$eq]=${encodeURIComponent(name)}`,
          ),
        );
        assert.deepEqual(
          managed.results.map((entry: { documentId: string }) => entry.documentId),
          [category],
        );
        const french = await ok(after.get(`/api/categories?locale=fr&filters[name][$eq]=${encodeURIComponent(name)}`));
        assert.equal(french.data.length, 0);
        // The articles' links to it, from both locales, name it in the default locale.
        for (const locale of ['en', 'fr']) {
          const read = await ok(after.get(`/api/articles/${article}?locale=${locale}&populate=category`));
          assert.equal(read.data.category?.documentId, category, locale);
          assert.equal(read.data.category?.locale, 'en');
        }
        const draft = await ok(after.get(`/api/articles/${article}?status=draft&populate=category`));
        assert.equal(draft.data.category?.documentId, category);
        // From its side: both articles' versions link it (as Strapi's rows linked its row).
        const inverse = await ok(after.get(`/api/categories/${category}?populate=articles`));
        assert.deepEqual(
          inverse.data.articles
            .map((entry: { documentId: string; locale: string }) => `${entry.documentId}:${entry.locale}`)
            .sort(),
          [`${article}:en`, `${article}:fr`],
        );
        // Edited in its locale, then given a French version: both readable.
        await ok(after.put(`/api/categories/${category}?locale=fr`, { data: { name } }));
        const inFrench = await ok(after.get(`/api/categories/${category}?locale=fr`));
        assert.equal(inFrench.data.name, name);
        assert.equal((await ok(after.get(`/api/categories/${category}`))).data.locale, 'en');
      } finally {
        await project.close();
      }
    });

    it('turned off: the default locale is kept, without a locale; the others go with their components and links', async () => {
      const project = await Project.open(dialect);
      try {
        await project.restartWith({ category: localized });
        const { api } = project.server;
        const name = unique('Cooking');
        const category = (await ok(api.post('/api/categories?locale=en', { data: { name } }), 201)).data.documentId;
        // The same unique name in another locale: allowed, unique values are per locale.
        await ok(api.put(`/api/categories/${category}?locale=fr`, { data: { name } }));
        const title = unique('Bread');
        const both = (
          await ok(
            api.post('/api/articles?locale=en', {
              data: {
                title,
                category,
                seo: { metaTitle: `${title} seo` },
                blocks: [{ __component: 'shared.quote', title: `${title} quote` }],
              },
            }),
            201,
          )
        ).data.documentId;
        await ok(
          api.put(`/api/articles/${both}?locale=fr`, {
            data: {
              title: `${title} (fr)`,
              category,
              seo: { metaTitle: `${title} seo (fr)` },
              blocks: [{ __component: 'shared.quote', title: `${title} quote (fr)` }],
            },
          }),
        );
        // A draft in English that differs from its published version: both stay.
        await ok(api.put(`/api/articles/${both}?locale=en&status=draft`, { data: { title: `${title} draft` } }));
        const frenchOnly = (await ok(api.post('/api/articles?locale=fr', { data: { title: unique('Fromage') } }), 201))
          .data.documentId;
        const before = project.server.vellum.database.db;
        const frenchRows = (
          await before
            .selectFrom('articles')
            .select('id')
            .where('document_id', 'in', [both, frenchOnly])
            .where('locale', '=', 'fr')
            .execute()
        ).map((row) => Number(row.id));
        const frenchComponents = await before
          .selectFrom('articles_cmps')
          .select(['cmp_id', 'component_type'])
          .where('entity_id', 'in', frenchRows)
          .execute();
        assert.equal(frenchComponents.length, 4);

        await project.restartWith({ article: unlocalized, category: unlocalized });
        assert.deepEqual(project.moved().sort(), [
          'api::article.article: i18n turned off: its versions in the default locale "en" kept (2), those of other locales deleted (4); 1 documents had no version in "en" and are gone',
          'api::category.category: i18n turned off: its versions in the default locale "en" kept (1), those of other locales deleted (1)',
        ]);
        // Their unique index is built at once: the French duplicate is gone before it is.
        assert.deepEqual(
          project.server.vellum.sync.warnings.filter((line) => line.includes('categories')),
          [],
        );
        const { api: after } = project.server;
        const { db } = project.server.vellum.database;
        const read = await ok(
          after.get(`/api/articles/${both}?populate[category]=true&populate[seo]=true&populate[blocks]=true`),
        );
        assert.equal(read.data.title, title);
        assert.equal(read.data.category?.documentId, category);
        assert.equal(read.data.seo?.metaTitle, `${title} seo`);
        assert.deepEqual(
          read.data.blocks.map((block: { title: string }) => block.title),
          [`${title} quote`],
        );
        const draft = await ok(after.get(`/api/articles/${both}?status=draft`));
        assert.equal(draft.data.title, `${title} draft`);
        await ok(after.get(`/api/articles/${frenchOnly}`), 404);
        const inverse = await ok(after.get(`/api/categories/${category}?populate=articles`));
        assert.deepEqual(
          inverse.data.articles.map((entry: { documentId: string }) => entry.documentId),
          [both],
        );
        // What is stored: one version per document and status, no locale; nothing left of the French ones.
        const rows = await db
          .selectFrom('articles')
          .select(['document_id', 'locale'])
          .where('document_id', 'in', [both, frenchOnly])
          .execute();
        assert.deepEqual(
          rows.map((row) => [row.document_id, row.locale]),
          [
            [both, null],
            [both, null],
          ],
        );
        const categories = await db
          .selectFrom('categories')
          .select('locale')
          .where('document_id', '=', category)
          .execute();
        assert.deepEqual(categories, [{ locale: null }]);
        for (const table of ['articles_cmps', 'articles_category_lnk', 'articles_author_lnk', 'articles_tags_lnk'])
          assert.equal(
            (await db.selectFrom(table).select('id').where('entity_id', 'in', frenchRows).execute()).length,
            0,
            table,
          );
        for (const { cmp_id, component_type } of frenchComponents) {
          const table = component_type === 'shared.seo' ? 'components_shared_seos' : 'components_shared_quotes';
          assert.equal((await db.selectFrom(table).select('id').where('id', '=', cmp_id).execute()).length, 0, table);
        }
        const links = await db
          .selectFrom('articles_category_lnk')
          .select('target_locale')
          .where('target_document_id', '=', category)
          .execute();
        assert.deepEqual(links, [{ target_locale: null }, { target_locale: null }]);
        // The unique name holds across what were locales.
        await ok(after.post('/api/categories', { data: { name } }), 400);
      } finally {
        await project.close();
      }
    });

    it("the indexes follow: per locale once turned on, the column's own once turned off, the other set dropped", async () => {
      const project = await Project.open(dialect);
      try {
        const perLocale = [
          indexName('categories', ['locale', 'name', 'published_at']),
          indexName('categories', ['locale', 'slug', 'published_at']),
          indexName('categories', ['locale', 'created_at', 'published_at']),
          indexName('categories', ['locale', 'updated_at', 'published_at']),
        ];
        const own = [
          indexName('categories', ['name']),
          indexName('categories', ['slug']),
          indexName('categories', ['created_at', 'published_at']),
        ];
        const indexes = async () => {
          const { db, dialect: sql } = project.server.vellum.database;
          const names = await sql.listIndexes(db);
          const has = (name: string) => names.has(`categories.${name}`);
          return { perLocale: perLocale.filter(has), own: own.filter(has) };
        };
        assert.deepEqual(await indexes(), { perLocale: [], own });
        await project.restartWith({ category: localized });
        assert.deepEqual(await indexes(), { perLocale, own: [] });
        await project.restartWith({ category: unlocalized });
        assert.deepEqual(await indexes(), { perLocale: [], own });
        // Both shared ones stay: the walk by updated_at, and lists in id order.
        const { db, dialect: sql } = project.server.vellum.database;
        const names = await sql.listIndexes(db);
        assert.ok(names.has(`categories.${indexName('categories', ['updated_at', 'published_at'])}`));
        assert.ok(names.has(`categories.${indexName('categories', ['locale', 'id', 'published_at'])}`));
      } finally {
        await project.close();
      }
    });

    it('a document with versions both without a locale and in the default one: a warning, nothing moved until resolved', async () => {
      const project = await Project.open(dialect);
      try {
        const { api } = project.server;
        const clashing = (await ok(api.post('/api/categories', { data: { name: unique('Clash') } }), 201)).data
          .documentId;
        const other = (await ok(api.post('/api/categories', { data: { name: unique('Fine') } }), 201)).data.documentId;
        // An English row beside its row without a locale (what project code writing rows could leave).
        const { db } = project.server.vellum.database;
        await db
          .insertInto('categories')
          .values({
            document_id: clashing,
            locale: 'en',
            name: unique('Clash en'),
            published_at: project.server.vellum.database.dialect.encode('datetime', new Date()),
          })
          .execute();

        await project.restartWith({ category: localized });
        assert.deepEqual(project.moved(), []);
        const [warning] = project.server.vellum.sync.warnings.filter((line) => line.includes('api::category.category'));
        assert.match(
          warning!,
          new RegExp(
            `i18n turned on, but documents "${clashing}" have versions both without a locale and in the default locale "en"`,
          ),
        );
        const rows = async () =>
          (
            await project.server.vellum.database.db
              .selectFrom('categories')
              .select(['document_id', 'locale'])
              .where('document_id', 'in', [clashing, other])
              .orderBy('id')
              .execute()
          ).map((row) => `${row.document_id === clashing ? 'clashing' : 'other'}:${row.locale}`);
        assert.deepEqual(await rows(), ['clashing:null', 'other:null', 'clashing:en']);

        // Resolved: the next start, on the same schema, moves the type.
        await project.server.vellum.database.db
          .deleteFrom('categories')
          .where('document_id', '=', clashing)
          .where('locale', '=', 'en')
          .execute();
        await project.restartWith({});
        assert.deepEqual(project.moved(), [
          'api::category.category: i18n turned on: 2 documents (2 versions) given the default locale "en"',
        ]);
        assert.deepEqual(await rows(), ['clashing:en', 'other:en']);
        assert.equal((await ok(project.server.api.get(`/api/categories/${other}`))).data.locale, 'en');
      } finally {
        await project.close();
      }
    });

    it('a database an earlier Vellum synchronised: localized entries it left without a locale get the default one', async () => {
      const project = await Project.open(dialect);
      try {
        const { api } = project.server;
        const title = unique('Left behind');
        const article = (await ok(api.post('/api/articles?locale=en', { data: { title } }), 201)).data.documentId;
        // What an earlier Vellum left: i18n turned on over existing entries, no record of it.
        const { db } = project.server.vellum.database;
        await db.updateTable('articles').set({ locale: null }).where('document_id', '=', article).execute();
        await db.deleteFrom('vellum_meta').where('name', '=', 'localized_types').execute();
        await ok(api.get(`/api/articles/${article}`), 404);

        await project.restartWith({});
        assert.deepEqual(
          project.moved().filter((line) => line.startsWith('api::article.article')),
          ['api::article.article: i18n turned on: 1 documents (2 versions) given the default locale "en"'],
        );
        assert.equal((await ok(project.server.api.get(`/api/articles/${article}`))).data.title, title);
      } finally {
        await project.close();
      }
    });
  });

  describe(`i18n turned on and off through the Content-Type Builder under vellum develop [${dialect}]`, () => {
    const project = openDevelopProject(dialect);

    /** The blog's global single type, localized or not, as the builder's screen sends it. */
    const globalWith = (localized: boolean) => {
      const i18n = localized ? { pluginOptions: { i18n: { localized: true } } } : {};
      return {
        data: {
          contentTypes: [
            {
              action: 'update',
              uid: 'api::global.global',
              kind: 'singleType',
              displayName: 'Global',
              draftAndPublish: false,
              ...i18n,
              attributes: [
                { action: 'update', name: 'siteName', properties: { type: 'string', ...i18n } },
                { action: 'update', name: 'siteDescription', properties: { type: 'text', ...i18n } },
                {
                  action: 'update',
                  name: 'defaultSeo',
                  properties: { type: 'component', repeatable: false, component: 'shared.seo', ...i18n },
                },
              ],
            },
          ],
        },
      };
    };

    it('the next version serves the entry in the default locale, then without one', async () => {
      const siteName = unique('Site');
      await ok(project.api.put('/api/global', { data: { siteName, defaultSeo: { metaTitle: siteName } } }));
      await ok(project.admin.post('/content-type-builder/update-schema', globalWith(true)));
      await schemaApplied(project.admin);
      const on = await ok(project.api.get('/api/global?populate=defaultSeo'));
      assert.deepEqual([on.data.siteName, on.data.locale, on.data.defaultSeo?.metaTitle], [siteName, 'en', siteName]);
      await ok(project.api.put('/api/global?locale=fr', { data: { siteName: `${siteName} (fr)` } }));

      await ok(project.admin.post('/content-type-builder/update-schema', globalWith(false)));
      await schemaApplied(project.admin);
      const off = await ok(project.api.get('/api/global?populate=defaultSeo'));
      assert.deepEqual([off.data.siteName, off.data.defaultSeo?.metaTitle], [siteName, siteName]);
      const rows = await project.dev.current.database.db.selectFrom('globals').select('locale').execute();
      assert.deepEqual(rows, [{ locale: null }]);
    });
  });
}
