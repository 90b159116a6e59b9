/**
 * A content-type deleted in the Content-Type Builder, or its draft and publish turned off there,
 * leaves the releases (docs/releases.md "Entries deleted by other paths"), as Strapi 5.54's
 * content-releases removes the type's actions when it syncs its content-types: the project's next
 * version, under `vellum develop`, removes them as it starts; each pending release's status and
 * counts follow, a published release keeps `done`. On every dialect.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openDevelopProject, schemaApplied } from '../helpers/develop.js';
import { addAction, createRelease, releaseState } from '../helpers/releases.js';
import { DIALECTS, fixture } from '../helpers/server.js';
import { unique } from '../helpers/unique.js';
import { ok } from '../helpers/http.js';

const CM = '/content-manager/collection-types';
const POST = 'api::post.post';
const PAGE = 'api::page.page';

/** The post type as the builder's panel sends it, with its draft and publish turned off. */
const POST_WITHOUT_DRAFTS = {
  action: 'update',
  uid: POST,
  kind: 'collectionType',
  displayName: 'Post',
  draftAndPublish: false,
  pluginOptions: { i18n: { localized: true } },
  attributes: [
    {
      action: 'update',
      name: 'title',
      properties: { type: 'string', required: true, pluginOptions: { i18n: { localized: true } } },
    },
    { action: 'update', name: 'body', properties: { type: 'text', pluginOptions: { i18n: { localized: true } } } },
  ],
};

for (const dialect of DIALECTS) {
  describe(`a type deleted or without draft and publish leaves the releases [${dialect}]`, () => {
    const project = openDevelopProject(dialect, fixture('releases'));

    const created = async (uid: string, data: Record<string, unknown>, query = ''): Promise<string> =>
      (await ok(project.admin.post(`${CM}/${uid}${query}`, data), 201)).data.documentId as string;
    const change = async (contentTypes: unknown[]) => {
      await ok(project.admin.post('/content-type-builder/update-schema', { data: { contentTypes, components: [] } }));
      await schemaApplied(project.admin);
    };

    it('removes the actions of a deleted type, then of a type without draft and publish, and settles each release', async () => {
      const admin = project.admin;
      const page = await created(PAGE, { heading: unique('Page') });
      const invalid = await created(PAGE, { heading: null });
      const published = await created(PAGE, { heading: unique('Published') });
      const post = await created(POST, { title: unique('Post') }, '?locale=en');
      const pending = (await createRelease(admin, { name: unique('Pending') })).id;
      await addAction(admin, pending, { contentType: PAGE, entryDocumentId: page });
      await addAction(admin, pending, { contentType: PAGE, entryDocumentId: invalid });
      await addAction(admin, pending, { contentType: POST, entryDocumentId: post, locale: 'en' });
      const done = (await createRelease(admin, { name: unique('Done') })).id;
      await addAction(admin, done, { contentType: PAGE, entryDocumentId: published });
      await ok(admin.post(`/content-releases/${done}/publish`, {}));
      assert.equal((await releaseState(admin, pending)).status, 'blocked');

      // The page type deleted: its actions go from both releases; the invalid page no longer blocks.
      await change([{ action: 'delete', uid: PAGE }]);
      assert.deepEqual(await releaseState(admin, pending), {
        status: 'ready',
        count: 1,
        listedCount: 1,
        total: 1,
        entries: [`${post}:en:publish`],
      });
      assert.deepEqual(await releaseState(admin, done), {
        status: 'done',
        count: 0,
        listedCount: 0,
        total: 0,
        entries: [],
      });

      // Draft and publish turned off on the posts: the last action goes, the release is empty.
      await change([POST_WITHOUT_DRAFTS]);
      assert.deepEqual(await releaseState(admin, pending), {
        status: 'empty',
        count: 0,
        listedCount: 0,
        total: 0,
        entries: [],
      });
      const attached = await ok(
        admin.get(
          `/content-releases/getByDocumentAttached?contentType=${POST}&entryDocumentId=${post}&locale=en&hasEntryAttached=true`,
        ),
      );
      assert.deepEqual(attached.data, []);
    });
  });
}
