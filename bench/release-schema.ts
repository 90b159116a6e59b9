/**
 * What following the schema costs the releases at start-up (docs/releases.md "A changed schema"),
 * on the releases fixture, one dialect. A measurement, not a test
 * (test/releases/schema-changes.test.ts checks the behaviour):
 *
 *   DIALECT=sqlite|postgres|mysql ACTIONS=1000 ROUNDS=7 node --import tsx bench/release-schema.ts
 *
 * Prints the median time and the statements of: start-up's read when nothing changed, beside the
 * read it replaced (the types the actions name), taken in turns; the same with the actions' table
 * grown to ten times as many rows; and the work after a schema change, every pending publish
 * action checked again (its digest made stale by hand before each round).
 */
import { followSchemaChanges } from '../src/features/releases/index.js';
import { fixture, startServer } from '../test/helpers/server.js';
import type { DialectName } from '../test/helpers/databases.js';

const DIALECT = (process.env.DIALECT ?? 'sqlite') as DialectName;
const ACTIONS = Number(process.env.ACTIONS ?? 1000);
const ROUNDS = Number(process.env.ROUNDS ?? 7);
const PAGE = 'api::page.page';
const PER_RELEASE = 100;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const server = await startServer(DIALECT, { project: fixture('releases') });
try {
  const { database, documents, releases } = server.vellum;
  const pages = documents.of(PAGE);
  for (let start = 0; start < ACTIONS; start += PER_RELEASE) {
    const release = await releases.releases.create({ name: `Bench ${start}` });
    const ids: string[] = [];
    for (let n = start; n < Math.min(ACTIONS, start + PER_RELEASE); n++)
      ids.push((await pages.create({ data: { heading: `Page ${n}` } })).documentId as string);
    await releases.actions.addActions(
      release.id,
      ids.map((entryDocumentId) => ({ contentType: PAGE, entryDocumentId, type: 'publish' })),
    );
  }
  const oldRead = () =>
    database.system.selectFrom('vellum_release_actions').select('content_type').distinct().execute();
  const timed = async (run: () => Promise<unknown>) => {
    const before = database.statementCount;
    const start = performance.now();
    await run();
    return { ms: performance.now() - start, statements: database.statementCount - before };
  };
  const compare = async (label: string) => {
    const times = { before: [] as number[], after: [] as number[] };
    let statements = 0;
    for (let round = 0; round < ROUNDS; round++) {
      times.before.push((await timed(oldRead)).ms);
      const after = await timed(() => followSchemaChanges(database, documents));
      times.after.push(after.ms);
      statements = after.statements;
    }
    console.log(
      `${label}: the read it replaced ${median(times.before).toFixed(2)} ms; start-up's, nothing changed ${median(times.after).toFixed(2)} ms, ${statements} statement(s)`,
    );
  };
  await compare(`${DIALECT}, ${ACTIONS} actions`);

  const stale: number[] = [];
  let statements = 0;
  for (let round = 0; round < ROUNDS; round++) {
    await database.system.updateTable('vellum_release_actions').set({ checked_schema: 'stale' }).execute();
    const run = await timed(() => followSchemaChanges(database, documents));
    stale.push(run.ms);
    statements = run.statements;
  }
  console.log(
    `${DIALECT}, a schema change: ${ACTIONS} publish actions checked again in ${median(stale).toFixed(0)} ms, ${statements} statements (${(median(stale) / ACTIONS).toFixed(2)} ms and ${(statements / ACTIONS).toFixed(1)} statements per action)`,
  );

  // Ten times the rows (copies of the actions, in the releases already there, every column but the id): the read alone.
  const columns = [
    'document_id',
    'release_id',
    'type',
    'content_type',
    'entry_document_id',
    'locale',
    'is_entry_valid',
    'problem',
    'checked_schema',
    'created_at',
    'updated_at',
  ] as const;
  for (let copy = 0; copy < 9; copy++)
    await database.system
      .insertInto('vellum_release_actions')
      .columns(columns)
      .expression((eb) => eb.selectFrom('vellum_release_actions').select(columns).where('id', '<=', ACTIONS))
      .execute();
  await compare(`${DIALECT}, ${ACTIONS * 10} actions`);
} finally {
  await server.close();
}
