/**
 * The statements a list read runs, pinned per dialect: findMany over a database that compiles
 * (Kysely's DummyDriver, test/helpers/unit-sql.ts) and answers no rows, so no populate runs.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseFindQuery } from '../../query/parse/index.js';
import { findMany } from './find-many.js';
import { I18N, REST, typeOf, unitSchema } from '../../../../test/helpers/unit-schema.js';
import {
  ALL_DIALECTS,
  compilingDatabase,
  spelled,
  type DialectName,
  type Statement,
} from '../../../../test/helpers/unit-sql.js';
import { ReadBudget } from '../read/budget.js';
import { createPasswords } from '../../passwords.js';

const schema = unitSchema();

/** The columns every document row starts with. */
const ROW = '"t0"."id", "t0"."document_id", "t0"."locale", "t0"."published_at", "t0"."created_at", "t0"."updated_at"';
/** SQLite's case-sensitive match is GLOB; the others LIKE with `!` escaping. */
const like = (sqlite: string) => sqlite.replaceAll(' glob ?', " like ? escape '!'");
/** Case-insensitive contains, as each dialect writes it (SQLite's own lower() folds ASCII only). */
const CONTAINS_I: Record<DialectName, { text: (column: string) => string; number: (column: string) => string }> = {
  sqlite: {
    text: (c) => `"t0"."${c}" like ? escape '!'`,
    number: (c) => `cast("t0"."${c}" as text) like ? escape '!'`,
  },
  postgres: {
    text: (c) => `lower("t0"."${c}") like lower(?) escape '!'`,
    number: (c) => `lower(cast("t0"."${c}" as text)) like lower(?) escape '!'`,
  },
  mysql: {
    text: (c) => `lower("t0"."${c}") like lower(?) escape '!'`,
    number: (c) => `lower(cast("t0"."${c}" as char)) like lower(?) escape '!'`,
  },
};
/**
 * A page read as findMany writes it: the page's ids chosen on the narrow index walk, then its rows
 * read by id (a deferred join), in the same order; with `count`, the total rides on every row.
 */
const page = (
  columns: string,
  table: string,
  where: string,
  order: string,
  limit: number,
  offset: number,
  count?: string,
) =>
  `/*rows*/ select ${columns}${count ? `, (${count}) as "__total"` : ''} from (select "t0"."id" from "${table}" as "t0" where ${where} order by ${order} limit ${limit} offset ${offset}) as "p" join "${table}" as "t0" on "t0"."id" = "p"."id" order by ${order}`;
/**
 * On SQLite (Dialect.pageRowsById) the page statement answers the page's ids (and the total) only;
 * its rows are read by id in a second statement, which the empty answers here never reach.
 */
const pageOf = (
  dialect: DialectName,
  columns: string,
  table: string,
  where: string,
  order: string,
  limit: number,
  offset: number,
  count?: string,
) => {
  if (dialect !== 'sqlite') return page(columns, table, where, order, limit, offset, count);
  const ids = `select "t0"."id" from "${table}" as "t0" where ${where} order by ${order} limit ${limit} offset ${offset}`;
  return `/*rows*/ ${count ? `select "p"."id", (${count}) as "__total" from (${ids}) as "p"` : ids}`;
};
/** The count of a page past the end, which has no row to carry it. */
const countApart = (count: string) => `select (${count}) as total`;
/** A statement in SQLite's spelling with `?` placeholders as `dialect` writes it. */
const inDialect = (dialect: DialectName, sqlite: string) => spelled(sqlite)[dialect];

async function statementsOf(
  dialect: DialectName,
  uid: string,
  query: Record<string, unknown>,
  database = compilingDatabase(dialect),
): Promise<Statement[]> {
  const type = typeOf(schema, uid);
  const result = await findMany(
    { database: database.database, schema, i18n: I18N, passwords: createPasswords({ rounds: 4 }) },
    type,
    parseFindQuery(schema, type, query, { rest: REST, i18n: I18N }),
    {},
    new ReadBudget(REST.costLimit, 'api.rest.costLimit'),
  );
  assert.deepEqual(result.results, []);
  return database.statements;
}

for (const dialect of ALL_DIALECTS) {
  describe(`SQL of list reads [${dialect}]`, () => {
    it('a default list: one statement, its rows carrying the total, the version of the request', async () => {
      const statements = await statementsOf(dialect, 'api::article.article', {});
      const version = '("t0"."published_at" is not null and "t0"."locale" = ?)';
      assert.deepEqual(statements, [
        {
          sql: inDialect(
            dialect,
            pageOf(
              dialect,
              `${ROW}, "t0"."title", "t0"."slug", "t0"."body", "t0"."content", "t0"."views", "t0"."rating", "t0"."featured", "t0"."publish_date", "t0"."kind", "t0"."metadata"`,
              'articles',
              version,
              '"t0"."id" asc',
              25,
              0,
              `select count(*) from "articles" as "t0" where ${version}`,
            ),
          ),
          parameters: ['en', 'en'],
        },
      ]);
    });

    it('a page without filters is compiled once per shape; a filtered one every time', async () => {
      // Kysely builds and compiles ~7 us a statement: the default list compiled its version
      // condition twice per request (docs/performance.md, sixth pass).
      const database = compilingDatabase(dialect);
      const read = (query: Record<string, unknown>) =>
        statementsOf(dialect, 'api::article.article', query, database).then((all) => all.at(-1));
      // The first page: an empty later one would count apart, a statement of its own.
      const first = await read({ sort: 'title:desc', pagination: { pageSize: 10 } });
      const compiles = database.compiles;
      assert.deepEqual(await read({ sort: 'title:desc', pagination: { pageSize: 10 } }), first);
      assert.equal(database.compiles, compiles, 'the same page again compiles nothing');
      const french = await read({ sort: 'title:desc', pagination: { pageSize: 10 }, locale: 'fr' });
      assert.deepEqual(french?.parameters, ['fr', 'fr']);
      assert.equal(database.compiles, compiles + 1, 'another locale is another shape');
      await read({ filters: { title: 'a' } });
      await read({ filters: { title: 'a' } });
      assert.equal(database.compiles, compiles + 3, 'filtered pages compile every time');
    });

    it('an empty later page counts apart; fields select only their columns', async () => {
      const statements = await statementsOf(dialect, 'api::author.author', {
        fields: 'name',
        pagination: { page: 2, pageSize: 10 },
      });
      const count = 'select count(*) from "authors" as "t0" where 1 = 1';
      assert.deepEqual(statements, [
        {
          sql: inDialect(
            dialect,
            pageOf(dialect, `${ROW}, "t0"."name"`, 'authors', '1 = 1', '"t0"."id" asc', 10, 10, count),
          ),
          parameters: [],
        },
        { sql: inDialect(dialect, countApart(count)), parameters: [] },
      ]);
    });

    it('no count without withCount', async () => {
      const statements = await statementsOf(dialect, 'api::tag.tag', {
        pagination: { start: 50, limit: 5, withCount: false },
      });
      assert.deepEqual(
        statements.map((s) => s.sql),
        [inDialect(dialect, pageOf(dialect, `${ROW}, "t0"."name"`, 'tags', '1 = 1', '"t0"."id" asc', 5, 50))],
      );
    });

    it('filters across relations, $null on a relation, sort on a relation; the count reads relations as semi-joins', async () => {
      const statements = await statementsOf(dialect, 'api::article.article', {
        fields: 'title',
        filters: { author: { name: { $startsWith: 'A' } }, tags: { $null: true } },
        sort: 'author.name:desc',
        pagination: { page: 3, pageSize: 5 },
      });
      const tagLink = (l: string, t: string) =>
        `"articles_tags_lnk" as "${l}" join "tags" as "${t}" on ("${t}"."document_id" = "${l}"."target_document_id" and 1 = 1)`;
      const authorLink = (l: string, t: string) =>
        `"articles_author_lnk" as "${l}" join "authors" as "${t}" on ("${t}"."document_id" = "${l}"."target_document_id" and 1 = 1)`;
      // Sorted by something else than the id, the page reads relation filters as semi-joins too.
      const order = `(select "t6"."name" from ${authorLink('l5', 't6')} where "l5"."entity_id" = "t0"."id" order by "l5"."target_ord" limit 1) desc, "t0"."id" asc`;
      const count =
        `select count(*) from "articles" as "t0" where (("t0"."published_at" is not null and "t0"."locale" = ?) and (` +
        `+"t0"."id" in (select "l7"."entity_id" from ${authorLink('l7', 't8')} where "t8"."name" glob ?) and ` +
        `(+"t0"."id" in (select "l9"."entity_id" from ${tagLink('l9', 't10')} where "t10"."id" is null) or +"t0"."id" not in (select "l9"."entity_id" from ${tagLink('l9', 't10')}))))`;
      const sqlite = [
        pageOf(
          dialect,
          `${ROW}, "t0"."title"`,
          'articles',
          `(("t0"."published_at" is not null and "t0"."locale" = ?) and (` +
            `+"t0"."id" in (select "l1"."entity_id" from ${authorLink('l1', 't2')} where "t2"."name" glob ?) and ` +
            `(+"t0"."id" in (select "l3"."entity_id" from ${tagLink('l3', 't4')} where "t4"."id" is null) or +"t0"."id" not in (select "l3"."entity_id" from ${tagLink('l3', 't4')}))))`,
          order,
          5,
          10,
          count,
        ),
        countApart(count),
      ];
      // SQLite walks the version's index and tests membership (`+column`, see Dialect.semiJoinOperand).
      const expected =
        dialect === 'sqlite'
          ? sqlite
          : sqlite.map((text) => inDialect(dialect, like(text).replaceAll('+"t0"', '"t0"')));
      assert.deepEqual(
        statements.map((s) => s.sql),
        expected,
      );
      const pattern = dialect === 'sqlite' ? 'A*' : 'A%';
      assert.deepEqual(
        statements.map((s) => s.parameters),
        [
          ['en', pattern, 'en', pattern],
          ['en', pattern],
        ],
      );
    });

    it('_q, every locale, drafts of a publication cohort, offsets', async () => {
      const statements = await statementsOf(dialect, 'api::article.article', {
        fields: 'title',
        _q: 'vellum',
        locale: '*',
        status: 'draft',
        publicationFilter: 'modified',
        pagination: { start: 20, limit: 10 },
      });
      const { text, number } = CONTAINS_I[dialect];
      const search = [...['document_id', 'locale', 'title', 'slug', 'body', 'kind'].map(text), number('id')].join(
        ' or ',
      );
      const modified =
        'exists (select 1 from "articles" as "t0_pv" where (("t0_pv"."document_id" = "t0"."document_id" and "t0_pv"."locale" = "t0"."locale") and "t0_pv"."published_at" is not null and "t0"."updated_at" > "t0_pv"."updated_at"))';
      const where = `(("t0"."published_at" is null and ${modified}) and (${search}))`;
      const count = `select count(*) from "articles" as "t0" where ${where}`;
      assert.deepEqual(statements, [
        {
          sql: inDialect(
            dialect,
            pageOf(dialect, `${ROW}, "t0"."title"`, 'articles', where, '"t0"."id" asc', 10, 20, count),
          ),
          parameters: Array(14).fill('%vellum%'),
        },
        { sql: inDialect(dialect, countApart(count)), parameters: Array(7).fill('%vellum%') },
      ]);
    });

    it('a page size over the maximum reads at most api.rest.maxLimit rows; LIMIT and OFFSET are literals', async () => {
      const [rows] = await statementsOf(dialect, 'api::tag.tag', { pagination: { page: 4, pageSize: 1000 } });
      assert.match(rows!.sql, / limit 100 offset 300\) as [`"]p[`"]( |$)/);
      assert.deepEqual(rows!.parameters, []);
    });
  });
}
