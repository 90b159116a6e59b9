/**
 * Signing in to the admin panel in Chromium (docs/admin-panel.md "Signing in"): "remember me"
 * keeps an administrator signed in across tabs and a browser restart (without it, a restart asks
 * again), an expired or refused token is renewed from the refresh cookie, logging out in one tab
 * signs the others out, and a forgotten password's email leads to a screen that sets a new one.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { browserMissing, ensureAdminBuild, launchChromium } from '../helpers/browser.js';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';
import { codeIn, emailPlugin, startSmtp, type TestSmtp } from '../helpers/smtp.js';

const skip = !DIALECTS.includes('sqlite') ? 'the browser tests run on SQLite' : browserMissing();
const PASSWORD = 'Admin-Passw0rd!';

describe('admin panel: signing in, remember me, a forgotten password [sqlite]', { skip }, () => {
  let server: TestServer;
  let smtp: TestSmtp;
  let browser: Browser;
  let n = 0;
  const newAdmin = async () => {
    const email = `editor${++n}@example.com`;
    await server.vellum.auth.admins.create(email, PASSWORD);
    return email;
  };
  const pageOf = async (context: BrowserContext): Promise<Page> => {
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    return page;
  };
  const frame = (page: Page) => page.getByRole('navigation', { name: 'Collection types' }).waitFor();
  const logIn = async (page: Page, email: string, rememberMe: boolean) => {
    await page.goto(`${server.url}/admin/login`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    if (rememberMe) await page.getByLabel('Remember me').check();
    await page.getByRole('button', { name: 'Log in' }).click();
    await frame(page);
  };
  /** A browser restarted: the cookies that outlive it (session cookies have no expiry: -1). */
  const restart = async (context: BrowserContext): Promise<BrowserContext> => {
    const state = await context.storageState();
    await context.close();
    return browser.newContext({
      viewport: { width: 1280, height: 900 },
      storageState: { cookies: state.cookies.filter((cookie) => cookie.expires > 0), origins: state.origins },
    });
  };

  before(async () => {
    ensureAdminBuild();
    smtp = await startSmtp();
    server = await startServer('sqlite', { config: { plugins: { email: emailPlugin(smtp) } } });
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await smtp?.close();
  });

  it('remember me keeps the session across tabs and a restart; without it a restart asks again', async () => {
    const email = await newAdmin();
    const remembered = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await logIn(await pageOf(remembered), email, true);
    // A new tab signs itself in with the cookie every tab shares.
    const tab = await pageOf(remembered);
    await tab.goto(`${server.url}/admin`);
    await frame(tab);
    const reopened = await restart(remembered);
    const afterRestart = await pageOf(reopened);
    await afterRestart.goto(`${server.url}/admin`);
    await frame(afterRestart);
    // A token the server refuses (expired, say) is renewed from the cookie, unseen.
    await afterRestart.evaluate(() => sessionStorage.setItem('vellum-admin-token', 'expired.token.value'));
    await afterRestart.reload();
    await frame(afterRestart);
    await reopened.close();

    const plain = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await logIn(await pageOf(plain), email, false);
    const second = await pageOf(plain);
    await second.goto(`${server.url}/admin`);
    await frame(second);
    const forgotten = await restart(plain);
    const asked = await pageOf(forgotten);
    await asked.goto(`${server.url}/admin`);
    await asked.getByRole('button', { name: 'Log in' }).waitFor();
    await forgotten.close();
  });

  it("logging out in one tab signs the browser's other tabs out, not the administrator's other browsers", async () => {
    const email = await newAdmin();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const [one, two] = [await pageOf(context), await pageOf(context)];
    await logIn(one, email, true);
    await two.goto(`${server.url}/admin`);
    await frame(two);
    const elsewhere = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const other = await pageOf(elsewhere);
    await logIn(other, email, false);

    await one.getByRole('button', { name: 'Log out' }).click();
    await one.getByRole('button', { name: 'Log in' }).waitFor();
    // The second tab's token named the ended session: its next request finds no session to renew.
    await two.reload();
    await two.getByRole('button', { name: 'Log in' }).waitFor();
    await other.reload();
    await frame(other);
    await context.close();
    await elsewhere.close();
  });

  it("a forgotten password: the email's link opens a screen that sets a new one and signs in", async () => {
    const email = await newAdmin();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await pageOf(context);
    await page.goto(`${server.url}/admin/login`);
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    // The screen loads when first opened: the login form's Email field shows until then.
    await page.getByRole('button', { name: 'Send the email' }).waitFor();
    await page.getByLabel('Email').fill(email);
    const sent = page.waitForResponse((response) => response.url().endsWith('/admin/forgot-password'));
    await page.getByRole('button', { name: 'Send the email' }).click();
    const answer = await sent;
    assert.equal(answer.status(), 204, await answer.text());
    await page.getByText('Email sent').waitFor();
    const mail = await smtp.next(email);
    const link = /https?:\/\/\S+\/admin\/auth\/reset-password\?code=[0-9a-f]+/.exec(mail.text)![0];
    assert.ok(link.endsWith(codeIn(mail, 'code')));

    await page.goto(link);
    await page.getByLabel('New password').fill('short');
    await page.getByLabel('Confirm the password').fill('short');
    await page.getByRole('button', { name: 'Change the password' }).click();
    await page.getByText('password must be at least 8 characters').waitFor();
    await page.getByLabel('New password').fill('Brand-New-Passw0rd');
    await page.getByLabel('Confirm the password').fill('Brand-New-Passw0rd');
    await page.getByRole('button', { name: 'Change the password' }).click();
    await frame(page);
    const login = await server.publicApi.post('/admin/login', { email, password: 'Brand-New-Passw0rd' });
    assert.equal(login.status, 200);

    // The same link again: used up.
    const again = await pageOf(context);
    await again.goto(link);
    await again.getByLabel('New password').fill('Another-Passw0rd1');
    await again.getByLabel('Confirm the password').fill('Another-Passw0rd1');
    await again.getByRole('button', { name: 'Change the password' }).click();
    await again.getByText('This link is not valid').waitFor();
    await context.close();
  });
});
