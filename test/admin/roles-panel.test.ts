/**
 * Administrator roles in the admin panel, end to end in Debian's Chromium (docs/admin-panel.md
 * "Roles"): the Super Admin makes a role "Titles" in the role editor (articles, some fields, one
 * locale, only their own), invites an Author and an Editor (each registers at the invitation link
 * in their own browser), the Author writes an article and sees only theirs with no Publish button,
 * the Editor publishes it without the Users and Roles settings, and the Author, given the Titles
 * role, sees and changes only its fields. After each step the admin API answers what the screen
 * showed. Screenshots land in .tmp/admin-screenshots/ (roles-*.png). SQLite only: the API's own
 * tests (test/admin/admin-roles.test.ts) run on every database.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
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
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';

const skip = !DIALECTS.includes('sqlite') ? 'the browser tests run on SQLite' : browserMissing();
const ARTICLE = 'api::article.article';
const ARTICLES = `/admin/content-manager/collection-types/${ARTICLE}`;
const EXPLORER = 'plugin::content-manager.explorer';
const IS_CREATOR = 'admin::is-creator';

describe('admin panel: administrator roles, invitations, and a panel that follows them [sqlite]', { skip }, () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let root: HttpClient;
  const contexts: BrowserContext[] = [];
  const email = 'root@example.com';
  const password = 'Root-Passw0rd';
  const author = { email: 'ada@example.com', password: 'Author-Passw0rd' };
  const editor = { email: 'eddie@example.com', password: 'Editor-Passw0rd' };
  let authorPage: Page;
  let authorArticle: string;
  let titlesRole: number;

  const shot = (target: Page, name: string, fullPage = true) =>
    target.screenshot({ path: join(screenshotsDir(), `roles-${name}.png`), fullPage });
  const administration = (target: Page) => target.getByRole('navigation', { name: 'Administration panel' });
  /** A page in a browser context of its own: another person at another computer. */
  const otherBrowser = async (): Promise<Page> => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    contexts.push(context);
    const other = await context.newPage();
    other.setDefaultTimeout(15_000);
    return other;
  };
  /** Invites an administrator with one role on the Users screen; answers the invitation link shown. */
  const invite = async (firstname: string, lastname: string, to: string, role: string): Promise<string> => {
    await administration(page).getByRole('link', { name: 'Users', exact: true }).click();
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Invite new user' }).click();
    const dialog = page.getByRole('dialog', { name: 'Invite new user' });
    await dialog.getByLabel(/^First name/).fill(firstname);
    await dialog.getByLabel(/^Last name/).fill(lastname);
    await dialog.getByLabel(/^Email/).fill(to);
    await dialog.getByRole('checkbox', { name: role, exact: true }).check();
    await dialog.getByRole('button', { name: 'Invite user' }).click();
    const shown = page.getByRole('dialog', { name: 'Invitation link' });
    const link = await shown.getByLabel('Invitation link').inputValue();
    await shot(page, `invitation-${role.toLowerCase()}`);
    await shown.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('row').filter({ hasText: to }).getByText('Inactive').waitFor();
    return link;
  };
  /** The invited administrator opens their link in their own browser, chooses a password, and is in. */
  const register = async (link: string, who: { email: string; password: string }): Promise<Page> => {
    const other = await otherBrowser();
    await other.goto(link);
    assert.equal(await other.getByLabel('Email').inputValue(), who.email);
    await other.getByLabel(/^Password/).fill(who.password);
    await other.getByLabel(/^Confirm the password/).fill(who.password);
    await other.getByRole('button', { name: 'Finish registration' }).click();
    await other.getByRole('navigation', { name: 'Collection types' }).waitFor();
    return other;
  };
  const openArticle = async (target: Page, title: string) => {
    await target.getByRole('navigation', { name: 'Collection types' }).getByRole('link', { name: 'Article' }).click();
    // In the list: the home page, shown until it opens, links the same titles.
    await target
      .getByRole('table', { name: 'Article entries' })
      .getByRole('link', { name: title, exact: true })
      .click();
    await target.getByRole('heading', { name: title, level: 1 }).waitFor();
  };
  const rolePermissions = async (id: number) =>
    ((await root.get(`/admin/roles/${id}/permissions`)).body.data as Record<string, any>[])
      .map(({ action, subject, properties, conditions }) => ({ action, subject, properties, conditions }))
      .sort((a, b) => a.action.localeCompare(b.action));

  before(async () => {
    ensureAdminBuild();
    server = await startServer('sqlite');
    await server.vellum.auth.admins.create(email, password);
    const login = await server.publicApi.post('/admin/login', { email, password });
    root = new HttpClient(server.url, { authorization: `Bearer ${login.body.data.token}` });
    const created = await root.post(ARTICLES, { data: { title: 'By the root' } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    browser = await launchChromium();
    page = await newPanelPage(browser);
    await logInToPanel(page, server.url, email, password);
  });
  after(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await server?.close();
  });

  it('shows the Super Admin role read-only and makes a role "Titles" in the role editor', async () => {
    await administration(page).getByRole('link', { name: 'Roles', exact: true }).click();
    await page.getByRole('heading', { name: 'Roles', level: 1 }).waitFor();
    // Strapi's three roles with their number of administrators; the Super Admin's is read-only.
    await page.getByRole('row').filter({ hasText: 'Super Admin' }).getByText('1 user').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Delete Super Admin' }).count(), 0);
    await page.getByRole('link', { name: 'View Super Admin' }).click();
    await page.getByRole('heading', { name: 'Super Admin', level: 1 }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Save' }).count(), 0);
    assert.equal(await page.getByRole('checkbox', { name: 'Article: Publish' }).isDisabled(), true);
    assert.equal(await page.getByRole('checkbox', { name: 'Article: Publish' }).isChecked(), true);

    await page.getByRole('link', { name: '← Roles' }).click();
    await page.getByRole('link', { name: 'Add new role' }).click();
    await page.getByRole('heading', { name: 'Create a role' }).waitFor();
    await page.getByLabel(/^Name/).fill('Titles');
    await page.getByLabel('Description').fill('Titles and meta titles of their own English articles');
    // A row opens onto its fields (a component's one by one), its locales and its conditions.
    await page.getByRole('button', { name: 'Article: fields, locales and conditions' }).click();
    const details = page.getByRole('region', { name: 'Article: fields, locales and conditions' });
    const tick = (name: string) => details.getByRole('checkbox', { name, exact: true }).check();
    for (const field of ['title', 'seo.metaTitle']) {
      await tick(`Article ${field}: Create`);
      await tick(`Article ${field}: Update`);
    }
    for (const field of ['title', 'slug', 'seo.metaTitle', 'seo.metaDescription']) await tick(`Article ${field}: Read`);
    // Each action made from a field holds every locale: French taken back.
    for (const action of ['Create', 'Read', 'Update'])
      await details.getByRole('checkbox', { name: `Article locale fr: ${action}`, exact: true }).uncheck();
    for (const action of ['Create', 'Read', 'Update']) await tick(`Article ${action}: Is creator`);
    // The matrix's cells read "some": some fields, some locales.
    assert.equal(await page.getByRole('checkbox', { name: 'Article: Read', exact: true }).isChecked(), false);
    await page.getByRole('heading', { name: 'Permissions' }).scrollIntoViewIfNeeded();
    await shot(page, 'role-matrix', false);
    await page.getByRole('tab', { name: 'Plugins' }).click();
    await page.getByRole('checkbox', { name: 'upload general: Access the Media Library' }).check();
    await page.getByRole('tab', { name: 'Settings' }).click();
    assert.equal(await page.getByRole('checkbox', { name: 'users and roles users: Read' }).isChecked(), false);
    await shot(page, 'role-editor');
    const saved = page.waitForResponse(
      (response) => response.request().method() === 'PUT' && /\/admin\/roles\/\d+\/permissions$/.test(response.url()),
    );
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const answer = await saved;
    assert.equal(answer.status(), 200, await answer.text());
    await page.getByRole('heading', { name: 'Edit Titles', level: 1 }).waitFor();
    titlesRole = Number(new URL(page.url()).pathname.split('/').pop());

    const own = [IS_CREATOR];
    assert.deepEqual(await rolePermissions(titlesRole), [
      {
        action: `${EXPLORER}.create`,
        subject: ARTICLE,
        properties: { fields: ['title', 'seo.metaTitle'], locales: ['en'] },
        conditions: own,
      },
      {
        action: `${EXPLORER}.read`,
        subject: ARTICLE,
        properties: { fields: ['title', 'slug', 'seo.metaTitle', 'seo.metaDescription'], locales: ['en'] },
        conditions: own,
      },
      {
        action: `${EXPLORER}.update`,
        subject: ARTICLE,
        properties: { fields: ['title', 'seo.metaTitle'], locales: ['en'] },
        conditions: own,
      },
      { action: 'plugin::upload.read', subject: null, properties: {}, conditions: [] },
    ]);
    // Opened again, the editor shows what was saved.
    await page.reload();
    await page.getByRole('button', { name: 'Article: fields, locales and conditions' }).click();
    assert.equal(await details.getByRole('checkbox', { name: 'Article slug: Read', exact: true }).isChecked(), true);
    assert.equal(await details.getByRole('checkbox', { name: 'Article body: Read', exact: true }).isChecked(), false);
    assert.equal(await details.getByRole('checkbox', { name: 'Article Read: Is creator' }).isChecked(), true);
  });

  it('invites an Author and an Editor; each registers at the link in their own browser', async () => {
    const authorLink = await invite('Ada', 'Author', author.email, 'Author');
    assert.match(authorLink, new RegExp(`^${server.url}/admin/auth/register\\?registrationToken=[0-9a-f]+$`));
    const editorLink = await invite('Eddie', 'Editor', editor.email, 'Editor');

    // A weak password: the API's words, beside the field.
    const other = await otherBrowser();
    await other.goto(authorLink);
    await other.getByLabel(/^Password/).fill('weak');
    await other.getByLabel(/^Confirm the password/).fill('weak');
    await other.getByRole('button', { name: 'Finish registration' }).click();
    await other.getByText('userInfo.password must be at least 8 characters').waitFor();
    await shot(other, 'register');
    authorPage = await register(authorLink, author);
    await register(editorLink, editor).then((editorPage) => editorPage.context().close());
    // A link works once.
    await other.goto(authorLink);
    await other.getByText('This invitation link is not valid').waitFor();

    await page.reload();
    await page.getByRole('row').filter({ hasText: author.email }).getByText('Active').waitFor();
    const listed = (await root.get('/admin/users?_q=example.com&pageSize=100')).body.data.results as any[];
    const roles = Object.fromEntries(listed.map((admin) => [admin.email, admin.roles.map((r: any) => r.name)]));
    assert.deepEqual(roles[author.email], ['Author']);
    assert.deepEqual(roles[editor.email], ['Editor']);
  });

  it('the Author writes an article, sees only their own, and has no Publish button', async () => {
    const nav = authorPage.getByRole('navigation', { name: 'Collection types' });
    await nav.getByRole('link', { name: 'Article' }).click();
    await authorPage.getByRole('heading', { name: 'Article', level: 1 }).waitFor();
    // No settings at all for an Author; the media library (theirs) is there.
    assert.equal(await authorPage.getByRole('navigation', { name: 'Settings' }).count(), 0);
    await authorPage.getByRole('link', { name: 'Media library' }).waitFor();
    await authorPage.getByRole('link', { name: 'Create new entry' }).click();
    await attributeField(authorPage, 'title').fill('By the author');
    assert.equal(await authorPage.getByRole('button', { name: 'Publish', exact: true }).count(), 0);
    await authorPage.getByRole('button', { name: 'Save', exact: true }).click();
    await authorPage.getByText('Saved', { exact: true }).first().waitFor();
    // The URL names the new document once it is saved.
    await authorPage.waitForURL((url) => /\/api::article\.article\/(?!create$)[a-z0-9]+$/.test(url.pathname));
    authorArticle = new URL(authorPage.url()).pathname.split('/').pop()!;
    assert.equal(await authorPage.getByRole('button', { name: 'Publish', exact: true }).count(), 0);
    assert.equal(await authorPage.getByRole('button', { name: 'Unpublish' }).count(), 0);
    await authorPage.getByRole('button', { name: 'Delete' }).waitFor();
    await shot(authorPage, 'author-edit');

    await nav.getByRole('link', { name: 'Article' }).click();
    const table = authorPage.getByRole('table', { name: 'Article entries' });
    await table.getByRole('link', { name: 'By the author' }).waitFor();
    assert.equal(await table.getByRole('row').count(), 2, 'the header and their one article');
    assert.equal(await table.getByText('By the root').count(), 0);
    await shot(authorPage, 'author-list');
    // Their own settings screens are out of reach, as the menu says.
    await authorPage.goto(`${server.url}/admin/manage/admin-roles`);
    await authorPage.getByRole('heading', { name: 'Not allowed' }).waitFor();

    const stored = await server.vellum.database.db
      .selectFrom('articles')
      .select(['created_by_id', 'published_at'])
      .where('document_id', '=', authorArticle)
      .execute();
    assert.equal(stored.length, 1, 'a draft only');
    const authorId = (await root.get('/admin/users?_q=ada')).body.data.results[0].id;
    assert.equal(Number((stored[0] as { created_by_id: number }).created_by_id), authorId);
  });

  it('the Editor publishes the Author’s article, and has no Users or Roles settings', async () => {
    const editorPage = await otherBrowser();
    await logInToPanel(editorPage, server.url, editor.email, editor.password);
    assert.equal(await administration(editorPage).count(), 0);
    assert.equal(await editorPage.getByRole('link', { name: 'Content-Type Builder' }).count(), 0);
    await editorPage.goto(`${server.url}/admin/manage/admin-users`);
    await editorPage.getByRole('heading', { name: 'Not allowed' }).waitFor();
    await editorPage.goto(`${server.url}/admin/content/${ARTICLE}`);
    const table = editorPage.getByRole('table', { name: 'Article entries' });
    await table.getByRole('link', { name: 'By the root' }).waitFor();
    await openArticle(editorPage, 'By the author');
    await editorPage.getByRole('button', { name: 'Publish', exact: true }).click();
    await editorPage.getByText('Published', { exact: true }).first().waitFor();
    await shot(editorPage, 'editor-published');

    const published = await server.api.get(
      `/api/articles?filters[documentId][$eq]=${authorArticle}&fields[0]=title&status=published`,
    );
    assert.deepEqual(
      published.body.data.map((article: { title: string }) => article.title),
      ['By the author'],
    );
  });

  it('the Author given the Titles role sees only its fields and changes only those it may update', async () => {
    // Another administrator filled fields Titles may not change (the slug, the body, a meta description).
    const filled = await root.put(`${ARTICLES}/${authorArticle}`, {
      data: { slug: 'by-the-author', body: 'The root’s body', seo: { metaTitle: 'Meta', metaDescription: 'Kept' } },
    });
    assert.equal(filled.status, 200, JSON.stringify(filled.body));
    await page.goto(`${server.url}/admin/manage/admin-users`);
    await page.getByRole('button', { name: `Edit ${author.email}` }).click();
    const dialog = page.getByRole('dialog', { name: `Edit ${author.email}` });
    await dialog.getByRole('checkbox', { name: 'Author', exact: true }).uncheck();
    await dialog.getByRole('checkbox', { name: 'Titles', exact: true }).check();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('row').filter({ hasText: author.email }).getByText('Titles').waitFor();

    // The Author's panel reads their permissions again when it is loaded.
    await authorPage.goto(`${server.url}/admin`);
    await openArticle(authorPage, 'By the author');
    // Read and update: editable; read only: read-only; neither: not shown.
    assert.equal(await attributeField(authorPage, 'title').isEditable(), true);
    assert.equal(await attributeField(authorPage, 'metaTitle').isEditable(), true);
    assert.equal(await attributeField(authorPage, 'slug').inputValue(), 'by-the-author');
    assert.equal(await attributeField(authorPage, 'slug').isEditable(), false);
    assert.equal(await attributeField(authorPage, 'metaDescription').inputValue(), 'Kept');
    assert.equal(await attributeField(authorPage, 'metaDescription').isEditable(), false);
    for (const hidden of ['body', 'views', 'featured', 'shareImage'])
      assert.equal(await attributeField(authorPage, hidden).count(), 0, `${hidden} is not shown`);
    assert.equal(await authorPage.getByRole('button', { name: 'Remove seo' }).count(), 0);
    assert.equal(await authorPage.getByRole('button', { name: 'Delete' }).count(), 0);
    // English only: the locale picker offers no other.
    assert.deepEqual(await authorPage.getByLabel('Locale', { exact: true }).locator('option').allTextContents(), [
      'English (en)',
    ]);
    await attributeField(authorPage, 'title').fill('By the author, retitled');
    await attributeField(authorPage, 'metaTitle').fill('A new meta title');
    await shot(authorPage, 'titles-edit');
    const saved = authorPage.waitForResponse(
      (response) => response.request().method() === 'PUT' && response.url().includes(authorArticle),
    );
    await authorPage.getByRole('button', { name: 'Save', exact: true }).click();
    assert.equal((await saved).status(), 200);
    await authorPage.getByRole('heading', { name: 'By the author, retitled', level: 1 }).waitFor();

    const stored = (await root.get(`${ARTICLES}/${authorArticle}?populate=seo`)).body.data;
    assert.equal(stored.title, 'By the author, retitled');
    assert.equal(stored.seo.metaTitle, 'A new meta title');
    // What Titles may not change is as it was.
    assert.equal(stored.seo.metaDescription, 'Kept');
    assert.equal(stored.body, 'The root’s body');
    assert.equal(stored.slug, 'by-the-author');

    // A new article: only the fields Titles may create.
    await authorPage.getByRole('link', { name: '← Back to Article' }).click();
    await authorPage.getByRole('link', { name: 'Create new entry' }).click();
    await attributeField(authorPage, 'title').waitFor();
    for (const hidden of ['slug', 'body'])
      assert.equal(await attributeField(authorPage, hidden).count(), 0, `${hidden} is not offered`);
    await authorPage.getByRole('button', { name: 'Add seo' }).click();
    await attributeField(authorPage, 'metaTitle').waitFor();
    assert.equal(await attributeField(authorPage, 'metaDescription').count(), 0);
    // A role in use is not deleted: Strapi's refusal, in its words.
    await page.goto(`${server.url}/admin/manage/admin-roles`);
    await page.getByRole('button', { name: 'Delete Titles' }).click();
    await page.getByRole('dialog', { name: 'Delete this role?' }).getByRole('button', { name: 'Yes, delete' }).click();
    await page.getByText('Some roles are still assigned to some users').waitFor();
    assert.ok((await root.get('/admin/roles')).body.data.some((role: { name: string }) => role.name === 'Titles'));
  });
});
