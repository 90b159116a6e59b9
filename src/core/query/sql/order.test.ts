import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import { parseSort } from '../parse/sort.js';
import { Aliases } from './joins.js';
import { compileOrder } from './order.js';
import { typeOf, unitSchema } from '../../../../test/helpers/unit-schema.js';
import { ALL_DIALECTS, compilingDatabase, spelled } from '../../../../test/helpers/unit-sql.js';

const schema = unitSchema();
const article = typeOf(schema, 'api::article.article');

/** The first related value in the relation's own order (the link's target_ord). */
const AUTHOR_NAME =
  '(select "t2"."name" from "articles_author_lnk" as "l1" join "authors" as "t2" on ("t2"."document_id" = "l1"."target_document_id" and 1 = 1) where "l1"."entity_id" = "t0"."id" order by "l1"."target_ord" limit 1)';

const CASES: [sort: string, sql: string, parameters: unknown[]][] = [
  ['', '"t0"."id" asc', []],
  ['title:desc,views', '"t0"."title" desc, "t0"."views" asc, "t0"."id" asc', []],
  ['author.name', `${AUTHOR_NAME} asc, "t0"."id" asc`, []],
  [
    'tags.name:desc',
    '(select "t2"."name" from "articles_tags_lnk" as "l1" join "tags" as "t2" on ("t2"."document_id" = "l1"."target_document_id" and 1 = 1) where "l1"."entity_id" = "t0"."id" order by "l1"."target_ord" limit 1) desc, "t0"."id" asc',
    [],
  ],
  [
    'seo.metaTitle',
    '(select "k2"."meta_title" from "articles_cmps" as "c1" join "components_shared_seos" as "k2" on "k2"."id" = "c1"."cmp_id" where "c1"."entity_id" = "t0"."id" and "c1"."field" = ? order by "c1"."ord" limit 1) asc, "t0"."id" asc',
    ['seo'],
  ],
  // Back through the inverse side: the owner's order of its links (entity_ord), published versions.
  [
    'author.articles.title',
    '(select (select "t4"."title" from "articles_author_lnk" as "l3" join "articles" as "t4" on ("t4"."id" = "l3"."entity_id" and "t4"."published_at" is not null) where "l3"."target_document_id" = "t2"."document_id" order by "l3"."entity_ord" limit 1) from "articles_author_lnk" as "l1" join "authors" as "t2" on ("t2"."document_id" = "l1"."target_document_id" and 1 = 1) where "l1"."entity_id" = "t0"."id" order by "l1"."target_ord" limit 1) asc, "t0"."id" asc',
    [],
  ],
];

for (const dialect of ALL_DIALECTS) {
  describe(`SQL of sort [${dialect}]`, () => {
    for (const [sort, expected, parameters] of CASES) {
      it(`sort=${sort} ends with the row id, so that pages never overlap`, () => {
        const { db, dialect: sqlDialect } = compilingDatabase(dialect);
        const items = parseSort(schema, article, sort, {}, ['sort']);
        const order = compileOrder(
          { schema, dialect: sqlDialect, scope: { status: 'published', locale: 'en' }, aliases: new Aliases() },
          article,
          't0',
          items,
        );
        const compiled = sql.join(order).compile(db);
        assert.equal(compiled.sql, spelled(expected)[dialect]);
        assert.deepEqual(compiled.parameters, parameters);
      });
    }
  });
}
