/**
 * A deleted entry leaves its releases (docs/releases.md), as Strapi 5.54's content-releases
 * document middleware: deleting one locale removes that locale's actions, deleting the document
 * every locale's; each pending release's status and count follow the actions left; a published
 * release loses the action but stays `done`; a failed deletion removes nothing. On every dialect.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ok, type HttpClient } from '../helpers/http.js';
import { registerFirstAdmin } from '../helpers/admins.js';
import { addAction, releaseFixture, releaseState } from '../helpers/releases.js';
import { DIALECTS, fixture, startServer, type TestServer } from '../helpers/server.js';
import { unique } from '../helpers/unique.js';

const CM = '/content-manager/collection-types';
const POST = 'api::post.post';
const PAGE = 'api::page.page';
const R = '/content-releases';

for (const dialect of DIALECTS) {
  describe(`a deleted entry leaves its releases [${dialect}]`, () => {
    let server: TestServer;
    let root: HttpClient;

    before(async () => {
      server = await startServer(dialect, { project: fixture('releases') });
      root = (await registerFirstAdmin(server)).client;
    });
    after(() => server?.close());

    const { post, page, release } = releaseFixture(() => root, 'Deleted');
    const add = (
      id: number,
      contentType: string,
      entryDocumentId: string,
      locale: string | undefined,
      type: 'publish' | 'unpublish' = 'publish',
    ) => addAction(root, id, { contentType, entryDocumentId, locale, type });
    const state = (id: number) => releaseState(root, id);

    it('removes the actions of the locale deleted, then of the document, and settles each release', async () => {
      const both = await post(unique('Both'), unique('Les deux'));
      const valid = await page(unique('Heading'));
      const invalid = await page(null);
      const a = await release();
      await add(a, POST, both, 'en');
      await add(a, POST, both, 'fr');
      await add(a, PAGE, valid, undefined);
      const b = await release();
      await add(b, POST, both, 'en', 'unpublish');
      await add(b, PAGE, invalid, undefined);
      assert.equal((await state(b)).status, 'blocked');

      // One locale: only its action goes.
      await ok(root.delete(`${CM}/${POST}/${both}?locale=fr`));
      assert.deepEqual(await state(a), {
        status: 'ready',
        count: 2,
        listedCount: 2,
        total: 2,
        entries: [`${both}:en:publish`, `${valid}:-:publish`].sort(),
      });
      assert.equal((await state(b)).count, 2);

      // The invalid entry deleted: the release it blocked is ready.
      await ok(root.delete(`${CM}/${PAGE}/${invalid}`));
      assert.deepEqual(await state(b), {
        status: 'ready',
        count: 1,
        listedCount: 1,
        total: 1,
        entries: [`${both}:en:unpublish`],
      });

      // Every locale of the document (the content API, `locale=*`): both releases lose it.
      assert.equal((await server.api.delete(`/api/posts/${both}?locale=*`)).status, 204);
      assert.deepEqual((await state(a)).entries, [`${valid}:-:publish`]);
      assert.deepEqual(await state(b), { status: 'empty', count: 0, listedCount: 0, total: 0, entries: [] });
      const map = await ok(root.get(`${R}/mapEntriesToReleases?contentTypeUid=${POST}&documentIds[0]=${both}`));
      assert.deepEqual(map.data, {});
    });

    it('keeps a published release done, with one action fewer', async () => {
      const entry = await page(unique('Published'));
      const other = await page(unique('Other'));
      const done = await release();
      await add(done, PAGE, entry, undefined);
      await add(done, PAGE, other, undefined);
      await ok(root.post(`${R}/${done}/publish`, {}));
      await ok(root.delete(`${CM}/${PAGE}/${entry}`));
      const after = await state(done);
      assert.equal(after.status, 'done');
      assert.equal(after.count, 1);
      assert.deepEqual(after.entries, [`${other}:-:publish`]);
    });

    it('removes nothing when the deletion fails or names another locale', async () => {
      const entry = await post(unique('Kept'));
      const kept = await release();
      await add(kept, POST, entry, 'en');
      // No fr version: a 404, nothing deleted.
      assert.equal((await root.delete(`${CM}/${POST}/${entry}?locale=fr`)).status, 404);
      assert.equal((await state(kept)).count, 1);
      // Another document of the same type deleted: this one's action stays.
      const gone = await post(unique('Gone'));
      await ok(root.delete(`${CM}/${POST}/${gone}?locale=en`));
      assert.deepEqual(await state(kept), {
        status: 'ready',
        count: 1,
        listedCount: 1,
        total: 1,
        entries: [`${entry}:en:publish`],
      });
    });
  });
}
