/**
 * The statements `populate=localizations` runs, pinned per dialect: populate over a database that
 * compiles (Kysely's DummyDriver, test/helpers/unit-sql.ts) and answers no rows, on a page already
 * read. A page of one locale does not read its own rows again (they are the items themselves):
 * on the bench's page of 25 untranslated articles, 25 -> 0 rows for that statement.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { VersionScope } from '../../query/sql/scope.js';
import { parseFindQuery } from '../../query/parse/index.js';
import { I18N, REST, typeOf, unitSchema } from '../../../../test/helpers/unit-schema.js';
import { ALL_DIALECTS, compilingDatabase, spelled, type DialectName } from '../../../../test/helpers/unit-sql.js';
import { ReadBudget } from './budget.js';
import { populate, type Loaded } from './populate.js';

const schema = unitSchema();
const ARTICLE = typeOf(schema, 'api::article.article');
const TREE = parseFindQuery(
  schema,
  ARTICLE,
  { populate: { localizations: { fields: ['title'] } } },
  { rest: REST, i18n: I18N },
).populate;
/** The localizations' statement, with the conditions after the documents' ids and the version's. */
const localizations = (more: string) =>
  `/*rows*/ /*inline*/ select "t"."id", "t"."document_id", "t"."locale", "t"."published_at", "t"."created_at", "t"."updated_at", "t"."title" from "articles" as t where (t.document_id in (?, ?) and "t"."published_at" is not null${more}) order by t.locale limit ${REST.costLimit + 1}`;

/** The statements populating the localizations of published articles (documentId, locale). */
async function statementsOf(dialect: DialectName, locale: VersionScope['locale'], page: [string, string][]) {
  const database = compilingDatabase(dialect);
  const items: Loaded[] = page.map(([documentId, itemLocale], index) => ({
    value: {},
    rowId: index + 1,
    documentId,
    locale: itemLocale,
  }));
  const ctx = {
    db: database.db,
    dialect: database.dialect,
    schema,
    scope: { status: 'published' as const, locale },
    budget: new ReadBudget(REST.costLimit, 'api.rest.costLimit'),
  };
  await populate(ctx, ARTICLE, items, TREE);
  return database.statements;
}

for (const dialect of ALL_DIALECTS) {
  describe(`SQL of populate=localizations [${dialect}]`, () => {
    it('a page of one locale reads the other locales only, not its own rows again', async () => {
      const statements = await statementsOf(dialect, 'fr', [
        ['doc-a', 'fr'],
        ['doc-b', 'fr'],
      ]);
      assert.deepEqual(statements, [
        {
          sql: spelled(localizations(' and (t.locale <> ? or t.locale is null)'))[dialect],
          parameters: ['doc-a', 'doc-b', 'fr'],
        },
      ]);
    });

    it('a page of several locales reads every locale: each item drops its own', async () => {
      const statements = await statementsOf(
        dialect,
        ['en', 'fr'],
        [
          ['doc-a', 'en'],
          ['doc-a', 'fr'],
          ['doc-b', 'en'],
        ],
      );
      assert.deepEqual(statements, [{ sql: spelled(localizations(''))[dialect], parameters: ['doc-a', 'doc-b'] }]);
    });
  });
}
