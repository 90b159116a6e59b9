/**
 * Debian's Chromium driven by Playwright (playwright-core: no browser download), for the admin
 * panel's end-to-end tests, and the panel's build they run against.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { ROOT } from './paths.js';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Where the end-to-end tests leave a screenshot of each step (docs/contributing/admin-panel.md "Tests"). */
export const SCREENSHOTS = join(ROOT, '.tmp/admin-screenshots');

/** Why the browser tests cannot run here, or undefined (CI installs Chromium: there they always run). */
export function browserMissing(): string | undefined {
  if (existsSync(CHROMIUM) || process.env.CI) return undefined;
  return `no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`;
}

/**
 * Flags that keep Chromium off the network on a closed machine (it would otherwise wait on
 * component updates, sync and QUIC probes). Playwright adds a fresh profile (--user-data-dir) itself.
 */
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
}

/** A page as the admin panel's tests use it: a desktop viewport, 15 s for anything to show. */
export async function newPanelPage(browser: Browser): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.setDefaultTimeout(15_000);
  return page;
}

/** Logs in to the admin panel of the server at `url`; resolves once the app's frame shows. */
export async function logInToPanel(page: Page, url: string, email: string, password: string): Promise<void> {
  await page.goto(`${url}/admin/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('navigation', { name: 'Collection types' }).waitFor();
}

/**
 * An attribute's input in the edit view, by its label: the attribute's name as the schema spells
 * it (followed by " *", hidden from screen readers, when it is required).
 */
export const attributeField = (page: Page, name: string): Locator => page.getByLabel(new RegExp(`^${name}( \\*)?$`));

const newest = (dir: string): number =>
  Math.max(
    0,
    ...readdirSync(dir).map((name) => {
      const path = join(dir, name);
      const stat = statSync(path);
      return stat.isDirectory() ? newest(path) : stat.mtimeMs;
    }),
  );

/** Builds the admin panel (dist/admin/) unless a build newer than its sources is there. */
export function ensureAdminBuild(): void {
  const index = join(ROOT, 'dist/admin/index.html');
  const sources = Math.max(
    newest(join(ROOT, 'admin/src')),
    statSync(join(ROOT, 'admin/index.html')).mtimeMs,
    statSync(join(ROOT, 'admin/vite.config.ts')).mtimeMs,
  );
  if (existsSync(index) && statSync(index).mtimeMs >= sources) return;
  execFileSync(
    process.execPath,
    [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'admin/vite.config.ts', '--logLevel', 'warn'],
    { cwd: ROOT, stdio: 'inherit' },
  );
}

export function screenshotsDir(): string {
  mkdirSync(SCREENSHOTS, { recursive: true });
  return SCREENSHOTS;
}
