// The list view's filters: fields, operators, the URL and the API's `filters` (unit tier).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { modelsOf } from './fields.ts';
import {
  apiFilters,
  filterFields,
  filterLabel,
  filterParams,
  filtersFromParams,
  OPERATORS,
  type Filter,
} from './filters.ts';
import type { AttributeDescription, ContentTypeDescription } from './schema.ts';
import { queryString } from './api.ts';

const attribute = (name: string, type: string, extra: Partial<AttributeDescription> = {}): AttributeDescription => ({
  name,
  type,
  required: false,
  localized: false,
  ...extra,
});
const type = (uid: string, attributes: AttributeDescription[], mainField: string | null): ContentTypeDescription => ({
  uid,
  displayName: uid,
  kind: 'collectionType',
  singularName: uid,
  pluralName: `${uid}s`,
  draftAndPublish: true,
  localized: false,
  isDisplayed: true,
  attributes,
  mainField,
});
const author = type('api::author.author', [attribute('name', 'string')], 'name');
const article = type(
  'api::article.article',
  [
    attribute('title', 'string'),
    attribute('secret', 'password'),
    attribute('views', 'integer'),
    attribute('publishDate', 'date'),
    attribute('featured', 'boolean'),
    attribute('kind', 'enumeration', { enum: ['news', 'tutorial'] }),
    attribute('content', 'blocks'),
    attribute('metadata', 'json'),
    attribute('author', 'relation', { target: 'api::author.author', toMany: false }),
    attribute('seo', 'component', { component: 'shared.seo' }),
  ],
  'title',
);
const models = modelsOf({ contentTypes: [author, article], components: [] });
const fields = filterFields(article, models);

describe('admin panel: list filters', () => {
  it('filters on scalars, relations by their target main field, and the timestamps', () => {
    assert.deepEqual(fields, [
      { name: 'title', kind: 'text' },
      { name: 'views', kind: 'number' },
      { name: 'publishDate', kind: 'date' },
      { name: 'featured', kind: 'boolean' },
      { name: 'kind', kind: 'enumeration', options: ['news', 'tutorial'] },
      { name: 'author', kind: 'text', via: 'name' },
      { name: 'createdAt', kind: 'datetime' },
      { name: 'updatedAt', kind: 'datetime' },
    ]);
    assert.deepEqual(OPERATORS.boolean, ['$eq', '$null', '$notNull']);
    assert.ok(!OPERATORS.text.includes('$gt') && OPERATORS.number.includes('$gte'));
  });

  const filters: Filter[] = [
    { field: 'title', operator: '$contains', value: 'news' },
    { field: 'views', operator: '$gte', value: '10' },
    { field: 'author', operator: '$eq', value: 'Ann' },
    { field: 'publishDate', operator: '$null', value: 'true' },
  ];

  it('sends the filters combined with AND, as the content API takes them', () => {
    const api = apiFilters(filters, fields);
    assert.deepEqual(api, {
      $and: [
        { title: { $contains: 'news' } },
        { views: { $gte: '10' } },
        { author: { name: { $eq: 'Ann' } } },
        { publishDate: { $null: 'true' } },
      ],
    });
    assert.equal(
      decodeURIComponent(queryString({ filters: api })),
      '?filters[$and][0][title][$contains]=news&filters[$and][1][views][$gte]=10&filters[$and][2][author][name][$eq]=Ann&filters[$and][3][publishDate][$null]=true',
    );
    assert.equal(apiFilters([], fields), undefined);
  });

  it('keeps them in the URL in the same notation, and reads them back in order', () => {
    const params = new URLSearchParams(filterParams(filters, fields));
    assert.equal(
      decodeURIComponent(params.toString()),
      decodeURIComponent(queryString({ filters: apiFilters(filters, fields) }).slice(1)),
    );
    assert.deepEqual(filtersFromParams(params, fields), filters);
    // The order of the keys does not matter, their index does.
    const shuffled = new URLSearchParams([...params].reverse());
    shuffled.set('page', '2');
    assert.deepEqual(filtersFromParams(shuffled, fields), filters);
  });

  it('leaves out what a hand-edited URL gets wrong', () => {
    const params = new URLSearchParams([
      ['filters[$and][0][nothing][$eq]', 'x'],
      ['filters[$and][1][title][$gt]', 'x'],
      ['filters[$and][2][views][$eq]', 'many'],
      ['filters[$and][3][author][email][$eq]', 'a@b.c'],
      ['filters[$and][4][kind][$eq]', 'poem'],
      ['filters[$and][5][featured][$eq]', 'yes'],
      ['filters[$and][6][secret][$eq]', 'x'],
      ['filters[$and][7][kind][$eq]', 'news'],
    ]);
    assert.deepEqual(filtersFromParams(params, fields), [{ field: 'kind', operator: '$eq', value: 'news' }]);
  });

  it('names each filter for its chip', () => {
    const byName = (name: string) => fields.find((field) => field.name === name);
    assert.equal(filterLabel(filters[0]!, byName('title')), 'title contains news');
    assert.equal(filterLabel(filters[2]!, byName('author')), 'author (name) is Ann');
    assert.equal(filterLabel(filters[3]!, byName('publishDate')), 'publishDate is empty');
    assert.equal(
      filterLabel({ field: 'publishDate', operator: '$lt', value: '2026-01-01' }, byName('publishDate')),
      'publishDate is before 2026-01-01',
    );
  });
});
