/**
 * The audit log's list over many entries (1,000,000 by default), on one dialect: seeded with
 * multi-row inserts straight into its table (the API would take hours), then timed through the
 * admin API (`GET /admin/audit-logs`: the first page and its count, a page by cursor deep in the
 * log, the last offset page the count reaches, each filter alone and together, a rare action, the
 * person filter's list), and retention deleting 100,000 expired entries. A measurement, not a test:
 *
 *   DIALECT=sqlite|postgres|mysql N=1000000 RUNS=7 node --import tsx bench/audit-log.ts
 *
 * Prints the median of RUNS requests per case (after one warm-up) and the rows each answers.
 */
import { sql, type Insertable } from 'kysely';
import type { SystemTables } from '../src/core/database/system-tables.js';
import '../src/features/audit/index.js';
import { HttpClient } from '../test/helpers/http.js';
import { startServer } from '../test/helpers/server.js';
import type { DialectName } from '../test/helpers/databases.js';

const DIALECT = (process.env.DIALECT ?? 'sqlite') as DialectName;
const N = Number(process.env.N ?? 1_000_000);
const RUNS = Number(process.env.RUNS ?? 7);
const DAY = 86_400_000;
const SPAN = 180 * DAY;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Actions by weight; a rare one (`api-token.revoke`) is 1 entry in 10,000 beside them. */
const ACTIONS: [string, number][] = [
  ['entry.update', 50],
  ['entry.create', 15],
  ['entry.publish', 12],
  ['entry.unpublish', 3],
  ['entry.delete', 3],
  ['entry.draft-discard', 2],
  ['media.create', 5],
  ['admin.auth.success', 8],
  ['admin.logout', 2],
];
const TYPES = [
  'api::article.article',
  'api::author.author',
  'api::category.category',
  'api::tag.tag',
  'api::page.page',
  'api::product.product',
  'api::event.event',
  'api::faq.faq',
];
const total = ACTIONS.reduce((sum, [, weight]) => sum + weight, 0);
const actionOf = (i: number) => {
  if (i % 10_000 === 5_000) return 'api-token.revoke';
  let x = ((i * 7919) % 10_000) / 100;
  for (const [action, weight] of ACTIONS) {
    x -= (weight / total) * 100;
    if (x < 0) return action;
  }
  return ACTIONS[0]![0];
};

const server = await startServer(DIALECT, {
  config: { admin: { auditLogs: { retentionDays: 170 } } },
});
try {
  const db = server.vellum.database.system;
  const start = Date.now() - SPAN;
  const seedStart = performance.now();
  const BATCH = 1000;
  for (let from = 0; from < N; from += BATCH) {
    const rows: Insertable<SystemTables['vellum_audit_logs']>[] = [];
    for (let i = from; i < Math.min(N, from + BATCH); i++) {
      const action = actionOf(i);
      const document = action.startsWith('entry.') || action.startsWith('media.');
      const actor = 1 + (i % 20);
      rows.push({
        created_at: start + Math.floor((i / N) * SPAN),
        action,
        actor_id: actor,
        actor_email: `editor${actor}@example.com`,
        actor_name: `Editor ${actor}`,
        content_type: document
          ? action.startsWith('media.')
            ? 'plugin::upload.file'
            : TYPES[i % TYPES.length]!
          : null,
        document_id: document ? `doc${(i * 31) % 200_000}`.padEnd(24, 'x') : null,
        locale: document ? 'en' : null,
        changed: action === 'entry.update' ? '["title","body"]' : null,
      });
    }
    await server.vellum.database.write((trx) => trx.insertInto('vellum_audit_logs').values(rows).execute());
  }
  console.log(`${DIALECT}: ${N} entries seeded in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);
  // The steady state autovacuum reaches a little later (measured right after the inserts, its run
  // competes for the CPU and index-only scans still visit the heap): statistics and visibility map.
  if (DIALECT === 'postgres') await sql`vacuum analyze vellum_audit_logs`.execute(server.vellum.database.db);
  if (DIALECT === 'mysql') await sql`analyze table vellum_audit_logs`.execute(server.vellum.database.db);

  const email = 'bench@example.com';
  await server.vellum.auth.admins.create(email, 'a-bench-password');
  const login = await server.publicApi.post('/admin/login', { email, password: 'a-bench-password' });
  const admin = new HttpClient(server.url, { authorization: `Bearer ${login.body.data.token}` });

  // A cursor half-way through the log, as a walk of the pages would reach it.
  const middle = await db
    .selectFrom('vellum_audit_logs')
    .select(['id', 'created_at'])
    .where('id', '=', Math.floor(N / 2))
    .executeTakeFirstOrThrow();
  const cursor = `${Number(middle.created_at)}_${middle.id}`;
  const day = (offset: number) => String(start + offset * DAY);
  const cases: [string, string][] = [
    ['first page, no filter (+ count)', 'pageSize=25'],
    ['page by cursor, half-way (500,000 deep)', `pageSize=25&cursor=${cursor}`],
    ['offset page 400 (the last the count reaches)', 'pageSize=25&page=400'],
    ['one person (+ count)', 'pageSize=25&filters[$and][0][user][id][$eq]=7'],
    ['one action (+ count)', 'pageSize=25&filters[$and][0][action][$eq]=entry.publish'],
    ['a rare action (+ count)', 'pageSize=25&filters[$and][0][action][$eq]=api-token.revoke'],
    ['one content-type (+ count)', 'pageSize=25&filters[$and][0][contentType][$eq]=api::tag.tag'],
    ['one day (+ count)', `pageSize=25&filters[$and][0][date][$gte]=${day(90)}&filters[$and][1][date][$lt]=${day(91)}`],
    [
      'person + action + 30 days (+ count)',
      `pageSize=25&filters[$and][0][user][id][$eq]=7&filters[$and][1][action][$eq]=entry.update&filters[$and][2][date][$gte]=${day(60)}&filters[$and][3][date][$lt]=${day(90)}`,
    ],
    ['person, cursor half-way', `pageSize=25&filters[$and][0][user][id][$eq]=7&cursor=${cursor}`],
    ['not one person (+ count)', 'pageSize=25&filters[$and][0][user][id][$ne]=7'],
    ['sorted by action (+ count)', 'pageSize=25&sort=action:ASC'],
  ];
  const rows: string[] = [];
  for (const [name, query] of cases) {
    const times: number[] = [];
    let answer: { results: unknown[]; pagination: { total?: number; totalCapped?: boolean } } | undefined;
    for (let run = 0; run <= RUNS; run++) {
      const t = performance.now();
      const res = await admin.get(`/admin/audit-logs?${query}`);
      if (res.status !== 200) throw new Error(`${name}: ${res.status} ${JSON.stringify(res.body)}`);
      if (run > 0) times.push(performance.now() - t);
      answer = res.body;
    }
    const { total: count, totalCapped } = answer!.pagination;
    rows.push(
      `| ${name} | ${median(times).toFixed(1)} ms | ${answer!.results.length}${count === undefined ? '' : `, total ${count}${totalCapped ? '+' : ''}`} |`,
    );
  }
  const times: number[] = [];
  for (let run = 0; run <= RUNS; run++) {
    const t = performance.now();
    await admin.get('/admin/audit-logs/users');
    if (run > 0) times.push(performance.now() - t);
  }
  rows.push(`| the person filter's list (20 people) | ${median(times).toFixed(1)} ms | 20 |`);
  // Retention: 170 days kept of 180: the oldest ~10 days expire; 100 batches of 1,000.
  const pruneStart = performance.now();
  const pruned = await server.vellum.audit.retention.prune(100);
  const pruneMs = performance.now() - pruneStart;
  rows.push(`| retention: ${pruned} expired entries deleted (100 batches) | ${pruneMs.toFixed(0)} ms | |`);
  console.log(`\n| ${DIALECT}, ${N} entries | median of ${RUNS} | rows |\n|---|---|---|\n${rows.join('\n')}`);
} finally {
  await server.close();
}
