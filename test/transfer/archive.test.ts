/**
 * `vellum import --file` and `vellum export --file` on every dialect, against what the real Strapi
 * 5.54 made and answered: test/fixtures/strapi-archive holds an archive of `strapi export` (the blog
 * seeded with drafts, a localized document, a published document with a newer draft, files linked
 * from attributes, components and zones, two users, a custom role, three locales) and the answers
 * that Strapi gave to the reads of queries.ts. Imported here, Vellum must answer the same (row ids
 * aside); exported and imported again into a fresh database, the same again. The live round trip
 * through `strapi import` is test/transfer/live (on demand).
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { isDeepStrictEqual } from 'node:util';
import { HttpClient } from '../helpers/http.js';
import { exportArchive, importArchive, Progress } from '../../src/features/transfer/index.js';
import { openProject } from '../../src/app/open-project.js';
import { archiveEntries, jsonLines } from '../../src/features/transfer/tar.js';
import { archiveSchemas } from '../../src/features/transfer/strapi-schemas.js';
import { BLOG, DIALECTS, fixture, startServer, type TestServer } from '../helpers/server.js';
import { BLOG_QUERIES, normalize } from './queries.js';

const ARCHIVE = join(fixture('strapi-archive'), 'blog.tar.gz');
const ANSWERS = JSON.parse(readFileSync(join(fixture('strapi-archive'), 'answers.json'), 'utf8')) as Record<
  string,
  { status: number; body: unknown }
>;

/** The first place two answers part, for a readable failure. */
function firstDifference(a: unknown, b: unknown, path = ''): string {
  if (isDeepStrictEqual(a, b)) return '';
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const inner = firstDifference(
        (a as Record<string, unknown>)[key],
        (b as Record<string, unknown>)[key],
        `${path}.${key}`,
      );
      if (inner) return inner;
    }
  }
  return `${path}: ${JSON.stringify(a)?.slice(0, 200)} != ${JSON.stringify(b)?.slice(0, 200)}`;
}

async function sameAsStrapi(server: TestServer): Promise<void> {
  for (const path of BLOG_QUERIES) {
    const res = await server.api.get(path);
    const expected = ANSWERS[path]!;
    assert.equal(res.status, expected.status, path);
    const difference = firstDifference(normalize(res.body), normalize(expected.body));
    assert.equal(difference, '', `${path}\n${difference}`);
  }
}

for (const dialect of DIALECTS) {
  describe(`archive import and export [${dialect}]`, () => {
    let server: TestServer;
    let work: string;
    const options = (target: TestServer, publicDir: string) => ({
      env: { NODE_ENV: 'test' },
      overrides: { server: { dirs: { public: publicDir } }, database: target.databaseConfig },
    });
    const importInto = async (target: TestServer, publicDir: string, file = ARCHIVE) => {
      const project = await openProject(BLOG, options(target, publicDir));
      try {
        return await importArchive(project, file, new Progress(null));
      } finally {
        await project.close();
      }
    };

    before(async () => {
      work = await mkdtemp(join(tmpdir(), 'vellum-transfer-test-'));
      // At the archive's cost (Strapi's 10): a login at another one stores the password hashed again
      // (docs/security.md "Password hashing"), which a later import takes for a changed password.
      server = await startServer(dialect, {
        config: { server: { dirs: { public: join(work, 'public') }, passwords: { rounds: 10 } } },
      });
      await importInto(server, join(work, 'public'));
    });
    after(async () => {
      await server?.close();
      await rm(work, { recursive: true, force: true });
    });

    it('answers the recorded reads as Strapi answered them: documents, drafts, locales, relations, components, zones, media, users, locales', async () => {
      await sameAsStrapi(server);
    });

    it('users sign in with the passwords they had on Strapi; the custom role keeps its grants', async () => {
      const res = await server.publicApi.post('/api/auth/local', {
        identifier: 'alice@example.test',
        password: 'Alice-Passw0rd',
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.user.username, 'alice');
      const wrong = await server.publicApi.post('/api/auth/local', { identifier: 'bob', password: 'Alice-Passw0rd' });
      assert.equal(wrong.status, 400);
      const editor = await server.vellum.auth.roles.get('editor');
      assert.deepEqual(editor.permissions, ['api::tag.tag.create', 'api::tag.tag.find', 'api::tag.tag.findOne']);
      const bob = await server.publicApi.post('/api/auth/local', {
        identifier: 'bob@example.test',
        password: 'Bob-Passw0rd',
      });
      assert.equal(bob.status, 200);
      const auth = { authorization: `Bearer ${bob.body.jwt}` };
      assert.equal(
        (await server.publicApi.get('/api/tags', { headers: auth })).status,
        200,
        'the editor role may find tags',
      );
      assert.equal((await server.publicApi.get('/api/categories', { headers: auth })).status, 403, 'and nothing else');
    });

    it('stores the files, formats included, where the media library serves them', async () => {
      const files = (await server.api.get('/api/upload/files')).body as {
        url: string;
        formats: Record<string, { url: string }> | null;
      }[];
      assert.ok(files.length >= 6);
      for (const file of files) {
        for (const url of [file.url, ...Object.values(file.formats ?? {}).map((f) => f.url)]) {
          assert.equal((await server.publicApi.get(url)).status, 200, url);
        }
      }
    });

    it('brings the locales along: de, added on Strapi at run time, is usable at once', async () => {
      const codes = ((await server.api.get('/api/i18n/locales')).body as { code: string }[]).map((l) => l.code);
      assert.deepEqual(codes, ['en', 'fr', 'de']);
      assert.equal((await server.api.get('/api/articles?locale=de')).status, 200);
    });

    it('a second import changes nothing: same counts, same answers; versions the archive does not have go', async () => {
      const list = (await server.api.get('/api/articles?filters[title][$startsWith]=Incididunt&fields[0]=title')).body
        .data as { documentId: string }[];
      const documentId = list[0]!.documentId;
      const extra = await server.api.put(`/api/articles/${documentId}?locale=de&status=draft`, {
        data: { title: 'Ein Entwurf' },
      });
      assert.equal(extra.status, 200, JSON.stringify(extra.body));
      const summary = await importInto(server, join(work, 'public'));
      assert.equal(
        (await server.api.get(`/api/articles/${documentId}?locale=de&status=draft`)).status,
        404,
        'the de draft is not in the archive',
      );
      assert.deepEqual(summary.mismatches, []);
      const articles = summary.types.get('api::article.article')!;
      assert.equal(articles.destination, articles.source);
      await sameAsStrapi(server);
    });

    it("an import that replaces a user's password ends what was signed in with the other one; an unchanged one keeps its JWT", async () => {
      const alice = await server.publicApi.post('/api/auth/local', {
        identifier: 'alice@example.test',
        password: 'Alice-Passw0rd',
      });
      assert.equal(alice.status, 200, alice.text);
      const changed = await new HttpClient(server.url, { authorization: `Bearer ${alice.body.jwt}` }).post(
        '/api/auth/change-password',
        { currentPassword: 'Alice-Passw0rd', password: 'Another-Passw0rd', passwordConfirmation: 'Another-Passw0rd' },
      );
      assert.equal(changed.status, 200, changed.text);
      const bob = await server.publicApi.post('/api/auth/local', {
        identifier: 'bob@example.test',
        password: 'Bob-Passw0rd',
      });
      const me = (jwt: string) => new HttpClient(server.url, { authorization: `Bearer ${jwt}` }).get('/api/users/me');
      assert.equal((await me(changed.body.jwt)).status, 200);
      const bobBefore = (await me(bob.body.jwt)).status; // 403: his role may not read /users/me, but the JWT is accepted
      assert.notEqual(bobBefore, 401);
      // The import's revocation counts whole seconds, as a password change's does.
      await new Promise((resolve) => setTimeout(resolve, 1100));
      await importInto(server, join(work, 'public'));
      assert.equal((await me(changed.body.jwt)).status, 401, 'signed in with the password the archive replaced');
      assert.equal((await me(bob.body.jwt)).status, bobBefore, 'an unchanged password keeps its JWTs');
      assert.equal(
        (
          await server.publicApi.post('/api/auth/local', {
            identifier: 'alice@example.test',
            password: 'Alice-Passw0rd',
          })
        ).status,
        200,
        "the archive's password",
      );
    });

    it('a run that fails leaves a clear message, and the next run completes it', async () => {
      const fresh = await startServer(dialect, { config: { server: { dirs: { public: join(work, 'public3') } } } });
      try {
        const whole = readFileSync(ARCHIVE);
        const truncated = join(work, 'truncated.tar.gz');
        writeFileSync(truncated, whole.subarray(0, Math.floor(whole.length * 0.6)));
        await assert.rejects(
          importInto(fresh, join(work, 'public3'), truncated),
          (error: Error) => error.name === 'TransferError' && error.message.includes('truncated.tar.gz'),
        );
        // A category of the archive's name, published in this project as another document: named, with what to do.
        const taken = await fresh.api.post('/api/categories', { data: { name: 'Reprehenderit laboris 1' } });
        assert.equal(taken.status, 201);
        await assert.rejects(
          importInto(fresh, join(work, 'public3')),
          (error: Error) =>
            error.name === 'TransferError' &&
            /api::category\.category \w+ .*name/.test(error.message) &&
            /import again/.test(error.message),
        );
        await fresh.api.delete(`/api/categories/${taken.body.data.documentId}`);
        const summary = await importInto(fresh, join(work, 'public3'));
        assert.deepEqual(summary.mismatches, []);
        await sameAsStrapi(fresh);
      } finally {
        await fresh.close();
      }
    });

    it('exports an archive that a fresh database imports into the same answers, with schemas as Strapi writes them', async () => {
      const file = join(work, 'export.tar.gz');
      // A webhook travels as Strapi's engine writes them (without Vellum's signing secret).
      const hook = {
        name: 'Deploy the site',
        url: 'http://127.0.0.1:9/deploy',
        headers: { 'X-Site': 'blog' },
        events: ['entry.publish', 'entry.unpublish'],
        isEnabled: false,
      };
      await server.vellum.webhooks.create({ ...hook, secret: 'not-exported' });
      const project = await openProject(BLOG, options(server, join(work, 'public')));
      try {
        await exportArchive(project, file, new Progress(null));
        const ours = new Map<string, unknown>();
        for await (const entry of archiveEntries(file)) {
          if (entry.path.startsWith('schemas/'))
            for await (const schema of jsonLines(entry.body, entry.path))
              ours.set((schema as { uid: string }).uid, schema);
        }
        const strapis = new Map<string, unknown>();
        for await (const entry of archiveEntries(ARCHIVE)) {
          if (entry.path.startsWith('schemas/'))
            for await (const schema of jsonLines(entry.body, entry.path))
              strapis.set((schema as { uid: string }).uid, schema);
        }
        assert.deepEqual(ours, strapis);
        assert.equal(archiveSchemas(project).length, strapis.size);
      } finally {
        await project.close();
      }
      const fresh = await startServer(dialect, { config: { server: { dirs: { public: join(work, 'public2') } } } });
      try {
        await importInto(fresh, join(work, 'public2'), file);
        await sameAsStrapi(fresh);
        const hooks = async () => (await fresh.vellum.webhooks.list()).map(({ id: _id, ...webhook }) => webhook);
        assert.deepEqual(await hooks(), [hook]);
        const stored = await fresh.vellum.database.system.selectFrom('strapi_webhooks').select('secret').execute();
        assert.deepEqual(stored, [{ secret: null }]);
        // A second import of the archive adds none.
        await importInto(fresh, join(work, 'public2'), file);
        assert.deepEqual(await hooks(), [hook]);
        const res = await fresh.publicApi.post('/api/auth/local', { identifier: 'alice', password: 'Alice-Passw0rd' });
        assert.equal(res.status, 200);
      } finally {
        await fresh.close();
      }
    });
  });
}
