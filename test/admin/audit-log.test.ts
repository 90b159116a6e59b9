/**
 * The audit log screen end to end, in Debian's Chromium: an administrator's steps in the content
 * manager (create, save, publish) are listed newest first with who and the fields changed; the
 * filters (person, action, content-type, dates) narrow the list and the count; pages go older and
 * newer by cursor; an entry's details open in a dialog; logging out and in again is listed too.
 * On SQLite only: the routes behind the screen are covered on every dialect (test/audit/).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { adminClient } from '../helpers/admins.js';
import {
  attributeField,
  browserMissing,
  ensureAdminBuild,
  launchChromium,
  logInToPanel,
  newPanelPage,
  screenshotsDir,
} from '../helpers/browser.js';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';
import { unique } from '../helpers/unique.js';

const skip = !DIALECTS.includes('sqlite') ? 'the browser tests run on SQLite' : browserMissing();
const TAGS = '/admin/content-manager/collection-types/api::tag.tag';

describe('audit log screen in a browser [sqlite]', { skip }, () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  const email = `${unique('ann')}@example.com`;
  const password = 'an-admin-password';
  let bob: Awaited<ReturnType<typeof adminClient>>;
  const shot = (name: string) => page.screenshot({ path: join(screenshotsDir(), `audit-${name}.png`) });
  const rows = () => page.getByRole('table', { name: 'Audit log' }).locator('tbody tr');
  /** The cells of each row shown: action, person, subject, changed fields (the date aside). */
  const shown = async () =>
    (await rows().all()).length === 0
      ? []
      : Promise.all(
          (await rows().all()).map(async (row) =>
            (await row.locator('td').allInnerTexts()).slice(1).map((text) => text.trim()),
          ),
        );
  const openLog = async () => {
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('heading', { name: 'Audit log', level: 1 }).waitFor();
  };
  /** Waits until the list shows `first` as its first row's action (the list refetches after a filter). */
  const firstAction = (action: string) => rows().first().locator('td').nth(1).filter({ hasText: action }).waitFor();

  before(async () => {
    ensureAdminBuild();
    server = await startServer('sqlite');
    await server.vellum.auth.admins.create(email, password);
    bob = await adminClient(server, `${unique('bob')}@example.com`);
    browser = await launchChromium();
    page = await newPanelPage(browser);
    await logInToPanel(page, server.url, email, password);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it("lists an editor's steps newest first, with who and the fields changed", async () => {
    const title = unique('Audited');
    await page.getByRole('navigation', { name: 'Collection types' }).getByRole('link', { name: 'Article' }).click();
    await page.getByRole('link', { name: 'Create new entry' }).click();
    await page.getByRole('heading', { name: 'Create an entry' }).waitFor();
    await attributeField(page, 'title').fill(title);
    await attributeField(page, 'views').fill('7');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForURL(/\/admin\/content\/api::article\.article\/[a-z0-9]{24}(\?.*)?$/);
    const documentId = new URL(page.url()).pathname.split('/').pop()!;
    // The edit view of the saved entry, loaded (a save before it would still be a create's).
    await page.getByRole('heading', { name: title, level: 1 }).waitFor();
    await page.waitForLoadState('networkidle');
    await attributeField(page, 'views').fill('8');
    const saved = page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().includes(documentId));
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    assert.equal((await saved).status(), 200);
    const published = page.waitForResponse((r) => r.url().includes(`${documentId}/actions/publish`));
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    assert.equal((await published).status(), 200);
    await page.getByText('Published', { exact: true }).first().waitFor();

    await openLog();
    await firstAction('Publish entry');
    await page.getByText(/\d+ entr(y|ies)/).waitFor();
    const first = (await shown()).slice(0, 4);
    assert.deepEqual(first, [
      ['Publish entry', email, `Article ${documentId} (en)`, '—'],
      ['Update entry', email, `Article ${documentId} (en)`, 'views'],
      // The form sends every attribute; the slug it generated from the title is one it set.
      ['Create entry', email, `Article ${documentId} (en)`, 'title, slug, views'],
      ['Admin login', email, '—', '—'],
    ]);
    await shot('list');
  });

  it('filters by person, action, content-type and dates', async () => {
    for (let index = 0; index < 3; index++)
      assert.equal((await bob.client.post(TAGS, { data: { name: unique(`tag${index}`) } })).status, 201);
    await page.reload();
    await page.getByLabel('Person').selectOption({ label: bob.email });
    await page.getByText('4 entries', { exact: true }).waitFor();
    // The count and the rows arrive apart (the count is read beside the page): wait for the rows too.
    await page.waitForFunction(
      (who) =>
        [...document.querySelectorAll('table[aria-label="Audit log"] tbody tr')].every((row) =>
          row.textContent?.includes(who),
        ),
      bob.email,
    );
    assert.ok((await shown()).every((row) => row[1] === bob.email));
    await page.getByLabel('Action').selectOption({ label: 'Create entry' });
    await page.getByLabel('Content-type').selectOption({ label: 'Tag' });
    await page.getByText('3 entries', { exact: true }).waitFor();
    await page.waitForFunction(() => document.querySelectorAll('table[aria-label="Audit log"] tbody tr').length === 3);
    assert.deepEqual(
      (await shown()).map((row) => [row[0], row[2].split(' ')[0]]),
      [
        ['Create entry', 'Tag'],
        ['Create entry', 'Tag'],
        ['Create entry', 'Tag'],
      ],
    );
    await shot('filtered');
    // Dates: from tomorrow, nothing; from yesterday to today, the three.
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    await page.getByLabel('From').fill(day(1));
    await page.getByText('No entries.').waitFor();
    await page.getByText('0 entries', { exact: true }).waitFor();
    await page.getByLabel('From').fill(day(-1));
    await page.getByLabel('To').fill(day(0));
    await page.getByText('3 entries', { exact: true }).waitFor();
    assert.match(page.url(), /user=\d+&action=entry\.create&type=api%3A%3Atag\.tag&from=\d{4}-\d{2}-\d{2}&to=/);
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await firstAction('Create entry');
    // Every person's entries again: the editor's among them, once the rows have come.
    await page.waitForFunction(
      (who) =>
        [...document.querySelectorAll('table[aria-label="Audit log"] tbody tr')].some((row) =>
          row.textContent?.includes(who),
        ),
      email,
    );
    assert.ok((await shown()).some((row) => row[1] === email));
  });

  it('pages older and newer by cursor, the count beside', async () => {
    for (let index = 0; index < 21; index++) await bob.client.post(TAGS, { data: { name: unique(`page${index}`) } });
    await page.getByLabel('Person').selectOption({ label: bob.email });
    await page.getByLabel('Entries per page').selectOption('10');
    await page.getByText('25 entries', { exact: true }).waitFor();
    // The count and the rows arrive apart (the count is read beside the page): wait for both.
    await page.waitForFunction(() => document.querySelectorAll('table[aria-label="Audit log"] tbody tr').length === 10);
    const pages: string[][] = [];
    const subjects = async () => (await shown()).map((row) => row[2]!);
    pages.push(await subjects());
    assert.equal(pages[0]!.length, 10);
    await page.getByRole('button', { name: 'Older' }).click();
    await rows().first().locator('td').nth(3).filter({ hasNotText: pages[0]![0]! }).waitFor();
    pages.push(await subjects());
    await page.getByRole('button', { name: 'Older' }).click();
    await page.waitForFunction(() => document.querySelectorAll('table[aria-label="Audit log"] tbody tr').length === 5);
    pages.push(await subjects());
    assert.ok(await page.getByRole('button', { name: 'Older' }).isDisabled());
    // Every entry once: 25, the newest (the last tags) first, the login last.
    assert.equal(new Set(pages.flat()).size, 25);
    assert.equal((await shown()).at(-1)![0], 'Admin login');
    await shot('paged');
    await page.getByRole('button', { name: 'Newer' }).click();
    await page.waitForFunction(() => document.querySelectorAll('table[aria-label="Audit log"] tbody tr').length === 10);
    assert.deepEqual(await subjects(), pages[1]);
    await page.getByRole('button', { name: 'Newest' }).click();
    await rows().first().locator('td').nth(3).filter({ hasText: pages[0]![0]! }).waitFor();
  });

  it("opens an entry's details, and lists a log out and the next log in", async () => {
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await firstAction('Create entry');
    await rows().first().getByRole('button').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(`<${bob.email}>`).waitFor();
    await dialog.getByText('entry.create').waitFor();
    await shot('details');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(/\/admin\/login$/);
    await logInToPanel(page, server.url, email, password);
    await openLog();
    await page.getByLabel('Person').selectOption({ label: email });
    await firstAction('Admin login');
    assert.deepEqual(
      (await shown()).slice(0, 2).map((row) => row[0]),
      ['Admin login', 'Admin logout'],
    );
  });
});
