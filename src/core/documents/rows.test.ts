import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import { RawJson } from './raw-json.js';
import { decodeComponent, decodeDocument, selectList, selectWidth, visibleScalars } from './rows.js';
import { componentOf, typeOf, unitSchema } from '../../../test/helpers/unit-schema.js';
import { ALL_DIALECTS, compilingDatabase, spelled } from '../../../test/helpers/unit-sql.js';

const schema = unitSchema();
const article = typeOf(schema, 'api::article.article');
const item = typeOf(schema, 'api::item.item');
const seo = componentOf(schema, 'shared.seo');

describe('rows of a response', () => {
  it('show every scalar but hidden ones, or the selected ones', () => {
    assert.deepEqual(
      visibleScalars(item).map((a) => a.name),
      [
        'name',
        'required',
        'note',
        'rich',
        'email',
        'code',
        'level',
        'count',
        'big',
        'ratio',
        'price',
        'active',
        'day',
        'hour',
        'at',
        'stamp',
        'data',
        'doc',
        'unsearched',
      ],
    );
    assert.deepEqual(
      visibleScalars(item, ['count', 'password', 'hiddenNote', 'name']).map((a) => a.name),
      ['name', 'count'],
    );
    assert.equal(visibleScalars(item, ['name']), visibleScalars(item, ['name']), 'built once per selection');
  });

  for (const dialect of ALL_DIALECTS) {
    it(`select the system columns, then the scalars; SQLite reads bigintegers as text [${dialect}]`, () => {
      const { db, dialect: sqlDialect } = compilingDatabase(dialect);
      const scalars = visibleScalars(item, ['name', 'big']);
      const list = sql.join(selectList(sqlDialect, item, 't1', scalars)).compile(db).sql;
      const big = dialect === 'sqlite' ? 'cast("t1"."big" as text) as "big"' : '"t1"."big"';
      assert.equal(
        list,
        spelled(
          `"t1"."id", "t1"."document_id", "t1"."locale", "t1"."published_at", "t1"."created_at", "t1"."updated_at", "t1"."name", ${big}`,
        )[dialect],
      );
      assert.equal(selectWidth(item, scalars), 8);
      assert.equal(
        sql.join(selectList(sqlDialect, seo, 'k', visibleScalars(seo))).compile(db).sql,
        spelled('"k"."id", "k"."meta_title", "k"."meta_description"')[dialect],
      );
      assert.equal(selectWidth(seo, visibleScalars(seo)), 3);
    });
  }

  it('decode a document row as the REST format shows it (scalars in schema order)', () => {
    const { dialect } = compilingDatabase('sqlite');
    const scalars = visibleScalars(article, ['title', 'views', 'featured', 'metadata', 'publishDate']);
    const row = [
      7,
      'doc1',
      'fr',
      '2024-01-02T00:00:00.000Z',
      '2024-01-01T00:00:00.000Z',
      '2024-01-03T00:00:00.000Z',
      'Hello',
      3,
      1,
      '2024-05-06',
      '{"a":[1]}',
    ];
    assert.deepEqual(decodeDocument(dialect, article, row, scalars), {
      id: 7,
      documentId: 'doc1',
      title: 'Hello',
      views: 3,
      featured: true,
      publishDate: '2024-05-06',
      metadata: { a: [1] },
      createdAt: '2024-01-01T00:00:00.000Z',
      updatedAt: '2024-01-03T00:00:00.000Z',
      publishedAt: '2024-01-02T00:00:00.000Z',
      locale: 'fr',
    });
    // With a field selection, the system fields come back only when selected (id and documentId always).
    const selected = decodeDocument(dialect, article, row, scalars, ['title', 'locale', 'updatedAt']);
    assert.deepEqual(Object.keys(selected), [
      'id',
      'documentId',
      'title',
      'views',
      'featured',
      'publishDate',
      'metadata',
      'updatedAt',
      'locale',
    ]);
  });

  it('hands json out as its stored text when the caller only serialises it', () => {
    const { dialect } = compilingDatabase('sqlite');
    const scalars = visibleScalars(item, ['data', 'stamp']);
    const row = [1, 'd', null, null, null, null, '2024-01-02T03:04:05.000Z', '{"deep":true}'];
    const raw = decodeDocument(dialect, item, row, scalars, undefined, true);
    assert.ok(raw.data instanceof RawJson);
    assert.equal(JSON.stringify(raw.data), '{"deep":true}');
    assert.equal(raw.stamp, '1704164645000', 'a timestamp is its milliseconds, as Strapi answers');
    assert.deepEqual(decodeDocument(dialect, item, row, scalars).data, { deep: true });
    assert.equal('locale' in raw, false, 'no locale on a type without i18n');
  });

  it('decode as each driver answers: MySQL date-times without a zone, PostgreSQL Dates, 0/1 booleans', () => {
    const scalars = visibleScalars(article, ['featured', 'rating']);
    const mysql = decodeDocument(
      compilingDatabase('mysql').dialect,
      article,
      [1, 'd', 'en', null, '2024-01-02 03:04:05.678', '2024-01-02 03:04:05.678', '12.50', 0],
      scalars,
    );
    assert.deepEqual(
      [mysql.createdAt, mysql.publishedAt, mysql.featured, mysql.rating],
      ['2024-01-02T03:04:05.678Z', null, false, 12.5],
    );
    const postgres = decodeDocument(
      compilingDatabase('postgres').dialect,
      article,
      [1, 'd', 'en', null, new Date('2024-01-02T03:04:05.678Z'), null, '1.25', true],
      scalars,
    );
    assert.deepEqual(
      [postgres.createdAt, postgres.updatedAt, postgres.featured, postgres.rating],
      ['2024-01-02T03:04:05.678Z', null, true, 1.25],
    );
  });

  it('decode a component row: its id and fields', () => {
    const { dialect } = compilingDatabase('sqlite');
    assert.deepEqual(decodeComponent(dialect, visibleScalars(seo), [4, 'T', null]), {
      id: 4,
      metaTitle: 'T',
      metaDescription: null,
    });
  });
});
