/**
 * Releases follow the schema between starts (docs/releases.md "A changed schema"), as Strapi
 * 5.54's content-releases follows it when it syncs its content-types: a required attribute added
 * that the entries lack makes their publish actions invalid and their pending releases `blocked`
 * (made optional again: `ready`), a published release keeping `done`; a type's i18n turned off
 * leaves its actions without a locale, turned on gives them the default one, and the re-check that
 * follows settles the release. The project is stopped, its schema files changed, and started again
 * on the same database; each test on its own project copy and database, on every dialect.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { registerFirstAdmin } from '../helpers/admins.js';
import { createTestDatabase, type TestDatabase } from '../helpers/databases.js';
import { HttpClient } from '../helpers/http.js';
import { copyProject, type SchemaJson, type TempProject } from '../helpers/projects.js';
import { addAction, createRelease, releaseState } from '../helpers/releases.js';
import { DIALECTS, fixture, startServer, type DialectName, type TestServer } from '../helpers/server.js';
import { unique } from '../helpers/unique.js';

const CM = '/content-manager/collection-types';
const POST = 'api::post.post';
const PAGE = 'api::page.page';
const ROOT = { email: 'root@example.com', password: 'Passw0rd-Root', firstname: 'Root' };

type Answer = Promise<{ status: number; body: any }>;

/** The releases fixture copied, on a database of its own, started and stopped at will. */
class Project {
  private server?: TestServer;
  admin!: HttpClient;

  private constructor(
    private readonly dialect: DialectName,
    private readonly copy: TempProject,
    private readonly database: TestDatabase,
  ) {}

  static async open(dialect: DialectName): Promise<Project> {
    const project = new Project(dialect, copyProject(fixture('releases')), await createTestDatabase(dialect));
    await project.start();
    project.admin = (await registerFirstAdmin(project.server!, ROOT)).client;
    return project;
  }

  private async start(): Promise<void> {
    // The database outlives each server: dropped by close() alone.
    const database = { config: this.database.config, drop: async () => undefined };
    this.server = await startServer(this.dialect, { project: this.copy.dir, database });
  }

  /** Stops the server, changes the schema file of `name`, starts again (`nodes` at once) and logs in to the first. */
  async restartWith(name: string, change: (schema: SchemaJson) => void, nodes = 1): Promise<HttpClient[]> {
    await this.server!.close();
    this.server = undefined;
    this.copy.editSchema(name, change);
    await Promise.all([this.start(), ...Array.from({ length: nodes - 1 }, () => this.startOther())]);
    const clients: HttpClient[] = [];
    for (const server of [this.server!, ...this.others]) {
      const login = await server.publicApi.post('/admin/login', { email: ROOT.email, password: ROOT.password });
      assert.equal(login.status, 200, JSON.stringify(login.body));
      clients.push(new HttpClient(server.url, { authorization: `Bearer ${login.body.data.token}` }));
    }
    this.admin = clients[0]!;
    return clients;
  }

  private readonly others: TestServer[] = [];

  private async startOther(): Promise<void> {
    const database = { config: this.database.config, drop: async () => undefined };
    this.others.push(await startServer(this.dialect, { project: this.copy.dir, database }));
  }

  async close(): Promise<void> {
    for (const other of this.others) await other.close();
    await this.server?.close();
    await this.database.drop();
    this.copy.remove();
  }
}

const ok = async (promise: Answer, status = 200): Promise<any> => {
  const answer = await promise;
  assert.equal(answer.status, status, JSON.stringify(answer.body));
  return answer.body;
};

/** A release's actions as listed: `documentId:locale:type:valid`, sorted (`-`: no locale). */
async function listedActions(admin: HttpClient, id: number): Promise<string[]> {
  const body = await ok(admin.get(`/content-releases/${id}/actions?groupBy=locale&pageSize=100`));
  type Listed = { entryDocumentId: string; locale: { code: string } | null; type: string; isEntryValid: boolean };
  return Object.values(body.data as Record<string, Listed[]>)
    .flat()
    .map((a) => `${a.entryDocumentId}:${a.locale?.code ?? '-'}:${a.type}:${a.isEntryValid ? 'valid' : 'invalid'}`)
    .sort();
}

for (const dialect of DIALECTS) {
  describe(`releases follow the schema between starts [${dialect}]`, () => {
    it('a required attribute the entries lack blocks pending releases; made optional, they are ready again', async () => {
      const project = await Project.open(dialect);
      try {
        const { admin } = project;
        const created = async (uid: string, data: Record<string, unknown>, query = '') =>
          (await ok(admin.post(`${CM}/${uid}${query}`, data), 201)).data.documentId as string;
        const first = await created(PAGE, { heading: unique('First') });
        const second = await created(PAGE, { heading: unique('Second') });
        const shown = await created(PAGE, { heading: unique('Shown') });
        const published = await created(PAGE, { heading: unique('Published') });
        const post = await created(POST, { title: unique('Post') }, '?locale=en');
        await ok(admin.post(`${CM}/${PAGE}/${shown}/actions/publish`, {}));

        const pending = (await createRelease(admin, { name: unique('Pending') })).id;
        await addAction(admin, pending, { contentType: PAGE, entryDocumentId: first });
        await addAction(admin, pending, { contentType: PAGE, entryDocumentId: second });
        const unpublishing = (await createRelease(admin, { name: unique('Unpublishing') })).id;
        await addAction(admin, unpublishing, { contentType: PAGE, entryDocumentId: shown, type: 'unpublish' });
        const posts = (await createRelease(admin, { name: unique('Posts') })).id;
        await addAction(admin, posts, { contentType: POST, entryDocumentId: post, locale: 'en' });
        const done = (await createRelease(admin, { name: unique('Done') })).id;
        await addAction(admin, done, { contentType: PAGE, entryDocumentId: published });
        await ok(admin.post(`/content-releases/${done}/publish`, {}));
        assert.equal((await releaseState(admin, pending)).status, 'ready');
        // The published release and its action as they are: the start rewrites neither (Strapi
        // 5.54's start-time check touches no action, docs/releases.md "A changed schema").
        const stamps = async (client: HttpClient) => {
          const release = (await ok(client.get(`/content-releases/${done}`))).data;
          const actions = (await ok(client.get(`/content-releases/${done}/actions?pageSize=100`))).data.Page;
          return { release: [release.status, release.updatedAt], actions: actions.map((a: any) => a.updatedAt) };
        };
        const doneBefore = await stamps(admin);

        await project.restartWith('page', (schema) => {
          schema.attributes.summary = { type: 'string', required: true };
        });
        // The stored status, read before anything lists the actions (which checks them again).
        assert.deepEqual(await releaseState(project.admin, pending), {
          status: 'blocked',
          count: 2,
          listedCount: 2,
          total: 2,
          entries: [`${first}:-:publish`, `${second}:-:publish`].sort(),
        });
        assert.deepEqual(
          await listedActions(project.admin, pending),
          [`${first}:-:publish:invalid`, `${second}:-:publish:invalid`].sort(),
        );
        const listed = await ok(project.admin.get(`/content-releases/${pending}/actions?pageSize=100`));
        assert.match(JSON.stringify(listed.data.Page[0].problem), /summary/);
        // An unpublish needs no valid draft; another type's release and a published one are left as they were.
        assert.equal((await releaseState(project.admin, unpublishing)).status, 'ready');
        assert.equal((await releaseState(project.admin, posts)).status, 'ready');
        assert.equal((await releaseState(project.admin, done)).status, 'done');
        assert.deepEqual(await listedActions(project.admin, done), [`${published}:-:publish:valid`]);
        assert.deepEqual(await stamps(project.admin), doneBefore);

        await project.restartWith('page', (schema) => {
          schema.attributes.summary = { type: 'string' };
        });
        assert.equal((await releaseState(project.admin, pending)).status, 'ready');
        assert.deepEqual(
          await listedActions(project.admin, pending),
          [`${first}:-:publish:valid`, `${second}:-:publish:valid`].sort(),
        );
      } finally {
        await project.close();
      }
    });

    it('two nodes starting together on the changed schema check the actions again, and agree', async () => {
      const project = await Project.open(dialect);
      try {
        const { admin } = project;
        const release = (await createRelease(admin, { name: unique('Together') })).id;
        const entries: string[] = [];
        for (let n = 0; n < 5; n++) {
          const page = await ok(admin.post(`${CM}/${PAGE}`, { heading: unique('Page') }), 201);
          entries.push(page.data.documentId);
          await addAction(admin, release, { contentType: PAGE, entryDocumentId: page.data.documentId });
        }
        assert.equal((await releaseState(admin, release)).status, 'ready');
        const clients = await project.restartWith(
          'page',
          (schema) => {
            schema.attributes.summary = { type: 'string', required: true };
          },
          2,
        );
        for (const client of clients) {
          const read = await ok(client.get(`/content-releases/${release}`));
          assert.equal(read.data.status, 'blocked');
          assert.equal(read.data.actions.meta.count, 5);
        }
        assert.deepEqual(
          await listedActions(clients[1]!, release),
          entries.map((entry) => `${entry}:-:publish:invalid`).sort(),
        );
      } finally {
        await project.close();
      }
    });

    it("a type's i18n turned off leaves its actions without a locale, turned on gives them the default one", async () => {
      const project = await Project.open(dialect);
      try {
        const { admin } = project;
        const both = (await ok(admin.post(`${CM}/${POST}?locale=en`, { title: unique('Both') }), 201)).data.documentId;
        await ok(admin.put(`${CM}/${POST}/${both}?locale=fr`, { title: unique('Les deux') }));
        const english = (await ok(admin.post(`${CM}/${POST}?locale=en`, { title: unique('English') }), 201)).data
          .documentId;
        const page = (await ok(admin.post(`${CM}/${PAGE}`, { heading: unique('Page') }), 201)).data.documentId;
        const release = (await createRelease(admin, { name: unique('Locales') })).id;
        await addAction(admin, release, { contentType: POST, entryDocumentId: both, locale: 'en' });
        await addAction(admin, release, { contentType: POST, entryDocumentId: both, locale: 'fr' });
        await addAction(admin, release, { contentType: POST, entryDocumentId: english, locale: 'en' });
        // No French version: invalid, the release is blocked.
        await addAction(admin, release, { contentType: POST, entryDocumentId: english, locale: 'fr' });
        await addAction(admin, release, { contentType: PAGE, entryDocumentId: page, type: 'unpublish' });
        const done = (await createRelease(admin, { name: unique('Done') })).id;
        await addAction(admin, done, { contentType: POST, entryDocumentId: english, locale: 'en' });
        await ok(admin.post(`/content-releases/${done}/publish`, {}));
        assert.equal((await releaseState(admin, release)).status, 'blocked');

        // Posts without i18n: every post action loses its locale (two of one document: both kept,
        // as Strapi), a published release's too; checked again, each entry is found: ready.
        await project.restartWith('post', (schema) => {
          delete schema.pluginOptions;
          for (const attribute of Object.values(schema.attributes)) delete attribute.pluginOptions;
        });
        assert.deepEqual(await releaseState(project.admin, release), {
          status: 'ready',
          count: 5,
          listedCount: 5,
          total: 5,
          entries: [
            `${both}:-:publish`,
            `${both}:-:publish`,
            `${english}:-:publish`,
            `${english}:-:publish`,
            `${page}:-:unpublish`,
          ].sort(),
        });
        assert.deepEqual(await listedActions(project.admin, done), [`${english}:-:publish:valid`]);

        // Pages with i18n: the page's action gets the default locale.
        await project.restartWith('page', (schema) => {
          schema.pluginOptions = { i18n: { localized: true } };
          for (const attribute of Object.values(schema.attributes))
            attribute.pluginOptions = { i18n: { localized: true } };
        });
        assert.deepEqual(
          (await releaseState(project.admin, release)).entries,
          [
            `${both}:-:publish`,
            `${both}:-:publish`,
            `${english}:-:publish`,
            `${english}:-:publish`,
            `${page}:en:unpublish`,
          ].sort(),
        );
        const attached = await ok(
          project.admin.get(
            `/content-releases/getByDocumentAttached?contentType=${PAGE}&entryDocumentId=${page}&locale=en&hasEntryAttached=true`,
          ),
        );
        assert.deepEqual(
          attached.data.map((item: { id: number }) => item.id),
          [release],
        );
      } finally {
        await project.close();
      }
    });
  });
}
