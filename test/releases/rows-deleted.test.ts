/**
 * Entries deleted beneath the document service leave their releases too (docs/releases.md "Entries
 * deleted by other paths"): `strapi.db.query(uid).deleteMany()` from project code, as Strapi 5.54's
 * content-releases `afterDeleteMany` subscriber (the entries it leaves without a row, in its
 * transaction; `delete()`, which Strapi does not watch, leaves them), and `vellum import`, whose
 * removal of the versions its source no longer has empties a locale. Each pending release's status
 * and counts follow. On every dialect.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ok, type HttpClient } from '../helpers/http.js';
import { registerFirstAdmin } from '../helpers/admins.js';
import { runCli } from '../helpers/cli.js';
import { copyProject, type TempProject } from '../helpers/projects.js';
import { addAction, releaseFixture, releaseState } from '../helpers/releases.js';
import { DIALECTS, fixture, startServer, type TestServer } from '../helpers/server.js';
import { unique } from '../helpers/unique.js';

const CM = '/content-manager/collection-types';
const POST = 'api::post.post';
const PAGE = 'api::page.page';

/** Project code deleting rows with the query engine: `POST /api/purge/:uid/many|one` with `{ where }`. */
const PURGE_ROUTES = `module.exports = { routes: [
  { method: 'POST', path: '/purge/:uid/many', handler: 'purge.many', config: { auth: false } },
  { method: 'POST', path: '/purge/:uid/one', handler: 'purge.one', config: { auth: false } },
] };`;
const PURGE_CONTROLLER = `module.exports = {
  async many(ctx) {
    ctx.body = await strapi.db.query(ctx.params.uid).deleteMany({ where: ctx.request.body.where });
  },
  async one(ctx) {
    const deleted = await strapi.db.query(ctx.params.uid).delete({ where: ctx.request.body.where });
    ctx.body = { id: deleted ? deleted.id : null };
  },
};`;

for (const dialect of DIALECTS) {
  describe(`entries deleted beneath the document service leave their releases [${dialect}]`, () => {
    let project: TempProject;
    let server: TestServer;
    let root: HttpClient;

    before(async () => {
      project = copyProject(fixture('releases'));
      project.write('src/api/purge/routes/purge.js', PURGE_ROUTES);
      project.write('src/api/purge/controllers/purge.js', PURGE_CONTROLLER);
      server = await startServer(dialect, { project: project.dir });
      // The CLI opens the node's database.
      project.write('config/database.json', JSON.stringify(server.databaseConfig));
      root = (await registerFirstAdmin(server)).client;
    });
    after(async () => {
      await server?.close();
      project?.remove();
    });

    const { post, page, release } = releaseFixture(() => root, 'Rows');
    const purge = (uid: string, how: 'many' | 'one', where: Record<string, unknown>) =>
      ok(server.publicApi.post(`/api/purge/${uid}/${how}`, { where }));

    it('strapi.db.query().deleteMany() removes the actions of the entries it deletes whole, and settles each release', async () => {
      const gone = await page(unique('Gone'));
      const invalid = await page(null);
      const kept = await page(unique('Kept'));
      const a = await release();
      await addAction(root, a, { contentType: PAGE, entryDocumentId: gone });
      await addAction(root, a, { contentType: PAGE, entryDocumentId: invalid });
      await addAction(root, a, { contentType: PAGE, entryDocumentId: kept });
      const b = await release();
      await addAction(root, b, { contentType: PAGE, entryDocumentId: gone, type: 'unpublish' });
      assert.equal((await releaseState(root, a)).status, 'blocked');

      // Two documents of three: their actions go, in both releases; the invalid one unblocks `a`.
      assert.deepEqual(await purge(PAGE, 'many', { documentId: { $in: [gone, invalid] } }), { count: 2 });
      assert.deepEqual(await releaseState(root, a), {
        status: 'ready',
        count: 1,
        listedCount: 1,
        total: 1,
        entries: [`${kept}:-:publish`],
      });
      assert.deepEqual(await releaseState(root, b), {
        status: 'empty',
        count: 0,
        listedCount: 0,
        total: 0,
        entries: [],
      });
    });

    it('keeps the actions of an entry that still has a row, and of a locale not deleted', async () => {
      const both = await post(unique('Both'), unique('Les deux'));
      const published = await page(unique('Published'));
      await ok(root.post(`${CM}/${PAGE}/${published}/actions/publish`, {}));
      const r = await release();
      await addAction(root, r, { contentType: POST, entryDocumentId: both, locale: 'en' });
      await addAction(root, r, { contentType: POST, entryDocumentId: both, locale: 'fr' });
      await addAction(root, r, { contentType: PAGE, entryDocumentId: published, type: 'unpublish' });

      // The fr rows of the document: that locale's action goes, en's stays.
      assert.deepEqual(await purge(POST, 'many', { documentId: both, locale: 'fr' }), { count: 1 });
      // The published row only: the draft is left, so is the entry and its action.
      assert.deepEqual(await purge(PAGE, 'many', { documentId: published, publishedAt: { $notNull: true } }), {
        count: 1,
      });
      assert.deepEqual(
        (await releaseState(root, r)).entries,
        [`${both}:en:publish`, `${published}:-:unpublish`].sort(),
      );
      assert.equal((await releaseState(root, r)).count, 2);
    });

    it('strapi.db.query().delete(), which Strapi 5.54 does not watch, leaves the actions', async () => {
      const entry = await page(unique('Single row'));
      const r = await release();
      await addAction(root, r, { contentType: PAGE, entryDocumentId: entry });
      assert.notEqual((await purge(PAGE, 'one', { documentId: entry })).id, null);
      assert.deepEqual((await releaseState(root, r)).entries, [`${entry}:-:publish`]);
    });

    it('vellum import removes the actions of the locales it removes, as its source no longer has them', async () => {
      const entry = await post(unique('Exported'));
      const other = await post(unique('Other'), unique('Autre'));
      const archive = join(project.dir, `${unique('before-fr')}.tar.gz`);
      const exported = await runCli(['export', '--file', archive, '--project', project.dir]);
      assert.equal(exported.code, 0, exported.stderr);
      // Written after the export: a fr version the archive does not have.
      await ok(root.put(`${CM}/${POST}/${entry}?locale=fr`, { title: unique('Ajouté') }));
      const r = await release();
      await addAction(root, r, { contentType: POST, entryDocumentId: entry, locale: 'en' });
      await addAction(root, r, { contentType: POST, entryDocumentId: entry, locale: 'fr' });
      await addAction(root, r, { contentType: POST, entryDocumentId: other, locale: 'fr' });

      const imported = await runCli(['import', '--file', archive, '--project', project.dir]);
      assert.equal(imported.code, 0, imported.stderr);
      assert.match(imported.stdout, /api::post\.post: \d+ version\(s\) the source does not have were removed/);
      // As Strapi 5.54's content manager, a locale the document lacks is `{ data: {} }`, not a 404.
      const fr = await root.get(`${CM}/${POST}/${entry}?locale=fr`);
      assert.deepEqual([fr.status, fr.body.data], [200, {}], fr.text);
      assert.deepEqual(await releaseState(root, r), {
        status: 'ready',
        count: 2,
        listedCount: 2,
        total: 2,
        entries: [`${entry}:en:publish`, `${other}:fr:publish`].sort(),
      });
    });
  });
}
