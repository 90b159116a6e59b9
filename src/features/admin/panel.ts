/**
 * The admin panel's files (the app in admin/, built by `npm run admin:build` into dist/admin/),
 * served beside the admin API: `/admin` answers the app's page, `/admin/assets/*` its hashed
 * files (cached for a year: a new build has new names), and any other `GET /admin/...` a browser
 * navigates to answers the page too, so that a client route survives a reload. The JSON admin
 * routes keep priority (a static or parametric route beats this wildcard), and the app's own
 * routes use paths they do not (`/admin/content/...`); a request that does not accept HTML still
 * gets the JSON 404. Without a build, the page says how to make one.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { packageRoot } from '../../core/package-root.js';

/** dist/admin/ at the package's root, whether this module runs from src/, dist/ or the bundle. */
const ADMIN_PANEL_DIR = join(packageRoot(import.meta.url), 'dist/admin/');

const NOT_BUILT = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Vellum admin: not built</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem;color:#222}code{background:#f2f2f2;padding:.1rem .3rem;border-radius:3px}</style>
</head><body><main>
<h1>The admin panel is not built</h1>
<p>This Vellum serves its admin API, but the panel's files are missing from <code>dist/admin/</code>.</p>
<p>Build them in Vellum's folder with <code>npm run admin:build</code> (<code>npm install</code> runs it), then restart the server.</p>
</main></body></html>
`;

const wantsHtml = (request: FastifyRequest) => /\btext\/html\b/.test(request.headers.accept ?? '');

export async function registerAdminPanel(
  app: FastifyInstance,
  dir: string = ADMIN_PANEL_DIR,
  prefix = '/admin',
): Promise<void> {
  const assets = join(dir, 'assets');
  if (existsSync(assets)) {
    await app.register(fastifyStatic, {
      root: assets,
      prefix: `${prefix}/assets/`,
      decorateReply: false,
      index: false,
      list: false,
      dotfiles: 'deny',
      // The build writes .br and .gz beside each script and style sheet.
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply: FastifyReply) => void reply.header('cache-control', 'public, max-age=31536000, immutable'),
    });
  }

  let page: string | undefined;
  const sendPage = async (reply: FastifyReply) => {
    page ??= await readFile(join(dir, 'index.html'), 'utf8').catch(() => undefined);
    void reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache');
    return page === undefined ? reply.status(503).send(NOT_BUILT) : reply.send(page);
  };

  app.get(prefix, (_request, reply) => sendPage(reply));
  app.get(`${prefix}/*`, (request, reply) => (wantsHtml(request) ? sendPage(reply) : reply.callNotFound()));
}
