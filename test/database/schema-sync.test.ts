import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { ProjectError } from '../../src/core/errors.js';
import { createVellum, type Vellum } from '../../src/app/server.js';
import { createTestDatabase, type TestDatabase } from '../helpers/databases.js';
import { HttpClient } from '../helpers/http.js';
import { ARTICLE_SCHEMA, TAG_SCHEMA, copyProject, type TempProject } from '../helpers/projects.js';
import { DIALECTS, fullAccessHeaders } from '../helpers/server.js';
import { pruneSchema } from '../../src/core/database/sync.js';
import { indexName } from '../../src/core/schema/naming.js';

for (const dialect of DIALECTS) {
  describe(`schema synchronisation [${dialect}]`, () => {
    const cleanups: (() => Promise<void>)[] = [];
    after(async () => {
      for (const cleanup of cleanups) await cleanup();
    });

    /**
     * A fresh database and copy of the blog for one test: each test starts its own nodes on them,
     * editing the schema between starts.
     */
    const fresh = async () => {
      const database: TestDatabase = await createTestDatabase(dialect);
      const project: TempProject = copyProject();
      cleanups.push(async () => {
        project.remove();
        await database.drop();
      });
      const start = async (): Promise<{ vellum: Vellum; api: HttpClient }> => {
        const vellum = await createVellum(project.dir, {
          env: { NODE_ENV: 'test' },
          overrides: { server: { host: '127.0.0.1', port: 0 }, database: database.config },
        });
        return { vellum, api: new HttpClient(await vellum.listen(), await fullAccessHeaders(vellum)) };
      };
      return { project, start };
    };

    it('creates every table on first start, and nothing on the next', async () => {
      const { start } = await fresh();
      const first = await start();
      const tables = first.vellum.sync.createdTables;
      for (const table of [
        'articles',
        'authors',
        'categories',
        'tags',
        'globals',
        'components_shared_seos',
        'files',
        'files_related_mph',
        'articles_cmps',
      ]) {
        assert.ok(tables.includes(table), `${table} in ${tables.join(', ')}`);
      }
      assert.ok(
        tables.some((t) => t.startsWith('articles_tags')),
        'a link table for article.tags',
      );
      const created = await first.api.post('/api/tags', { data: { name: 'kept' } });
      assert.equal(created.status, 201);
      await first.vellum.close();

      const second = await start();
      assert.deepEqual(second.vellum.sync.createdTables, []);
      assert.deepEqual(second.vellum.sync.addedColumns, []);
      assert.equal((await second.api.get(`/api/tags/${created.body.data.documentId}`)).body.data.name, 'kept');
      await second.vellum.close();
    });

    it('a localized type indexes its attributes per locale only, and drops the single-column index an earlier version made', async () => {
      const { start } = await fresh();
      const first = await start();
      const { db, dialect } = first.vellum.database;
      const single = indexName('articles', ['title']);
      let indexes = await dialect.listIndexes(db);
      assert.ok(indexes.has(`articles.${indexName('articles', ['locale', 'title', 'published_at'])}`));
      assert.ok(!indexes.has(`articles.${single}`), 'no single-column index on a localized type');
      // Types without i18n keep theirs: their reads name no locale.
      assert.ok(indexes.has(`tags.${indexName('tags', ['name'])}`));
      await db.schema.createIndex(single).on('articles').column('title').execute();
      await first.vellum.close();
      const second = await start();
      indexes = await second.vellum.database.dialect.listIndexes(second.vellum.database.db);
      assert.ok(!indexes.has(`articles.${single}`), 'the superseded index is dropped at start');
      await second.vellum.close();
    });

    it("a link table's index by target ends with entity_id, and replaces the one an earlier version made", async () => {
      const { start } = await fresh();
      const first = await start();
      const { db, dialect } = first.vellum.database;
      const table = 'articles_author_lnk';
      const earlier = ['target_document_id', 'target_locale', 'entity_ord'];
      let indexes = await dialect.listIndexes(db);
      // A relation filter's count finds the owners of the matching targets in this index alone.
      assert.ok(indexes.has(`${table}.${indexName(table, [...earlier, 'entity_id'])}`));
      assert.ok(!indexes.has(`${table}.${indexName(table, earlier)}`));
      await db.schema.createIndex(indexName(table, earlier)).on(table).columns(earlier).execute();
      await first.vellum.close();
      const second = await start();
      indexes = await second.vellum.database.dialect.listIndexes(second.vellum.database.db);
      assert.ok(!indexes.has(`${table}.${indexName(table, earlier)}`), 'the superseded index is dropped at start');
      await second.vellum.close();
    });

    it('adds a column for a new attribute and keeps existing data', async () => {
      const { project, start } = await fresh();
      const first = await start();
      assert.equal((await first.api.post('/api/tags', { data: { name: 'kept' } })).status, 201);
      await first.vellum.close();
      project.editJson(TAG_SCHEMA, (j) => (j.attributes.color = { type: 'string', default: 'blue' }));
      const { vellum, api } = await start();
      assert.deepEqual(vellum.sync.addedColumns, ['tags.color']);
      const list = await api.get('/api/tags');
      assert.equal(list.body.data[0].name, 'kept');
      const created = await api.post('/api/tags', { data: { name: 'new' } });
      assert.equal(created.body.data.color, 'blue');
      await vellum.close();
    });

    it('a removed attribute keeps its column until `db prune`', async () => {
      const { project, start } = await fresh();
      project.editJson(TAG_SCHEMA, (j) => (j.attributes.color = { type: 'string', default: 'blue' }));
      const first = await start();
      assert.equal((await first.api.post('/api/tags', { data: { name: 'kept' } })).status, 201);
      await first.vellum.close();
      project.editJson(TAG_SCHEMA, (j) => delete j.attributes.color);
      const { vellum, api } = await start();
      assert.ok(vellum.sync.orphaned.includes('tags.color'), vellum.sync.orphaned.join(', '));
      assert.equal((await api.get('/api/tags')).body.data[0].color, undefined);
      const dropped = await pruneSchema(vellum.database, vellum.schema);
      assert.ok(dropped.includes('tags.color'), dropped.join(', '));
      await vellum.close();
      const again = await start();
      assert.deepEqual(again.vellum.sync.orphaned, []);
      await again.vellum.close();
    });

    it('an unsafe type change stops start-up with an explanation', async () => {
      const { project, start } = await fresh();
      await (await start()).vellum.close();
      project.editJson(ARTICLE_SCHEMA, (j) => (j.attributes.title = { type: 'integer' }));
      await assert.rejects(start(), (error: unknown) => {
        assert.ok(error instanceof ProjectError, String(error));
        assert.match(error.message, /title/);
        return true;
      });
      project.editJson(ARTICLE_SCHEMA, (j) => (j.attributes.title = { type: 'text', required: true }));
      const widened = await start();
      await widened.vellum.close();
    });

    // SQLite is embedded: one process owns the file (and better-sqlite3 blocks its thread while
    // waiting for a lock, so two nodes cannot even be simulated in one process).
    it(
      'two nodes starting together on one database both come up',
      { skip: dialect === 'sqlite' && 'SQLite is single-node' },
      async () => {
        const { project, start } = await fresh();
        await (await start()).vellum.close();
        project.editJson(TAG_SCHEMA, (j) => (j.attributes.weight = { type: 'integer' }));
        const results = await Promise.allSettled([start(), start()]);
        try {
          for (const result of results)
            assert.equal(result.status, 'fulfilled', String((result as PromiseRejectedResult).reason));
          const [a, b] = results.map((r) => (r as PromiseFulfilledResult<{ vellum: Vellum }>).value);
          assert.deepEqual([...a!.vellum.sync.addedColumns, ...b!.vellum.sync.addedColumns], ['tags.weight']);
        } finally {
          await Promise.all(results.map((r) => (r.status === 'fulfilled' ? r.value.vellum.close() : undefined)));
        }
      },
    );
  });
}
