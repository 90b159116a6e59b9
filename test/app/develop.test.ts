/**
 * `vellum develop` (docs/cli.md "Serving"): a change of the project's files applies without a
 * restart and without a refused request; a change that does not start leaves the previous version
 * serving; project code, and the files it requires, are read again. On a copy of the blog example,
 * on every dialect.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startDevelop, type DevelopEvent, type DevelopServer } from '../../src/app/develop.js';
import { createTestDatabase, type TestDatabase } from '../helpers/databases.js';
import { HttpClient } from '../helpers/http.js';
import { BLOG, DIALECTS, fullAccessHeaders } from '../helpers/server.js';

/** Waits for the next event of a kind (a failing test says which one never came). */
class Events {
  private waiting: { kind: DevelopEvent['kind']; resolve: (event: DevelopEvent) => void }[] = [];
  readonly seen: DevelopEvent[] = [];
  report = (event: DevelopEvent) => {
    this.seen.push(event);
    for (const waiter of this.waiting.filter((w) => w.kind === event.kind)) waiter.resolve(event);
    this.waiting = this.waiting.filter((w) => w.kind !== event.kind);
  };
  next(kind: DevelopEvent['kind']): Promise<DevelopEvent> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${kind} event within 30 s`)), 30_000);
      this.waiting.push({
        kind,
        resolve: (event) => {
          clearTimeout(timer);
          resolve(event);
        },
      });
    });
  }
}

const write = (dir: string, file: string, text: string) => {
  mkdirSync(join(dir, file, '..'), { recursive: true });
  writeFileSync(join(dir, file), text);
};

const NOTE_SCHEMA = JSON.stringify({
  kind: 'collectionType',
  collectionName: 'notes',
  info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
  options: { draftAndPublish: false },
  attributes: { body: { type: 'text' } },
});

for (const dialect of DIALECTS) {
  describe(`vellum develop [${dialect}]`, () => {
    let project: string;
    let database: TestDatabase;
    let dev: DevelopServer;
    let api: HttpClient;
    const events = new Events();

    before(async () => {
      project = mkdtempSync(join(tmpdir(), 'vellum-develop-'));
      cpSync(BLOG, project, { recursive: true, filter: (source) => !source.includes('.tmp') });
      // A TypeScript project: develop keeps its generated types current.
      writeFileSync(join(project, 'tsconfig.json'), '{}');
      database = await createTestDatabase(dialect);
      dev = await startDevelop(project, {
        env: { NODE_ENV: 'test' },
        overrides: { server: { host: '127.0.0.1', port: 0 }, database: database.config },
        report: events.report,
      });
      api = new HttpClient(dev.url, await fullAccessHeaders(dev.current));
    });

    after(async () => {
      await dev?.close();
      await database?.drop();
      if (project) rmSync(project, { recursive: true, force: true });
    });

    it('serves a new content-type once its files are saved, answering every request meanwhile', async () => {
      assert.equal((await api.get('/api/notes')).status, 404);
      let reading = true;
      const statuses: number[] = [];
      const reader = (async () => {
        while (reading) statuses.push((await api.get('/api/articles?pagination[pageSize]=1')).status);
      })();
      const applied = events.next('reloaded');
      write(project, 'src/api/note/content-types/note/schema.json', NOTE_SCHEMA);
      write(
        project,
        'src/api/note/routes/note.js',
        "module.exports = require('@strapi/strapi').factories.createCoreRouter('api::note.note');",
      );
      const event = await applied;
      assert.ok(event.kind === 'reloaded' && event.files.includes('src/api/note/content-types/note/schema.json'));
      assert.match(
        readFileSync(join(project, 'types/generated/contentTypes.d.ts'), 'utf8'),
        /'api::note\.note': ApiNoteNote;/,
      );
      const created = await api.post('/api/notes', { data: { body: 'saved' } });
      assert.equal(created.status, 201, created.text);
      assert.equal((await api.get(`/api/notes/${created.body.data.documentId}`)).body.data.body, 'saved');
      // A few more reads on the new version, then the reader stops.
      for (let i = 0; i < 3; i++) assert.equal((await api.get('/api/articles')).status, 200);
      reading = false;
      await reader;
      assert.ok(statuses.length > 0);
      assert.deepEqual(
        statuses.filter((status) => status !== 200),
        [],
      );
    });

    it('a change that does not start is reported, the previous version serves on, and the fix applies', async () => {
      const failed = events.next('failed');
      write(project, 'src/api/note/content-types/note/schema.json', '{ "kind": ');
      const event = await failed;
      assert.ok(event.kind === 'failed');
      assert.match(String((event.error as Error).message), /note\/schema\.json: is not valid JSON/);
      assert.equal((await api.get('/api/notes')).status, 200);
      const applied = events.next('reloaded');
      write(
        project,
        'src/api/note/content-types/note/schema.json',
        NOTE_SCHEMA.replace('"body":{"type":"text"}', '"body":{"type":"text"},"title":{"type":"string"}'),
      );
      await applied;
      const created = await api.post('/api/notes', { data: { body: 'b', title: 'with a title' } });
      assert.equal(created.status, 201, created.text);
      assert.equal(created.body.data.title, 'with a title');
    });

    it('reads project code again, and the files it requires', async () => {
      const controller = `'use strict';
const { factories } = require('@strapi/strapi');
const marker = require('../marker.js');
module.exports = factories.createCoreController('api::article.article', () => ({
  async find() { return { marker: marker.value }; },
}));`;
      let applied = events.next('reloaded');
      write(project, 'src/api/article/marker.js', "module.exports = { value: 'one' };");
      write(project, 'src/api/article/controllers/article.js', controller);
      await applied;
      assert.deepEqual((await api.get('/api/articles')).body, { marker: 'one' });
      applied = events.next('reloaded');
      write(project, 'src/api/article/marker.js', "module.exports = { value: 'two' };");
      await applied;
      assert.deepEqual((await api.get('/api/articles')).body, { marker: 'two' });
    });
  });
}
