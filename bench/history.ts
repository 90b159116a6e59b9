/**
 * What content history costs a write: the same writes of the blog's articles (create, update,
 * publish, update, discard, unpublish) through the node's document service, which records a
 * version of each, and through one without history (the same outbox), on one dialect. A
 * measurement, not a test (test/history/history.test.ts holds the statement count to one more):
 *
 *   DIALECT=sqlite|postgres|mysql N=200 node --import tsx bench/history.ts
 *
 * Prints, per write, the statements each costs and the median time of N, with and without history.
 */
import { DocumentService } from '../src/core/documents/service.js';
import { startServer } from '../test/helpers/server.js';
import type { DialectName } from '../test/helpers/databases.js';

const DIALECT = (process.env.DIALECT ?? 'sqlite') as DialectName;
const N = Number(process.env.N ?? 200);
const ARTICLE = 'api::article.article';
const WRITES = ['create', 'update', 'publish', 'update again', 'discard', 'unpublish'] as const;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const server = await startServer(DIALECT);
try {
  const { database, documents } = server.vellum;
  const plain = new DocumentService({
    database,
    schema: documents.schema,
    i18n: documents.i18n,
    rest: server.vellum.config.api.rest,
    outbox: server.vellum.webhooks,
    passwords: documents.passwords,
  });
  const body = 'lorem ipsum '.repeat(800);
  /** Statements and milliseconds of each write, N documents through `service` (titles of their own: their slugs never collide). */
  const measure = async (service: DocumentService, run: string) => {
    const statements = new Map<string, number>();
    const times = new Map<string, number[]>(WRITES.map((write) => [write, []]));
    const of = service.of(ARTICLE);
    for (let n = 0; n < N; n++) {
      let id = '';
      const steps: [string, () => Promise<unknown>][] = [
        [
          'create',
          async () =>
            (id = (await of.create({ locale: 'en', data: { title: `${run} ${n}`, body } })).documentId as string),
        ],
        ['update', () => of.update({ documentId: id, locale: 'en', data: { title: `${run} ${n}.1` } })],
        ['publish', () => of.publish({ documentId: id, locale: 'en' })],
        ['update again', () => of.update({ documentId: id, locale: 'en', data: { body: `${body}!` } })],
        ['discard', () => of.discardDraft({ documentId: id, locale: 'en' })],
        ['unpublish', () => of.unpublish({ documentId: id, locale: 'en' })],
      ];
      for (const [name, write] of steps) {
        const before = database.statementCount;
        const start = performance.now();
        await write();
        times.get(name)!.push(performance.now() - start);
        statements.set(name, database.statementCount - before);
      }
    }
    return { statements, times };
  };
  // Alternated, so that neither side has the warmer database.
  const without = await measure(plain, 'without');
  const withHistory = await measure(documents, 'with');
  const again = await measure(plain, 'again');
  console.log(`content history on ${DIALECT}, ${N} articles (a 9.6 kB body), each write:`);
  console.log('write          statements (without -> with)   median ms (without -> with)');
  for (const write of WRITES) {
    const off = median([...without.times.get(write)!, ...again.times.get(write)!]);
    const on = median(withHistory.times.get(write)!);
    console.log(
      `${write.padEnd(14)} ${String(without.statements.get(write)).padStart(3)} -> ${String(withHistory.statements.get(write)).padEnd(24)} ${off.toFixed(2)} -> ${on.toFixed(2)}`,
    );
  }
} finally {
  await server.close();
}
