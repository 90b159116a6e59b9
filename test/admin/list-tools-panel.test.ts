/**
 * The content manager's list tools, end to end in Debian's Chromium (docs/admin-panel.md "List
 * tools"): rows selected and published in bulk, with a summary of the entry that could not be and
 * why; a document duplicated from its row menu, without the unique field a copy cannot take.
 * Screenshots land in .tmp/admin-screenshots/ (list-tools-*.png). SQLite only: the API's tests
 * (test/admin/list-tools.test.ts) run on every database.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import {
  browserMissing,
  ensureAdminBuild,
  launchChromium,
  logInToPanel,
  newPanelPage,
  screenshotsDir,
} from '../helpers/browser.js';
import type { HttpClient } from '../helpers/http.js';
import { registerFirstAdmin } from '../helpers/admins.js';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';

const skip = !DIALECTS.includes('sqlite') ? 'the browser tests run on SQLite' : browserMissing();
const ARTICLES = '/content-manager/collection-types/api::article.article';

/**
 * A tiny front end on 127.0.0.1: `/preview/:documentId` reads the article's draft from Vellum's
 * content API with the preview token its URL carries, and shows its title.
 */
async function startFrontEnd(vellumUrl: () => string): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://front');
      const id = url.pathname.split('/').pop();
      const token = url.searchParams.get('previewToken') ?? '';
      const locale = url.searchParams.get('locale') ?? '';
      const answer = await fetch(`${vellumUrl()}/api/articles/${id}?status=draft&locale=${locale}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const body = (await answer.json()) as { data?: { title?: string } };
      response.writeHead(answer.ok ? 200 : answer.status, { 'content-type': 'text/html; charset=utf-8' });
      response.end(`<!doctype html><title>Front end</title><h1>${body.data?.title ?? `Error ${answer.status}`}</h1>`);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('admin panel: the list tools [sqlite]', { skip }, () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let root: HttpClient;
  let front: { url: string; server: Server };
  const email = 'root@example.com';
  const password = 'Root-Passw0rd';
  const shot = (name: string) =>
    page.screenshot({ path: join(screenshotsDir(), `list-tools-${name}.png`), fullPage: true });
  const create = async (body: Record<string, unknown>) => {
    const answer = await root.post(`${ARTICLES}?locale=en`, body);
    assert.equal(answer.status, 201, JSON.stringify(answer.body));
    return answer.body.data.documentId as string;
  };
  const statusOf = async (documentId: string) =>
    (await root.get(`${ARTICLES}/${documentId}?locale=en`)).body.data.status as string;

  before(async () => {
    ensureAdminBuild();
    front = await startFrontEnd(() => server.url);
    const preview = {
      config: {
        allowedOrigins: [front.url],
        handler: (_uid: string, { documentId, locale }: { documentId: string; locale?: string | null }) =>
          `${front.url}/preview/${documentId}?locale=${locale ?? ''}`,
      },
    };
    server = await startServer('sqlite', { config: { admin: { preview } } });
    root = (await registerFirstAdmin(server, { email, password, firstname: 'Rosa' })).client;
    browser = await launchChromium();
    page = await newPanelPage(browser);
    await logInToPanel(page, server.url, email, password);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    front?.server.close();
  });

  it('publishes the selected rows, and sums up what could not be done', async () => {
    const alpha = await create({ title: 'Alpha', slug: 'alpha' });
    const beta = await create({ title: 'Beta', slug: 'beta' });
    const untitled = await create({ body: 'no title yet' });
    await page.goto(`${server.url}/admin/content/api::article.article?sort=updatedAt:asc`);
    const table = page.getByRole('table', { name: 'Article entries' });
    await table.getByRole('link', { name: 'Alpha' }).waitFor();

    await table.getByRole('checkbox', { name: 'Select Alpha' }).check();
    await table.getByRole('checkbox', { name: 'Select Beta' }).check();
    const toolbar = page.getByRole('toolbar', { name: 'Bulk actions' });
    await toolbar.getByText('2 entries selected').waitFor();
    await toolbar.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Yes, publish' }).click();
    await page.getByText('Published 2 of 2 entries').waitFor();
    await shot('01-published');
    assert.deepEqual([await statusOf(alpha), await statusOf(beta)], ['published', 'published']);
    await table.getByRole('row', { name: /Alpha/ }).getByText('Published').waitFor();

    // All on the page, one of which cannot be published (its required title is missing).
    await table.getByRole('checkbox', { name: 'Select all entries on this page' }).check();
    await toolbar.getByText('3 entries selected').waitFor();
    await toolbar.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Yes, publish' }).click();
    const summary = page.getByRole('dialog', { name: 'Published 2 of 3 entries' });
    await summary.waitFor();
    const notDone = await summary.getByRole('list', { name: 'Entries not done' }).innerText();
    assert.match(notDone, new RegExp(`^${untitled} \\(en\\): .+`));
    await shot('02-summary');
    await summary.getByRole('button', { name: 'Close' }).click();
    assert.equal(await statusOf(untitled), 'draft');

    // The status filter, in the URL: the one never published.
    await page.getByRole('combobox', { name: 'Status' }).selectOption({ label: 'Draft (never published)' });
    await page.waitForURL((url) => url.searchParams.get('status') === 'draft');
    await page.waitForFunction(
      () => document.querySelectorAll('table[aria-label="Article entries"] tbody tr').length === 1,
    );
    await table.getByRole('link', { name: '(no title)' }).waitFor();
    await shot('03-status');
  });

  it('duplicates a row, without the unique field a copy cannot take', async () => {
    await create({ title: 'Gamma', slug: 'gamma', body: 'the body' });
    await page.goto(`${server.url}/admin/content/api::article.article`);
    const table = page.getByRole('table', { name: 'Article entries' });
    await table.getByRole('button', { name: 'More actions for Gamma' }).click();
    await page.getByRole('menuitem', { name: 'Duplicate' }).click();
    const ask = page.getByRole('dialog', { name: 'Duplicate without some fields?' });
    await ask.getByText('slug (unique)').waitFor();
    await ask.getByRole('button', { name: 'Duplicate without them' }).click();
    // The copy opens in its edit view.
    await page.getByRole('heading', { name: 'Gamma', level: 1 }).waitFor();
    await page.waitForURL((url) => !url.pathname.endsWith('api::article.article'));
    const copyId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
    const copy = (await root.get(`${ARTICLES}/${copyId}?locale=en`)).body.data;
    assert.deepEqual([copy.title, copy.body, copy.status], ['Gamma', 'the body', 'draft']);
    // Its slug made anew from its title, as for any document written without one.
    assert.match(copy.slug, /^gamma-\w+$/);
    await shot('03b-duplicated');
  });

  it('configures the view: a column’s label, a column removed, a field’s description, which the views follow', async () => {
    const id = await create({ title: 'Configured', slug: 'configured' });
    await page.goto(`${server.url}/admin/content/api::article.article`);
    await page.getByRole('link', { name: 'Configure the view' }).click();
    await page.getByRole('heading', { name: 'Configure the view', level: 1 }).waitFor();
    const columns = page.getByRole('table', { name: 'Columns' });
    await columns.getByRole('textbox', { name: 'Label of the title column' }).fill('Headline');
    await columns.getByRole('button', { name: 'Remove the slug column' }).click();
    await page
      .getByRole('group', { name: 'Field title' })
      .getByRole('textbox', { name: 'Description' })
      .fill('What readers see first');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('View configured').waitFor();
    await shot('04-configure');
    const stored = (await root.get('/content-manager/content-types/api::article.article/configuration')).body.data
      .contentType;
    assert.deepEqual(
      [stored.metadatas.title.list.label, stored.layouts.list, stored.metadatas.title.edit.description],
      ['Headline', ['id', 'title', 'views'], 'What readers see first'],
    );

    await page.getByRole('link', { name: '← Back to Article' }).click();
    const table = page.getByRole('table', { name: 'Article entries' });
    await table.getByRole('button', { name: /^Headline/ }).waitFor();
    const headers = (await table.locator('thead th').allInnerTexts()).map((text) => text.replace(/[▲▼]/g, '').trim());
    assert.ok(headers.includes('Headline') && !headers.includes('slug') && !headers.includes('title'), String(headers));
    await page.goto(`${server.url}/admin/content/api::article.article/${id}?locale=en`);
    await page.getByText('What readers see first').waitFor();
    await shot('05-configured-edit');
  });

  it('shows the front end’s preview of the draft beside the form, read again after a save', async () => {
    const id = await create({ title: 'Draft to preview' });
    await page.goto(`${server.url}/admin/content/api::article.article/${id}?locale=en`);
    const frame = page.frameLocator('iframe[title="Preview of this entry"]');
    await frame.getByRole('heading', { name: 'Draft to preview' }).waitFor();
    const open = page.getByRole('region', { name: 'Preview' }).getByRole('link', { name: 'Open preview' });
    assert.match(
      (await open.getAttribute('href')) ?? '',
      new RegExp(`^${front.url}/preview/${id}\\?locale=en&previewToken=vpt\\.`),
    );
    // Beside the form, not below it: the frame starts right of the title field, level with the form.
    const title = page.getByLabel(/^title( \*)?$/);
    const field = (await title.boundingBox())!;
    const panel = (await page.getByRole('region', { name: 'Preview', exact: true }).boundingBox())!;
    assert.ok(panel.x > field.x + field.width, `preview at x=${panel.x}, title field ends at ${field.x + field.width}`);
    assert.ok(panel.y < field.y + 400, `preview at y=${panel.y}, title field at ${field.y}`);
    await title.fill('Draft, edited');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await frame.getByRole('heading', { name: 'Draft, edited' }).waitFor();
    await shot('06-preview');
    // Never published: the public reads nothing of it.
    assert.equal((await server.publicApi.get(`/api/articles/${id}?locale=en`)).status, 404);
  });
});
