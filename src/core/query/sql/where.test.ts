/**
 * The SQL of typed filters, pinned per dialect as Kysely's tests pin theirs: compiled with Kysely's
 * DummyDriver and each dialect's query compiler (test/helpers/unit-sql.ts), no database.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Status } from '../types.js';
import { FilterParser } from '../parse/filters.js';
import { Aliases } from './joins.js';
import { compileFilter, type SqlContext } from './where.js';
import { typeOf, unitSchema } from '../../../../test/helpers/unit-schema.js';
import { ALL_DIALECTS, compilingDatabase, spelled, type DialectName } from '../../../../test/helpers/unit-sql.js';

const schema = unitSchema();

interface Case {
  name: string;
  /** The content-type filtered (default: article, localized with draft and publish). */
  type?: string;
  status?: Status;
  form?: SqlContext['relationForm'];
  filters: Record<string, unknown>;
  sql: Record<DialectName, string>;
  parameters: unknown[] | Record<DialectName, unknown[]>;
}

const CASES: Case[] = [
  {
    name: 'a bare value: equality',
    filters: { title: 'a' },
    sql: spelled('"t0"."title" = ?'),
    parameters: ['a'],
  },
  {
    name: '$eq null and $ne null: null tests',
    filters: { title: { $eq: null }, views: { $ne: null } },
    sql: spelled('("t0"."title" is null and "t0"."views" is not null)'),
    parameters: [],
  },
  {
    name: '$ne and the order comparisons',
    filters: { title: { $ne: 'a' }, views: { $lt: 1, $lte: 2, $gt: 3, $gte: 4 } },
    sql: spelled(
      '("t0"."title" <> ? and ("t0"."views" < ? and "t0"."views" <= ? and "t0"."views" > ? and "t0"."views" >= ?))',
    ),
    parameters: ['a', 1, 2, 3, 4],
  },
  {
    name: '$eqi and $nei: lower-cased on both sides',
    filters: { title: { $eqi: 'A' }, slug: { $nei: 'B' } },
    sql: {
      sqlite: '(vellum_lower("t0"."title") = vellum_lower(?) and vellum_lower("t0"."slug") <> vellum_lower(?))',
      postgres: '(lower("t0"."title") = lower($1) and lower("t0"."slug") <> lower($2))',
      mysql: '(lower(`t0`.`title`) = lower(?) and lower(`t0`.`slug`) <> lower(?))',
    },
    parameters: ['A', 'B'],
  },
  {
    name: '$in, $notIn, and an empty $in (false) and $notIn (true)',
    filters: { views: { $in: [1, 2], $notIn: [3] }, id: { $in: [] }, rating: { $notIn: [] } },
    sql: spelled('(("t0"."views" in (?, ?) and "t0"."views" not in (?)) and 1 = 0 and 1 = 1)'),
    parameters: [1, 2, 3],
  },
  {
    name: '$between',
    filters: { views: { $between: [1, 9] } },
    sql: spelled('"t0"."views" between ? and ?'),
    parameters: [1, 9],
  },
  {
    name: '$null and $notNull, true and false',
    filters: { title: { $null: true }, slug: { $null: false }, body: { $notNull: true }, kind: { $notNull: false } },
    sql: spelled(
      '("t0"."title" is null and "t0"."slug" is not null and "t0"."body" is not null and "t0"."kind" is null)',
    ),
    parameters: [],
  },
  {
    name: 'booleans, dates and date-times as each database stores them',
    filters: { featured: true, publishDate: { $lt: '2024-01-01' }, createdAt: { $gte: '2024-01-02T03:04:05Z' } },
    sql: spelled('("t0"."featured" = ? and "t0"."publish_date" < ? and "t0"."created_at" >= ?)'),
    parameters: {
      sqlite: [1, '2024-01-01', '2024-01-02T03:04:05.000Z'],
      postgres: [true, '2024-01-01', '2024-01-02T03:04:05.000Z'],
      mysql: [1, '2024-01-01', '2024-01-02 03:04:05.000'],
    },
  },
  {
    name: '$contains: case-sensitive, wildcards matched literally',
    filters: { title: { $contains: '50%_off*' } },
    sql: {
      sqlite: '"t0"."title" glob ?',
      postgres: '"t0"."title" like $1 escape \'!\'',
      mysql: "`t0`.`title` like ? escape '!'",
    },
    parameters: { sqlite: ['*50%_off[*]*'], postgres: ['%50!%!_off*%'], mysql: ['%50!%!_off*%'] },
  },
  {
    name: '$notContainsi, $startsWith and $endsWithi',
    filters: { title: { $notContainsi: 'X' }, slug: { $startsWith: 'a?' }, kind: { $endsWithi: 'S' } },
    sql: {
      // SQLite: an ASCII pattern is matched by its own LIKE, which ignores ASCII case.
      sqlite: '(not "t0"."title" like ? escape \'!\' and "t0"."slug" glob ? and "t0"."kind" like ? escape \'!\')',
      postgres:
        '(not lower("t0"."title") like lower($1) escape \'!\' and "t0"."slug" like $2 escape \'!\' and lower("t0"."kind") like lower($3) escape \'!\')',
      mysql:
        "(not lower(`t0`.`title`) like lower(?) escape '!' and `t0`.`slug` like ? escape '!' and lower(`t0`.`kind`) like lower(?) escape '!')",
    },
    parameters: { sqlite: ['%X%', 'a[?]*', '%S'], postgres: ['%X%', 'a?%', '%S'], mysql: ['%X%', 'a?%', '%S'] },
  },
  {
    name: '$containsi of a pattern beyond ASCII: lower-cased in every script (SQLite: the pattern once, in JavaScript)',
    filters: { title: { $containsi: 'ÉTÉ' } },
    sql: {
      sqlite: 'vellum_lower("t0"."title") like ? escape \'!\'',
      postgres: 'lower("t0"."title") like lower($1) escape \'!\'',
      mysql: "lower(`t0`.`title`) like lower(?) escape '!'",
    },
    parameters: { sqlite: ['%été%'], postgres: ['%ÉTÉ%'], mysql: ['%ÉTÉ%'] },
  },
  {
    name: '$not: a row whose condition is unknown matches too',
    filters: { $not: { views: { $gt: 3 } } },
    sql: spelled('not coalesce("t0"."views" > ?, false)'),
    parameters: [3],
  },
  {
    name: '$or of $and',
    filters: { $or: [{ title: 'a' }, { $and: [{ views: 1 }, { featured: false }] }] },
    sql: spelled('("t0"."title" = ? or ("t0"."views" = ? and "t0"."featured" = ?))'),
    parameters: { sqlite: ['a', 1, 0], postgres: ['a', 1, false], mysql: ['a', 1, 0] },
  },
  {
    name: 'a relation (owner side, a target without draft and publish): exists',
    filters: { author: { name: { $ne: 'Ann' } } },
    sql: spelled(
      'exists (select 1 from "articles_author_lnk" as "l1" join "authors" as "t2" on ("t2"."document_id" = "l1"."target_document_id" and 1 = 1) where "l1"."entity_id" = "t0"."id" and "t2"."name" <> ?)',
    ),
    parameters: ['Ann'],
  },
  {
    name: 'an equality through a relation: the set of owner ids, probed by id (on SQLite too)',
    filters: { author: { name: 'Ann' } },
    sql: spelled(
      '"t0"."id" in (select "l1"."entity_id" from "articles_author_lnk" as "l1" join "authors" as "t2" on ("t2"."document_id" = "l1"."target_document_id" and 1 = 1) where "t2"."name" = ?)',
    ),
    parameters: ['Ann'],
  },
  {
    name: 'a many-to-many relation, $in',
    filters: { tags: { name: { $in: ['x', 'y'] } } },
    sql: spelled(
      '"t0"."id" in (select "l1"."entity_id" from "articles_tags_lnk" as "l1" join "tags" as "t2" on ("t2"."document_id" = "l1"."target_document_id" and 1 = 1) where "t2"."name" in (?, ?))',
    ),
    parameters: ['x', 'y'],
  },
  {
    name: 'an AND with one equality is found by value; an OR needs every branch to be',
    filters: {
      $or: [
        { tags: { $and: [{ name: 'x' }, { id: { $gt: 3 } }] } },
        { tags: { $or: [{ name: 'y' }, { name: { $startsWith: 'z' } }] } },
      ],
    },
    sql: {
      sqlite:
        '("t0"."id" in (select "l1"."entity_id" from "articles_tags_lnk" as "l1" join "tags" as "t2" on ("t2"."document_id" = "l1"."target_document_id" and 1 = 1) where ("t2"."name" = ? and "t2"."id" > ?)) or exists (select 1 from "articles_tags_lnk" as "l3" join "tags" as "t4" on ("t4"."document_id" = "l3"."target_document_id" and 1 = 1) where "l3"."entity_id" = "t0"."id" and ("t4"."name" = ? or "t4"."name" glob ?)))',
      postgres:
        '("t0"."id" in (select "l1"."entity_id" from "articles_tags_lnk" as "l1" join "tags" as "t2" on ("t2"."document_id" = "l1"."target_document_id" and 1 = 1) where ("t2"."name" = $1 and "t2"."id" > $2)) or exists (select 1 from "articles_tags_lnk" as "l3" join "tags" as "t4" on ("t4"."document_id" = "l3"."target_document_id" and 1 = 1) where "l3"."entity_id" = "t0"."id" and ("t4"."name" = $3 or "t4"."name" like $4 escape \'!\')))',
      mysql:
        "(`t0`.`id` in (select `l1`.`entity_id` from `articles_tags_lnk` as `l1` join `tags` as `t2` on (`t2`.`document_id` = `l1`.`target_document_id` and 1 = 1) where (`t2`.`name` = ? and `t2`.`id` > ?)) or exists (select 1 from `articles_tags_lnk` as `l3` join `tags` as `t4` on (`t4`.`document_id` = `l3`.`target_document_id` and 1 = 1) where `l3`.`entity_id` = `t0`.`id` and (`t4`.`name` = ? or `t4`.`name` like ? escape '!')))",
    },
    parameters: { sqlite: ['x', 3, 'y', 'z*'], postgres: ['x', 3, 'y', 'z%'], mysql: ['x', 3, 'y', 'z%'] },
  },
  {
    name: 'an inverse relation from a type without draft and publish: every version of its targets (Strapi links both rows)',
    type: 'api::author.author',
    filters: { articles: { title: { $ne: 'x' } } },
    sql: spelled(
      'exists (select 1 from "articles_author_lnk" as "l1" join "articles" as "t2" on "t2"."id" = "l1"."entity_id" where "l1"."target_document_id" = "t0"."document_id" and "t2"."title" <> ?)',
    ),
    parameters: ['x'],
  },
  {
    name: 'the same relation read as drafts: every version too',
    type: 'api::author.author',
    status: 'draft',
    filters: { articles: { title: 'x' } },
    sql: spelled(
      '"t0"."document_id" in (select "l1"."target_document_id" from "articles_author_lnk" as "l1" join "articles" as "t2" on "t2"."id" = "l1"."entity_id" where "t2"."title" = ?)',
    ),
    parameters: ['x'],
  },
  {
    name: "$null on a relation: documents without one too (Strapi's LEFT JOIN)",
    filters: { category: { $null: true } },
    sql: spelled(
      '(exists (select 1 from "articles_category_lnk" as "l1" join "categories" as "t2" on ("t2"."document_id" = "l1"."target_document_id" and 1 = 1) where "l1"."entity_id" = "t0"."id" and "t2"."id" is null) or not exists (select 1 from "articles_category_lnk" as "l1" join "categories" as "t2" on ("t2"."document_id" = "l1"."target_document_id" and 1 = 1) where "l1"."entity_id" = "t0"."id"))',
    ),
    parameters: [],
  },
  {
    name: '$null on a related field: documents without related rows too',
    filters: { tags: { name: { $null: true } } },
    sql: spelled(
      '(exists (select 1 from "articles_tags_lnk" as "l1" join "tags" as "t2" on ("t2"."document_id" = "l1"."target_document_id" and 1 = 1) where "l1"."entity_id" = "t0"."id" and "t2"."name" is null) or not exists (select 1 from "articles_tags_lnk" as "l1" join "tags" as "t2" on ("t2"."document_id" = "l1"."target_document_id" and 1 = 1) where "l1"."entity_id" = "t0"."id"))',
    ),
    parameters: [],
  },
  {
    name: 'through two relations: below the first, each level is a set built once (not fan-out^depth)',
    filters: { author: { articles: { category: { name: { $ne: 'c' } } } } },
    sql: {
      ...spelled(
        'exists (select 1 from "articles_author_lnk" as "l1" join "authors" as "t2" on ("t2"."document_id" = "l1"."target_document_id" and 1 = 1) where "l1"."entity_id" = "t0"."id" and "t2"."document_id" in (select "l3"."target_document_id" from "articles_author_lnk" as "l3" join "articles" as "t4" on "t4"."id" = "l3"."entity_id" where "t4"."id" in (select "l5"."entity_id" from "articles_category_lnk" as "l5" join "categories" as "t6" on ("t6"."document_id" = "l5"."target_document_id" and 1 = 1) where "t6"."name" <> ?)))',
      ),
      sqlite:
        'exists (select 1 from "articles_author_lnk" as "l1" join "authors" as "t2" on ("t2"."document_id" = "l1"."target_document_id" and 1 = 1) where "l1"."entity_id" = "t0"."id" and +"t2"."document_id" in (select "l3"."target_document_id" from "articles_author_lnk" as "l3" join "articles" as "t4" on "t4"."id" = "l3"."entity_id" where +"t4"."id" in (select "l5"."entity_id" from "articles_category_lnk" as "l5" join "categories" as "t6" on ("t6"."document_id" = "l5"."target_document_id" and 1 = 1) where "t6"."name" <> ?)))',
    },
    parameters: ['c'],
  },
  {
    name: 'an equality through two relations: sets of ids all the way',
    filters: { author: { articles: { category: { name: 'c' } } } },
    sql: spelled(
      '"t0"."id" in (select "l1"."entity_id" from "articles_author_lnk" as "l1" join "authors" as "t2" on ("t2"."document_id" = "l1"."target_document_id" and 1 = 1) where "t2"."document_id" in (select "l3"."target_document_id" from "articles_author_lnk" as "l3" join "articles" as "t4" on "t4"."id" = "l3"."entity_id" where "t4"."id" in (select "l5"."entity_id" from "articles_category_lnk" as "l5" join "categories" as "t6" on ("t6"."document_id" = "l5"."target_document_id" and 1 = 1) where "t6"."name" = ?)))',
    ),
    parameters: ['c'],
  },
  {
    name: "semi-join form (counts): the set of matching owner ids; SQLite walks the version's index (+id)",
    form: 'semi-join',
    filters: { author: { name: { $gt: 'Ann' } } },
    sql: {
      sqlite:
        '+"t0"."id" in (select "l1"."entity_id" from "articles_author_lnk" as "l1" join "authors" as "t2" on ("t2"."document_id" = "l1"."target_document_id" and 1 = 1) where "t2"."name" > ?)',
      postgres:
        '"t0"."id" in (select "l1"."entity_id" from "articles_author_lnk" as "l1" join "authors" as "t2" on ("t2"."document_id" = "l1"."target_document_id" and 1 = 1) where "t2"."name" > $1)',
      mysql:
        '`t0`.`id` in (select `l1`.`entity_id` from `articles_author_lnk` as `l1` join `authors` as `t2` on (`t2`.`document_id` = `l1`.`target_document_id` and 1 = 1) where `t2`.`name` > ?)',
    },
    parameters: ['Ann'],
  },
  {
    name: 'semi-join form with $null: not in the set of linked ids',
    form: 'semi-join',
    filters: { category: { $null: true } },
    sql: {
      sqlite:
        '(+"t0"."id" in (select "l1"."entity_id" from "articles_category_lnk" as "l1" join "categories" as "t2" on ("t2"."document_id" = "l1"."target_document_id" and 1 = 1) where "t2"."id" is null) or +"t0"."id" not in (select "l1"."entity_id" from "articles_category_lnk" as "l1" join "categories" as "t2" on ("t2"."document_id" = "l1"."target_document_id" and 1 = 1)))',
      postgres:
        '("t0"."id" in (select "l1"."entity_id" from "articles_category_lnk" as "l1" join "categories" as "t2" on ("t2"."document_id" = "l1"."target_document_id" and 1 = 1) where "t2"."id" is null) or "t0"."id" not in (select "l1"."entity_id" from "articles_category_lnk" as "l1" join "categories" as "t2" on ("t2"."document_id" = "l1"."target_document_id" and 1 = 1)))',
      mysql:
        '(`t0`.`id` in (select `l1`.`entity_id` from `articles_category_lnk` as `l1` join `categories` as `t2` on (`t2`.`document_id` = `l1`.`target_document_id` and 1 = 1) where `t2`.`id` is null) or `t0`.`id` not in (select `l1`.`entity_id` from `articles_category_lnk` as `l1` join `categories` as `t2` on (`t2`.`document_id` = `l1`.`target_document_id` and 1 = 1)))',
    },
    parameters: [],
  },
  {
    name: 'semi-join form on an inverse side: the set of document ids',
    type: 'api::author.author',
    form: 'semi-join',
    filters: { articles: { title: { $lt: 'x' } } },
    sql: {
      sqlite:
        '+"t0"."document_id" in (select "l1"."target_document_id" from "articles_author_lnk" as "l1" join "articles" as "t2" on "t2"."id" = "l1"."entity_id" where "t2"."title" < ?)',
      postgres:
        '"t0"."document_id" in (select "l1"."target_document_id" from "articles_author_lnk" as "l1" join "articles" as "t2" on "t2"."id" = "l1"."entity_id" where "t2"."title" < $1)',
      mysql:
        '`t0`.`document_id` in (select `l1`.`target_document_id` from `articles_author_lnk` as `l1` join `articles` as `t2` on `t2`.`id` = `l1`.`entity_id` where `t2`.`title` < ?)',
    },
    parameters: ['x'],
  },
  {
    name: 'a component: exists among its rows of that field',
    filters: { seo: { metaTitle: { $containsi: 'x' } } },
    sql: {
      sqlite:
        'exists (select 1 from "articles_cmps" as "c1" join "components_shared_seos" as "k2" on "k2"."id" = "c1"."cmp_id" where "c1"."entity_id" = "t0"."id" and "c1"."field" = ? and "c1"."component_type" = ? and "k2"."meta_title" like ? escape \'!\')',
      postgres:
        'exists (select 1 from "articles_cmps" as "c1" join "components_shared_seos" as "k2" on "k2"."id" = "c1"."cmp_id" where "c1"."entity_id" = "t0"."id" and "c1"."field" = $1 and "c1"."component_type" = $2 and lower("k2"."meta_title") like lower($3) escape \'!\')',
      mysql:
        "exists (select 1 from `articles_cmps` as `c1` join `components_shared_seos` as `k2` on `k2`.`id` = `c1`.`cmp_id` where `c1`.`entity_id` = `t0`.`id` and `c1`.`field` = ? and `c1`.`component_type` = ? and lower(`k2`.`meta_title`) like lower(?) escape '!')",
    },
    parameters: ['seo', 'shared.seo', '%x%'],
  },
  {
    name: '$null in a repeatable component: documents without items too',
    filters: { links: { url: { $null: true } } },
    sql: spelled(
      '(exists (select 1 from "articles_cmps" as "c1" join "components_shared_links" as "k2" on "k2"."id" = "c1"."cmp_id" where "c1"."entity_id" = "t0"."id" and "c1"."field" = ? and "c1"."component_type" = ? and "k2"."url" is null) or not exists (select 1 from "articles_cmps" as "c1" join "components_shared_links" as "k2" on "k2"."id" = "c1"."cmp_id" where "c1"."entity_id" = "t0"."id" and "c1"."field" = ? and "c1"."component_type" = ?))',
    ),
    parameters: ['links', 'shared.link', 'links', 'shared.link'],
  },
];

for (const dialect of ALL_DIALECTS) {
  describe(`SQL of filters [${dialect}]`, () => {
    for (const c of CASES) {
      it(c.name, () => {
        const type = typeOf(schema, c.type ?? 'api::article.article');
        const node = new FilterParser(schema, {}).parse(type, c.filters, ['filters'])!;
        const { db, dialect: sqlDialect } = compilingDatabase(dialect);
        const ctx: SqlContext = {
          schema,
          dialect: sqlDialect,
          scope: { status: c.status ?? 'published', locale: 'en' },
          aliases: new Aliases(),
          relationForm: c.form,
        };
        const compiled = compileFilter(ctx, type, 't0', node).compile(db);
        assert.equal(compiled.sql, c.sql[dialect]);
        assert.deepEqual(compiled.parameters, Array.isArray(c.parameters) ? c.parameters : c.parameters[dialect]);
      });
    }
  });
}
