/**
 * Settings screens a role may read but not change, end to end in Debian's Chromium
 * (docs/admin-panel.md "Roles": what an administrator sees follows their permissions). A role
 * "Readers" holds the read actions of the settings screens and the media library: each screen
 * shows its "Read-only" note, no Save, Create or Delete, and its fields disabled; a create page
 * opened by its address says "Not allowed". A role "Writers" holds the update actions beside them:
 * the same screens show Save and editable fields (and save), still without Create or Delete. The
 * Super Admin sees every button. Both roles are set through the API (`PUT /admin/roles/:id/permissions`).
 * Screenshots land in .tmp/admin-screenshots/ (read-only-*.png). SQLite only.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { browserMissing, ensureAdminBuild, launchChromium, screenshotsDir } from '../helpers/browser.js';
import type { HttpClient } from '../helpers/http.js';
import { adminClient, createRole, explorerPermission, inviteAdmin, permission } from '../helpers/admins.js';
import { DIALECTS } from '../helpers/server.js';
import { png, startUploadServer, upload, type UploadServer } from '../helpers/uploads.js';

const skip = !DIALECTS.includes('sqlite') ? 'the browser tests run on SQLite' : browserMissing();
const UP = 'plugin::users-permissions';
const USER = `${UP}.user`;

/** The read actions of the screens under test. */
const READS = [
  'admin::webhooks.read',
  'admin::roles.read',
  'admin::users.read',
  'admin::api-tokens.read',
  'plugin::i18n.locale.read',
  'plugin::upload.read',
  `${UP}.roles.read`,
  `${UP}.providers.read`,
  `${UP}.email-templates.read`,
  `${UP}.advanced-settings.read`,
];
/** The update actions of the same screens (no create, no delete). */
const UPDATES = [
  'admin::webhooks.update',
  'admin::roles.update',
  'admin::users.update',
  'plugin::i18n.locale.update',
  'plugin::upload.assets.update',
  'plugin::upload.assets.copy-link',
  `${UP}.roles.update`,
  `${UP}.providers.update`,
  `${UP}.email-templates.update`,
  `${UP}.advanced-settings.update`,
];
const plain = (action: string) => permission(action);
const onUsers = (action: string) => explorerPermission(action, USER);

describe('admin panel: screens a role may read, not change [sqlite]', { skip }, () => {
  let server: UploadServer;
  let browser: Browser;
  let root: HttpClient;
  const contexts: BrowserContext[] = [];
  const email = 'root@example.com';
  const password = 'Root-Passw0rd';
  const reader = { email: 'reader@example.com', password: 'Reader-Passw0rd', firstname: 'reader' };
  const writer = { email: 'writer@example.com', password: 'Writer-Passw0rd', firstname: 'writer' };
  const fileName = 'harbour.png';

  /** A logged-in panel in a browser context of its own. */
  const panelOf = async (who: { email: string; password: string }): Promise<Page> => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    // As logInToPanel, but these roles read no content-type: the frame shows the settings menu.
    await page.goto(`${server.url}/admin/login`);
    await page.getByLabel('Email').fill(who.email);
    await page.getByLabel('Password').fill(who.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('navigation', { name: 'Settings' }).waitFor();
    return page;
  };
  const shot = (page: Page, name: string) =>
    page.screenshot({ path: join(screenshotsDir(), `read-only-${name}.png`), fullPage: true });
  /** Opens a client path of the panel and waits for its heading. */
  const open = async (page: Page, path: string, heading: string | RegExp) => {
    await page.goto(`${server.url}/admin${path}`);
    await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
  };
  const note = (scope: Page | Locator) => scope.getByRole('note', { name: 'Read-only' });
  const count = (scope: Page | Locator, name: string | RegExp, role: 'button' | 'link' = 'button') =>
    scope.getByRole(role, { name, exact: typeof name === 'string' }).count();
  const disabled = async (field: Locator) => {
    await field.waitFor();
    return field.isDisabled();
  };

  before(async () => {
    ensureAdminBuild();
    server = await startUploadServer('sqlite');
    root = (await adminClient(server, email, password)).client;
    // Something on each screen: a webhook, a content API user, a file.
    const hook = await root.post('/admin/webhooks', {
      name: 'Deploy',
      url: 'http://127.0.0.1:9/hooks/deploy',
      events: ['entry.create'],
    });
    assert.equal(hook.status, 201, JSON.stringify(hook.body));
    const user = await root.post('/admin/users-permissions/users', {
      username: 'alice',
      email: 'alice@example.com',
      password: 'alice-secret-1',
      confirmed: true,
    });
    assert.equal(user.status, 201, JSON.stringify(user.body));
    const file = await upload(server, [{ name: fileName, bytes: await png(40, 30), type: 'image/png' }]);
    assert.equal(file.status, 201, JSON.stringify(file.body));

    const readers = await createRole(
      root,
      'Readers',
      [...READS.map(plain), onUsers('read')],
      'Readers of the settings',
    );
    const writers = await createRole(
      root,
      'Writers',
      [...[...READS, ...UPDATES].map(plain), onUsers('read'), onUsers('update')],
      'Writers of the settings',
    );
    await inviteAdmin(server, root, [readers], reader);
    await inviteAdmin(server, root, [writers], writer);
    browser = await launchChromium();
  });
  after(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await server?.close();
  });

  it('shows a role with read actions only every screen read-only: no Save, Create or Delete', async () => {
    const page = await panelOf(reader);

    await open(page, '/manage/users-permissions/advanced', 'Advanced settings');
    await note(page).getByText('Your roles let you read the advanced settings, not change it.').waitFor();
    assert.equal(await count(page, 'Save'), 0);
    assert.equal(await disabled(page.getByRole('switch', { name: 'Enable sign-ups' })), true);
    assert.equal(await disabled(page.getByLabel('Reset password page')), true);
    assert.equal(await disabled(page.getByLabel('Default role for authenticated users')), true);
    await shot(page, 'advanced');

    await open(page, '/manage/users-permissions/email-templates', 'Email templates');
    await note(page).waitFor();
    const reset = page.getByRole('region', { name: 'Reset password' });
    assert.equal(await disabled(reset.getByLabel('Subject')), true);
    assert.equal(await disabled(reset.getByLabel('Message')), true);
    assert.equal(await count(page, /^Save/), 0);

    await open(page, '/manage/users-permissions/providers', 'Providers');
    await note(page).waitFor();
    assert.equal(await count(page, 'Edit github'), 0);
    await page.getByRole('button', { name: 'View github' }).click();
    const dialog = page.getByRole('dialog', { name: 'github' });
    assert.equal(await disabled(dialog.getByLabel('Client ID')), true);
    assert.equal(await disabled(dialog.getByRole('switch', { name: 'Enable' })), true);
    // The redirect URL stays to copy: reading it is what the screen is for.
    await dialog.getByRole('button', { name: 'Copy the redirect URL' }).waitFor();
    assert.equal(await count(dialog, 'Save'), 0);
    await shot(page, 'provider');
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });

    // The content API's roles: viewed, neither created nor deleted.
    await open(page, '/manage/roles', 'Roles');
    await note(page).waitFor();
    assert.equal(await count(page, 'Create new role', 'link'), 0);
    assert.equal(await count(page, 'Edit Authenticated', 'link'), 0);
    await page.getByRole('link', { name: 'View Authenticated' }).click();
    await page.getByRole('heading', { name: 'Authenticated', level: 1 }).waitFor();
    await note(page).waitFor();
    assert.equal(await count(page, 'Save'), 0);
    assert.equal(await disabled(page.getByLabel(/^Name/)), true);
    assert.equal(await disabled(page.getByRole('checkbox').first()), true);
    await open(page, '/manage/roles/create', 'Not allowed');

    await open(page, '/manage/webhooks', 'Webhooks');
    await note(page).waitFor();
    assert.equal(await count(page, 'Create new webhook', 'link'), 0);
    assert.equal(await count(page, 'Delete Deploy'), 0);
    assert.equal(await page.getByRole('checkbox', { name: 'Select Deploy' }).count(), 0);
    assert.equal(await disabled(page.getByRole('switch', { name: 'Deploy enabled' })), true);
    await page.getByRole('link', { name: 'Deploy', exact: true }).click();
    await page.getByRole('heading', { name: 'Deploy', level: 1 }).waitFor();
    await note(page).getByText('Your roles let you read this webhook, not change it.').waitFor();
    assert.equal(await disabled(page.getByLabel(/^URL/)), true);
    assert.equal(await disabled(page.getByRole('checkbox', { name: /\(entry\.create\)$/ })), true);
    assert.equal(await count(page, 'Save'), 0);
    assert.equal(await count(page, 'Add a header'), 0);
    assert.equal(await count(page, 'Trigger'), 0);
    await page.getByRole('table', { name: 'Delivery log' }).waitFor();
    await shot(page, 'webhook');
    await open(page, '/manage/webhooks/create', 'Not allowed');

    await open(page, '/manage/locales', 'Locales');
    await note(page).waitFor();
    await page.getByRole('table', { name: 'Locales' }).getByRole('cell', { name: 'en', exact: true }).waitFor();
    assert.equal(await page.getByRole('region', { name: 'Add a locale' }).count(), 0);
    assert.equal(await count(page, 'Edit en'), 0);
    assert.equal(await count(page, 'Delete en'), 0);

    await open(page, '/manage/api-tokens', 'API tokens');
    await note(page).waitFor();
    await page.getByRole('table', { name: 'API tokens' }).waitFor();
    assert.equal(await page.getByRole('region', { name: 'Create an API token' }).count(), 0);
    assert.equal(await count(page, /^Revoke /), 0);

    // The administrators' roles and the administrators.
    await open(page, '/manage/admin-roles', 'Roles');
    await note(page).waitFor();
    assert.equal(await count(page, 'Add new role', 'link'), 0);
    assert.equal(await count(page, 'Delete Editor'), 0);
    await page.getByRole('link', { name: 'View Editor' }).click();
    await page.getByRole('heading', { name: 'Editor', level: 1 }).waitFor();
    await note(page).getByText('Your roles let you read this role, not change it.').waitFor();
    assert.equal(await count(page, 'Save'), 0);
    assert.equal(await disabled(page.getByRole('checkbox', { name: 'Article: Read', exact: true })), true);
    await open(page, '/manage/admin-roles/create', 'Not allowed');

    await open(page, '/manage/admin-users', 'Users');
    await note(page).waitFor();
    await page.getByRole('cell', { name: writer.email }).waitFor();
    assert.equal(await count(page, 'Invite new user'), 0);
    assert.equal(await count(page, `Edit ${writer.email}`), 0);
    assert.equal(await count(page, `Delete ${writer.email}`), 0);

    // The content API's users.
    await open(page, '/manage/users', 'Users');
    await note(page).waitFor();
    await page.getByRole('cell', { name: 'alice', exact: true }).waitFor();
    assert.equal(await count(page, 'Create new user'), 0);
    for (const action of ['Edit', 'Block', 'Delete']) assert.equal(await count(page, `${action} alice`), 0);

    await open(page, '/media', 'Media library');
    await note(page).getByText('Your roles let you read the media library, not change it.').waitFor();
    assert.equal(await count(page, 'Upload files'), 0);
    await page.getByRole('button', { name: fileName }).click();
    const drawer = page.getByRole('dialog', { name: fileName });
    assert.equal(await disabled(drawer.getByLabel(/^Name/)), true);
    assert.equal(await disabled(drawer.getByLabel('Alternative text')), true);
    assert.equal(await count(drawer, 'Save'), 0);
    assert.equal(await count(drawer, 'Delete'), 0);
    assert.equal(await count(drawer, 'Copy URL'), 0);
    assert.equal(await count(drawer, 'Open the original in a new tab', 'link'), 0);
    await shot(page, 'media');
  });

  it('shows a role with the update actions Save and editable fields, and no Create or Delete', async () => {
    const page = await panelOf(writer);

    await open(page, '/manage/users-permissions/advanced', 'Advanced settings');
    const signUps = page.getByRole('switch', { name: 'Enable sign-ups' });
    assert.equal(await disabled(signUps), false);
    assert.equal(await note(page).count(), 0);
    await signUps.uncheck({ force: true });
    const saved = page.waitForResponse(
      (response) => response.request().method() === 'PUT' && response.url().endsWith('/users-permissions/advanced'),
    );
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    assert.equal((await saved).status(), 200);
    assert.equal((await root.get('/admin/users-permissions/advanced')).body.settings.allow_register, false);

    await open(page, '/manage/users-permissions/email-templates', 'Email templates');
    const reset = page.getByRole('region', { name: 'Reset password' });
    assert.equal(await disabled(reset.getByLabel('Subject')), false);
    await reset.getByRole('button', { name: 'Save reset password template' }).waitFor();

    await open(page, '/manage/users-permissions/providers', 'Providers');
    await page.getByRole('button', { name: 'Edit github' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit github' });
    assert.equal(await disabled(dialog.getByLabel('Client ID')), false);
    await dialog.getByRole('button', { name: 'Save' }).waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });

    await open(page, '/manage/roles', 'Roles');
    assert.equal(await count(page, 'Create new role', 'link'), 0);
    await page.getByRole('link', { name: 'Edit Authenticated' }).click();
    await page.getByRole('heading', { name: 'Edit Authenticated', level: 1 }).waitFor();
    assert.equal(await disabled(page.getByLabel(/^Name/)), false);
    await page.getByRole('button', { name: 'Save' }).waitFor();

    await open(page, '/manage/webhooks', 'Webhooks');
    assert.equal(await disabled(page.getByRole('switch', { name: 'Deploy enabled' })), false);
    assert.equal(await count(page, 'Create new webhook', 'link'), 0);
    assert.equal(await count(page, 'Delete Deploy'), 0);
    await page.getByRole('link', { name: 'Deploy', exact: true }).click();
    await page.getByRole('heading', { name: 'Deploy', level: 1 }).waitFor();
    assert.equal(await disabled(page.getByLabel(/^URL/)), false);
    await page.getByRole('button', { name: 'Save' }).waitFor();
    await page.getByRole('button', { name: 'Trigger' }).waitFor();
    assert.equal(await note(page).count(), 0);

    await open(page, '/manage/locales', 'Locales');
    await page.getByRole('button', { name: 'Edit en' }).waitFor();
    assert.equal(await page.getByRole('region', { name: 'Add a locale' }).count(), 0);
    assert.equal(await count(page, 'Delete en'), 0);

    await open(page, '/manage/admin-roles', 'Roles');
    assert.equal(await count(page, 'Add new role', 'link'), 0);
    await page.getByRole('link', { name: 'Edit Editor' }).click();
    await page.getByRole('heading', { name: 'Edit Editor', level: 1 }).waitFor();
    assert.equal(await disabled(page.getByRole('checkbox', { name: 'Article: Read', exact: true })), false);
    await page.getByRole('button', { name: 'Save' }).waitFor();

    await open(page, '/manage/admin-users', 'Users');
    await page.getByRole('button', { name: `Edit ${reader.email}` }).waitFor();
    assert.equal(await count(page, 'Invite new user'), 0);
    assert.equal(await count(page, `Delete ${reader.email}`), 0);

    await open(page, '/manage/users', 'Users');
    await page.getByRole('button', { name: 'Edit alice' }).waitFor();
    assert.equal(await count(page, 'Create new user'), 0);
    assert.equal(await count(page, 'Delete alice'), 0);

    await open(page, '/media', 'Media library');
    assert.equal(await count(page, 'Upload files'), 0);
    await page.getByRole('button', { name: fileName }).click();
    const drawer = page.getByRole('dialog', { name: fileName });
    assert.equal(await disabled(drawer.getByLabel('Alternative text')), false);
    await drawer.getByRole('button', { name: 'Save' }).waitFor();
    await drawer.getByRole('button', { name: 'Delete' }).waitFor();
    await drawer.getByRole('button', { name: 'Copy URL' }).waitFor();
    assert.equal(await count(drawer, 'Open the original in a new tab', 'link'), 0);
  });

  it("keeps the Super Admin's screens whole: every button, no read-only note", async () => {
    const page = await panelOf({ email, password });
    await open(page, '/manage/users-permissions/advanced', 'Advanced settings');
    await page.getByRole('button', { name: 'Save', exact: true }).waitFor();
    assert.equal(await note(page).count(), 0);
    await open(page, '/manage/webhooks', 'Webhooks');
    await page.getByRole('link', { name: 'Create new webhook' }).waitFor();
    await page.getByRole('button', { name: 'Delete Deploy' }).waitFor();
    await page.getByRole('checkbox', { name: 'Select Deploy' }).waitFor();
    await open(page, '/manage/locales', 'Locales');
    await page.getByRole('region', { name: 'Add a locale' }).waitFor();
    await open(page, '/media', 'Media library');
    await page.getByRole('button', { name: 'Upload files' }).waitFor();
    await page.getByRole('button', { name: fileName }).click();
    const drawer = page.getByRole('dialog', { name: fileName });
    await drawer.getByRole('link', { name: 'Open the original in a new tab' }).waitFor();
    await drawer.getByRole('button', { name: 'Copy URL' }).waitFor();
    assert.equal(await note(page).count(), 0);
  });
});
