/**
 * Releases in the admin panel, end to end in Debian's Chromium (docs/releases.md): a release made
 * on the Releases page, three entries of two types added from their edit views ("Add to
 * release"), the one whose draft misses a required field shown not ready with the reason, fixed
 * in its editor, then the release scheduled a few seconds ahead in another time zone and published
 * at that time by the server (the entries published, the release under Done). Screenshots land in
 * .tmp/admin-screenshots/ (releases-*.png). The releases' settings: a default time zone chosen
 * in Settings > Releases, which the New release dialog starts with. SQLite only: the API's tests run on every database.
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
import { registerFirstAdmin } from '../helpers/admins.js';
import type { HttpClient } from '../helpers/http.js';
import { DIALECTS, fixture, startServer, type TestServer } from '../helpers/server.js';

const skip = !DIALECTS.includes('sqlite') ? 'the browser tests run on SQLite' : browserMissing();
const CM = '/content-manager/collection-types';
const ZONE = 'Asia/Tokyo';

/** What `zone`'s clocks read at `at`: the date and time (to the second) the form takes. */
function wallClock(at: Date, zone: string): { date: string; time: string } {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(at);
  const part = (name: string) => parts.find((item) => item.type === name)!.value;
  return {
    date: `${part('year')}-${part('month')}-${part('day')}`,
    time: `${part('hour')}:${part('minute')}:${part('second')}`,
  };
}

describe('admin panel: releases [sqlite]', { skip }, () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let root: HttpClient;
  const email = 'root@example.com';
  const password = 'Root-Passw0rd';
  const shot = (name: string) =>
    page.screenshot({ path: join(screenshotsDir(), `releases-${name}.png`), fullPage: true });

  before(async () => {
    ensureAdminBuild();
    server = await startServer('sqlite', {
      project: fixture('releases'),
      config: { server: { cron: { scheduleInterval: 200 } } },
    });
    root = (await registerFirstAdmin(server, { email, password, firstname: 'Rosa' })).client;
    browser = await launchChromium();
    page = await newPanelPage(browser);
    await logInToPanel(page, server.url, email, password);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('publishes a release of three entries across two types at the time chosen, once each entry is valid', async () => {
    const create = async (path: string, body: unknown) => {
      const answer = await root.post(path, body);
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      return answer.body.data.documentId as string;
    };
    const alpha = await create(`${CM}/api::post.post?locale=en`, { title: 'Alpha' });
    const beta = await create(`${CM}/api::page.page`, { heading: 'Beta' });
    const gamma = await create(`${CM}/api::page.page`, { heading: null });

    // The Releases page (the navigation's first Releases link; the second is the settings'): a new release.
    await page.getByRole('link', { name: 'Releases', exact: true }).first().click();
    await page.getByRole('heading', { name: 'Releases', level: 1 }).waitFor();
    await page.getByText('No pending releases').waitFor();
    await page.getByRole('button', { name: 'New release' }).click();
    await page.getByLabel('Name').fill('Launch');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Launch', level: 1 }).waitFor();
    const releaseUrl = page.url();
    const releaseId = Number(new URL(releaseUrl).pathname.split('/').pop());
    assert.ok(releaseId > 0, releaseUrl);

    // Each entry from its edit view.
    for (const path of [
      `/admin/content/api::post.post/${alpha}?locale=en`,
      `/admin/content/api::page.page/${beta}`,
      `/admin/content/api::page.page/${gamma}`,
    ]) {
      await page.goto(`${server.url}${path}`);
      await page.getByRole('button', { name: 'Add to release' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add to release' });
      await dialog.getByRole('textbox', { name: 'Release' }).click();
      await page.getByRole('option', { name: 'Launch' }).click();
      await dialog.getByRole('button', { name: 'Continue' }).click();
      await dialog.waitFor({ state: 'hidden' });
    }

    // The release: its entries by type, the invalid one with its reason.
    await page.goto(releaseUrl);
    const posts = page.getByRole('region', { name: 'Post' });
    const pages = page.getByRole('region', { name: 'Page' });
    await posts.getByRole('link', { name: 'Alpha' }).waitFor();
    await pages.getByRole('link', { name: 'Beta' }).waitFor();
    await pages.getByText('Not ready to publish').waitFor();
    assert.match((await pages.locator('[data-part="reason"]').textContent()) ?? '', /^heading: /);
    await page.getByLabel('Status: blocked').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Publish' }).isDisabled(), true);
    await shot('01-blocked');

    // Fixed in its editor: ready.
    await pages.getByRole('link', { name: gamma }).click();
    await attributeField(page, 'heading').fill('Gamma');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved').first().waitFor();
    await page.goto(releaseUrl);
    await pages.getByRole('link', { name: 'Gamma' }).waitFor();
    await page.getByLabel('Status: ready').waitFor();
    assert.equal(await page.getByText('Not ready to publish').count(), 0);

    // Scheduled a few seconds ahead, as Tokyo's clocks read it.
    const at = new Date(Math.ceil((Date.now() + 6_000) / 1000) * 1000);
    const { date, time } = wallClock(at, ZONE);
    await page.getByRole('button', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit release' });
    await dialog.getByLabel('Schedule release').check();
    await dialog.getByLabel(/^Date( \*)?$/).fill(date);
    await dialog.getByLabel(/^Time( \*)?$/).fill(time);
    await dialog.getByRole('textbox', { name: 'Time zone' }).fill(ZONE);
    await page.getByRole('option', { name: ZONE, exact: true }).click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText(`(${ZONE})`).waitFor();
    const stored = (await root.get(`/content-releases/${releaseId}`)).body.data;
    assert.equal(stored.scheduledAt, at.toISOString());
    assert.equal(stored.timezone, ZONE);
    await shot('02-scheduled');

    // Published by the server at that time: the page shows it done, the entries are published.
    const deadline = Date.now() + 30_000;
    for (;;) {
      await page.reload();
      await page.getByRole('heading', { name: 'Launch', level: 1 }).waitFor();
      if ((await page.getByLabel('Status: done').count()) > 0) break;
      assert.ok(Date.now() < deadline, 'the release was published at its time');
      await page.waitForTimeout(500);
    }
    const released = (await root.get(`/content-releases/${releaseId}`)).body.data;
    assert.ok(
      Date.parse(released.releasedAt) >= at.getTime(),
      `released at ${released.releasedAt}, scheduled ${at.toISOString()}`,
    );
    for (const path of [`/api/posts/${alpha}?locale=en`, `/api/pages/${beta}`, `/api/pages/${gamma}`])
      assert.equal((await server.api.get(path)).status, 200, `${path} published`);
    await shot('03-done');
    await page.getByRole('link', { name: 'Releases', exact: true }).first().click();
    await page.getByRole('tab', { name: 'Done' }).click();
    await page.getByRole('table', { name: 'Done releases' }).getByRole('link', { name: 'Launch' }).waitFor();
  });

  it('starts a new release in the default time zone chosen in the releases settings', async () => {
    await page.goto(`${server.url}/admin`);
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Releases' }).click();
    await page.getByRole('heading', { name: 'Releases', level: 1 }).waitFor();
    const section = page.getByRole('region', { name: 'Releases settings' });
    await section.getByRole('textbox', { name: 'Default time zone' }).fill('America/Lima');
    await page.getByRole('option', { name: 'America/Lima', exact: true }).click();
    await section.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Releases settings saved').waitFor();
    assert.deepEqual((await root.get('/content-releases/settings')).body, {
      data: { defaultTimezone: 'America/Lima' },
    });
    await shot('04-settings');

    await page.getByRole('link', { name: 'Releases', exact: true }).first().click();
    await page.getByRole('button', { name: 'New release' }).click();
    const dialog = page.getByRole('dialog', { name: 'New release' });
    await dialog.getByLabel('Schedule release').check();
    assert.equal(await dialog.getByRole('textbox', { name: 'Time zone' }).inputValue(), 'America/Lima');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });
});
