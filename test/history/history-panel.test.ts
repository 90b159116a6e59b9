/**
 * Content history in the admin panel, end to end in Debian's Chromium (docs/history.md): from an
 * entry's edit view, its "Content history" screen lists the versions with their authors and
 * statuses, shows the selected version's fields beside the current ones with the changed fields
 * marked, and restores one after a confirmation, naming a relation whose target was deleted
 * since. Screenshots land in .tmp/admin-screenshots/ (history-*.png). SQLite only: the API's own
 * tests (test/history/history.test.ts) run on every database.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import {
  attributeField,
  browserMissing,
  ensureAdminBuild,
  launchChromium,
  logInToPanel,
  newPanelPage,
  screenshotsDir,
} from '../helpers/browser.js';
import { HttpClient } from '../helpers/http.js';
import { DIALECTS, fixture, startServer, type TestServer } from '../helpers/server.js';

const skip = !DIALECTS.includes('sqlite') ? 'the browser tests run on SQLite' : browserMissing();
const ARTICLES = '/content-manager/collection-types/api::article.article';
const TAGS = '/content-manager/collection-types/api::tag.tag';

describe('admin panel: content history [sqlite]', { skip }, () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let root: HttpClient;
  const email = 'root@example.com';
  const password = 'Root-Passw0rd';
  const shot = (name: string) =>
    page.screenshot({ path: join(screenshotsDir(), `history-${name}.png`), fullPage: true });
  const write = async (method: 'post' | 'put' | 'delete', path: string, body: unknown = {}) => {
    const answer = method === 'delete' ? await root.delete(path) : await root[method](path, body);
    assert.ok(answer.status < 300, `${method} ${path}: ${JSON.stringify(answer.body)}`);
    return answer.body.data as Record<string, unknown>;
  };

  before(async () => {
    ensureAdminBuild();
    server = await startServer('sqlite', { project: fixture('history') });
    const first = await server.publicApi.post('/admin/register-admin', { email, password, firstname: 'Rosa' });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    root = new HttpClient(server.url, { authorization: `Bearer ${first.body.data.token}` });
    browser = await launchChromium();
    page = await newPanelPage(browser);
    await logInToPanel(page, server.url, email, password);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows a version beside the current entry, changed fields marked, and restores it', async () => {
    const keep = (await write('post', TAGS, { name: 'Keep' })).documentId as string;
    const gone = (await write('post', TAGS, { name: 'Gone' })).documentId as string;
    const article = await write('post', `${ARTICLES}?locale=en`, {
      title: 'Old title',
      body: 'Same body',
      tags: { connect: [{ documentId: keep }, { documentId: gone }] },
    });
    const id = article.documentId as string;
    await write('put', `${ARTICLES}/${id}?locale=en`, {
      title: 'New title',
      tags: { disconnect: [{ documentId: gone }] },
    });
    await write('delete', `${TAGS}/${gone}`);

    await page.goto(`${server.url}/admin/content/api::article.article/${id}?locale=en`);
    await attributeField(page, 'title').waitFor();
    await page.getByRole('link', { name: 'Content history' }).click();
    await page.getByRole('heading', { name: 'Content history', level: 1 }).waitFor();
    const versions = page.getByRole('navigation', { name: 'Versions' }).getByRole('button');
    assert.equal(await versions.count(), 2);
    assert.match((await versions.nth(0).textContent()) ?? '', /Rosa.*Draft/);
    await versions.nth(1).click();
    const selected = page.getByRole('region', { name: 'Selected version' });
    const row = (field: string) => selected.locator('tbody tr').filter({ has: page.getByText(field, { exact: true }) });
    await row('title').getByText('Old title').waitFor();
    assert.equal(await row('title').getAttribute('data-changed'), 'true');
    assert.equal(await row('body').getAttribute('data-changed'), null);
    // The deleted tag is named as missing, not silently dropped.
    await row('tags')
      .getByText(/Keep · 1 missing/)
      .waitFor();
    await shot('01-compare');

    await selected.getByRole('button', { name: 'Restore' }).click();
    await page
      .getByRole('dialog', { name: 'Restore this version?' })
      .getByRole('button', { name: 'Yes, restore' })
      .click();
    await page.getByText(/Version restored as a draft\. Left out, deleted since: tags/).waitFor();
    // Back in the editor, which shows the restored draft.
    const title = attributeField(page, 'title');
    await title.waitFor();
    for (let tries = 0; tries < 50 && (await title.inputValue()) !== 'Old title'; tries++)
      await page.waitForTimeout(100);
    assert.equal(await title.inputValue(), 'Old title');
    await shot('02-restored');
    const draft = await root.get(`${ARTICLES}/${id}?locale=en`);
    assert.equal(draft.body.data.title, 'Old title');
  });
});
