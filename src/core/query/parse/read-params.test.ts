import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { QueryValidationError, ValidationError } from '../../errors.js';
import { PUBLICATION_FILTERS } from '../types.js';
import { parsePublication, parseReadLocales, parseSearch } from './read-params.js';
import { throwsVellum } from '../../../../test/helpers/unit-errors.js';
import { I18N, typeOf, unitSchema } from '../../../../test/helpers/unit-schema.js';

const schema = unitSchema();
const article = typeOf(schema, 'api::article.article');
const author = typeOf(schema, 'api::author.author');
const locales = (value: unknown, filters?: unknown) => parseReadLocales(article, value, filters, I18N);

describe('locale of a read', () => {
  it('reads the default locale when none is named', () => {
    for (const value of [undefined, '', null]) assert.deepEqual(locales(value), { locale: 'en' });
  });

  it('reads one locale, several, or every one (*)', () => {
    assert.deepEqual(locales('fr'), { locale: 'fr' });
    assert.deepEqual(locales('*'), { locale: 'en', locales: '*' });
    assert.deepEqual(locales(['fr', 'en']), { locale: 'fr', locales: ['fr', 'en'] });
    assert.deepEqual(locales([]), { locale: 'en' });
  });

  it('reads every locale when filters name locale at their top (Strapi merges them, filters last)', () => {
    assert.deepEqual(locales(undefined, { locale: 'fr' }), { locale: 'en', locales: '*' });
    assert.deepEqual(locales('fr', { locale: 'en' }), { locale: 'fr', locales: '*' });
    assert.deepEqual(locales(['fr'], { locale: 'en' }), { locale: 'fr', locales: '*' });
    assert.deepEqual(locales([], { locale: 'en' }), { locale: 'en', locales: '*' });
    assert.deepEqual(locales(undefined, { title: 'x' }), { locale: 'en' });
  });

  it('refuses unknown locales, naming their position', () => {
    const message = 'Unknown locale "de"; configured locales: en, fr (or * for every locale)';
    throwsVellum(() => locales('de'), QueryValidationError, message, {
      source: 'query',
      param: 'locale',
      key: 'locale',
      path: null,
    });
    throwsVellum(() => locales(['fr', 'de']), QueryValidationError, message, {
      source: 'query',
      param: 'locale',
      key: '1',
      path: null,
    });
    throwsVellum(() => locales({ x: 'fr' }), QueryValidationError, /^Unknown locale \{"x":"fr"\}/);
  });

  it('ignores locales on a type without i18n, as Strapi', () => {
    assert.deepEqual(parseReadLocales(author, 'de', { locale: 'x' }, I18N), { locale: 'en' });
    assert.deepEqual(parseReadLocales(author, '*', undefined, I18N), { locale: 'en' });
  });
});

describe('_q and the publication cohorts', () => {
  it('reads _q as text; empty searches nothing', () => {
    assert.equal(parseSearch(undefined), undefined);
    assert.equal(parseSearch(''), undefined);
    assert.equal(parseSearch('hello world'), 'hello world');
    throwsVellum(() => parseSearch(['a']), QueryValidationError, '_q must be a text, e.g. _q=hello', {
      source: 'query',
      param: '_q',
      key: '_q',
      path: null,
    });
  });

  it('reads every publicationFilter of Strapi 5.54', () => {
    for (const cohort of PUBLICATION_FILTERS) assert.equal(parsePublication(cohort, undefined), cohort);
    assert.equal(parsePublication(undefined, undefined), undefined);
    assert.equal(parsePublication(null, null), undefined);
    throwsVellum(
      () => parsePublication('drafts', undefined),
      ValidationError,
      /^Invalid value for 'publicationFilter'\. Expected one of: never-published, /,
      {
        source: 'query',
        param: 'publicationFilter',
      },
    );
  });

  it('reads the older hasPublishedVersion when publicationFilter is absent', () => {
    assert.equal(parsePublication(undefined, 'true'), 'has-published-version-document');
    assert.equal(parsePublication(undefined, true), 'has-published-version-document');
    assert.equal(parsePublication(undefined, 'false'), 'never-published-document');
    assert.equal(parsePublication(undefined, false), 'never-published-document');
    assert.equal(parsePublication('modified', 'false'), 'modified', 'publicationFilter wins');
    throwsVellum(
      () => parsePublication(undefined, 'yes'),
      ValidationError,
      "Invalid value for 'hasPublishedVersion'. Expected boolean or 'true'/'false' string.",
      {},
    );
  });
});
