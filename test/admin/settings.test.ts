/**
 * The admin panel's settings screens end to end, in Debian's Chromium: locales (added, offered by
 * the content manager's switcher, made default, deleted), webhooks (created with a header, called
 * by a real receiver, their delivery log, a test trigger, disabled, deleted), and the
 * users-permissions settings (sign-ups closed and opened, an email template's subject, a login
 * provider enabled). After each step the public APIs answer what the screen showed. On SQLite
 * only: the routes behind these screens are covered on every dialect by their own tests
 * (test/users-permissions/, test/events/, test/i18n/).
 */
import assert from 'node:assert/strict';
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
import { adminClient } from '../helpers/admins.js';
import { Receiver } from '../helpers/receiver.js';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';
import { unique } from '../helpers/unique.js';

const skip = !DIALECTS.includes('sqlite') ? 'the browser tests run on SQLite' : browserMissing();

describe('admin panel settings in a browser [sqlite]', { skip }, () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let receiver: Receiver;
  /** The admin API with an administrator's JWT: what the screens read, asked directly. */
  let admin: HttpClient;
  const email = `${unique('settings')}@example.com`;
  const password = 'an-admin-password';
  /** A screenshot of the viewport, `height` tall for a long screen (the frame's header and navigation are fixed: a full-page shot would cut them). */
  const shot = async (name: string, height = 900) => {
    await page.setViewportSize({ width: 1280, height });
    await page.screenshot({ path: join(screenshotsDir(), `settings-${name}.png`) });
    await page.setViewportSize({ width: 1280, height: 900 });
  };
  const settings = () => page.getByRole('navigation', { name: 'Settings' });
  const notification = (text: string | RegExp) =>
    page.locator('.mantine-Notification-root').filter({ hasText: text }).first();
  const locales = async () =>
    (await server.publicApi.get('/api/i18n/locales')).body as { code: string; name: string; isDefault: boolean }[];

  before(async () => {
    ensureAdminBuild();
    server = await startServer('sqlite');
    admin = (await adminClient(server, email, password)).client;
    receiver = await Receiver.start();
    browser = await launchChromium();
    page = await newPanelPage(browser);
    await logInToPanel(page, server.url, email, password);
  });
  after(async () => {
    await browser?.close();
    await receiver?.close();
    await server?.close();
  });

  it('adds a locale the content manager offers at once, makes it default and back, deletes it', async () => {
    // The edit view first: its switcher has read the locales before "de" exists.
    const created = await server.api.post('/api/articles?status=draft', { data: { title: unique('localized') } });
    await page.goto(`${server.url}/admin/content/api::article.article/${created.body.data.documentId}`);
    const switcher = page.getByLabel('Locale', { exact: true });
    await switcher.locator('option[value="fr"]').waitFor({ state: 'attached' });
    assert.equal(await switcher.locator('option[value="de"]').count(), 0);

    await settings().getByRole('link', { name: 'Locales' }).click();
    await page.getByRole('heading', { name: 'Locales', level: 1 }).waitFor();
    // Not a locale code, or one already there: said beside the field.
    await page.getByRole('textbox', { name: 'Locale code' }).fill('not a code');
    await page.getByRole('textbox', { name: 'Locale code' }).press('Escape');
    await page.getByRole('button', { name: 'Add locale' }).click();
    await page.getByText('A code such as de, fr-CA or pt-BR').waitFor();
    await page.getByRole('textbox', { name: 'Locale code' }).fill('fr');
    await page.getByRole('textbox', { name: 'Locale code' }).press('Escape');
    await page.getByRole('button', { name: 'Add locale' }).click();
    await page.getByText('fr is already added').waitFor();
    // Searched by the language's name, chosen and added with the keyboard alone; the name follows the code.
    await page.getByRole('textbox', { name: 'Locale code' }).fill('germ');
    await page.getByRole('option', { name: 'German (de)', exact: true }).waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    assert.equal(await page.getByRole('textbox', { name: 'Locale code' }).inputValue(), 'de');
    assert.equal(await page.getByLabel('Display name').getAttribute('placeholder'), 'German');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Add locale');
    await page.keyboard.press('Enter');
    await notification('German (de) added').waitFor();
    const row = page.getByRole('table', { name: 'Locales' }).getByRole('row').filter({ hasText: 'German' });
    await row.waitFor();
    assert.deepEqual((await locales()).find((locale) => locale.code === 'de')?.isDefault, false);

    // Back to the edit view without a reload: its switcher offers the new locale.
    await page.goBack();
    await switcher.locator('option[value="de"]').waitFor({ state: 'attached' });
    await page.goForward();
    await page.getByRole('heading', { name: 'Locales', level: 1 }).waitFor();

    await page.getByRole('button', { name: 'Make de the default' }).click();
    await notification('German is the default locale').waitFor();
    await row.getByText('Default', { exact: true }).waitFor();
    assert.equal((await locales()).find((locale) => locale.isDefault)?.code, 'de');
    await shot('locales');

    // The default cannot go: the API's reason is shown.
    await page.getByRole('button', { name: 'Delete de' }).click();
    await page.getByRole('button', { name: 'Yes, delete' }).click();
    await notification('de is the default locale').waitFor();

    await page.getByRole('button', { name: 'Make en the default' }).click();
    await page
      .getByRole('table', { name: 'Locales' })
      .getByRole('row')
      .filter({ hasText: 'English' })
      .getByText('Default', { exact: true })
      .waitFor();
    assert.equal((await locales()).find((locale) => locale.isDefault)?.code, 'en');

    // Renamed, then deleted (asks first).
    await page.getByRole('button', { name: 'Edit de' }).click();
    await page.getByRole('dialog').getByLabel('Display name').fill('Deutsch');
    await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
    await notification('de renamed Deutsch').waitFor();
    assert.equal((await locales()).find((locale) => locale.code === 'de')?.name, 'Deutsch');
    await page.getByRole('button', { name: 'Delete de' }).click();
    await page.getByRole('dialog').getByText('Its entries are not deleted').waitFor();
    await page.getByRole('button', { name: 'Yes, delete' }).click();
    await notification('Deutsch (de) deleted').waitFor();
    await page
      .getByRole('table', { name: 'Locales' })
      .getByRole('row')
      .filter({ hasText: 'Deutsch' })
      .waitFor({ state: 'detached' });
    assert.ok(!(await locales()).some((locale) => locale.code === 'de'));

    // A locale config/plugins lists stays: the API says why.
    await page.getByRole('button', { name: 'Delete fr' }).click();
    await page.getByRole('button', { name: 'Yes, delete' }).click();
    await notification('listed in config/plugins').waitFor();
  });

  it('creates a webhook the content API calls, lists its deliveries, triggers it, disables and deletes it', async () => {
    const name = unique('hook');
    await settings().getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Create new webhook' }).click();
    await page.getByRole('heading', { name: 'Create a webhook' }).waitFor();
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
    await page.getByRole('textbox', { name: 'URL', exact: true }).fill('ftp://example.com/hook');
    await page.getByLabel('Header name 1').fill('X-Vellum-Test');
    await page.getByLabel('Header value 1').fill(name);
    await page.getByRole('checkbox', { name: 'Entry create (entry.create)' }).check();

    // The API's validation error beside its field.
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const url = page.getByRole('textbox', { name: 'URL', exact: true });
    await page.locator('input[aria-invalid="true"]').and(url).waitFor();
    await page.getByText('url must be an http or https URL, not ftp').waitFor();

    await url.fill(receiver.url);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForURL(/\/admin\/manage\/webhooks\/\d+$/);
    const id = new URL(page.url()).pathname.split('/').pop()!;
    // The webhook's own address survives a reload (a client route the JSON admin API does not serve).
    await page.reload();
    await page.getByRole('heading', { name, level: 1 }).waitFor();
    const stored = await admin.get(`/admin/webhooks/${id}`);
    assert.deepEqual(
      {
        name: stored.body.data.name,
        url: stored.body.data.url,
        headers: stored.body.data.headers,
        events: stored.body.data.events,
        isEnabled: stored.body.data.isEnabled,
      },
      { name, url: receiver.url, headers: { 'X-Vellum-Test': name }, events: ['entry.create'], isEnabled: true },
    );

    // An article created through the content API: the receiver gets it, the log lists it.
    const title = unique('hooked');
    await server.api.post('/api/articles', { data: { title } });
    await receiver.until(
      (r) =>
        r.delivered.some((request) => request.body?.event === 'entry.create' && request.body?.entry?.title === title),
      'the entry.create delivery',
    );
    const delivery = receiver.delivered.find((request) => request.body?.entry?.title === title)!;
    assert.equal(delivery.headers['x-vellum-test'], name);
    const log = page.getByRole('table', { name: 'Delivery log' });
    await log
      .getByRole('row')
      .filter({ hasText: 'entry.create' })
      .filter({ hasText: 'delivered' })
      .filter({ hasText: '200' })
      .waitFor();

    // A test call now: its answer shown.
    await page.getByRole('button', { name: 'Trigger', exact: true }).click();
    await page
      .getByRole('status', { name: 'Trigger result' })
      .filter({ hasText: 'The receiver answered 200' })
      .waitFor();
    assert.ok(receiver.requests.some((request) => request.body?.event === 'trigger-test'));
    await shot('webhooks', 1450);

    // Disabled from the list, then deleted (asks first).
    await page.getByRole('link', { name: '← Webhooks' }).click();
    const enabled = page.getByRole('switch', { name: `${name} enabled` });
    assert.equal(await enabled.isChecked(), true);
    // The switch shows the stored state: it turns off once the API has answered.
    await enabled.click({ force: true });
    await notification(`${name} disabled`).waitFor();
    await page.waitForFunction(
      (label) => (document.querySelector(`input[aria-label="${label}"]`) as HTMLInputElement | null)?.checked === false,
      `${name} enabled`,
    );
    assert.equal((await admin.get(`/admin/webhooks/${id}`)).body.data.isEnabled, false);
    await shot('webhooks-list');
    await page.getByRole('button', { name: `Delete ${name}` }).click();
    await page.getByRole('button', { name: 'Yes, delete' }).click();
    await notification(`${name} deleted`).waitFor();
    await page.getByRole('link', { name }).waitFor({ state: 'detached' });
    assert.equal((await admin.get(`/admin/webhooks/${id}`)).status, 404);

    // Several at once (the API's batch-delete).
    const others = [unique('batch'), unique('batch')];
    const ids: string[] = [];
    for (const other of others)
      ids.push(
        (await admin.post('/admin/webhooks', { name: other, url: receiver.url, events: ['media.create'] })).body.data
          .id,
      );
    await page.reload();
    for (const other of others) await page.getByRole('checkbox', { name: `Select ${other}` }).check();
    await page.getByRole('button', { name: 'Delete selected (2)' }).click();
    await page.getByRole('button', { name: 'Yes, delete' }).click();
    await notification('2 webhooks deleted').waitFor();
    for (const other of ids) assert.equal((await admin.get(`/admin/webhooks/${other}`)).status, 404);
  });

  it('closes and opens sign-ups', async () => {
    const register = () => {
      const username = unique('signup');
      return server.publicApi.post('/api/auth/local/register', {
        username,
        email: `${username}@example.com`,
        password: 'a-user-password',
      });
    };
    await settings().getByRole('link', { name: 'Advanced settings' }).click();
    const signUps = page.getByRole('switch', { name: 'Enable sign-ups' });
    await signUps.waitFor();
    assert.equal(await signUps.isChecked(), true);
    await signUps.uncheck({ force: true });
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await notification('Advanced settings saved').waitFor();
    const refused = await register();
    assert.ok(refused.status >= 400 && refused.status < 500, `registration refused: ${refused.status}`);
    await shot('advanced');
    // The next save's notification has the same words: this one goes first (it closes itself).
    await notification('Advanced settings saved').waitFor({ state: 'detached' });

    // A redirect URL the API refuses: its message beside the field.
    await page.getByLabel('Redirection URL').fill('not a url');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.locator('input[aria-invalid="true"]').and(page.getByLabel('Redirection URL')).waitFor();
    await page.getByLabel('Redirection URL').fill('');

    await signUps.check({ force: true });
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await notification('Advanced settings saved').waitFor();
    assert.equal((await register()).status, 200);
    assert.equal((await admin.get('/admin/users-permissions/advanced')).body.settings.allow_register, true);
  });

  it('edits an email template', async () => {
    const subject = `Reset your password ${unique('subject')}`;
    await settings().getByRole('link', { name: 'Email templates' }).click();
    const reset = page.getByRole('region', { name: 'Reset password' });
    await reset.getByLabel('Subject').fill(subject);
    await reset.getByRole('button', { name: 'Save reset password template' }).click();
    await notification('Reset password template saved').waitFor();
    const templates = await admin.get('/admin/users-permissions/email-templates');
    assert.equal(templates.body.reset_password.options.object, subject);
    assert.equal(
      templates.body.email_confirmation.options.object,
      'Account confirmation',
      'the other template is kept',
    );
    await shot('email-templates', 1300);
  });

  it('enables a login provider with its key: /api/connect redirects to it', async () => {
    await settings().getByRole('link', { name: 'Providers' }).click();
    await page.getByRole('button', { name: 'Edit github' }).click();
    const dialog = page.getByRole('dialog');
    // The modal mounts its form before its values arrive: a click in between is undone when they
    // land (seen once under load). Check it until it stays on (check() is a no-op once on).
    await dialog.getByLabel('Client ID').waitFor();
    const enable = dialog.getByRole('switch', { name: 'Enable' });
    for (let attempt = 0; attempt < 10 && !(await enable.isChecked()); attempt++)
      await enable.check({ force: true }).catch(() => undefined);
    assert.equal(await enable.isChecked(), true);
    await dialog.getByLabel('Client ID').fill('vellum-client-id');
    await dialog.getByLabel('Client secret').fill('vellum-client-secret');
    assert.equal(
      await dialog.getByLabel("The redirect URL to add in your provider's application configurations").inputValue(),
      `${server.url}/api/connect/github/callback`,
    );
    await dialog.getByRole('button', { name: 'Copy the redirect URL' }).waitFor();
    await shot('providers');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await notification('github saved').waitFor();
    await page
      .getByRole('table', { name: 'Providers' })
      .getByRole('row')
      .filter({ hasText: 'github' })
      .getByText('Enabled')
      .waitFor();

    const connect = await fetch(`${server.url}/api/connect/github`, { redirect: 'manual' });
    assert.equal(connect.status, 302);
    const location = new URL(connect.headers.get('location')!);
    assert.equal(location.origin + location.pathname, 'https://github.com/login/oauth/authorize');
    assert.equal(location.searchParams.get('client_id'), 'vellum-client-id');

    // A provider Vellum cannot run: the API's reason beside the switch.
    await page.getByRole('button', { name: 'Edit twitter' }).click();
    await dialog.getByLabel('Client ID').waitFor();
    const enableTwitter = dialog.getByRole('switch', { name: 'Enable' });
    for (let attempt = 0; attempt < 10 && !(await enableTwitter.isChecked()); attempt++)
      await enableTwitter.check({ force: true }).catch(() => undefined);
    assert.equal(await enableTwitter.isChecked(), true);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('twitter cannot be enabled').waitFor();
  });
});
