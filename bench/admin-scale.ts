/**
 * The admin panel at scale, Vellum's beside the real Strapi 5.54's, in headless Chromium on the
 * same project and data (issue 36, point 6):
 *  1. a project of 150 content-types and 80 components (written by this script): the content
 *     manager's first screen (cache cleared: time until the last type's link and the list's first
 *     row show, bytes transferred, scripts loaded) and the navigation from one type to another;
 *  2. a list of 100,000 entries (seeded with SQL straight into each side's SQLite file): the click
 *     on its link to its first row, and the list with a filter opened in the app;
 *  3. an edit view with a 40-entry dynamic zone: press-to-paint of each keystroke typed into a
 *     field of the 40th entry (keydown's timestamp to the task after the next animation frame,
 *     and Event Timing entries of 16 ms or more, whose duration is press-to-next-paint).
 * A measurement, not a test: `node --import tsx bench/admin-scale.ts`. Env: N (entries, 100000),
 * RUNS (5), KEYS (characters typed, 30), SIDES (vellum,strapi), STRAPI_DIR (Strapi's folder, default
 * /tmp/strapi-admin-scale: made from ~/strapi-reference with its node_modules linked, its admin
 * built once, several minutes), STRAPI_PORT, STRAPI_KEEP=1 (leave it running), STRAPI_REUSE=1 (use the
 * one left running), KEYS_ONLY=1 (the keystrokes alone), TRACE=file (Chromium's performance trace of
 * the keystrokes: open it in DevTools or Perfetto), PAGE_SETUP=js (a script run in the edit view
 * before the keystrokes: an experiment without a rebuild). Prints a table, Vellum beside Strapi,
 * with the targets, and each key's press to paint.
 */
import Database from 'better-sqlite3';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { ensureAdminBuild, launchChromium } from '../test/helpers/browser.js';
import { HttpClient } from '../test/helpers/http.js';
import { ROOT } from '../test/helpers/paths.js';
import { startServer, type TestServer } from '../test/helpers/server.js';

const run = promisify(execFile);
const N = Number(process.env.N ?? 100_000);
const RUNS = Number(process.env.RUNS ?? 5);
const KEYS = Number(process.env.KEYS ?? 30);
const SIDES = (process.env.SIDES ?? 'vellum,strapi').split(',');
/** KEYS_ONLY=1: the keystrokes alone (the first screen and the lists skipped). */
const KEYS_ONLY = process.env.KEYS_ONLY === '1';
/** TRACE=file: Chromium's performance trace of the keystrokes (chrome://tracing, Perfetto, DevTools). */
const TRACE = process.env.TRACE;
const TYPES = 150;
const COMPONENTS = 80;
const ZONE = 40;
const ADMIN = { firstname: 'Ada', lastname: 'Admin', email: 'admin@example.com', password: 'Admin-Passw0rd!' };
const SHARED = [resolve(ROOT, '../shared'), resolve(ROOT, '../../shared')].find((dir) =>
  existsSync(join(dir, 'bench')),
);
const STRAPI_DIR = process.env.STRAPI_DIR ?? '/tmp/strapi-admin-scale';
const STRAPI_PORT = Number(process.env.STRAPI_PORT ?? 21_000 + Math.floor(Math.random() * 9000));

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))] ?? NaN;
const documentId = () =>
  randomBytes(18)
    .toString('base64url')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, 'x')
    .slice(0, 24);
const pad = (i: number, width = 3) => String(i).padStart(width, '0');
const typeName = (i: number) => (i === 0 ? 'Entry' : i === 1 ? 'Page' : `Type ${pad(i)}`);

// ---------------------------------------------------------------- the project

const json = (path: string, value: unknown) => {
  mkdirSync(resolve(path, '..'), { recursive: true });
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
};

/**
 * 80 components of four fields (`bench.c000`...) and 150 collection types: Entry (the long list),
 * Page (title and a zone of the first five components) and Type 002-149 (five scalars and a
 * component each). Entry and Page have the core routes (the content API writes the page).
 */
function writeProject(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  for (let c = 0; c < COMPONENTS; c++) {
    json(join(dir, `src/components/bench/c${pad(c)}.json`), {
      collectionName: `components_bench_c${pad(c)}s`,
      info: { displayName: `Block ${pad(c)}` },
      options: {},
      attributes: {
        heading: { type: 'string' },
        body: { type: 'text' },
        count: { type: 'integer' },
        flag: { type: 'boolean' },
      },
    });
  }
  for (let t = 0; t < TYPES; t++) {
    const singular = t === 0 ? 'entry' : t === 1 ? 'page' : `type${pad(t)}`;
    const plural = t === 0 ? 'entries' : t === 1 ? 'pages' : `type${pad(t)}s`;
    const attributes =
      t === 0
        ? { title: { type: 'string' }, views: { type: 'integer' } }
        : t === 1
          ? {
              title: { type: 'string' },
              sections: {
                type: 'dynamiczone',
                components: [0, 1, 2, 3, 4].map((c) => `bench.c${pad(c)}`),
              },
            }
          : {
              title: { type: 'string' },
              summary: { type: 'text' },
              rank: { type: 'integer' },
              active: { type: 'boolean' },
              day: { type: 'date' },
              block: { type: 'component', repeatable: false, component: `bench.c${pad(t % COMPONENTS)}` },
            };
    json(join(dir, `src/api/${singular}/content-types/${singular}/schema.json`), {
      kind: 'collectionType',
      collectionName: plural,
      info: { singularName: singular, pluralName: plural, displayName: typeName(t) },
      options: { draftAndPublish: true },
      attributes,
    });
    if (t < 2) {
      for (const [folder, factory] of [
        ['routes', 'createCoreRouter'],
        ['controllers', 'createCoreController'],
        ['services', 'createCoreService'],
      ]) {
        mkdirSync(join(dir, `src/api/${singular}/${folder}`), { recursive: true });
        writeFileSync(
          join(dir, `src/api/${singular}/${folder}/${singular}.js`),
          `'use strict';\n\nconst { factories } = require('@strapi/strapi');\n\nmodule.exports = factories.${factory}('api::${singular}.${singular}');\n`,
        );
      }
    }
  }
}

const page = {
  title: 'A long page',
  sections: Array.from({ length: ZONE }, (_, i) => ({
    __component: `bench.c${pad(i % 5)}`,
    heading: `Heading ${i + 1}`,
    body: `The body of section ${i + 1}.`,
    count: i,
    flag: i % 2 === 0,
  })),
};

/** N entries, drafts, written straight into the side's table (the API would take minutes). */
function seed(filename: string, dateOf: (ms: number) => string | number): number {
  const start = performance.now();
  const db = new Database(filename);
  db.pragma('busy_timeout = 10000');
  const columns = new Set((db.prepare('pragma table_info(entries)').all() as { name: string }[]).map((c) => c.name));
  const names = ['document_id', 'title', 'views', 'created_at', 'updated_at', 'published_at'];
  if (columns.has('locale')) names.push('locale');
  const insert = db.prepare(`insert into entries (${names.join(', ')}) values (${names.map(() => '?').join(', ')})`);
  db.transaction(() => {
    for (let i = 0; i < N; i++) {
      const at = dateOf(Date.UTC(2025, 0, 1) + i * 60_000);
      const row = [documentId(), `Entry ${pad(i, 6)}`, i % 1000, at, at, null];
      if (columns.has('locale')) row.push(null);
      insert.run(...row);
    }
  })();
  db.prepare('analyze').run();
  db.close();
  return performance.now() - start;
}

// ---------------------------------------------------------------- the two panels

interface Side {
  name: 'Vellum' | 'Strapi';
  url: string;
  /** The content manager's address (Strapi's opens its first type, Entry; Vellum's is the Entry list). */
  contentManager: string;
  list(uid: string, query?: string): string;
  edit(uid: string, documentId: string): string;
  logIn(page: Page): Promise<void>;
  pageId: string;
  seedMs: number;
  close(): Promise<void>;
}

async function vellumSide(project: string): Promise<Side> {
  ensureAdminBuild();
  const server: TestServer = await startServer('sqlite', { project });
  const { filename } = (server.databaseConfig as { connection: { connection: { filename: string } } }).connection
    .connection;
  const created = await server.api.post('/api/pages', { data: page });
  if (created.status !== 201 && created.status !== 200) throw new Error(`Vellum page: ${created.status}`);
  const seedMs = seed(filename, (ms) => new Date(ms).toISOString());
  await server.vellum.auth.admins.create(ADMIN.email, ADMIN.password);
  return {
    name: 'Vellum',
    url: server.url,
    contentManager: `${server.url}/admin/content/api::entry.entry`,
    list: (uid, query = '') => `/admin/content/${uid}${query}`,
    edit: (uid, id) => `${server.url}/admin/content/${uid}/${id}`,
    async logIn(p) {
      await p.goto(`${server.url}/admin/login`);
      await p.getByLabel('Email').fill(ADMIN.email);
      await p.getByLabel('Password').fill(ADMIN.password);
      await p.getByRole('button', { name: 'Log in' }).click();
      await p.getByRole('navigation', { name: 'Collection types' }).waitFor();
    },
    pageId: String(created.body.data.documentId),
    seedMs,
    close: () => server.close(),
  };
}

/** A Strapi this script left running (STRAPI_KEEP=1) and its page, reused by the next run (STRAPI_REUSE=1). */
const STATE = join(STRAPI_DIR, 'bench-admin-scale.json');
interface StrapiState {
  url: string;
  pageId: string;
  seedMs: number;
}

function strapiPanel(state: StrapiState, close: () => Promise<void>): Side {
  const { url } = state;
  return {
    name: 'Strapi',
    url,
    contentManager: `${url}/admin/content-manager`,
    list: (uid, query = '') => `/admin/content-manager/collection-types/${uid}${query}`,
    edit: (uid, id) => `${url}/admin/content-manager/collection-types/${uid}/${id}`,
    async logIn(p) {
      await p.goto(`${url}/admin/auth/login`);
      await p.locator('input[name=email]').fill(ADMIN.email);
      await p.locator('input[name=password]').fill(ADMIN.password);
      await p.getByRole('button', { name: 'Login' }).click();
      await p.waitForURL((address) => !address.pathname.includes('/auth/'));
    },
    pageId: state.pageId,
    seedMs: state.seedMs,
    close: process.env.STRAPI_KEEP === '1' ? async () => undefined : close,
  };
}

async function strapiSide(project: string): Promise<Side> {
  if (process.env.STRAPI_REUSE === '1' && existsSync(STATE)) {
    const state = JSON.parse(readFileSync(STATE, 'utf8')) as StrapiState;
    const answer = await fetch(`${state.url}/admin/init`).catch(() => null);
    if (answer?.ok) return strapiPanel(state, async () => undefined);
  }
  const reference = join(homedir(), 'strapi-reference');
  const tools = join(SHARED!, 'bench/strapi');
  mkdirSync(STRAPI_DIR, { recursive: true });
  if (!existsSync(join(STRAPI_DIR, 'node_modules')))
    symlinkSync(join(reference, 'node_modules'), join(STRAPI_DIR, 'node_modules'));
  // Strapi's project: this one's src/ and the template's config with the admin served.
  const strapiProject = `${project}-strapi`;
  rmSync(strapiProject, { recursive: true, force: true });
  cpSync(join(project, 'src'), join(strapiProject, 'src'), { recursive: true });
  const admin = readFileSync(join(tools, 'template/config/admin.js'), 'utf8').replace(
    'serveAdminPanel: false',
    'serveAdminPanel: true',
  );
  mkdirSync(join(strapiProject, 'config'), { recursive: true });
  writeFileSync(join(strapiProject, 'config/admin.js'), admin);
  if (!existsSync(join(STRAPI_DIR, 'build/index.html')) && !existsSync(join(STRAPI_DIR, 'dist/build/index.html'))) {
    console.log(`building Strapi's admin in ${STRAPI_DIR} (minutes)...`);
    mkdirSync(join(STRAPI_DIR, 'config'), { recursive: true });
    cpSync(join(tools, 'template/config'), join(STRAPI_DIR, 'config'), { recursive: true });
    writeFileSync(join(STRAPI_DIR, 'config/admin.js'), admin);
    cpSync(join(tools, 'template/package.json'), join(STRAPI_DIR, 'package.json'));
    await run(process.execPath, ['node_modules/@strapi/strapi/bin/strapi.js', 'build'], {
      cwd: STRAPI_DIR,
      env: { ...process.env, NODE_ENV: 'production', STRAPI_TELEMETRY_DISABLED: 'true' },
      timeout: 30 * 60_000,
      maxBuffer: 64 << 20,
    });
  }
  const url = `http://127.0.0.1:${STRAPI_PORT}`;
  const start = performance.now();
  await run(join(tools, 'start.sh'), [], {
    env: {
      ...process.env,
      STRAPI_DIR,
      PORT: String(STRAPI_PORT),
      RESET_DB: '1',
      PROJECT: strapiProject,
      READY_PATH: '/api/pages',
    },
    timeout: 20 * 60_000,
    maxBuffer: 64 << 20,
  });
  console.log(`Strapi started on ${TYPES} types in ${Math.round(performance.now() - start)} ms`);
  const close = async () => {
    const pid = Number(readFileSync(join(STRAPI_DIR, 'strapi.pid'), 'utf8'));
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // already gone
    }
  };
  try {
    const { stdout } = await run(join(tools, 'token.sh'), [url], { env: process.env, timeout: 60_000 });
    const api = new HttpClient(url, { authorization: `Bearer ${stdout.trim()}` });
    const created = await api.post('/api/pages', { data: page });
    if (created.status !== 201 && created.status !== 200) throw new Error(`Strapi page: ${created.status}`);
    // Strapi's SQLite rows keep their dates as milliseconds: the seed writes them as the page's.
    const db = new Database(join(STRAPI_DIR, '.tmp/data.db'), { readonly: true });
    const { created_at: stored } = db.prepare('select created_at from pages limit 1').get() as { created_at: unknown };
    db.close();
    const seedMs = seed(join(STRAPI_DIR, '.tmp/data.db'), (ms) =>
      typeof stored === 'number' ? ms : new Date(ms).toISOString(),
    );
    const state: StrapiState = { url, pageId: String(created.body.data.documentId), seedMs };
    writeFileSync(STATE, JSON.stringify(state));
    return strapiPanel(state, close);
  } catch (error) {
    await close();
    throw error;
  }
}

// ---------------------------------------------------------------- the measurements

interface Figures {
  firstScreenCold: number;
  firstScreenWarm: number;
  firstScreenBytes: number;
  firstScreenScripts: number;
  typeToType: number;
  listClick: number;
  listFilter: number;
  keyMedian: number;
  keyP95: number;
  keyMax: number;
  keysOverFrame: string;
  eventsOver16: string;
  handledMedian: number;
  handledMax: number;
}

/** Navigates inside the single-page app (both use React Router, which follows popstate). */
async function navigateInApp(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate', { state: {} }));
  }, path);
}

// Strapi's table has the role grid, Vellum's table: the element serves both.
const firstRow = (page: Page, title: string) => page.locator('table').getByText(title, { exact: true }).first();
const typeLink = (page: Page, name: string) => page.getByRole('link', { name, exact: true }).first();

async function measure(browser: Browser, side: Side): Promise<Figures> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(120_000);
  page.on('pageerror', (error) => console.log(`${side.name}: page error: ${error.message}`));
  await side.logIn(page);
  try {
    return await measureIn(page, side);
  } catch (error) {
    await page.screenshot({ path: join(ROOT, `.tmp/admin-scale-${side.name}-failed.png`) });
    throw error;
  } finally {
    await context.close();
  }
}

async function measureIn(page: Page, side: Side): Promise<Figures> {
  const context = page.context();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  let bytes = 0;
  const scripts = new Set<string>();
  const kinds = new Map<string, { kind: string; url: string }>();
  let byKind: Record<string, number> = {};
  let fetches: [string, number][] = [];
  cdp.on('Network.loadingFinished', (event: { requestId: string; encodedDataLength: number }) => {
    bytes += event.encodedDataLength;
    const { kind, url } = kinds.get(event.requestId) ?? { kind: 'Other', url: '' };
    byKind[kind] = (byKind[kind] ?? 0) + event.encodedDataLength;
    if (kind === 'Fetch' || kind === 'XHR') fetches.push([url, event.encodedDataLength]);
  });
  cdp.on('Network.requestWillBeSent', (event: { requestId: string; type?: string; request: { url: string } }) => {
    kinds.set(event.requestId, { kind: event.type ?? 'Other', url: event.request.url });
    if (event.type === 'Script') scripts.add(event.request.url);
  });

  // 1. The content manager's first screen: every type's link and the first type's first row.
  const lastType = typeName(TYPES - 1);
  const cold: number[] = [];
  const warm: number[] = [];
  let firstBytes = 0;
  let firstScripts = 0;
  for (let i = 0; i < (KEYS_ONLY ? 0 : RUNS); i++) {
    for (const clear of [true, false]) {
      if (clear) await cdp.send('Network.clearBrowserCache');
      bytes = 0;
      byKind = {};
      fetches = [];
      scripts.clear();
      const start = performance.now();
      await page.goto(side.contentManager);
      await typeLink(page, lastType).waitFor();
      await firstRow(page, 'Entry 000000').waitFor();
      (clear ? cold : warm).push(performance.now() - start);
      if (clear && i === 0) {
        firstBytes = bytes;
        firstScripts = scripts.size;
        console.log(`${side.name}: first screen's scripts: ${[...scripts].map((s) => s.split('/').pop()).join(', ')}`);
        console.log(
          `${side.name}: first screen's bytes by kind: ${Object.entries(byKind)
            .map(([kind, size]) => `${kind} ${(size / 1024).toFixed(1)} KB`)
            .join(', ')}`,
        );
        const largest = fetches.sort((a, b) => b[1] - a[1]).slice(0, 4);
        console.log(
          `${side.name}: largest requests: ${largest.map(([url, size]) => `${new URL(url).pathname} ${(size / 1024).toFixed(1)} KB`).join(', ')}`,
        );
      }
    }
  }

  // Navigation between types: a click on a type's link to its list's heading.
  const hops: number[] = [];
  for (let i = 0; i < (KEYS_ONLY ? 0 : RUNS * 2); i++) {
    const name = typeName(2 + ((i * 37) % (TYPES - 2)));
    const start = performance.now();
    await typeLink(page, name).click();
    await page.getByRole('heading', { name, exact: true, level: 1 }).waitFor();
    hops.push(performance.now() - start);
  }

  // 2. The list of N entries: a click on its link to its first row; a filter opened in the app.
  const clicks: number[] = [];
  const filters: number[] = [];
  for (let i = 0; i < (KEYS_ONLY ? 0 : RUNS); i++) {
    await typeLink(page, typeName(2 + i)).click();
    await page.getByRole('heading', { name: typeName(2 + i), exact: true, level: 1 }).waitFor();
    let start = performance.now();
    await typeLink(page, 'Entry').click();
    await firstRow(page, 'Entry 000000').waitFor();
    clicks.push(performance.now() - start);
    await typeLink(page, typeName(2 + i)).click();
    await page.getByRole('heading', { name: typeName(2 + i), exact: true, level: 1 }).waitFor();
    const views = 100 + i;
    start = performance.now();
    await navigateInApp(page, side.list('api::entry.entry', `?filters[$and][0][views][$eq]=${views}`));
    await firstRow(page, `Entry ${pad(views, 6)}`).waitFor();
    filters.push(performance.now() - start);
    // Strapi's link to a type keeps the list's last query: the list unfiltered again before the next click.
    await navigateInApp(page, side.list('api::entry.entry'));
    await firstRow(page, 'Entry 000000').waitFor();
  }

  // 3. Keystrokes into the 40th entry of the page's zone.
  await page.goto(side.edit('api::page.page', side.pageId));
  const heading = `Heading ${ZONE}`;
  // Strapi's zone shows its entries folded: the 40th opens with a click on its name.
  if (side.name === 'Strapi')
    await page.getByText(`Block ${pad((ZONE - 1) % 5)} - ${heading}`, { exact: true }).click();
  await page.waitForFunction(
    (value) => [...document.querySelectorAll('input')].some((input) => input.value === value),
    heading,
  );
  await page.evaluate((value) => {
    const input = [...document.querySelectorAll('input')].find((candidate) => candidate.value === value)!;
    input.setAttribute('data-bench', 'target');
    input.scrollIntoView({ block: 'center' });
  }, heading);
  const target = page.locator('[data-bench=target]');
  await target.click();
  await page.keyboard.press('End');
  await page.evaluate(() => {
    const w = window as unknown as {
      benchKeys: number[];
      benchEvents: { id: number; duration: number; name: string; delay: number; handlers: number }[];
      benchHandled: number[];
      benchDown: number;
    };
    w.benchKeys = [];
    w.benchEvents = [];
    w.benchHandled = [];
    // The page's script per key: from the keydown's first listener to the input event's last (window,
    // bubbling: after React's root listener). Less hostage to the machine's load than press to paint.
    addEventListener('input', () => w.benchHandled.push(performance.now() - w.benchDown));
    addEventListener(
      'keydown',
      (event) => {
        w.benchDown = performance.now();
        const pressed = event.timeStamp;
        requestAnimationFrame(() => {
          const channel = new MessageChannel();
          channel.port1.onmessage = () => w.benchKeys.push(performance.now() - pressed);
          channel.port2.postMessage(0);
        });
      },
      true,
    );
    const since = performance.now();
    new PerformanceObserver((list) => {
      // Event Timing's interactionId (not in this TypeScript's DOM types yet).
      for (const entry of list.getEntries() as (PerformanceEventTiming & { interactionId?: number })[])
        if (entry.interactionId && entry.startTime >= since)
          w.benchEvents.push({
            id: entry.interactionId,
            duration: entry.duration,
            name: entry.name,
            delay: entry.processingStart - entry.startTime,
            handlers: entry.processingEnd - entry.processingStart,
          });
    }).observe({ type: 'event', durationThreshold: 16 } as PerformanceObserverInit);
  });
  if (process.env.PAGE_SETUP) await page.evaluate(process.env.PAGE_SETUP);
  const typed = 'abcdefghijklmnopqrstuvwxyz0123456789'.repeat(4).slice(0, KEYS);
  const browser = context.browser()!;
  if (TRACE)
    await browser.startTracing(page, {
      path: TRACE,
      categories: [
        'devtools.timeline',
        'disabled-by-default-devtools.timeline',
        'disabled-by-default-devtools.timeline.frame',
        'blink.user_timing',
        'latencyInfo',
        'input',
        'v8',
        'v8.execute',
        'cc',
        'viz',
        'benchmark',
        'blink',
        'loading',
        'toplevel',
        'toplevel.flow',
        'disabled-by-default-toplevel.flow',
      ],
    });
  await page.keyboard.type(typed, { delay: 80 });
  await page.waitForFunction((count) => (window as unknown as { benchKeys: number[] }).benchKeys.length >= count, KEYS);
  await page.waitForTimeout(500);
  if (TRACE) {
    await browser.stopTracing();
    console.log(`${side.name}: the keystrokes' main thread, traced:\n${traceSummary(TRACE)}`);
  }
  const value = await target.inputValue();
  if (value !== heading + typed) throw new Error(`${side.name}: the field reads ${JSON.stringify(value)}`);
  const { keys, events, handled } = await page.evaluate(() => {
    const w = window as unknown as {
      benchKeys: number[];
      benchEvents: { id: number; duration: number; name: string; delay: number; handlers: number }[];
      benchHandled: number[];
    };
    return { keys: w.benchKeys, events: w.benchEvents, handled: w.benchHandled };
  });
  const interactions = new Map<number, number>();
  for (const event of events) interactions.set(event.id, Math.max(interactions.get(event.id) ?? 0, event.duration));
  // Where the slow ones spent it: waiting for the main thread, in handlers, or from the handlers to the paint.
  console.log(
    `${side.name}: events of 16 ms or more (name: input delay + handlers + to paint): ${events
      .map(
        (e) =>
          `${e.name}: ${e.delay.toFixed(0)} + ${e.handlers.toFixed(0)} + ${(e.duration - e.delay - e.handlers).toFixed(0)}`,
      )
      .join(', ')}`,
  );
  console.log(`${side.name}: press to paint per key: ${keys.map((k) => k.toFixed(0)).join(' ')}`);
  return {
    firstScreenCold: median(cold),
    firstScreenWarm: median(warm),
    firstScreenBytes: firstBytes,
    firstScreenScripts: firstScripts,
    typeToType: median(hops),
    listClick: median(clicks),
    listFilter: median(filters),
    keyMedian: median(keys),
    keyP95: percentile(keys, 0.95),
    keyMax: Math.max(...keys),
    keysOverFrame: `${keys.filter((k) => k > 16.7).length}/${keys.length}`,
    eventsOver16: `${[...interactions.values()].filter((d) => d > 16).length}/${KEYS}`,
    handledMedian: median(handled),
    handledMax: Math.max(...handled),
  };
}

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  tdur?: number;
  args?: { name?: string; src_func?: string };
}

/**
 * The renderer's main thread in a trace: its tasks' CPU by where they were posted from (the frame
 * is `ScheduledActionSendBeginMainFrame`, input `PostTaskToMainThread`, autofill's reading of the
 * form `FormControlDidChange`), and the frame's parts that grow with the page.
 */
function traceSummary(file: string): string {
  const { traceEvents } = JSON.parse(readFileSync(file, 'utf8')) as { traceEvents: TraceEvent[] };
  const main = traceEvents.find((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const cpu = new Map<string, number[]>();
  for (const e of traceEvents) {
    if (e.ph !== 'X' || e.pid !== main?.pid || e.tid !== main.tid || e.tdur === undefined) continue;
    const key =
      e.name === 'ThreadControllerImpl::RunTask'
        ? `task ${e.args?.src_func ?? '?'}`
        : ['EventHandler::handleMouseMoveEvent', 'Layout', 'PrePaint', 'Paint', 'Layerize', 'Commit'].includes(e.name)
          ? `  ${e.name}`
          : undefined;
    if (key) cpu.set(key, [...(cpu.get(key) ?? []), e.tdur / 1000]);
  }
  return [...cpu]
    .map(([key, ms]) => ({ key, ms, total: ms.reduce((a, b) => a + b, 0) }))
    .filter(({ total, key }) => total >= 5 || key.startsWith('  '))
    .sort((a, b) => b.total - a.total)
    .map(
      ({ key, ms, total }) =>
        `${key}: ${ms.length} x, CPU median ${median(ms).toFixed(2)} ms, total ${total.toFixed(0)} ms`,
    )
    .join('\n');
}

// ---------------------------------------------------------------- the table

const project = join(ROOT, '.tmp/admin-scale-project');
writeProject(project);
console.log(`project: ${TYPES} content-types, ${COMPONENTS} components in ${project}; N=${N} RUNS=${RUNS}`);
const results: Partial<Record<Side['name'], Figures>> = {};
const browser = await launchChromium();
try {
  for (const which of SIDES) {
    const started = performance.now();
    const side = which === 'strapi' ? await strapiSide(project) : await vellumSide(project);
    console.log(
      `${side.name}: ready in ${Math.round(performance.now() - started)} ms (seeded ${N} entries in ${Math.round(side.seedMs)} ms)`,
    );
    try {
      results[side.name] = await measure(browser, side);
      console.log(side.name, results[side.name]);
    } finally {
      await side.close();
    }
  }
} finally {
  await browser.close();
}

const ms = (value: number | undefined) => (value === undefined ? '-' : `${value.toFixed(0)} ms`);
const rows: [string, (f: Figures) => string, string][] = [
  ['first screen, cache cleared', (f) => ms(f.firstScreenCold), ''],
  ['first screen, warm cache', (f) => ms(f.firstScreenWarm), ''],
  ['first screen, bytes transferred', (f) => `${(f.firstScreenBytes / 1024).toFixed(0)} KB`, '< 200 KB'],
  ['first screen, scripts', (f) => String(f.firstScreenScripts), ''],
  ['type to type (click to heading)', (f) => ms(f.typeToType), ''],
  [`list of ${N}: click to first row`, (f) => ms(f.listClick), '< 300 ms'],
  [`list of ${N}: filter to first row`, (f) => ms(f.listFilter), '< 300 ms'],
  [`keystroke press-to-paint, median`, (f) => ms(f.keyMedian), '< 16 ms'],
  [`keystroke press-to-paint, p95`, (f) => ms(f.keyP95), '< 16 ms'],
  [`keystroke press-to-paint, max`, (f) => ms(f.keyMax), '< 16 ms'],
  [`keystrokes over one frame`, (f) => f.keysOverFrame, '0'],
  [`Event Timing interactions >= 16 ms`, (f) => f.eventsOver16, '0'],
  [`keystroke, keydown to input handled: median`, (f) => `${f.handledMedian.toFixed(1)} ms`, ''],
  [`keystroke, keydown to input handled: max`, (f) => `${f.handledMax.toFixed(1)} ms`, ''],
];
console.log(`\n| ${TYPES} types, ${COMPONENTS} components | Vellum | Strapi 5.54 | target (Vellum) |`);
console.log('|---|---:|---:|---|');
for (const [label, show, goal] of rows) {
  const cell = (name: Side['name']) => (results[name] ? show(results[name]) : '-');
  console.log(`| ${label} | ${cell('Vellum')} | ${cell('Strapi')} | ${goal} |`);
}
