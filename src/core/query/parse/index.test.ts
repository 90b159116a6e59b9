import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { QueryValidationError } from '../../errors.js';
import { parseFindOneQuery, parseFindQuery, parseReadOneQuery, type ParseOptions } from './index.js';
import { throwsVellum } from '../../../../test/helpers/unit-errors.js';
import { I18N, REST, typeOf, unitSchema } from '../../../../test/helpers/unit-schema.js';

const schema = unitSchema();
const article = typeOf(schema, 'api::article.article');
const author = typeOf(schema, 'api::author.author');
const options: ParseOptions = { rest: REST, i18n: I18N };

describe('a read query as a whole', () => {
  it('reads the defaults of a list', () => {
    assert.deepEqual(parseFindQuery(schema, article, {}, options), {
      fields: undefined,
      populate: {},
      status: 'published',
      locale: 'en',
      filters: undefined,
      search: undefined,
      sort: [],
      publication: undefined,
      pagination: { kind: 'page', page: 1, pageSize: 25, withCount: true },
    });
  });

  it('reads every parameter of a list together', () => {
    const query = parseFindQuery(
      schema,
      article,
      {
        fields: 'title',
        populate: 'author',
        status: 'draft',
        locale: 'fr',
        filters: { views: { $gt: '1' } },
        _q: 'hi',
        sort: 'views:desc',
        publicationFilter: 'modified',
        pagination: { start: '10', limit: '5' },
      },
      options,
    );
    assert.deepEqual(query.fields, ['title']);
    assert.deepEqual(query.populate, { author: {} });
    assert.equal(query.status, 'draft');
    assert.equal(query.locale, 'fr');
    assert.equal(query.locales, undefined);
    assert.equal(query.filters?.kind, 'compare');
    assert.equal(query.search, 'hi');
    assert.deepEqual(
      query.sort.map((item) => item.direction),
      ['desc'],
    );
    assert.equal(query.publication, 'modified');
    assert.deepEqual(query.pagination, { kind: 'offset', start: 10, limit: 5, withCount: true });
  });

  it('reads status published or draft; anything else is a 400', () => {
    for (const status of [undefined, '', 'published'])
      assert.equal(parseFindQuery(schema, article, { status }, options).status, 'published');
    assert.equal(parseFindQuery(schema, article, { status: 'draft' }, options).status, 'draft');
    throwsVellum(
      () => parseFindQuery(schema, article, { status: 'live' }, options),
      QueryValidationError,
      'Invalid status "live": use published or draft',
      {
        source: 'query',
        param: 'status',
        key: 'status',
        path: null,
      },
    );
  });

  it('passes canRead on to filters, sort and populate', () => {
    const noAuthors = { ...options, canRead: (type: typeof article) => type.uid !== author.uid };
    throwsVellum(
      () => parseFindQuery(schema, article, { filters: { author: { name: 'a' } } }, noAuthors),
      QueryValidationError,
      'Invalid key author',
    );
    throwsVellum(
      () => parseFindQuery(schema, article, { sort: 'author.name' }, noAuthors),
      QueryValidationError,
      'Invalid sort field author.name',
    );
    assert.deepEqual(parseFindQuery(schema, article, { populate: 'author' }, noAuthors).populate, { author: {} });
  });
});

describe('a query for one document', () => {
  it('reads the written document back in one locale (parseFindOneQuery)', () => {
    assert.deepEqual(
      parseFindOneQuery(schema, article, { locale: 'fr', status: 'draft', fields: 'title' }, { i18n: I18N }),
      {
        fields: ['title'],
        populate: {},
        status: 'draft',
        locale: 'fr',
      },
    );
    assert.equal(parseFindOneQuery(schema, article, {}, { i18n: I18N }).locale, 'en');
    throwsVellum(
      () => parseFindOneQuery(schema, article, { locale: 'de' }, { i18n: I18N }),
      QueryValidationError,
      'Unknown locale "de"; configured locales: en, fr',
      {
        source: 'query',
        param: 'locale',
        key: 'locale',
        path: null,
      },
    );
    assert.equal(
      parseFindOneQuery(schema, author, { locale: 'de' }, { i18n: I18N }).locale,
      'en',
      'types without i18n ignore the locale',
    );
    throwsVellum(
      () => parseFindOneQuery(schema, author, { locale: ['de'] }, { i18n: I18N }),
      QueryValidationError,
      /^Unknown locale \["de"\]/,
    );
  });

  it('reads one document with filters, _q and sort, in one locale (parseReadOneQuery)', () => {
    const query = parseReadOneQuery(schema, article, { filters: { title: 'a' }, _q: 'x', sort: 'title' }, options);
    assert.equal(query.filters?.kind, 'compare');
    assert.equal(query.search, 'x');
    assert.equal(query.sort?.length, 1);
    assert.equal('pagination' in query, false);
  });

  it('refuses locale=* and lists unless filters choose the locale', () => {
    throwsVellum(
      () => parseReadOneQuery(schema, article, { locale: '*' }, options),
      QueryValidationError,
      'A single document is read in one locale: use locale=<code>, or filters[locale] to choose among them',
      { source: 'query', param: 'locale', key: 'locale', path: null },
    );
    throwsVellum(
      () => parseReadOneQuery(schema, article, { locale: ['en'] }, options),
      QueryValidationError,
      'A single document is read in one locale: locale must be one code',
    );
    assert.equal(parseReadOneQuery(schema, article, { locale: '*', filters: { locale: 'fr' } }, options).locales, '*');
    assert.equal(parseReadOneQuery(schema, author, { locale: ['en'] }, options).locale, 'en');
  });
});
