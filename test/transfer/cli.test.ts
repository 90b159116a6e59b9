/**
 * `vellum import`, `vellum export` and `vellum locale` as users run them: the CLI on the project's
 * database while a node serves it. The node sees a locale the CLI adds at once, and the content an
 * import writes; the summary and the progress lines go to the terminal (plain lines: not a TTY).
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { copyProject, type TempProject } from '../helpers/projects.js';
import { DIALECTS, fixture, startServer, type TestServer } from '../helpers/server.js';
import { runCli } from '../helpers/cli.js';

for (const dialect of DIALECTS) {
  describe(`vellum import, export and locale commands [${dialect}]`, () => {
    let project: TempProject;
    let server: TestServer;
    const vellum = (...args: string[]) => runCli([...args, '--project', project.dir]);

    before(async () => {
      project = copyProject();
      rmSync(join(project.dir, 'config/database.js'));
      server = await startServer(dialect, { project: project.dir });
      project.write('config/database.json', JSON.stringify(server.databaseConfig));
    });
    after(async () => {
      await server?.close();
      project?.remove();
    });

    it('`vellum locale add|default|remove` change the locales a running node accepts, at once', async () => {
      const added = await vellum('locale', 'add', 'it', '--name', 'Italiano');
      assert.equal(added.code, 0, added.stderr);
      assert.equal((await server.api.post('/api/articles?locale=it', { data: { title: 'Ciao' } })).status, 201);
      assert.equal((await vellum('locale', 'default', 'it')).code, 0);
      const listed = (await server.publicApi.get('/api/i18n/locales')).body as {
        code: string;
        name: string;
        isDefault: boolean;
      }[];
      assert.deepEqual(
        listed.find((l) => l.isDefault),
        { ...listed.find((l) => l.code === 'it'), name: 'Italiano', isDefault: true },
      );
      const refused = await vellum('locale', 'remove', 'it');
      assert.equal(refused.code, 1);
      assert.match(refused.stderr, /default locale/);
      assert.equal((await vellum('locale', 'default', 'en')).code, 0);
      assert.equal((await vellum('locale', 'remove', 'it')).code, 0);
      assert.match((await vellum('locale', 'list')).stdout, /"code": "fr"/);
    });

    it('an archive cut anywhere stops the import with exit code 1, naming the problem; nothing is imported', async () => {
      const whole = readFileSync(join(fixture('strapi-archive'), 'blog.tar.gz'));
      const paths = ['/api/articles?status=draft', '/api/categories', '/api/tags', '/api/upload/files'];
      const counts = async () =>
        Promise.all(
          paths.map(async (path) =>
            JSON.stringify(
              (await server.api.get(path)).body.meta?.pagination?.total ?? (await server.api.get(path)).body.length,
            ),
          ),
        );
      const before = await counts();
      for (const fraction of [0.05, 0.3, 0.95, 0.999]) {
        const cut = join(project.dir, `cut-${fraction}.tar.gz`);
        writeFileSync(cut, whole.subarray(0, Math.floor(whole.length * fraction)));
        const failed = await vellum('import', '--file', cut);
        assert.equal(failed.code, 1, `${fraction}: ${failed.stdout} ${failed.stderr}`);
        assert.match(failed.stderr, /not a readable archive \(zlib: unexpected end of file\)/, `${fraction}`);
      }
      assert.deepEqual(await counts(), before, 'nothing written');
    });

    it('`vellum import --file` prints the progress and a summary comparing counts; `vellum export --file` writes an archive', async () => {
      const imported = await vellum('import', '--file', join(fixture('strapi-archive'), 'blog.tar.gz'));
      assert.equal(imported.code, 0, imported.stderr);
      assert.match(imported.stderr, /^entities: 129\/129 in [\d.]+ s/m);
      assert.match(imported.stdout, /api::article\.article\s+53\s+53\s+\d+/);
      assert.match(imported.stdout, /API tokens and administrators/);
      assert.equal((await server.api.get('/api/articles?locale=fr&status=draft')).body.meta.pagination.total, 3);
      const file = join(project.dir, 'out.tar.gz');
      const exported = await vellum('export', '--file', file);
      assert.equal(exported.code, 0, exported.stderr);
      assert.ok(existsSync(file));
      assert.match(exported.stdout, /api::article\.article\s+\d+\s+\d+/);
    });

    it('a file that is not an archive is refused with a message, exit code 1', async () => {
      const failed = await vellum('import', '--file', join(project.dir, 'config/database.json'));
      assert.equal(failed.code, 1);
      assert.match(failed.stderr, /database\.json.*not a readable archive/);
    });
  });
}
