/**
 * The first administrator (docs/admin-panel.md): `GET /admin/init` and `POST /admin/register-admin`
 * answer as Strapi 5.54's did on a fresh project (the refusals below are its bodies, word for word),
 * on every dialect; of two registrations at once, one is the first and the other is refused. In
 * Chromium, a fresh panel offers to create the first administrator.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { browserMissing, ensureAdminBuild, launchChromium, logInToPanel, newPanelPage } from '../helpers/browser.js';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';

const GOOD = { firstname: 'Bob', email: 'bob@example.com', password: 'Admin-Passw0rd!' };
// Strapi 5.54's answers to the same bodies.
const REFUSALS: [unknown, unknown][] = [
  [
    {},
    {
      data: null,
      error: {
        status: 400,
        name: 'ValidationError',
        message: '3 errors occurred',
        details: {
          errors: [
            { path: ['email'], message: 'email is a required field', name: 'ValidationError' },
            { path: ['firstname'], message: 'firstname is a required field', name: 'ValidationError' },
            { path: ['password'], message: 'password is a required field', name: 'ValidationError' },
          ],
        },
      },
    },
  ],
  [
    { firstname: 'Ada', email: 'bad', password: 'x' },
    {
      data: null,
      error: {
        status: 400,
        name: 'ValidationError',
        message: '4 errors occurred',
        details: {
          errors: [
            { path: ['email'], message: 'email must be a valid email', name: 'ValidationError', value: 'bad' },
            {
              path: ['password'],
              message: 'password must be at least 8 characters',
              name: 'ValidationError',
              value: 'x',
            },
            {
              path: ['password'],
              message: 'password must contain at least one uppercase character',
              name: 'ValidationError',
              value: 'x',
            },
            {
              path: ['password'],
              message: 'password must contain at least one number',
              name: 'ValidationError',
              value: 'x',
            },
          ],
        },
      },
    },
  ],
  [
    { firstname: 'Ada', lastname: 'Admin', email: 'Ada@Example.com', password: 'Admin-Passw0rd!' },
    {
      data: null,
      error: {
        status: 400,
        name: 'ValidationError',
        message: 'email must be a lowercase string',
        details: {
          errors: [
            {
              path: ['email'],
              message: 'email must be a lowercase string',
              name: 'ValidationError',
              value: 'Ada@Example.com',
            },
          ],
        },
      },
    },
  ],
];

for (const dialect of DIALECTS) {
  describe(`the first administrator [${dialect}]`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect);
    });
    after(() => server?.close());

    it("is offered on a fresh project, refused with Strapi's words, then registered once", async () => {
      const init = await server.publicApi.get('/admin/init');
      assert.deepEqual(init.body, { data: { uuid: false, hasAdmin: false, menuLogo: null, authLogo: null } });
      for (const [body, answer] of REFUSALS) {
        const refused = await server.publicApi.post('/admin/register-admin', body);
        assert.deepEqual([refused.status, refused.body], [400, answer], JSON.stringify(body));
      }
      assert.equal((await server.publicApi.get('/admin/init')).body.data.hasAdmin, false);

      // Two at once: one is the first.
      const [a, b] = await Promise.all([
        server.publicApi.post('/admin/register-admin', GOOD),
        server.publicApi.post('/admin/register-admin', { ...GOOD, email: 'cy@example.com' }),
      ]);
      const statuses = [a.status, b.status].sort();
      assert.deepEqual(statuses, [200, 400]);
      const [won, lost] = a.status === 200 ? [a, b] : [b, a];
      assert.deepEqual(lost.body.error, {
        status: 400,
        name: 'ApplicationError',
        message: 'You cannot register a new super admin',
        details: {},
      });
      assert.equal(won.body.data.user.roles[0].code, 'strapi-super-admin');
      assert.equal(won.body.data.token, won.body.data.accessToken);
      const me = await server.publicApi.get('/admin/administrators/me', {
        headers: { authorization: `Bearer ${won.body.data.token}` },
      });
      assert.equal(me.status, 200, me.text);
      assert.equal(me.body.data.email, won.body.data.user.email);
      assert.equal((await server.publicApi.get('/admin/init')).body.data.hasAdmin, true);
      assert.equal((await server.publicApi.post('/admin/register-admin', GOOD)).status, 400);
    });
  });
}

const skip = !DIALECTS.includes('sqlite') ? 'the browser tests run on SQLite' : browserMissing();

describe('admin panel: a fresh project greets its first administrator [sqlite]', { skip }, () => {
  let server: TestServer;
  let browser: Browser;
  before(async () => {
    ensureAdminBuild();
    server = await startServer('sqlite');
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('offers to create the first administrator, who is then signed in, and logs in next time', async () => {
    const page = await newPanelPage(browser);
    await page.goto(`${server.url}/admin/login`);
    await page.getByText('Create the first administrator of this project').waitFor();
    await page.getByLabel('First name').fill('Ada');
    await page.getByLabel('Email').fill('ada@example.com');
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: 'Create the administrator' }).click();
    // Strapi's rules, shown as the API words them.
    await page
      .getByRole('alert')
      .getByText(/errors occurred|password must/)
      .waitFor();
    await page.getByLabel('Password').fill('Admin-Passw0rd!');
    await page.getByRole('button', { name: 'Create the administrator' }).click();
    await page.getByRole('navigation', { name: 'Collection types' }).waitFor();
    assert.equal((await server.publicApi.get('/admin/init')).body.data.hasAdmin, true);
    const next = await newPanelPage(browser);
    await logInToPanel(next, server.url, 'ada@example.com', 'Admin-Passw0rd!');
  });
});
