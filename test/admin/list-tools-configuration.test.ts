/**
 * "Configure the view" at Strapi 5.54's paths (docs/admin-panel.md "List tools"), on every
 * dialect: the configuration Strapi generates while none is stored, a change stored in the core
 * store where Strapi keeps it (so an imported Strapi project's own applies), a stored one brought in
 * line with the schema, the refusals, and the configure-view permission
 * (test/differential/view-configuration.diff.ts compares the shapes with Strapi's).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { HttpClient } from '../helpers/http.js';
import { createRole, explorerPermission, inviteAdmin, registerFirstAdmin } from '../helpers/admins.js';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';

const CM = '/content-manager';
const ARTICLE = `${CM}/content-types/api::article.article/configuration`;
const TAG = `${CM}/content-types/api::tag.tag/configuration`;
const AUTHOR = `${CM}/content-types/api::author.author/configuration`;
const SEO = `${CM}/components/shared.seo/configuration`;
const KEY = 'plugin_content_manager_configuration_content_types::';

type Metadatas = Record<string, { edit: Record<string, unknown>; list: Record<string, unknown> }>;
interface Configuration {
  settings: Record<string, unknown>;
  metadatas: Metadatas;
  layouts: { list: string[]; edit: { name: string; size: number }[][] };
}

/** A configuration as read, as the panel sends it back: without each list's main field. */
function asBody(read: Configuration & { uid?: string }): Configuration {
  const { uid: _uid, ...rest } = structuredClone(read);
  for (const meta of Object.values(rest.metadatas)) delete meta.list.mainField;
  return rest;
}

for (const dialect of DIALECTS) {
  describe(`content manager view configuration (${dialect})`, () => {
    let server: TestServer;
    let root: HttpClient;
    const read = async (path: string): Promise<Configuration> => {
      const answer = await root.get(path);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      return answer.body.data.contentType;
    };

    before(async () => {
      server = await startServer(dialect);
      root = (await registerFirstAdmin(server)).client;
    });
    after(() => server?.close());

    it('generates Strapi’s default configuration while none is stored', async () => {
      const answer = await root.get(ARTICLE);
      const { contentType, components } = answer.body.data;
      assert.deepEqual(contentType.settings, {
        bulkable: true,
        filterable: true,
        searchable: true,
        pageSize: 10,
        relationOpenMode: 'modal',
        mainField: 'title',
        defaultSortBy: 'title',
        defaultSortOrder: 'ASC',
      });
      assert.deepEqual(contentType.layouts.list, ['id', 'title', 'slug', 'views']);
      assert.deepEqual(contentType.layouts.edit[0], [
        { name: 'title', size: 6 },
        { name: 'slug', size: 6 },
      ]);
      assert.deepEqual(contentType.metadatas.author, {
        edit: { label: 'author', description: '', placeholder: '', visible: true, editable: true, mainField: 'name' },
        list: { label: 'author', searchable: true, sortable: true, mainField: 'name' },
      });
      assert.deepEqual(Object.keys(components), [
        'shared.seo',
        'shared.link',
        'shared.quote',
        'shared.rich-text',
        'shared.media',
      ]);
      assert.equal(components['shared.media'].settings.mainField, 'documentId');
      assert.equal(components['shared.seo'].isComponent, true);
      const settings = await root.get(`${CM}/content-types-settings`);
      assert.ok(settings.body.data.some((entry: { uid: string }) => entry.uid === 'api::tag.tag'));
      assert.equal((await root.get(`${CM}/content-types/api::nope.nope/configuration`)).status, 404);
    });

    it('stores a change where Strapi keeps it, and answers it from then on', async () => {
      const current = asBody(await read(TAG));
      current.settings = { ...current.settings, pageSize: 20, defaultSortBy: 'createdAt', defaultSortOrder: 'DESC' };
      current.metadatas.name!.edit = {
        ...current.metadatas.name!.edit,
        label: 'Tag name',
        placeholder: 'e.g. cooking',
      };
      current.metadatas.articles!.edit.mainField = 'slug';
      current.layouts.list = ['name', 'articles'];
      const changed = await root.put(TAG, current);
      assert.equal(changed.status, 200, JSON.stringify(changed.body));
      assert.equal(changed.body.data.contentType.metadatas.articles.list.mainField, 'slug');
      const after = await read(TAG);
      assert.deepEqual(
        [after.settings.pageSize, after.metadatas.name!.edit.label, after.layouts.list],
        [20, 'Tag name', ['name', 'articles']],
      );
      const row = await server.vellum.database.system
        .selectFrom('strapi_core_store_settings')
        .select(['value', 'type'])
        .where('key', '=', `${KEY}api::tag.tag`)
        .executeTakeFirstOrThrow();
      const stored = JSON.parse(row.value!);
      assert.deepEqual([row.type, stored.uid, stored.settings.pageSize], ['object', 'api::tag.tag', 20]);
      // A component's layout.
      const { category: _c, isComponent: _i, ...seo } = (await root.get(SEO)).body.data.component;
      const component = await root.put(SEO, { ...asBody(seo), layouts: { ...seo.layouts, list: ['metaTitle'] } });
      assert.equal(component.status, 200, JSON.stringify(component.body));
      assert.deepEqual((await root.get(SEO)).body.data.component.layouts.list, ['metaTitle']);
    });

    it('reads a configuration imported from Strapi, brought in line with the schema', async () => {
      // As `vellum import` lands a Strapi project's row: an attribute gone, a column gone, no new ones.
      await server.vellum.database.system
        .insertInto('strapi_core_store_settings')
        .values({
          key: `${KEY}api::author.author`,
          value: JSON.stringify({
            uid: 'api::author.author',
            settings: { bulkable: false, filterable: true, searchable: true, pageSize: 50, mainField: 'email' },
            metadatas: {
              name: { edit: { label: 'Full name', description: 'As printed' }, list: { label: 'Full name' } },
              nickname: { edit: { label: 'Gone' }, list: { label: 'Gone' } },
            },
            layouts: { list: ['name', 'nickname', 'email'], edit: [[{ name: 'name', size: 12 }]] },
          }),
          type: 'object',
          environment: null,
          tag: null,
        })
        .execute();
      const configuration = await read(AUTHOR);
      assert.deepEqual(
        [configuration.settings.bulkable, configuration.settings.pageSize, configuration.settings.mainField],
        [false, 50, 'email'],
      );
      assert.equal(configuration.metadatas.name!.edit.label, 'Full name');
      assert.equal(configuration.metadatas.name!.edit.placeholder, '');
      assert.equal(configuration.metadatas.nickname, undefined);
      assert.equal(configuration.metadatas.bio!.edit.label, 'bio');
      // The columns left, then (up to four) the attributes it did not know, as Strapi's sync does.
      assert.deepEqual(configuration.layouts.list, ['name', 'email', 'id', 'bio']);
      assert.deepEqual(configuration.layouts.edit[0], [{ name: 'name', size: 12 }]);
    });

    it('refuses a bad change whole, and a change without configure-view', async () => {
      const current = asBody(await read(ARTICLE));
      const bad = await root.put(ARTICLE, {
        ...current,
        settings: { ...current.settings, pageSize: 500 },
        layouts: { ...current.layouts, list: ['body'] },
      });
      assert.equal(bad.status, 400);
      assert.deepEqual(bad.body.error.details, {
        name: 'validationError',
        errors: [
          'settings.pageSize must be less than or equal to 100',
          `layouts.list[0] must be one of the following values: ${[
            'id',
            'title',
            'slug',
            'views',
            'rating',
            'featured',
            'publishDate',
            'kind',
            'cover',
            'gallery',
            'author',
            'category',
            'tags',
            'seo',
            'links',
            'createdAt',
            'updatedAt',
            'createdBy',
            'updatedBy',
          ].join(', ')}`,
        ],
      });
      assert.equal((await read(ARTICLE)).settings.pageSize, 10);

      const role = await createRole(root, `Readers ${dialect}`, [explorerPermission('read', 'api::article.article')]);
      const { client: reader } = await inviteAdmin(server, root, [role], {
        email: `readers-${dialect}@example.com`,
        firstname: 'R',
        password: 'Passw0rd-Read',
      });
      assert.equal((await reader.get(ARTICLE)).status, 200);
      const refused = await reader.put(ARTICLE, current);
      assert.equal(refused.status, 403);
      assert.equal(refused.body.error.name, 'PolicyError');
      assert.equal((await server.publicApi.get(ARTICLE)).status, 401);
    });
  });
}
