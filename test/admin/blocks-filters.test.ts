/**
 * The blocks editor and the list filters, end to end in Debian's Chromium: an editor writes the
 * blog article's `content` (blocks) with the toolbar and the keyboard, the content API answers
 * exactly those blocks, a reload shows them again; then the article list is filtered by a text,
 * a number and a date comparison and a relation, the URL keeping the filters. Screenshots land in
 * .tmp/admin-screenshots/ (blocks-*.png, filters-*.png). On SQLite only, as panel.test.ts.
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
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';
import { unique } from '../helpers/unique.js';

const skip = !DIALECTS.includes('sqlite') ? 'the browser tests run on SQLite' : browserMissing();

describe('admin panel: blocks editor and list filters [sqlite]', { skip }, () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  const email = `${unique('blocks-editor')}@example.com`;
  const password = 'an-editor-password';
  const field = (name: string) => attributeField(page, name);
  const shot = (name: string) =>
    page.screenshot({ path: join(screenshotsDir(), `${name}.png`), animations: 'disabled' });
  const saved = (url: URL) => /\/admin\/content\/api::article\.article\/(?!create$)[a-z0-9]+$/.test(url.pathname);
  const draft = async (documentId: string) =>
    (await server.api.get(`/api/articles/${documentId}?status=draft`)).body.data;

  before(async () => {
    ensureAdminBuild();
    server = await startServer('sqlite');
    await server.vellum.auth.admins.create(email, password);
    browser = await launchChromium();
    page = await newPanelPage(browser);
    await logInToPanel(page, server.url, email, password);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('writes rich text blocks with the toolbar and the keyboard; the API answers exactly them; a reload shows them', async () => {
    const title = unique('Blocks article');
    await page.goto(`${server.url}/admin/content/api::article.article/create`);
    await page.getByRole('heading', { name: 'Create an entry' }).waitFor();
    await field('title').fill(title);
    const editor = field('content');
    await editor.click();
    const toolbar = page.getByRole('toolbar', { name: 'Formatting' });
    const blockType = toolbar.getByLabel('Block type');

    // A heading, then a paragraph with a bold word (Ctrl+B) and a link.
    await blockType.selectOption({ label: 'Heading 2' });
    await page.keyboard.type('Getting started');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Some ');
    await page.keyboard.press('Control+b');
    await page.keyboard.type('bold');
    await page.keyboard.press('Control+b');
    await page.keyboard.type(' text and the docs');
    // The last word selected (from the keyboard), then linked.
    for (let i = 0; i < 4; i++) await page.keyboard.press('Shift+ArrowLeft');
    await toolbar.getByRole('button', { name: 'Link' }).click();
    await page.getByLabel('Link URL').fill('https://example.com/docs');
    await page.getByLabel('Link URL').press('Enter');
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    // A bulleted list of two items; Enter on an empty item leaves the list.
    await blockType.selectOption({ label: 'Bulleted list' });
    await editor.focus();
    await page.keyboard.type('first item');
    await page.keyboard.press('Enter');
    await page.keyboard.type('second item');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await blockType.selectOption({ label: 'Quote' });
    await editor.focus();
    await page.keyboard.type('A quoted line');
    await editor.getByRole('listitem').nth(1).waitFor();
    await editor.locator('blockquote').waitFor();
    await editor.evaluate((element) => element.scrollIntoView({ block: 'center' }));
    await shot('blocks-01-written');

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForURL(saved);
    await page.getByText('Saved', { exact: true }).first().waitFor();
    const documentId = new URL(page.url()).pathname.split('/').pop()!;
    const expected = [
      { type: 'heading', level: 2, children: [{ type: 'text', text: 'Getting started' }] },
      {
        type: 'paragraph',
        children: [
          { type: 'text', text: 'Some ' },
          { type: 'text', text: 'bold', bold: true },
          { type: 'text', text: ' text and the ' },
          { type: 'link', url: 'https://example.com/docs', children: [{ type: 'text', text: 'docs' }] },
          { type: 'text', text: '' },
        ],
      },
      {
        type: 'list',
        format: 'unordered',
        children: [
          { type: 'list-item', children: [{ type: 'text', text: 'first item' }] },
          { type: 'list-item', children: [{ type: 'text', text: 'second item' }] },
        ],
      },
      { type: 'quote', children: [{ type: 'text', text: 'A quoted line' }] },
    ];
    assert.deepEqual((await draft(documentId)).content, expected);

    // A reload shows them in the editor, as the API answered them.
    await page.reload();
    await field('content').getByRole('heading', { name: 'Getting started', level: 2 }).waitFor();
    await field('content').locator('strong', { hasText: 'bold' }).waitFor();
    await field('content').getByRole('link', { name: 'docs' }).waitFor();
    assert.equal(await field('content').getByRole('listitem').count(), 2);
    await field('content').locator('blockquote', { hasText: 'A quoted line' }).waitFor();
    await field('content').evaluate((element) => element.scrollIntoView({ block: 'center' }));
    await shot('blocks-02-reloaded');

    // Edited again: an italic word at the end of the quote, saved; the rest is unchanged.
    await field('content').locator('blockquote').click();
    await page.keyboard.press('End');
    await page.keyboard.type(', ');
    await page.keyboard.press('Control+i');
    await page.keyboard.type('edited');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved', { exact: true }).first().waitFor();
    await page.getByText('unsaved changes').waitFor({ state: 'detached' });
    const edited = structuredClone(expected);
    edited[3] = {
      type: 'quote',
      children: [{ type: 'text', text: 'A quoted line, ' }, { type: 'text', text: 'edited', italic: true } as never],
    };
    assert.deepEqual((await draft(documentId)).content, edited);
    await shot('blocks-03-edited');
  });

  it('loads blocks written elsewhere (every kind of node) unchanged, and saves an edit to them in the same format', async () => {
    const stored = [
      { type: 'heading', level: 3, children: [{ type: 'text', text: 'Written by the API' }] },
      {
        type: 'paragraph',
        children: [
          { type: 'text', text: 'Plain, ' },
          { type: 'text', text: 'underlined', underline: true },
          { type: 'text', text: ', ' },
          { type: 'text', text: 'struck', strikethrough: true },
          { type: 'text', text: ' and ' },
          { type: 'text', text: 'inline()', code: true },
        ],
      },
      {
        type: 'list',
        format: 'ordered',
        children: [
          { type: 'list-item', children: [{ type: 'text', text: 'one' }] },
          {
            type: 'list',
            format: 'unordered',
            indentLevel: 1,
            children: [{ type: 'list-item', children: [{ type: 'text', text: 'nested' }] }],
          },
        ],
      },
      { type: 'code', language: 'javascript', children: [{ type: 'text', text: 'const a = 1;\nconst b = 2;' }] },
      {
        type: 'image',
        image: { id: 1, name: 'none.png', url: '/uploads/none.png', alternativeText: 'Nothing', width: 1, height: 1 },
        children: [{ type: 'text', text: '' }],
      },
    ];
    const created = await server.api.post('/api/articles?status=draft', {
      data: { title: unique('Stored blocks'), content: stored },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const documentId = created.body.data.documentId as string;
    await page.goto(`${server.url}/admin/content/api::article.article/${documentId}`);
    const editor = field('content');
    await editor.getByRole('heading', { name: 'Written by the API', level: 3 }).waitFor();
    await editor.locator('ol > li', { hasText: 'one' }).waitFor();
    await editor.locator('ol ul > li', { hasText: 'nested' }).waitFor();
    await editor.locator('pre code', { hasText: 'const b = 2;' }).waitFor();
    await editor.getByRole('img', { name: 'Nothing' }).waitFor();

    // Another field saved: the blocks are not sent, and stay as stored.
    await field('views').fill('7');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('unsaved changes').waitFor({ state: 'detached' });
    assert.deepEqual((await draft(documentId)).content, stored);

    // The heading edited: only its text changes.
    await editor.getByRole('heading', { name: 'Written by the API' }).click();
    await page.keyboard.press('End');
    await page.keyboard.type(', then edited');
    // Struck through from the keyboard alone: the line selected, the toolbar's button reached with Shift+Tab.
    await page.keyboard.press('Shift+Home');
    for (const name of ['Link', 'Code', 'Strikethrough']) {
      await page.keyboard.press('Shift+Tab');
      await page.getByRole('button', { name, exact: true }).and(page.locator(':focus')).waitFor();
    }
    await page.keyboard.press('Space');
    await editor.locator('h3 s', { hasText: 'Written by the API, then edited' }).waitFor();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('unsaved changes').waitFor({ state: 'detached' });
    const expected = structuredClone(stored);
    expected[0] = {
      type: 'heading',
      level: 3,
      children: [{ type: 'text', text: 'Written by the API, then edited', strikethrough: true } as never],
    };
    assert.deepEqual((await draft(documentId)).content, expected);

    // A new French version filled from English: the editor shows the blocks it was given, saved as they are.
    await page.getByLabel('Locale', { exact: true }).selectOption('fr');
    await page.getByText('No fr version yet').first().waitFor();
    await page.getByLabel('Fill from another locale').selectOption('en');
    await editor.getByRole('heading', { name: 'Written by the API, then edited', level: 3 }).waitFor();
    await editor.getByRole('img', { name: 'Nothing' }).waitFor();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('No fr version yet').waitFor({ state: 'detached' });
    const fr = await server.api.get(`/api/articles/${documentId}?status=draft&locale=fr`);
    assert.equal(fr.status, 200, JSON.stringify(fr.body));
    assert.deepEqual(fr.body.data.content, expected);
  });

  it('filters the list by a text, a number, a date and a relation; the URL keeps the filters; chips remove them', async () => {
    const prefix = unique('filtered');
    const create = async (path: string, data: Record<string, unknown>) => {
      const res = await server.api.post(path, { data });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body.data.documentId as string;
    };
    const ann = await create('/api/authors', { name: unique('Ann') });
    const bob = await create('/api/authors', { name: unique('Bob') });
    const annName = (await server.api.get(`/api/authors/${ann}`)).body.data.name as string;
    const [alpha, beta, gamma] = [`${prefix} alpha`, `${prefix} beta`, `${prefix} gamma`];
    await create('/api/articles', { title: alpha, views: 5, publishDate: '2026-01-10', author: ann });
    await create('/api/articles', { title: beta, views: 50, publishDate: '2026-03-10', author: bob });
    await create('/api/articles', { title: gamma, views: 500, publishDate: '2026-05-10', author: ann });

    const table = page.getByRole('table', { name: 'Article entries' });
    /** Waits until the list shows exactly these titles (in any order). */
    const shows = async (titles: string[]) => {
      await page.waitForFunction((want) => {
        // Each row's link (its title: the rows also have a checkbox and the id before it).
        const cells = [...document.querySelectorAll('table[aria-label="Article entries"] tbody tr')].map(
          (row) => row.querySelector('td a')?.textContent?.trim() ?? '',
        );
        return JSON.stringify(cells.sort()) === JSON.stringify([...want].sort());
      }, titles);
    };
    /** Adds a filter from the builder, from the keyboard where it can. */
    const addFilter = async (field: string, operator: string, value?: string, screenshot?: string) => {
      await page.getByRole('button', { name: 'Filters', exact: true }).click();
      const builder = page.getByRole('form', { name: 'Add a filter' });
      await builder.getByLabel('Field').selectOption({ label: field });
      await builder.getByLabel('Operator').selectOption({ label: operator });
      if (value !== undefined) {
        await builder.getByLabel('Value').fill(value);
        if (screenshot) await shot(screenshot);
        await builder.getByLabel('Value').press('Enter');
      } else await builder.getByRole('button', { name: 'Add filter' }).click();
      await builder.waitFor({ state: 'detached' });
    };
    const chips = page.getByRole('list', { name: 'Active filters' });

    await page.goto(`${server.url}/admin/content/api::article.article`);
    await table.waitFor();
    await addFilter('title', 'contains', prefix);
    await shows([alpha, beta, gamma]);
    await addFilter('views', 'is greater than', '10');
    await shows([beta, gamma]);
    await shot('filters-01-number');
    await addFilter('publishDate', 'is before', '2026-04-01', 'filters-02-builder');
    await shows([beta]);
    await chips.getByRole('listitem').filter({ hasText: 'publishDate is before 2026-04-01' }).waitFor();
    await shot('filters-03-date');

    // The URL carries them as the API takes them: a reload shows the same list.
    const url = decodeURIComponent(page.url());
    assert.ok(url.includes(`filters[$and][0][title][$contains]=${prefix}`), url);
    assert.ok(url.includes('filters[$and][1][views][$gt]=10'), url);
    assert.ok(url.includes('filters[$and][2][publishDate][$lt]=2026-04-01'), url);
    await page.reload();
    await shows([beta]);
    assert.equal(await chips.getByRole('listitem').count(), 3);

    // A chip removed (from the keyboard) widens the list, back on its first page.
    await page.goto(`${page.url()}&page=2`);
    await table.waitFor();
    const removeDate = chips.getByRole('button', { name: 'Remove filter publishDate is before 2026-04-01' });
    await removeDate.focus();
    await page.keyboard.press('Enter');
    await shows([beta, gamma]);
    assert.equal(new URL(page.url()).searchParams.get('page'), null, 'the list went back to its first page');
    await chips.getByRole('button', { name: 'Remove filter views is greater than 10' }).click();
    await shows([alpha, beta, gamma]);

    // By a relation: the author's name.
    await addFilter('author (name)', 'is', annName);
    await shows([alpha, gamma]);
    assert.ok(decodeURIComponent(page.url()).includes(`[author][name][$eq]=${annName}`));
    await shot('filters-04-relation');
    await page.reload();
    await shows([alpha, gamma]);
  });
});
