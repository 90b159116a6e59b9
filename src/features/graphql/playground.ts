/**
 * The GraphiQL playground, served at the endpoint itself for browsers. Every file it needs comes
 * from this server (GraphiQL's and React's browser builds out of node_modules, and a small start
 * script), so it works without internet access and under a CSP that allows only this origin.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';

/** Where the playground's files are served (apart from the GraphQL endpoint, which is configurable). */
const PLAYGROUND_ASSETS = '/_vellum/graphiql';

const require = createRequire(import.meta.url);

/** Renders GraphiQL into #graphiql against the endpoint named by its data-endpoint attribute. */
const START_SCRIPT = `/* global React, ReactDOM, GraphiQL */
(function () {
  var root = document.getElementById('graphiql');
  var fetcher = GraphiQL.createFetcher({ url: root.getAttribute('data-endpoint') });
  ReactDOM.createRoot(root).render(
    React.createElement(GraphiQL, { fetcher: fetcher, isHeadersEditorEnabled: true, shouldPersistHeaders: true })
  );
})();
`;

interface Asset {
  contentType: string;
  /** A file of an installed package, read on first request. */
  file?: { packageName: string; path: string };
  text?: string;
}

// Through package.json: React's package does not export its umd/ folder.
const packageFile = ({ packageName, path }: { packageName: string; path: string }): string =>
  join(dirname(require.resolve(`${packageName}/package.json`)), path);

const ASSETS: Record<string, Asset> = {
  'react.js': {
    contentType: 'application/javascript',
    file: { packageName: 'react', path: 'umd/react.production.min.js' },
  },
  'react-dom.js': {
    contentType: 'application/javascript',
    file: { packageName: 'react-dom', path: 'umd/react-dom.production.min.js' },
  },
  'graphiql.js': { contentType: 'application/javascript', file: { packageName: 'graphiql', path: 'graphiql.min.js' } },
  'graphiql.css': { contentType: 'text/css', file: { packageName: 'graphiql', path: 'graphiql.min.css' } },
  'start.js': { contentType: 'application/javascript', text: START_SCRIPT },
};

const escapeAttribute = (value: string): string =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function playgroundHtml(endpoint: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8"/>
  <title>Vellum GraphQL playground</title>
  <meta name="robots" content="noindex"/>
  <meta name="viewport" content="width=device-width, initial-scale=1"/>
  <link rel="stylesheet" href="${PLAYGROUND_ASSETS}/graphiql.css"/>
  <style>body { margin: 0; overflow: hidden; } #graphiql { height: 100vh; }</style>
</head>
<body>
  <div id="graphiql" data-endpoint="${escapeAttribute(endpoint)}"></div>
  <script src="${PLAYGROUND_ASSETS}/react.js"></script>
  <script src="${PLAYGROUND_ASSETS}/react-dom.js"></script>
  <script src="${PLAYGROUND_ASSETS}/graphiql.js"></script>
  <script src="${PLAYGROUND_ASSETS}/start.js"></script>
</body>
</html>
`;
}

/** A browser navigating to the endpoint (not a client sending a query). */
export function wantsPlayground(method: string, url: string, accept: string | undefined): boolean {
  return method === 'GET' && !url.includes('?') && (accept ?? '').includes('text/html');
}

/**
 * The page's policy: scripts from this origin only; inline styles, which GraphiQL's editor sets
 * on elements; images and fonts inlined as data: URLs (GraphiQL's CSS embeds its fonts).
 */
export const PLAYGROUND_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'self'";

/** Serves the playground's files under PLAYGROUND_ASSETS. */
export function registerPlaygroundAssets(app: FastifyInstance): void {
  const loaded = new Map<string, Buffer>();
  for (const [name, asset] of Object.entries(ASSETS)) {
    app.get(`${PLAYGROUND_ASSETS}/${name}`, async (_request, reply) => {
      let body = loaded.get(name);
      if (!body) {
        body = asset.file ? readFileSync(packageFile(asset.file)) : Buffer.from(asset.text ?? '');
        loaded.set(name, body);
      }
      return reply
        .type(`${asset.contentType}; charset=utf-8`)
        .header('cache-control', 'public, max-age=86400')
        .send(body);
    });
  }
}
