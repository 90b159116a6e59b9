/**
 * The admin list view of a type with many documents (100,000 articles by default), on SQLite:
 * seeded with SQL straight into the database file (the API would take minutes), then timed
 * through the admin API (first page under the list's default sort, another sort, a deep page, a
 * search) and in Chromium (navigation to the list until its first rows show). A measurement, not
 * a test: `node --import tsx bench/admin-list.ts` (N=100000 RUNS=5). Prints the medians.
 */
import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { ensureAdminBuild, launchChromium } from '../test/helpers/browser.js';
import { HttpClient } from '../test/helpers/http.js';
import { startServer } from '../test/helpers/server.js';

const N = Number(process.env.N ?? 100_000);
const RUNS = Number(process.env.RUNS ?? 5);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const documentId = () =>
  randomBytes(18)
    .toString('base64url')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, 'x')
    .slice(0, 24);

ensureAdminBuild();
const server = await startServer('sqlite');
try {
  const { filename } = (server.databaseConfig as { connection: { connection: { filename: string } } }).connection
    .connection;
  const seedStart = performance.now();
  const db = new Database(filename);
  // Every document a draft; every other one published too (its second row), as Vellum stores them.
  const insert = db.prepare(
    'insert into articles (document_id, locale, published_at, created_at, updated_at, title, slug, views, featured) values (?, ?, ?, ?, ?, ?, ?, ?, 0)',
  );
  db.transaction(() => {
    for (let i = 0; i < N; i++) {
      const id = documentId();
      const at = new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString();
      const title = `Article ${String(i).padStart(6, '0')}`;
      const slug = `article-${i}`;
      insert.run(id, 'en', null, at, at, title, slug, i % 1000);
      if (i % 2 === 0) insert.run(id, 'en', at, at, at, title, slug, i % 1000);
    }
  })();
  db.prepare('analyze').run();
  db.close();
  console.log(`seeded ${N} articles (${Math.round(N * 1.5)} rows) in ${Math.round(performance.now() - seedStart)} ms`);

  const email = `bench-${Date.now()}@example.com`;
  const password = 'a-bench-password';
  await server.vellum.auth.admins.create(email, password);
  const token = (await server.publicApi.post('/admin/login', { email, password })).body.data.token as string;
  const admin = new HttpClient(server.url, { authorization: `Bearer ${token}` });
  const base = '/admin/content-manager/collection-types/api::article.article';
  const lastPage = Math.ceil(N / 10);
  const requests: Record<string, string> = {
    'page 1, default sort (title:asc)': '?locale=en&pagination[page]=1&pagination[pageSize]=10&sort=title:asc',
    'page 1, updatedAt:desc': '?locale=en&pagination[page]=1&pagination[pageSize]=10&sort=updatedAt:desc',
    [`last page (${lastPage})`]: `?locale=en&pagination[page]=${lastPage}&pagination[pageSize]=10&sort=title:asc`,
    'search "04242" (containsi)':
      '?locale=en&pagination[page]=1&pagination[pageSize]=10&sort=title:asc&filters[$and][0][title][$containsi]=04242',
  };
  for (const [name, query] of Object.entries(requests)) {
    const times: number[] = [];
    let rows = 0;
    let total = 0;
    for (let run = 0; run < RUNS; run++) {
      const start = performance.now();
      const answer = await admin.get(`${base}${query}`);
      times.push(performance.now() - start);
      if (answer.status !== 200) throw new Error(`${name}: ${answer.status} ${JSON.stringify(answer.body)}`);
      rows = answer.body.data.length;
      total = answer.body.meta.pagination.total;
    }
    console.log(
      `API ${name}: median ${median(times).toFixed(1)} ms (min ${Math.min(...times).toFixed(1)}), ${rows} rows of ${total}`,
    );
  }

  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.goto(`${server.url}/admin/login`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('navigation', { name: 'Collection types' }).waitFor();
    const times: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      await page.goto(`${server.url}/admin/`);
      await page.getByRole('navigation', { name: 'Collection types' }).waitFor();
      const start = performance.now();
      await page.getByRole('navigation', { name: 'Collection types' }).getByRole('link', { name: 'Article' }).click();
      await page.getByRole('table').getByRole('link', { name: 'Article 000000' }).waitFor();
      times.push(performance.now() - start);
    }
    const loads: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const start = performance.now();
      await page.goto(`${server.url}/admin/content/api::article.article`);
      await page.getByRole('table').getByRole('link', { name: 'Article 000000' }).waitFor();
      loads.push(performance.now() - start);
    }
    console.log(
      `browser: the list's address opened (the app loaded, warm cache) to its first rows: median ${median(loads).toFixed(0)} ms (min ${Math.min(...loads).toFixed(0)}, max ${Math.max(...loads).toFixed(0)})`,
    );
    console.log(
      `browser: click on "Article" to its first rows: median ${median(times).toFixed(0)} ms (min ${Math.min(...times).toFixed(0)}, max ${Math.max(...times).toFixed(0)})`,
    );
  } finally {
    await browser.close();
  }
} finally {
  await server.close();
}
