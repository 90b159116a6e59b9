/**
 * The admin panel's media library end to end, in Debian's Chromium: an administrator uploads two
 * images by drag and drop (a third, too large, fails on its own), switches the grid and the list,
 * searches, filters images, edits a file's alternative text and caption, views its formats,
 * deletes one, and picks a library image in an article's media field; after each step the
 * content API answers what the screen showed. Screenshots land in .tmp/admin-screenshots/media-*.png.
 * On SQLite only: the API's own tests (media-api.test.ts) run on every dialect.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { browserMissing, ensureAdminBuild, launchChromium, newPanelPage, screenshotsDir } from '../helpers/browser.js';
import { DIALECTS } from '../helpers/server.js';
import { noisyJpeg, pdf, png, startUploadServer, upload, type UploadServer } from '../helpers/uploads.js';
import { unique } from '../helpers/unique.js';

const skip = !DIALECTS.includes('sqlite') ? 'the browser tests run on SQLite' : browserMissing();
/** Small enough that a noisy photo is refused (413), large enough for the test's images. */
const SIZE_LIMIT = 200_000;

describe('admin media library in a browser [sqlite]', { skip }, () => {
  let server: UploadServer;
  let browser: Browser;
  let page: Page;
  const email = `${unique('librarian')}@example.com`;
  const password = 'a-librarian-password';
  const prefix = unique('media');
  const names = {
    wide: `${prefix}-wide.png`,
    square: `${prefix}-square.png`,
    doc: `${prefix}-notes.pdf`,
    big: `${prefix}-big.jpg`,
  };
  const shot = (name: string) => page.screenshot({ path: join(screenshotsDir(), `media-${name}.png`) });
  const files = () => page.getByRole('list', { name: 'Files' });
  const fileButton = (name: string) => page.getByRole('button', { name, exact: true });
  /** The file's id, as the content API lists it by name. */
  const idOf = async (name: string) => {
    const res = await server.api.get(`/api/upload/files?filters[name][$eq]=${encodeURIComponent(name)}`);
    assert.equal(res.body.length, 1, `${name}: ${JSON.stringify(res.body)}`);
    return res.body[0].id as number;
  };

  before(async () => {
    ensureAdminBuild();
    server = await startUploadServer('sqlite', { sizeLimit: SIZE_LIMIT });
    await server.vellum.auth.admins.create(email, password);
    // A file that is no image, there before the test's uploads.
    assert.equal((await upload(server, [{ name: names.doc, bytes: pdf() }])).status, 201);
    browser = await launchChromium();
    page = await newPanelPage(browser);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('logs in and opens the media library from the navigation', async () => {
    await page.goto(`${server.url}/admin`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('link', { name: 'Article' }).waitFor();
    const started = performance.now();
    await page.getByRole('link', { name: 'Media library' }).click();
    await page.getByRole('heading', { name: 'Media library', level: 1 }).waitFor();
    assert.match(page.url(), /\/admin\/media$/);
    await fileButton(names.doc).waitFor();
    console.log(`media library (first open, its code loaded) in ${Math.round(performance.now() - started)} ms`);
    await shot('01-library');
  });

  it('uploads two files by drag and drop, each with its progress; a file too large fails on its own', async () => {
    const dropped = [
      { name: names.wide, mime: 'image/png', base64: (await png(1200, 800, '#3366cc')).toString('base64') },
      { name: names.square, mime: 'image/png', base64: (await png(300, 300, '#cc3366')).toString('base64') },
    ];
    const dataTransfer = await page.evaluateHandle((list) => {
      const transfer = new DataTransfer();
      for (const file of list)
        transfer.items.add(
          new File([Uint8Array.from(atob(file.base64), (c) => c.charCodeAt(0))], file.name, { type: file.mime }),
        );
      return transfer;
    }, dropped);
    const zone = page.getByLabel('Drop files here to upload them');
    const started = performance.now();
    await zone.dispatchEvent('dragenter', { dataTransfer });
    await zone.dispatchEvent('drop', { dataTransfer });
    const uploads = page.getByRole('list', { name: 'Uploads' });
    for (const name of [names.wide, names.square]) {
      const item = uploads.getByRole('listitem', { name });
      await item.getByRole('status').filter({ hasText: 'Uploaded' }).waitFor();
      assert.equal(
        await item.getByRole('progressbar', { name: `${name} upload progress` }).getAttribute('aria-valuenow'),
        '100',
      );
    }
    console.log(`two images dropped and stored (formats made) in ${Math.round(performance.now() - started)} ms`);
    // The button's way, with a file over the server's limit: its own error, the others unaffected.
    const big = await noisyJpeg(800, 600);
    assert.ok(big.length > SIZE_LIMIT, `${big.length} bytes`);
    await page.getByLabel('Files to upload').setInputFiles({ name: names.big, mimeType: 'image/jpeg', buffer: big });
    const failed = uploads.getByRole('listitem', { name: names.big });
    await failed.getByRole('status').filter({ hasText: 'Failed' }).waitFor();
    assert.match(await failed.getByRole('alert').innerText(), /large|FileTooBig|limit/i);
    await files().getByRole('button', { name: names.square, exact: true }).waitFor();
    await fileButton(names.wide).waitFor();
    await shot('02-uploaded');
    assert.equal((await server.api.get(`/api/upload/files?filters[name][$startsWith]=${prefix}`)).body.length, 3);
  });

  it('switches between the grid and the list, kept in the URL across a reload', async () => {
    await page.getByRole('button', { name: 'List view' }).click();
    const table = page.getByRole('table', { name: 'Files' });
    await table.getByRole('row').filter({ hasText: names.wide }).filter({ hasText: '1200×800' }).waitFor();
    assert.match(page.url(), /view=list/);
    await page.reload();
    await table.getByRole('row').filter({ hasText: names.doc }).filter({ hasText: 'application/pdf' }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'List view' }).getAttribute('aria-pressed'), 'true');
    await shot('03-list');
    await page.getByRole('button', { name: 'Grid view' }).click();
    await files().waitFor();
    assert.doesNotMatch(page.url(), /view=list/);
  });

  it('searches by name and filters images, in the URL', async () => {
    await page.getByLabel('Search files').fill(`${prefix}-squ`);
    await page.waitForURL(/q=/);
    await files().getByRole('button').filter({ hasText: names.wide }).waitFor({ state: 'detached' });
    await fileButton(names.square).waitFor();
    await page.getByText('1 file found').waitFor();
    await shot('04-search');
    await page.getByLabel('Search files').fill(prefix);
    await page.getByLabel('Kind').selectOption({ label: 'Images' });
    await page.waitForURL(/kind=images/);
    await fileButton(names.doc).waitFor({ state: 'detached' });
    await fileButton(names.wide).waitFor();
    await fileButton(names.square).waitFor();
    await page.reload();
    await page.getByText('2 files found').waitFor();
    assert.equal(await page.getByLabel('Kind').inputValue(), 'images');
    await shot('05-images');
  });

  it('opens a file: its formats, its URL; edits its alternative text and caption, the API answers them', async () => {
    await fileButton(names.wide).click();
    const drawer = page.getByRole('dialog', { name: names.wide });
    await drawer.getByRole('cell', { name: '1200×800 px' }).waitFor();
    await drawer.getByRole('cell', { name: 'image/png' }).waitFor();
    assert.match(
      await drawer.getByRole('textbox', { name: 'URL' }).inputValue(),
      new RegExp(`^${server.url}/uploads/.+\\.png$`),
    );
    await drawer.getByRole('button', { name: 'Copy URL' }).waitFor();
    // The formats the server made: each viewable.
    for (const format of ['thumbnail', 'small', 'medium', 'large'])
      await drawer.getByRole('radio', { name: format }).waitFor({ state: 'attached' });
    await drawer.getByText('small', { exact: true }).click();
    await drawer.getByText(/^small: 500×333/).waitFor();
    const id = await idOf(names.wide);
    const small = (await server.api.get(`/api/upload/files/${id}`)).body.formats.small.url;
    assert.equal(await drawer.getByRole('img', { name: names.wide }).getAttribute('src'), small);
    await drawer.getByText('thumbnail', { exact: true }).click();
    await drawer.getByText(/^thumbnail: 234×156/).waitFor();
    await shot('06-formats');

    await drawer.getByLabel('Alternative text').fill('A wide blue rectangle');
    await drawer.getByLabel('Caption').fill('Blue, wide');
    await drawer.getByRole('button', { name: 'Save' }).click();
    await page.getByText(`${names.wide} saved`).waitFor();
    const read = await server.api.get(`/api/upload/files/${id}`);
    assert.deepEqual(
      [read.body.alternativeText, read.body.caption, read.body.name],
      ['A wide blue rectangle', 'Blue, wide', names.wide],
    );
    await shot('07-details');
    // The open file is in the URL too.
    await page.reload();
    assert.equal(await page.getByRole('dialog', { name: names.wide }).getByLabel('Caption').inputValue(), 'Blue, wide');
  });

  it('deletes a file after asking: gone from the list, the API and storage', async () => {
    await page.getByRole('button', { name: 'Close details' }).click();
    await fileButton(names.square).click();
    const drawer = page.getByRole('dialog', { name: names.square });
    const id = await idOf(names.square);
    const url = (await server.api.get(`/api/upload/files/${id}`)).body.url;
    await drawer.getByRole('button', { name: 'Delete', exact: true }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete this file?' });
    await shot('08-delete');
    await confirm.getByRole('button', { name: 'Delete file' }).click();
    await page.getByText(`${names.square} deleted`).waitFor();
    await fileButton(names.square).waitFor({ state: 'detached' });
    assert.equal((await server.api.get(`/api/upload/files/${id}`)).status, 404);
    assert.equal(server.isStored(url), false);
  });

  it("uploads and picks in an article's media field, from the same library views (a refused type fails on its own)", async () => {
    const title = `${prefix} article`;
    await page.goto(`${server.url}/admin/content/api::article.article/create`);
    await page.getByRole('heading', { name: 'Create an entry' }).waitFor();
    await page.getByLabel(/^title( \*)?$/).fill(title);
    await page.getByRole('button', { name: 'Choose from the media library' }).first().click();
    const picker = page.getByRole('dialog', { name: 'Media library' });
    // Uploaded from the picker: the cover takes images, so a PDF is refused before it is sent; an image is picked at once.
    await picker
      .getByLabel('Files to upload')
      .setInputFiles({ name: `${prefix}-refused.pdf`, mimeType: 'application/pdf', buffer: pdf() });
    const refused = picker
      .getByRole('list', { name: 'Uploads' })
      .getByRole('listitem', { name: `${prefix}-refused.pdf` });
    await refused.getByRole('alert').filter({ hasText: 'This type of file is not accepted here' }).waitFor();
    await picker
      .getByLabel('Files to upload')
      .setInputFiles({ name: `${prefix}-fresh.png`, mimeType: 'image/png', buffer: await png(64, 48) });
    await picker
      .getByRole('list', { name: 'Uploads' })
      .getByRole('listitem', { name: `${prefix}-fresh.png` })
      .getByRole('status')
      .filter({ hasText: 'Uploaded' })
      .waitFor();
    const fresh = picker.getByRole('button', { name: `${prefix}-fresh.png`, exact: true });
    await fresh.and(page.locator('[aria-pressed="true"]')).waitFor();
    assert.equal(
      (await server.api.get(`/api/upload/files?filters[name][$startsWith]=${prefix}-refused`)).body.length,
      0,
    );
    // A single file: choosing another one replaces it.
    await picker.getByLabel('Search files').fill(prefix);
    const choice = picker.getByRole('button', { name: names.wide, exact: true });
    await choice.click();
    assert.equal(await choice.getAttribute('aria-pressed'), 'true');
    assert.equal(await fresh.getAttribute('aria-pressed'), 'false');
    // Images only: the cover takes images.
    await picker.getByRole('button', { name: names.doc, exact: true }).waitFor({ state: 'detached' });
    await shot('09-picker');
    await picker.getByRole('button', { name: 'Choose file' }).click();
    await page.getByRole('list', { name: 'cover' }).getByRole('listitem', { name: names.wide }).waitFor();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForURL((url) => /\/admin\/content\/api::article\.article\/(?!create$)[a-z0-9]+$/.test(url.pathname));
    const documentId = new URL(page.url()).pathname.split('/').pop()!;
    const article = await server.api.get(`/api/articles/${documentId}?status=draft&populate[cover]=true`);
    assert.equal(article.status, 200, JSON.stringify(article.body));
    assert.equal(article.body.data.cover.id, await idOf(names.wide));
    assert.equal(article.body.data.cover.alternativeText, 'A wide blue rectangle');
  });
});
