/**
 * `vellum import strapi --url --token` on every dialect, against what the real Strapi 5.54
 * answered to it: test/fixtures/strapi-archive/api.json holds every answer (files too) that the
 * seeded Strapi of answers.json gave to the import, served here again over HTTP by a replaying
 * server. The imported project must answer the recorded reads as that Strapi did; users come
 * without their password hashes (the API never shows them), which the summary says.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { isDeepStrictEqual } from 'node:util';
import { importFromStrapi, Progress, type Summary } from '../../src/features/transfer/index.js';
import { openProject } from '../../src/app/open-project.js';
import { BLOG, DIALECTS, fixture, startServer, type TestServer } from '../helpers/server.js';
import { BLOG_QUERIES, normalize } from './queries.js';

const RECORDED = JSON.parse(readFileSync(join(fixture('strapi-archive'), 'api.json'), 'utf8')) as Record<
  string,
  { status: number; type: string; body: string }
>;
const ANSWERS = JSON.parse(readFileSync(join(fixture('strapi-archive'), 'answers.json'), 'utf8')) as Record<
  string,
  { status: number; body: unknown }
>;
const TOKEN = 'recorded-token';

const FILES_PAGE = '/api/upload/files?pagination[page]=1&pagination[pageSize]=100&sort=id%3Aasc';

/**
 * The recorded Strapi: the same answers to the same requests, 401 without the token. `files`
 * rewrites the media list's answer; `redirects` answers those paths with a redirect.
 */
async function replay(
  options: { files?: (files: { url: string }[]) => unknown; redirects?: Record<string, string> } = {},
): Promise<{ url: string; server: Server; asked: string[] }> {
  const asked: string[] = [];
  const server = createServer((request, response) => {
    const path = request.url ?? '/';
    asked.push(path);
    if (options.redirects?.[path]) {
      response.writeHead(302, { location: options.redirects[path] }).end();
      return;
    }
    if (path === FILES_PAGE && options.files) {
      const body = JSON.stringify(
        options.files(JSON.parse(Buffer.from(RECORDED[path]!.body, 'base64').toString('utf8'))),
      );
      response.writeHead(200, { 'content-type': 'application/json' }).end(body);
      return;
    }
    const isFile = path.startsWith('/uploads/');
    if (!isFile && request.headers.authorization !== `Bearer ${TOKEN}`) {
      response
        .writeHead(401, { 'content-type': 'application/json' })
        .end(
          '{"data":null,"error":{"status":401,"name":"UnauthorizedError","message":"Missing or invalid credentials"}}',
        );
      return;
    }
    const answer = RECORDED[path];
    if (!answer) {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"data":null,"error":{"status":404}}');
      return;
    }
    response.writeHead(answer.status, { 'content-type': answer.type }).end(Buffer.from(answer.body, 'base64'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, asked };
}

for (const dialect of DIALECTS) {
  describe(`import from a running Strapi [${dialect}]`, () => {
    let server: TestServer;
    let strapi: Awaited<ReturnType<typeof replay>>;
    let work: string;
    let summary: Summary;
    const importOnce = async () => {
      const project = await openProject(BLOG, {
        env: { NODE_ENV: 'test' },
        overrides: { server: { dirs: { public: join(work, 'public') } }, database: server.databaseConfig },
      });
      try {
        return await importFromStrapi(project, strapi.url, TOKEN, new Progress(null));
      } finally {
        await project.close();
      }
    };

    before(async () => {
      work = await mkdtemp(join(tmpdir(), 'vellum-api-import-'));
      strapi = await replay();
      server = await startServer(dialect, { config: { server: { dirs: { public: join(work, 'public') } } } });
      summary = await importOnce();
    });
    after(async () => {
      await server?.close();
      await new Promise((resolve) => strapi?.server.close(resolve));
      await rm(work, { recursive: true, force: true });
    });

    it('answers the recorded reads as Strapi answered them', async () => {
      for (const path of BLOG_QUERIES) {
        const res = await server.api.get(path);
        assert.equal(res.status, ANSWERS[path]!.status, path);
        assert.ok(isDeepStrictEqual(normalize(res.body), normalize(ANSWERS[path]!.body)), path);
      }
    });

    it('compares counts per type on both sides and names what the API cannot give', () => {
      assert.deepEqual(summary.mismatches, []);
      const articles = summary.types.get('api::article.article')!;
      assert.equal(articles.source, 53);
      assert.equal(articles.destination, 53);
      const notes = summary.lines().join('\n');
      assert.match(notes, /password hashes are not readable/);
      assert.match(notes, /role grants/);
      assert.match(notes, /API tokens/);
    });

    it('a second run updates, never duplicates', async () => {
      const again = await importOnce();
      assert.deepEqual(again.mismatches, []);
      assert.equal(again.types.get('api::article.article')!.destination, 53);
      const files = (await server.api.get('/api/upload/files')).body as unknown[];
      assert.equal(files.length, 6);
    });

    it("fetches only the source's own files: another origin only when --file-origin names it, no redirect followed", async () => {
      // Another service on this machine that a file's url names (a metadata endpoint, say).
      const elsewhere = await replay();
      const pointing = await replay({
        files: (files) =>
          files.map((file, i) =>
            i === 0 ? { ...file, url: `${elsewhere.url}/uploads/mig_red_76e21ea7f8.png` } : file,
          ),
      });
      const redirecting = await replay({
        redirects: { '/uploads/mig_red_76e21ea7f8.png': `${elsewhere.url}/uploads/mig_red_76e21ea7f8.png` },
      });
      const run = async (source: string, origins: string[] = []) => {
        const project = await openProject(BLOG, {
          env: { NODE_ENV: 'test' },
          overrides: { server: { dirs: { public: join(work, 'public') } }, database: server.databaseConfig },
        });
        try {
          return await importFromStrapi(project, source, TOKEN, new Progress(null), origins);
        } finally {
          await project.close();
        }
      };
      try {
        await assert.rejects(run(pointing.url), (error: Error) => {
          assert.match(
            error.message,
            /outside http:\/\/127\.0\.0\.1:\d+: the import fetches only the source's own files/,
          );
          assert.ok(error.message.includes(`pass --file-origin ${elsewhere.url}`), error.message);
          return true;
        });
        await assert.rejects(run(redirecting.url), /answered a redirect \(302\)/);
        assert.deepEqual(elsewhere.asked, [], 'nothing was fetched from the other origin');

        const summary = await run(pointing.url, [elsewhere.url]);
        assert.deepEqual(summary.mismatches, []);
        assert.deepEqual(elsewhere.asked, ['/uploads/mig_red_76e21ea7f8.png']);
      } finally {
        for (const s of [elsewhere, pointing, redirecting]) await new Promise((resolve) => s.server.close(resolve));
      }
    });

    it('a token Strapi refuses stops the import with what to do', async () => {
      const project = await openProject(BLOG, {
        env: { NODE_ENV: 'test' },
        overrides: { server: { dirs: { public: join(work, 'public') } }, database: server.databaseConfig },
      });
      try {
        await assert.rejects(
          importFromStrapi(project, strapi.url, 'wrong', new Progress(null)),
          /full-access API token/,
        );
      } finally {
        await project.close();
      }
    });
  });
}
