/**
 * The admin panel's home page, end to end in Debian's Chromium (docs/admin-panel.md "Home page"):
 * a greeting and empty widgets on a new project; after some edits, the entries last edited and
 * last published with their types, statuses and times, and the entries by status; a title opens
 * its editor, and an edit made there shows on the home page at once; an Author sees only their
 * own entries. Each list is checked against the API's answer. Screenshots land in
 * .tmp/admin-screenshots/ (home-*.png). SQLite only: the API's own tests
 * (test/admin/homepage.test.ts) run on every database.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Locator, Page } from 'playwright-core';
import {
  attributeField,
  browserMissing,
  ensureAdminBuild,
  launchChromium,
  logInToPanel,
  newPanelPage,
  screenshotsDir,
} from '../helpers/browser.js';
import type { HttpClient } from '../helpers/http.js';
import { inviteAdmin, registerFirstAdmin } from '../helpers/admins.js';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';

const skip = !DIALECTS.includes('sqlite') ? 'the browser tests run on SQLite' : browserMissing();
const CM = '/content-manager/collection-types';
const ARTICLES = `${CM}/api::article.article`;
const TAGS = `${CM}/api::tag.tag`;
const GLOBAL = '/content-manager/single-types/api::global.global';

describe('admin panel: the home page [sqlite]', { skip }, () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let root: HttpClient;
  const email = 'root@example.com';
  const password = 'Root-Passw0rd';

  const shot = (target: Page, name: string) =>
    target.screenshot({ path: join(screenshotsDir(), `home-${name}.png`), fullPage: true });
  const widget = (target: Page, name: string): Locator => target.getByRole('region', { name });
  /**
   * A widget's rows as the screen shows them: the entry's title (its link) and type, its status,
   * and when (a moment ago: the writes were made seconds before).
   */
  const rows = async (target: Page, name: string): Promise<string[][]> => {
    const body = widget(target, name).locator('tbody tr');
    return Promise.all(
      (await body.all()).map(async (row) => {
        const cells = row.locator('td');
        const text = async (locator: Locator) => ((await locator.textContent()) ?? '').trim();
        const when = await text(cells.nth(2));
        assert.match(when, /^(now|\d+ seconds? ago)$/);
        return [
          await text(cells.nth(0).getByRole('link')),
          await text(cells.nth(0).locator('[data-part="type"]')),
          await text(cells.nth(1)),
          'a moment ago',
        ];
      }),
    );
  };
  const goHome = async (target: Page) => {
    await target.getByRole('link', { name: 'Vellum' }).click();
    await target.getByRole('heading', { name: /^Hello/, level: 1 }).waitFor();
  };
  const write = async (method: 'post' | 'put', path: string, body: unknown = {}) => {
    const answer = await root[method](path, body);
    assert.ok(answer.status < 300, `${method} ${path}: ${JSON.stringify(answer.body)}`);
    // Each write a millisecond after the last: the lists are in time order.
    const now = Date.now();
    while (Date.now() <= now) await new Promise((resolve) => setImmediate(resolve));
    return answer.body.data as Record<string, unknown>;
  };

  before(async () => {
    ensureAdminBuild();
    server = await startServer('sqlite');
    root = (await registerFirstAdmin(server, { email, password, firstname: 'Rosa' })).client;
    browser = await launchChromium();
    page = await newPanelPage(browser);
    await logInToPanel(page, server.url, email, password);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('greets the administrator, with empty widgets on a new project', async () => {
    await page.getByRole('heading', { name: 'Hello Rosa', level: 1 }).waitFor();
    await widget(page, 'Last edited entries').getByText('No edited entries').waitFor();
    await widget(page, 'Last published entries').getByText('No published entries').waitFor();
    await widget(page, 'Entries').getByText('No entries yet').waitFor();
    // The project's counts, as `/admin/homepage/key-statistics` answers them, under Strapi's labels.
    const statistics = (await root.get('/admin/homepage/key-statistics')).body.data as Record<string, number>;
    const counts = widget(page, 'Project statistics');
    await counts.locator('[data-statistic="admins"]').waitFor();
    const shown: Record<string, string> = {};
    for (const term of await counts.locator('dt').all()) {
      const value = term.locator('xpath=following-sibling::dd[1]');
      shown[((await term.textContent()) ?? '').trim()] = ((await value.textContent()) ?? '').trim();
    }
    assert.deepEqual(shown, {
      Entries: '0',
      Assets: String(statistics.assets),
      'Content-Types': String(statistics.contentTypes),
      Components: String(statistics.components),
      Locales: String(statistics.locales),
      Admins: '1',
      Webhooks: String(statistics.webhooks),
      'API Tokens': String(statistics.apiTokens),
    });
    await shot(page, '01-empty');
  });

  it('lists the entries last edited and last published, with their types, statuses and times', async () => {
    const spring = await write('post', `${ARTICLES}?locale=en`, { title: 'Spring notes' });
    const id = spring.documentId as string;
    await write('post', `${ARTICLES}/${id}/actions/publish?locale=en`);
    await write('put', `${ARTICLES}/${id}?locale=fr`, { title: 'Notes de printemps' });
    await write('post', TAGS, { name: 'Gardening' });
    await write('put', GLOBAL, { siteName: 'The garden' });
    await write('post', `${ARTICLES}?locale=en`, { title: 'Autumn plans' });

    await page.reload();
    await widget(page, 'Last edited entries').getByRole('link', { name: 'Autumn plans' }).waitFor();
    assert.deepEqual(await rows(page, 'Last edited entries'), [
      ['Autumn plans', 'Article · en', 'Draft', 'a moment ago'],
      ['The garden', 'Global (single type)', '-', 'a moment ago'],
      ['Gardening', 'Tag', '-', 'a moment ago'],
      ['Notes de printemps', 'Article · fr', 'Draft', 'a moment ago'],
    ]);
    assert.deepEqual(await rows(page, 'Last published entries'), [
      ['Spring notes', 'Article · en', 'Published', 'a moment ago'],
    ]);
    // The screen shows what the API answers.
    const answer = (await root.get('/content-manager/homepage/recent-documents?action=update')).body.data;
    assert.deepEqual(
      answer.map((entry: { title: string }) => entry.title),
      ['Autumn plans', 'The garden', 'Gardening', 'Notes de printemps'],
    );
    // Documents by status: Autumn plans a draft, Spring notes modified (its French draft), the tag and the single type published.
    const counts = widget(page, 'Entries');
    await counts.getByText('4 entries').waitFor();
    assert.deepEqual(
      // As read out: each badge (shown in capitals), then its count.
      (await counts.getByRole('list', { name: 'Entries by status' }).getByRole('listitem').allInnerTexts()).map(
        (text) => text.replace(/\s+/g, ' ').trim().toLowerCase(),
      ),
      ['draft 1', 'modified 1', 'published 2'],
    );
    await shot(page, '02-lists');
  });

  it('opens an entry’s editor from its title, and shows an edit made there at once', async () => {
    await widget(page, 'Last published entries').getByRole('link', { name: 'Spring notes' }).click();
    await page.waitForURL(/\/admin\/content\/api::article\.article\/[a-z0-9]{24}\?locale=en$/);
    await page.getByRole('heading', { name: 'Spring notes', level: 1 }).waitFor();
    await attributeField(page, 'title').fill('Spring notes, revised');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved', { exact: true }).waitFor();
    await goHome(page);
    await widget(page, 'Last edited entries').getByRole('link', { name: 'Spring notes, revised' }).waitFor();
    const [first] = await rows(page, 'Last edited entries');
    assert.deepEqual(first, ['Spring notes, revised', 'Article · en', 'Modified', 'a moment ago']);
    // The published version keeps its title, now modified.
    assert.deepEqual((await rows(page, 'Last published entries'))[0], [
      'Spring notes',
      'Article · en',
      'Modified',
      'a moment ago',
    ]);
    await shot(page, '03-after-edit');
  });

  it('shows an Author only their own entries', async () => {
    // Strapi's Author role (id 3).
    const who = { email: 'ada@example.com', firstname: 'Ada', password: 'Author-Passw0rd' };
    const { client: author } = await inviteAdmin(server, root, [3], who);
    const mine = await author.post(`/admin/content-manager/collection-types/api::article.article`, {
      data: { title: 'Ada’s first draft' },
    });
    assert.equal(mine.status, 201, JSON.stringify(mine.body));
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const other = await context.newPage();
      other.setDefaultTimeout(15_000);
      await logInToPanel(other, server.url, 'ada@example.com', 'Author-Passw0rd');
      await other.getByRole('heading', { name: 'Hello Ada', level: 1 }).waitFor();
      await widget(other, 'Last edited entries').getByRole('link', { name: 'Ada’s first draft' }).waitFor();
      assert.deepEqual(await rows(other, 'Last edited entries'), [
        ['Ada’s first draft', 'Article · en', 'Draft', 'a moment ago'],
      ]);
      await widget(other, 'Last published entries').getByText('No published entries').waitFor();
      // The project's counts are a Super Admin's widget, as in Strapi.
      assert.equal(await widget(other, 'Project statistics').count(), 0);
      await shot(other, '04-author');
    } finally {
      await context.close();
    }
  });
});
