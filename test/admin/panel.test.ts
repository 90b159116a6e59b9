/**
 * The admin panel end to end, in Debian's Chromium: an editor logs in, writes an article, saves
 * a draft without its required title, publishes (and sees the error beside the field), fixes
 * it and publishes; after each step the content API answers what the screen showed. Screenshots
 * of each step land in .tmp/admin-screenshots/. On SQLite only: the panel talks to the admin API,
 * whose routes the dialect-wide tests (content-api.test.ts) cover on every database.
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
  newPanelPage,
  screenshotsDir,
} from '../helpers/browser.js';
import sharp from 'sharp';
import { DIALECTS } from '../helpers/server.js';
import { startUploadServer, type UploadServer } from '../helpers/uploads.js';
import { unique } from '../helpers/unique.js';

const skip = !DIALECTS.includes('sqlite') ? 'the browser tests run on SQLite' : browserMissing();

describe('admin panel in a browser [sqlite]', { skip }, () => {
  let server: UploadServer;
  let browser: Browser;
  let page: Page;
  const email = `${unique('editor')}@example.com`;
  const password = 'an-editor-password';
  /** The edit view's URL once the new document is saved (it names the document, not /create). */
  const saved = (url: URL) => /\/admin\/content\/api::article\.article\/(?!create$)[a-z0-9]+$/.test(url.pathname);
  const field = (name: string) => attributeField(page, name);
  const shot = (name: string) => page.screenshot({ path: join(screenshotsDir(), `${name}.png`) });
  /** The article's draft and published versions as the content API answers them. */
  const versions = async (documentId: string) => ({
    draft: await server.api.get(`/api/articles/${documentId}?status=draft`),
    published: await server.api.get(`/api/articles/${documentId}`),
  });

  before(async () => {
    ensureAdminBuild();
    server = await startUploadServer('sqlite');
    await server.vellum.auth.admins.create(email, password);
    browser = await launchChromium();
    page = await newPanelPage(browser);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('logs in through the admin API and shows the content manager', async () => {
    const started = performance.now();
    await page.goto(`${server.url}/admin`);
    await page.getByLabel('Email').waitFor();
    console.log(`first screen (login form) in ${Math.round(performance.now() - started)} ms`);
    assert.match(page.url(), /\/admin\/login$/);
    await shot('01-login');

    await page.getByLabel('Password').fill('wrong-password');
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('alert').filter({ hasText: 'Invalid credentials' }).waitFor();

    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('navigation', { name: 'Collection types' }).getByRole('link', { name: 'Article' }).click();
    await page.getByRole('heading', { name: 'Article', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Create new entry' }).waitFor();
    await shot('02-article-list');
  });

  it('saves a draft, refuses to publish it without its title, publishes it once fixed', async () => {
    const title = `Hello ${unique('panel')}`;
    await page.getByRole('link', { name: 'Create new entry' }).click();
    await page.getByRole('heading', { name: 'Create an entry' }).waitFor();
    // Every field is labelled with the attribute's name as the schema spells it.
    await field('body').fill('# A heading\n\nSome *emphasis*.');
    await page.getByRole('region', { name: 'body preview' }).getByRole('heading', { name: 'A heading' }).waitFor();
    await field('views').fill('42');
    await field('rating').fill('4.5');
    await field('featured').check();
    await field('publishDate').fill('2026-03-14');
    await field('kind').selectOption('tutorial');
    await field('metadata').fill('{"source": "panel"}');

    // Drafts are work in progress: saved without the required title.
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForURL(saved);
    const documentId = new URL(page.url()).pathname.split('/').pop()!;
    await page.getByText('Draft', { exact: true }).first().waitFor();
    await shot('03-draft-saved');
    let api = await versions(documentId);
    assert.equal(api.draft.status, 200);
    assert.deepEqual(
      {
        title: api.draft.body.data.title,
        views: api.draft.body.data.views,
        rating: api.draft.body.data.rating,
        featured: api.draft.body.data.featured,
      },
      { title: null, views: 42, rating: 4.5, featured: true },
    );
    assert.equal(api.draft.body.data.publishDate, '2026-03-14');
    assert.equal(api.draft.body.data.kind, 'tutorial');
    assert.deepEqual(api.draft.body.data.metadata, { source: 'panel' });
    assert.equal(api.draft.body.data.body, '# A heading\n\nSome *emphasis*.');
    assert.equal(api.published.status, 404);

    // Publishing checks the whole draft: the API's error shows beside the title field.
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    const titleField = field('title');
    await page.locator('input[aria-invalid="true"]').and(titleField).waitFor();
    const describedBy = await titleField.getAttribute('aria-describedby');
    assert.ok(describedBy, 'the error is tied to the field');
    assert.match(
      (await page.locator(`[id="${describedBy!.split(' ').find((id) => id.endsWith('error'))}"]`).textContent()) ?? '',
      /title must be a `string` type, but the final value was: `null`\./,
    );
    await titleField.evaluate((element) => element.scrollIntoView({ block: 'center' }));
    await shot('04-publish-refused');
    api = await versions(documentId);
    assert.equal(api.published.status, 404, 'nothing was published');

    // Fixed, the slug generated from it, published.
    await titleField.fill(title);
    await page.getByRole('button', { name: 'Generate slug from title' }).click();
    const slug = await field('slug').inputValue();
    assert.match(slug, /^hello-panel-[a-z0-9]+$/);
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.getByText('Published', { exact: true }).first().waitFor();
    await page.locator('input[aria-invalid="true"]').waitFor({ state: 'detached' });
    await shot('05-published');
    api = await versions(documentId);
    assert.equal(api.published.status, 200);
    assert.equal(api.published.body.data.title, title);
    assert.equal(api.published.body.data.slug, slug);
    assert.equal(api.published.body.data.views, 42);
    assert.ok(api.published.body.data.publishedAt);

    // Edited again: the draft is ahead of the published version until published or discarded.
    await field('views').fill('43');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Modified', { exact: true }).first().waitFor();
    api = await versions(documentId);
    assert.equal(api.draft.body.data.views, 43);
    assert.equal(api.published.body.data.views, 42);
    await page.getByRole('button', { name: 'Discard draft' }).click();
    // This action's own notice: the publish's "Published" may still be on screen (4 s).
    await page.getByText('Draft discarded', { exact: true }).waitFor();
    await page.getByText('Published', { exact: true }).first().waitFor();
    assert.equal(await field('views').inputValue(), '42');
    api = await versions(documentId);
    assert.equal(api.draft.body.data.views, 42);

    // The unsaved-changes guard: leaving with changes asks first.
    await field('views').fill('44');
    await page.getByRole('link', { name: /Back to Article/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Leave without saving?' });
    await dialog.waitFor();
    await shot('06-unsaved-guard');
    await dialog.getByRole('button', { name: 'Stay' }).click();
    await dialog.waitFor({ state: 'detached' });
    assert.equal(await field('views').inputValue(), '44');
    await page.getByRole('link', { name: /Back to Article/ }).click();
    await page.getByRole('dialog', { name: 'Leave without saving?' }).getByRole('button', { name: 'Leave' }).click();

    // The list finds it by its title, with its status.
    await page.getByLabel('Search').fill(title);
    const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: title }) });
    await row.getByText('Published').waitFor();
    await shot('07-list-search');
    assert.equal(await page.getByRole('table').getByRole('link').count(), 1);

    // Unpublish, then delete: the content API follows.
    await row.getByRole('link', { name: title }).click();
    await page.getByRole('button', { name: 'Unpublish' }).click();
    await page.getByText('Draft', { exact: true }).first().waitFor();
    api = await versions(documentId);
    assert.equal(api.published.status, 404);
    assert.equal(api.draft.status, 200);
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('dialog', { name: 'Delete this entry?' }).getByRole('button', { name: 'Yes, delete' }).click();
    await page.getByRole('link', { name: 'Create new entry' }).waitFor();
    api = await versions(documentId);
    assert.equal(api.draft.status, 404);
  });

  it('writes relations (searched, reordered), components, a dynamic zone entry and an uploaded image', async () => {
    const prefix = unique('rel');
    const create = async (path: string, data: Record<string, unknown>) => {
      const res = await server.api.post(path, { data });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body.data;
    };
    const author = await create('/api/authors', { name: `${prefix} Ada` });
    await create('/api/tags', { name: `${prefix} first` });
    await create('/api/tags', { name: `${prefix} second` });

    await page.goto(`${server.url}/admin/content/api::article.article/create`);
    await page.getByRole('heading', { name: 'Create an entry' }).waitFor();
    await field('title').fill(`${prefix} article`);
    // A to-one relation: searched on the server, picked.
    await page.getByRole('textbox', { name: 'author' }).fill(prefix);
    await page.getByRole('option', { name: `${prefix} Ada` }).click();
    // A to-many relation: two added, the second moved first.
    const addTag = page.getByRole('textbox', { name: 'Add to tags' });
    for (const name of ['first', 'second']) {
      await addTag.fill(`${prefix} ${name}`);
      await page.getByRole('option', { name: `${prefix} ${name}` }).click();
    }
    const tags = page.getByRole('list', { name: 'tags' });
    await tags.getByRole('listitem', { name: `${prefix} second` }).waitFor();
    await page.getByRole('button', { name: `Move ${prefix} second up` }).click();
    await tags
      .getByRole('listitem')
      .first()
      .filter({ hasText: `${prefix} second` })
      .waitFor();
    // A single component, a repeatable one, a zone entry.
    await page.getByRole('button', { name: 'Add seo' }).click();
    await page.getByRole('group', { name: 'seo' }).getByLabel('metaTitle').fill(`${prefix} meta`);
    await page.getByRole('button', { name: 'Add an entry to links' }).click();
    const link = page.getByRole('group', { name: 'links 1' });
    await link.getByLabel('label').fill('Docs');
    await link.getByLabel('url').fill('https://example.com/docs');
    await page.getByRole('button', { name: 'Add a component to blocks' }).click();
    await page.getByRole('menuitem', { name: 'Quote' }).click();
    const quote = page.getByRole('group', { name: 'blocks 1: Quote' });
    await quote.getByLabel('title').fill('Said once');
    await quote.getByLabel('body').fill('Write the docs first.');
    // A media field: an image uploaded on the spot.
    const png = await sharp({ create: { width: 16, height: 12, channels: 3, background: '#3366cc' } })
      .png()
      .toBuffer();
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Upload to cover' }).click();
    await (await chooser).setFiles({ name: `${prefix}.png`, mimeType: 'image/png', buffer: png });
    await page
      .getByRole('list', { name: 'cover' })
      .getByRole('listitem', { name: `${prefix}.png` })
      .waitFor();
    await page.locator('button[aria-label="Upload to cover"]:not([data-loading])').waitFor();
    await shot('08-media');
    await tags.evaluate((element) => element.scrollIntoView({ block: 'center' }));
    await shot('09-relations-components');

    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.waitForURL(saved);
    await page.getByText('Published', { exact: true }).first().waitFor();
    const documentId = new URL(page.url()).pathname.split('/').pop()!;
    const res = await server.api.get(
      `/api/articles/${documentId}?populate[tags]=true&populate[author]=true&populate[seo]=true&populate[links]=true&populate[blocks]=true&populate[cover]=true`,
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const data = res.body.data;
    assert.equal(data.author.documentId, author.documentId);
    assert.deepEqual(
      data.tags.map((tag: any) => tag.name),
      [`${prefix} second`, `${prefix} first`],
    );
    assert.equal(data.seo.metaTitle, `${prefix} meta`);
    assert.deepEqual(
      data.links.map((l: any) => [l.label, l.url]),
      [['Docs', 'https://example.com/docs']],
    );
    assert.deepEqual(
      data.blocks.map((b: any) => [b.__component, b.title, b.body]),
      [['shared.quote', 'Said once', 'Write the docs first.']],
    );
    assert.deepEqual([data.cover.name, data.cover.mime, data.cover.width], [`${prefix}.png`, 'image/png', 16]);
    assert.deepEqual(server.storedBytes(data.cover.url), png);

    // Read back as stored: the order of the tags, the component values.
    await page.reload();
    await page
      .getByRole('list', { name: 'tags' })
      .getByRole('listitem')
      .first()
      .filter({ hasText: `${prefix} second` })
      .waitFor();
    assert.equal(
      await page.getByRole('group', { name: 'links 1' }).getByLabel('url').inputValue(),
      'https://example.com/docs',
    );
    await page
      .getByRole('list', { name: 'cover' })
      .getByRole('img', { name: `${prefix}.png` })
      .waitFor();
    // Reordered again, by drag and drop this time, saved: the content API follows.
    const reloadedTags = page.getByRole('list', { name: 'tags' });
    await reloadedTags
      .getByRole('listitem', { name: `${prefix} first` })
      .dragTo(reloadedTags.getByRole('listitem', { name: `${prefix} second` }));
    await reloadedTags
      .getByRole('listitem')
      .first()
      .filter({ hasText: `${prefix} first` })
      .waitFor();
    // The publish request answered, not a "Published" already on the page from the first one: the
    // read below raced the save under load (seen once in a full run).
    const published = page.waitForResponse(
      (response) => response.request().method() === 'POST' && /\/actions\/publish/.test(response.url()),
    );
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    assert.equal((await published).status(), 200);
    await page.getByText('unsaved changes').waitFor({ state: 'detached' });
    const after = await server.api.get(`/api/articles/${documentId}?populate[tags]=true`);
    assert.deepEqual(
      after.body.data.tags.map((tag: any) => tag.name),
      [`${prefix} first`, `${prefix} second`],
    );
  });

  it('switches locale, fills the new locale from another, saves it apart', async () => {
    const title = unique('localized');
    const created = await server.api.post('/api/articles?status=draft', { data: { title, views: 5 } });
    const { documentId } = created.body.data;
    await page.goto(`${server.url}/admin/content/api::article.article/${documentId}`);
    await field('title').waitFor();
    assert.equal(await field('title').inputValue(), title);

    await page.getByLabel('Locale', { exact: true }).selectOption('fr');
    await page
      .getByRole('alert')
      .filter({ hasText: 'No fr version yet' })
      .or(page.getByText('No fr version yet'))
      .first()
      .waitFor();
    assert.match(page.url(), /\?locale=fr$/);
    await page.getByLabel('Fill from another locale').selectOption('en');
    await page.waitForFunction(
      (expected) => (document.querySelector('input[data-path="title"]') as HTMLInputElement | null)?.value === expected,
      title,
    );
    await field('title').fill(`${title} (fr)`);
    await shot('10-locale-fr');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Draft', { exact: true }).first().waitFor();
    await page.getByText('No fr version yet').waitFor({ state: 'detached' });
    const fr = await server.api.get(`/api/articles/${documentId}?status=draft&locale=fr`);
    assert.equal(fr.status, 200, JSON.stringify(fr.body));
    assert.equal(fr.body.data.title, `${title} (fr)`);
    assert.equal((await server.api.get(`/api/articles/${documentId}?status=draft&locale=en`)).body.data.title, title);

    // Back to English: its own title; the list in French shows the French one.
    await page.getByLabel('Locale', { exact: true }).selectOption('en');
    await page.waitForFunction(
      (expected) => (document.querySelector('input[data-path="title"]') as HTMLInputElement | null)?.value === expected,
      title,
    );
    await page.goto(`${server.url}/admin/content/api::article.article?locale=fr&q=${encodeURIComponent(title)}`);
    await page.getByRole('link', { name: `${title} (fr)` }).waitFor();
  });

  it('edits a single type', async () => {
    const siteName = unique('site');
    await page.goto(`${server.url}/admin`);
    await page.getByRole('navigation', { name: 'Single types' }).getByRole('link', { name: 'Global' }).click();
    await page.getByRole('heading', { name: 'Global', level: 1 }).waitFor();
    await field('siteName').fill(siteName);
    await field('siteDescription').fill('A site about writing.');
    await page.getByText('unsaved changes').waitFor();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved', { exact: true }).waitFor();
    await page.getByText('unsaved changes').waitFor({ state: 'detached' });
    await shot('11-single-type');
    const res = await server.api.get('/api/global');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual([res.body.data.siteName, res.body.data.siteDescription], [siteName, 'A site about writing.']);
    // No draft and publish on this type: none of its buttons.
    assert.equal(await page.getByRole('button', { name: 'Publish', exact: true }).count(), 0);
  });

  it('creates an API token, shows its key once, revokes it', async () => {
    const name = unique('token');
    await page.goto(`${server.url}/admin`);
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'API tokens' }).click();
    await page.getByRole('heading', { name: 'API tokens', level: 1 }).waitFor();
    const form = page.getByRole('region', { name: 'Create an API token' });
    await form.getByLabel('Name').fill(name);
    await form.getByLabel('Token type').selectOption('read-only');
    await form.getByLabel('Token duration').selectOption({ label: '7 days' });
    await form.getByRole('button', { name: 'Create token' }).click();
    const shown = page.getByRole('dialog', { name: `${name}: copy its key now` });
    await shown.waitFor();
    const accessKey = (await shown.getByTestId('access-key').textContent())!.trim();
    await shot('12-api-token-created');
    // The key works on the content API, for reading only.
    const reader = { headers: { authorization: `Bearer ${accessKey}` } };
    assert.equal((await server.publicApi.get('/api/articles', reader)).status, 200);
    assert.equal((await server.publicApi.post('/api/tags', { data: { name } }, reader)).status, 403);
    await shown.getByRole('button', { name: 'Done' }).click();
    const row = page.getByRole('row').filter({ hasText: name });
    await row.getByText('read-only').waitFor();

    await page.getByRole('button', { name: `Revoke ${name}` }).click();
    await page.getByRole('dialog', { name: 'Revoke this token?' }).getByRole('button', { name: 'Yes, revoke' }).click();
    await row.waitFor({ state: 'detached' });
    assert.equal((await server.publicApi.get('/api/articles', reader)).status, 401);
    const listed = await server.vellum.auth.tokens.list();
    assert.ok(!listed.some((token) => token.name === name));
  });
});
