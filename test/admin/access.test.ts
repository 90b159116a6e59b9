/**
 * The admin panel's access screens end to end, in Debian's Chromium: a role made and granted in
 * the permissions matrix, a user of that role who then logs in to the content API (and is
 * refused what the role lacks), the grant taken back, the user blocked; an administrator invited
 * who registers at the invitation link in a second browser context and changes their password
 * there; a custom API token with one action. After each step the content API answers what the
 * screen set. Screenshots land in .tmp/admin-screenshots/
 * (access-*.png). On SQLite only: the routes' own tests (test/admin/admin-access.test.ts) run on
 * every database.
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
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';
import { unique } from '../helpers/unique.js';

const skip = !DIALECTS.includes('sqlite') ? 'the browser tests run on SQLite' : browserMissing();
const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

describe('admin panel: roles, users, administrators, custom tokens [sqlite]', { skip }, () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  const email = `${unique('access-admin')}@example.com`;
  const password = 'an-admin-password';
  const roleName = unique('Editors');
  const username = unique('writer').toLowerCase();
  const userPassword = 'a-writer-password';
  const shot = (target: Page, name: string) =>
    target.screenshot({ path: join(screenshotsDir(), `access-${name}.png`), fullPage: true });
  /** A settings screen of the Users & Permissions plugin (the content API's), or of another group of the menu. */
  const settings = (target: Page, link: string, group = 'Users & Permissions') =>
    target.getByRole('navigation', { name: group }).getByRole('link', { name: link, exact: true }).click();
  const userLogin = () => server.publicApi.post('/api/auth/local', { identifier: username, password: userPassword });
  const logIn = async (target: Page, who: string, secret: string) => {
    await logInToPanel(target, server.url, who, secret);
    await target.getByRole('navigation', { name: 'Settings' }).waitFor();
  };
  /** Saves the role on screen and waits for the API's answer. */
  const saveRole = async () => {
    const answered = page.waitForResponse(
      (response) =>
        response.request().method() === 'PUT' &&
        new URL(response.url()).pathname.startsWith('/admin/users-permissions/roles/'),
    );
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    assert.equal((await answered).status(), 200);
  };

  before(async () => {
    ensureAdminBuild();
    server = await startServer('sqlite');
    await server.vellum.auth.admins.create(email, password);
    browser = await launchChromium();
    page = await newPanelPage(browser);
    await logIn(page, email, password);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('creates a role and grants it Article find and create in the matrix', async () => {
    await settings(page, 'Roles');
    await page.getByRole('heading', { name: 'Roles', level: 1 }).waitFor();
    // Public and Authenticated are kept, as in Strapi's panel: no delete button.
    await page.getByRole('link', { name: 'Edit Public' }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Delete Public' }).count(), 0);
    await page.getByRole('link', { name: 'Create new role' }).click();
    await page.getByRole('heading', { name: 'Create a role' }).waitFor();
    await page.getByLabel('Name').fill(roleName);
    await page.getByLabel('Description').fill('Writes articles');
    await page.getByRole('checkbox', { name: 'Article: find', exact: true }).check();
    await page.getByRole('checkbox', { name: 'Article: create', exact: true }).check();
    // A row's "select all" is partly checked once some of its actions are.
    assert.equal(await page.getByRole('checkbox', { name: 'Article: select all' }).isChecked(), false);
    await shot(page, 'role-matrix');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('heading', { name: 'Roles', level: 1 }).waitFor();
    const row = page.getByRole('row').filter({ hasText: roleName });
    await row.getByText('Writes articles').waitFor();

    const role = (await server.vellum.auth.roles.list()).find((r) => r.name === roleName)!;
    assert.deepEqual(role.permissions, ['api::article.article.create', 'api::article.article.find']);
  });

  it('creates a user of that role, who may list and create articles but not delete them', async () => {
    await settings(page, 'Users');
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Create new user' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create a user' });
    await dialog.getByLabel('Username').fill(username);
    // An address the browser takes (type=email) and the API refuses (no dot in its domain).
    await dialog.getByLabel('Email').fill(`${username}@localhost`);
    await dialog.getByLabel(/^Password( \*)?$/).fill(userPassword);
    await dialog.getByLabel('Role').selectOption({ label: roleName });
    await dialog.getByRole('button', { name: 'Create user' }).click();
    // The API's field error, beside its field.
    await dialog.getByText('email must be a valid email').waitFor();
    await dialog.getByLabel('Email').fill(`${username}@example.com`);
    await dialog.getByRole('button', { name: 'Create user' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByLabel('Search users').fill(username);
    const row = page.getByRole('row').filter({ hasText: username });
    await row.getByText(roleName).waitFor();
    await shot(page, 'users');
    // Sorted on the server by a column header; the sort is in the URL.
    await page.getByRole('button', { name: /^Email/ }).click();
    await page.waitForURL((url) => url.searchParams.get('sort') === 'email:asc');
    await row.waitFor();

    const login = await userLogin();
    assert.equal(login.status, 200, JSON.stringify(login.body));
    const jwt = login.body.jwt as string;
    assert.equal((await server.publicApi.get('/api/articles', bearer(jwt))).status, 200);
    const created = await server.publicApi.post(
      '/api/articles',
      { data: { title: unique('by a writer') } },
      bearer(jwt),
    );
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(
      (await server.publicApi.delete(`/api/articles/${created.body.data.documentId}`, bearer(jwt))).status,
      403,
    );
  });

  it('takes create back in the matrix: the user is refused at once', async () => {
    await settings(page, 'Roles');
    await page
      .getByRole('row')
      .filter({ hasText: roleName })
      .getByRole('link', { name: roleName, exact: true })
      .click();
    await page.getByRole('heading', { name: `Edit ${roleName}` }).waitFor();
    const create = page.getByRole('checkbox', { name: 'Article: create', exact: true });
    assert.equal(await create.isChecked(), true);
    await create.uncheck();
    // Leaving with the change unsaved asks first.
    await settings(page, 'Users');
    await page.getByRole('dialog', { name: 'Leave without saving?' }).getByRole('button', { name: 'Stay' }).click();
    assert.equal(await create.isChecked(), false);
    await saveRole();
    await settings(page, 'Users');
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
    const jwt = (await userLogin()).body.jwt as string;
    assert.equal(
      (await server.publicApi.post('/api/articles', { data: { title: unique('refused') } }, bearer(jwt))).status,
      403,
    );
    assert.equal((await server.publicApi.get('/api/articles', bearer(jwt))).status, 200);
  });

  it('edits the user: a new email is saved, an empty password keeps theirs', async () => {
    await settings(page, 'Users');
    await page.getByLabel('Search users').fill(username);
    await page.getByRole('button', { name: `Edit ${username}` }).click();
    const dialog = page.getByRole('dialog', { name: `Edit ${username}` });
    assert.equal(await dialog.getByLabel(/^Password( \*)?$/).inputValue(), '', 'never read back');
    assert.equal(
      await dialog.getByLabel('Role').inputValue(),
      String((await server.vellum.auth.roles.list()).find((r) => r.name === roleName)!.id),
    );
    await dialog.getByLabel('Email').fill(`${username}@example.org`);
    // The server's answer first, then the list: a failure says which of them missed the email.
    const saved = page.waitForResponse(
      (response) =>
        response.request().method() === 'PUT' && /\/admin\/users-permissions\/users\/\d+$/.test(response.url()),
    );
    await dialog.getByRole('button', { name: 'Save' }).click();
    const answer = await saved;
    assert.equal(answer.status(), 200, await answer.text());
    assert.equal(
      ((await answer.json()) as { data?: { email?: string } }).data?.email,
      `${username}@example.org`,
      'the PUT answer',
    );
    await dialog.waitFor({ state: 'detached' });
    await page
      .getByRole('row')
      .filter({ hasText: `${username}@example.org` })
      .waitFor();
    assert.equal((await userLogin()).status, 200);
  });

  it('blocks the user: their login is refused', async () => {
    const jwt = (await userLogin()).body.jwt as string;
    await settings(page, 'Users');
    await page.getByLabel('Search users').fill(username);
    await page.getByRole('button', { name: `Block ${username}` }).click();
    await page.getByRole('row').filter({ hasText: username }).getByText('Blocked').waitFor();
    const refused = await userLogin();
    assert.equal(refused.status, 400);
    assert.match(refused.body.error.message, /blocked/);
    assert.equal((await server.publicApi.get('/api/articles', bearer(jwt))).status, 401);
  });

  it('invites an administrator, who registers at the link and logs in in another browser context', async () => {
    const other = `${unique('second-admin')}@example.com`;
    await settings(page, 'Users', 'Administration panel');
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
    // Never oneself.
    await page.getByRole('row').filter({ hasText: email }).getByText('You').waitFor();
    assert.equal(await page.getByRole('button', { name: `Delete ${email}` }).count(), 0);
    await page.getByRole('button', { name: 'Invite new user' }).click();
    const dialog = page.getByRole('dialog', { name: 'Invite new user' });
    await dialog.getByLabel(/^First name/).fill('Second');
    // An address the browser takes (type=email) and the API refuses (no dot in its domain).
    await dialog.getByLabel(/^Email/).fill(`${unique('second')}@localhost`);
    await dialog.getByRole('checkbox', { name: 'Super Admin', exact: true }).check();
    await dialog.getByRole('button', { name: 'Invite user' }).click();
    await dialog.getByText('email must be a valid email').waitFor();
    await dialog.getByLabel(/^Email/).fill(other);
    await dialog.getByRole('button', { name: 'Invite user' }).click();
    const shown = page.getByRole('dialog', { name: 'Invitation link' });
    const link = await shown.getByLabel('Invitation link').inputValue();
    await shown.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('row').filter({ hasText: other }).getByText('Inactive').waitFor();
    await shot(page, 'administrators');

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const second = await context.newPage();
      second.setDefaultTimeout(15_000);
      await second.goto(link);
      await second.getByLabel(/^Password/).fill('Another-Passw0rd');
      await second.getByLabel(/^Confirm the password/).fill('Another-Passw0rd');
      await second.getByRole('button', { name: 'Finish registration' }).click();
      await second.getByRole('navigation', { name: 'Settings' }).waitFor();
      await settings(second, 'Users', 'Administration panel');
      await second.getByRole('row').filter({ hasText: other }).getByText('You').waitFor();
      await shot(second, 'second-administrator');
      // Their own password, on their profile: the earlier tokens end, this tab goes on with the new one.
      await second.getByRole('link', { name: 'Profile: Second' }).click();
      const own = second.getByRole('region', { name: 'Change your password' });
      await own.getByLabel(/^Current password/).fill('Another-Passw0rd');
      await own.getByLabel(/^New password/).fill('a-changed-admin-password');
      await own.getByLabel(/^Confirm the new password/).fill('a-changed-admin-password');
      await own.getByRole('button', { name: 'Change password' }).click();
      await second.getByText('Your password is changed; your other sessions have ended').waitFor();
      await settings(second, 'Users');
      await second.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
      await second.getByText(/users? found/).waitFor();
      assert.equal(
        (await server.publicApi.post('/admin/login', { email: other, password: 'a-changed-admin-password' })).status,
        200,
      );
    } finally {
      await context.close();
    }
  });

  it('creates a custom API token with find on articles only, then revokes it', async () => {
    const name = unique('custom-token');
    await settings(page, 'API tokens', 'Settings');
    const form = page.getByRole('region', { name: 'Create an API token' });
    await form.getByLabel('Name').fill(name);
    await form.getByLabel('Token type').selectOption('custom');
    // Keyboard alone: the matrix's checkboxes take the focus and Space ticks them.
    const find = form.getByRole('checkbox', { name: 'Article: find', exact: true });
    await find.focus();
    await page.keyboard.press('Space');
    await form.getByRole('checkbox', { name: 'Article: find', exact: true, checked: true }).waitFor();
    await shot(page, 'custom-token');
    await form.getByRole('button', { name: 'Create token' }).click();
    const shown = page.getByRole('dialog', { name: `${name}: copy its key now` });
    const accessKey = (await shown.getByTestId('access-key').textContent())!.trim();
    const client = bearer(accessKey);
    assert.equal((await server.publicApi.get('/api/articles', client)).status, 200);
    assert.equal((await server.publicApi.post('/api/articles', { data: { title: name } }, client)).status, 403);
    await shown.getByRole('button', { name: 'Done' }).click();
    const row = page.getByRole('row').filter({ hasText: name });
    await row.getByText('custom (1 action)').waitFor();

    await page.getByRole('button', { name: `Revoke ${name}` }).click();
    await page.getByRole('dialog', { name: 'Revoke this token?' }).getByRole('button', { name: 'Yes, revoke' }).click();
    await row.waitFor({ state: 'detached' });
    assert.equal((await server.publicApi.get('/api/articles', client)).status, 401);
  });
});
