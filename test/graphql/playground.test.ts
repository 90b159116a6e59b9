/**
 * The GraphQL playground works without internet access: the page, and every script and style it
 * references, come from the server itself; its policy allows no other origin.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';

/** The `src` and `href` attributes of a page. */
const references = (html: string): string[] =>
  [...html.matchAll(/\s(?:src|href)="([^"]*)"/g)].map((match) => match[1]!);

for (const dialect of DIALECTS) {
  describe(`GraphQL playground [${dialect}]`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect);
    });
    after(() => server?.close());

    const page = () => fetch(`${server.url}/graphql`, { headers: { accept: 'text/html,application/xhtml+xml' } });

    it('is served at the endpoint to a browser, under a policy that allows this origin only', async () => {
      const response = await page();
      assert.equal(response.status, 200);
      assert.match(response.headers.get('content-type') ?? '', /^text\/html/);
      const policy = response.headers.get('content-security-policy') ?? '';
      assert.match(policy, /script-src 'self'(;|$)/);
      assert.doesNotMatch(policy, /https?:|unpkg|\*/, policy);
      const html = await response.text();
      assert.match(html, /data-endpoint="\/graphql"/);
    });

    it('references only files of this server, and each of them is served', async () => {
      const html = await (await page()).text();
      const urls = references(html);
      assert.ok(urls.filter((url) => url.endsWith('.js')).length >= 3, urls.join(' '));
      assert.ok(
        urls.some((url) => url.endsWith('.css')),
        urls.join(' '),
      );
      for (const url of urls) {
        assert.match(url, /^\/[^/]/, `${url} is a path on this server`);
        const asset = await fetch(server.url + url);
        assert.equal(asset.status, 200, url);
        const type = asset.headers.get('content-type') ?? '';
        assert.match(type, url.endsWith('.css') ? /^text\/css/ : /^application\/javascript/, `${url}: ${type}`);
        const body = await asset.text();
        assert.ok(body.length > 0, url);
        // No script or style pulls another script or style in from elsewhere at run time.
        assert.doesNotMatch(
          body,
          /["'`]https?:\/\/[^"'`\s]*\.(?:m?js|css)(?:[?#][^"'`\s]*)?["'`]|@import\s+(?:url\()?["']?https?:/,
          url,
        );
      }
    });

    it('the scripts are GraphiQL and the React it runs on, started against the endpoint', async () => {
      const html = await (await page()).text();
      const scripts = await Promise.all(
        references(html)
          .filter((url) => url.endsWith('.js'))
          .map(async (url) => (await fetch(server.url + url)).text()),
      );
      const all = scripts.join('\n');
      assert.match(all, /window\.GraphiQL\s*=/);
      assert.match(all, /React/);
      assert.match(all, /createRoot/);
      assert.match(all, /GraphiQL\.createFetcher/);
    });

    it('no page that loads GraphiQL from a CDN is left', async () => {
      for (const path of ['/graphiql', '/graphiql/main.js', '/graphiql/config.js']) {
        const response = await fetch(server.url + path, {
          headers: { accept: path.endsWith('.js') ? '*/*' : 'text/html' },
        });
        const body = await response.text();
        assert.doesNotMatch(body, /unpkg\.com|cdn\.jsdelivr/, path);
      }
    });

    it('queries still reach the endpoint', async () => {
      const response = await fetch(`${server.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', ...server.authHeaders },
        body: JSON.stringify({ query: '{ __typename }' }),
      });
      assert.equal(response.status, 200);
      assert.deepEqual(await response.json(), { data: { __typename: 'Query' } });
    });
  });
}
