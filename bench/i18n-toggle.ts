/**
 * What moving a type's entries costs a start when its i18n is turned off or on
 * (docs/configuration.md "Turning i18n on or off"), on the blog, one dialect. A measurement, not a
 * test (test/i18n/localization-toggle.test.ts checks the behaviour):
 *
 *   DIALECT=sqlite|postgres|mysql ARTICLES=1000 ROUNDS=7 node --import tsx bench/i18n-toggle.ts
 *
 * Seeds ARTICLES articles in English and French (each version with a category, an seo component
 * and a quote in its dynamic zone, draft and published: four rows and eight components per
 * document), then prints, under the schema lock as a start runs them: the median of ROUNDS starts
 * where nothing changed (the record read), the move when articles lose i18n (the French versions
 * deleted with their components and links), and the move when they get it back (every version
 * given the default locale).
 */
import type { Db } from '../src/core/database/dialect.js';
import { DocumentService } from '../src/core/documents/service.js';
import type { Schema } from '../src/core/schema/model.js';
import { startServer } from '../test/helpers/server.js';
import type { DialectName } from '../test/helpers/databases.js';

const DIALECT = (process.env.DIALECT ?? 'sqlite') as DialectName;
const ARTICLES = Number(process.env.ARTICLES ?? 1000);
const ROUNDS = Number(process.env.ROUNDS ?? 7);
const ARTICLE = 'api::article.article';
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** The blog's schema with articles localized or not. */
function withArticles(schema: Schema, localized: boolean): Schema {
  const contentTypes = new Map(
    [...schema.contentTypes].map(([uid, type]) => [uid, uid === ARTICLE ? { ...type, localized } : type]),
  );
  return { ...schema, contentTypes };
}

const server = await startServer(DIALECT);
try {
  const { database, documents, config } = server.vellum;
  const category = (await documents.of('api::category.category').create({ data: { name: `Bench ${Date.now()}` } }))
    .documentId as string;
  const articles = documents.of(ARTICLE);
  const seeding = performance.now();
  for (let n = 0; n < ARTICLES; n++) {
    const body = (locale: string) => ({
      title: `Article ${n} ${locale}`,
      category,
      seo: { metaTitle: `Seo ${n} ${locale}` },
      blocks: [{ __component: 'shared.quote', title: `Quote ${n} ${locale}` }],
    });
    const created = await articles.create({ locale: 'en', data: body('en') });
    await articles.update({ documentId: created.documentId as string, locale: 'fr', data: body('fr') });
  }
  console.log(
    `${DIALECT}: ${ARTICLES} articles in two locales seeded in ${((performance.now() - seeding) / 1000).toFixed(0)} s`,
  );

  const serviceOf = (localized: boolean) =>
    new DocumentService({
      database,
      schema: withArticles(documents.schema, localized),
      i18n: documents.i18n,
      rest: config.api.rest,
      passwords: documents.passwords,
    });
  const timed = async (service: DocumentService) => {
    const before = database.statementCount;
    const start = performance.now();
    const moves = await database.dialect.withSchemaLock(database.db, (db: Db) => service.moveForLocalization(db));
    return { ms: performance.now() - start, statements: database.statementCount - before, moves };
  };

  const unchanged: number[] = [];
  let statements = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const run = await timed(documents);
    unchanged.push(run.ms);
    statements = run.statements;
  }
  console.log(`${DIALECT}, nothing changed: ${median(unchanged).toFixed(2)} ms, ${statements} statement(s)`);

  const off = await timed(serviceOf(false));
  console.log(
    `${DIALECT}, i18n turned off: ${off.ms.toFixed(0)} ms, ${off.statements} statements (${(off.ms / ARTICLES).toFixed(2)} ms per document); ${off.moves.moved.join('; ')}`,
  );
  const on = await timed(serviceOf(true));
  console.log(
    `${DIALECT}, i18n turned on again: ${on.ms.toFixed(0)} ms, ${on.statements} statements; ${on.moves.moved.join('; ')}`,
  );
} finally {
  await server.close();
}
