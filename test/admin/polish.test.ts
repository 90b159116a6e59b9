/**
 * The admin panel's finishing touches, end to end in Debian's Chromium: an image inserted into a
 * blocks field from the media library (uploaded there first) and a code block's language, saved
 * as Strapi's editor writes them (the content API answers exactly Strapi's image and code nodes),
 * shown again after a reload, the image removed with the keyboard; the unsaved-changes guard of
 * the settings forms (the advanced settings, a provider's dialog). Screenshots land in
 * .tmp/admin-screenshots/polish-*.png. On SQLite only, as panel.test.ts.
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
import { DIALECTS } from '../helpers/server.js';
import { unique } from '../helpers/unique.js';
import { png, startUploadServer, type UploadServer } from '../helpers/uploads.js';

const skip = !DIALECTS.includes('sqlite') ? 'the browser tests run on SQLite' : browserMissing();

describe('admin panel: images and code languages in blocks, unsaved settings [sqlite]', { skip }, () => {
  let server: UploadServer;
  let browser: Browser;
  let page: Page;
  const email = `${unique('polish')}@example.com`;
  const password = 'an-editor-password';
  const field = (name: string) => attributeField(page, name);
  const shot = (name: string) =>
    page.screenshot({ path: join(screenshotsDir(), `polish-${name}.png`), animations: 'disabled' });
  const saved = (url: URL) => /\/admin\/content\/api::article\.article\/(?!create$)[a-z0-9]+$/.test(url.pathname);
  const draft = async (documentId: string) =>
    (await server.api.get(`/api/articles/${documentId}?status=draft`)).body.data;

  before(async () => {
    ensureAdminBuild();
    server = await startUploadServer('sqlite');
    await server.vellum.auth.admins.create(email, password);
    browser = await launchChromium();
    page = await newPanelPage(browser);
    await logInToPanel(page, server.url, email, password);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it("inserts an image from the media library and picks a code block's language; the API answers Strapi's nodes", async () => {
    const title = unique('Image article');
    const imageName = `${unique('polish')}-diagram.png`;
    await page.goto(`${server.url}/admin/content/api::article.article/create`);
    await page.getByRole('heading', { name: 'Create an entry' }).waitFor();
    await field('title').fill(title);
    const editor = field('content');
    await editor.click();
    await page.keyboard.type('Intro');
    await page.keyboard.press('Enter');

    // The toolbar's Image button opens the library (images only); a file uploaded there is picked at once.
    const toolbar = page.getByRole('toolbar', { name: 'Formatting' });
    await toolbar.getByRole('button', { name: 'Image', exact: true }).click();
    const picker = page.getByRole('dialog', { name: 'Insert images' });
    await picker
      .getByLabel('Files to upload')
      .setInputFiles({ name: imageName, mimeType: 'image/png', buffer: await png(320, 200, '#2b8a3e') });
    await picker
      .getByRole('list', { name: 'Uploads' })
      .getByRole('listitem', { name: imageName })
      .getByRole('status')
      .filter({ hasText: 'Uploaded' })
      .waitFor();
    await shot('00-image-picker');
    await picker.getByRole('button', { name: 'Choose file' }).click();
    await picker.waitFor({ state: 'detached' });
    await editor.getByRole('img', { name: imageName }).waitFor();

    // Enter on the image (selected once inserted) opens a paragraph after it, made a Python code block.
    await page.keyboard.press('Enter');
    await toolbar.getByLabel('Block type').selectOption({ label: 'Code block' });
    const language = toolbar.getByLabel('Code language');
    assert.equal(await language.inputValue(), 'plaintext');
    await language.selectOption({ label: 'Python' });
    await page.keyboard.type('print("hello")');
    await editor.evaluate((element) => element.scrollIntoView({ block: 'center' }));
    await shot('01-image-and-code');

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForURL(saved);
    await page.getByText('Saved', { exact: true }).first().waitFor();
    const documentId = new URL(page.url()).pathname.split('/').pop()!;

    // Strapi's image node: the file's fields (not its id), the name as the alternative text, the URL absolute.
    const files = (await server.api.get(`/api/upload/files?filters[name][$eq]=${encodeURIComponent(imageName)}`))
      .body as Record<string, unknown>[];
    assert.equal(files.length, 1);
    const file = files[0]!;
    const image = {
      name: imageName,
      alternativeText: imageName,
      url: `${server.url}${String(file.url)}`,
      caption: file.caption,
      width: 320,
      height: 200,
      formats: file.formats,
      hash: file.hash,
      ext: '.png',
      mime: 'image/png',
      size: file.size,
      previewUrl: file.previewUrl,
      provider: 'local',
      provider_metadata: file.provider_metadata,
      createdAt: file.createdAt,
      updatedAt: file.updatedAt,
    };
    const expected = [
      { type: 'paragraph', children: [{ type: 'text', text: 'Intro' }] },
      { type: 'image', image, children: [{ type: 'text', text: '' }] },
      { type: 'code', language: 'python', children: [{ type: 'text', text: 'print("hello")' }] },
    ];
    assert.deepEqual((await draft(documentId)).content, expected);
    assert.equal(
      (await server.publicApi.get(String(image.url).slice(server.url.length))).status,
      200,
      'the image is served where the node says',
    );

    // A reload shows the image and the code block's language.
    await page.reload();
    await field('content').getByRole('img', { name: imageName }).waitFor();
    await field('content').locator('pre', { hasText: 'print("hello")' }).click();
    assert.equal(await toolbar.getByLabel('Code language').inputValue(), 'python');
    await field('content').evaluate((element) => element.scrollIntoView({ block: 'center' }));
    await shot('02-reloaded');

    // Its ✕ button removes it too (undone with Ctrl+Z).
    await field('content')
      .getByRole('button', { name: `Remove image ${imageName}` })
      .click();
    await field('content').getByRole('img', { name: imageName }).waitFor({ state: 'detached' });
    await page.keyboard.press('Control+z');
    await field('content').getByRole('img', { name: imageName }).waitFor();

    // From the keyboard: the arrow key from the end of "Intro" selects the image, Backspace removes it.
    await field('content').getByText('Intro').click();
    await page.keyboard.press('End');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Backspace');
    await field('content').getByRole('img', { name: imageName }).waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('unsaved changes').waitFor({ state: 'detached' });
    assert.deepEqual((await draft(documentId)).content, [expected[0], expected[2]]);
    await shot('03-image-removed');
  });

  it('asks before leaving a settings form (advanced settings, email templates, a webhook) or closing a provider dialog with changes not saved', async () => {
    await page.goto(`${server.url}/admin/manage/users-permissions/advanced`);
    const reset = page.getByLabel('Reset password page');
    await reset.fill('https://example.com/reset');
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Webhooks' }).click();
    const prompt = page.getByRole('dialog', { name: 'Leave without saving?' });
    await prompt.getByText('The advanced settings have changes that are not saved.').waitFor();
    await shot('04-unsaved-settings');
    await prompt.getByRole('button', { name: 'Stay' }).click();
    await prompt.waitFor({ state: 'detached' });
    assert.match(page.url(), /\/manage\/users-permissions\/advanced$/);
    assert.equal(await reset.inputValue(), 'https://example.com/reset');
    // Saved, it leaves without asking.
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Advanced settings saved').waitFor();
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Webhooks' }).click();
    await page.waitForURL(/\/manage\/webhooks$/);

    // An email template and a new webhook: the same prompt; Leave leaves.
    await page.goto(`${server.url}/admin/manage/users-permissions/email-templates`);
    await page.getByRole('region', { name: 'Reset password' }).getByLabel('Subject').fill('Your new password');
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Providers' }).click();
    await prompt.getByText('An email template has changes that are not saved.').waitFor();
    await prompt.getByRole('button', { name: 'Leave' }).click();
    await page.waitForURL(/\/manage\/users-permissions\/providers$/);
    await page.goto(`${server.url}/admin/manage/webhooks/create`);
    await page.getByRole('heading', { name: 'Create a webhook' }).waitFor();
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Unsaved hook');
    await page.getByRole('link', { name: '← Webhooks' }).click();
    await prompt.getByText('This webhook has changes that are not saved.').waitFor();
    await prompt.getByRole('button', { name: 'Leave' }).click();
    await page.waitForURL(/\/manage\/webhooks$/);

    // A provider's dialog: Escape with a changed client ID asks; "Keep editing" keeps the dialog and its value.
    await page.goto(`${server.url}/admin/manage/users-permissions/providers`);
    await page.getByRole('button', { name: 'Edit github' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit github' });
    await dialog.getByLabel('Client ID').fill('changed-client-id');
    await page.keyboard.press('Escape');
    const discard = page.getByRole('dialog', { name: 'Discard your changes?' });
    await discard.waitFor();
    await discard.getByRole('button', { name: 'Keep editing' }).click();
    await discard.waitFor({ state: 'detached' });
    assert.equal(await dialog.getByLabel('Client ID').inputValue(), 'changed-client-id');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await discard.getByRole('button', { name: 'Discard' }).click();
    await dialog.waitFor({ state: 'detached' });
  });
});
