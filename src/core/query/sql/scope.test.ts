import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RawBuilder } from 'kysely';
import { PUBLICATION_FILTERS, type PublicationFilter, type Status } from '../types.js';
import { statusCondition, versionCondition } from './scope.js';
import { typeOf, unitSchema } from '../../../../test/helpers/unit-schema.js';
import { ALL_DIALECTS, compilingDatabase, spelled } from '../../../../test/helpers/unit-sql.js';

const schema = unitSchema();
const article = typeOf(schema, 'api::article.article');
const author = typeOf(schema, 'api::author.author');

/** The other version of the same document (and locale, unless the cohort says -document). */
const other = (sameLocale: boolean, status: Status, extra = '') =>
  `exists (select 1 from "articles" as "t0_pv" where (${sameLocale ? '("t0_pv"."document_id" = "t0"."document_id" and "t0_pv"."locale" = "t0"."locale")' : '"t0_pv"."document_id" = "t0"."document_id"'} and "t0_pv"."published_at" is ${status === 'draft' ? 'null' : 'not null'}${extra}))`;
const DRAFT = '"t0"."published_at" is null';
const PUBLISHED = '"t0"."published_at" is not null';

/** Strapi 5.54's cohorts, on draft rows and on published rows. */
const COHORTS: Record<PublicationFilter, Record<Status, string>> = {
  'never-published': { draft: `not ${other(true, 'published')}`, published: '1 = 0' },
  'has-published-version': { draft: other(true, 'published'), published: other(true, 'draft') },
  modified: {
    draft: other(true, 'published', ' and "t0"."updated_at" > "t0_pv"."updated_at"'),
    published: other(true, 'draft', ' and "t0_pv"."updated_at" > "t0"."updated_at"'),
  },
  unmodified: {
    draft: other(true, 'published', ' and "t0"."updated_at" <= "t0_pv"."updated_at"'),
    published: other(true, 'draft', ' and "t0_pv"."updated_at" <= "t0"."updated_at"'),
  },
  'never-published-document': { draft: `not ${other(false, 'published')}`, published: '1 = 0' },
  'has-published-version-document': { draft: other(false, 'published'), published: other(false, 'draft') },
  'published-without-draft': { draft: '1 = 0', published: `not ${other(true, 'draft')}` },
  'published-with-draft': { draft: '1 = 0', published: other(true, 'draft') },
};

for (const dialect of ALL_DIALECTS) {
  describe(`SQL of the version a read sees [${dialect}]`, () => {
    const { db } = compilingDatabase(dialect);
    const compiled = (builder: RawBuilder<unknown>) => builder.compile(db);

    it('a status and one locale', () => {
      const { sql, parameters } = compiled(versionCondition(article, 't0', { status: 'published', locale: 'en' }));
      assert.equal(sql, spelled(`(${PUBLISHED} and "t0"."locale" = ?)`)[dialect]);
      assert.deepEqual(parameters, ['en']);
    });

    it('several locales, none, or every one', () => {
      const several = compiled(versionCondition(article, 't0', { status: 'draft', locale: ['en', 'fr'] }));
      assert.equal(several.sql, spelled(`(${DRAFT} and "t0"."locale" in (?, ?))`)[dialect]);
      assert.deepEqual(several.parameters, ['en', 'fr']);
      assert.equal(
        compiled(versionCondition(article, 't0', { status: 'draft', locale: [] })).sql,
        spelled(`(${DRAFT} and 1 = 0)`)[dialect],
      );
      assert.equal(
        compiled(versionCondition(article, 't0', { status: 'published', locale: null })).sql,
        spelled(PUBLISHED)[dialect],
      );
    });

    it('nothing on a type without draft and publish nor i18n', () => {
      assert.equal(compiled(versionCondition(author, 't0', { status: 'draft', locale: 'fr' })).sql, '1 = 1');
      assert.equal(compiled(statusCondition(author, 't0', 'draft', 'modified')).sql, '1 = 1');
    });

    for (const cohort of PUBLICATION_FILTERS) {
      it(`publicationFilter=${cohort}`, () => {
        for (const status of ['draft', 'published'] as const) {
          const { sql, parameters } = compiled(statusCondition(article, 't0', status, cohort));
          assert.equal(
            sql,
            spelled(`(${status === 'draft' ? DRAFT : PUBLISHED} and ${COHORTS[cohort][status]})`)[dialect],
            status,
          );
          assert.deepEqual(parameters, []);
        }
      });
    }
  });
}
