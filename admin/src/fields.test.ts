// The schema → form → API mapping of the edit view (run by the unit tier: npm run test:unit).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { apiData, defaultColumns, errorsByField, formValues, inputKind, JsonFieldError, slugify } from './fields.ts';
import type { AttributeDescription } from './schema.ts';

const attribute = (name: string, type: string, extra: Partial<AttributeDescription> = {}): AttributeDescription => ({ name, type, required: false, localized: false, ...extra });

describe('admin panel: schema to form fields', () => {
  it('gives each attribute type its input, and leaves the others as stored', () => {
    const kinds = ['string', 'text', 'richtext', 'email', 'password', 'uid', 'integer', 'biginteger', 'float', 'decimal', 'date', 'time', 'datetime', 'timestamp', 'boolean', 'enumeration', 'json', 'blocks', 'relation', 'media', 'component', 'dynamiczone'].map((type) => inputKind(attribute('a', type)));
    assert.deepEqual(kinds, ['string', 'text', 'markdown', 'email', 'password', 'uid', 'integer', 'biginteger', 'decimal', 'decimal', 'date', 'time', 'datetime', 'datetime', 'boolean', 'enumeration', 'json', 'unsupported', 'unsupported', 'unsupported', 'unsupported', 'unsupported']);
  });

  it('fills a new form with the defaults and a stored document with its values', () => {
    const attributes = [attribute('title', 'string'), attribute('views', 'integer', { default: 0 }), attribute('featured', 'boolean', { default: true }), attribute('meta', 'json'), attribute('secret', 'password'), attribute('at', 'time'), attribute('tags', 'relation')];
    assert.deepEqual(formValues(attributes, null), { title: '', views: 0, featured: true, meta: '', secret: '', at: '' });
    assert.deepEqual(formValues(attributes, { title: 'T', views: 3, featured: false, meta: { a: 1 }, secret: 'never shown', at: '10:30:00.000' }), {
      title: 'T',
      views: 3,
      featured: false,
      meta: '{\n  "a": 1\n}',
      secret: '',
      at: '10:30',
    });
  });

  it('turns the form into the API data: empty is null, JSON parsed, untyped passwords and unchanged values left out', () => {
    const attributes = [attribute('title', 'string'), attribute('views', 'integer'), attribute('meta', 'json'), attribute('secret', 'password'), attribute('at', 'time'), attribute('on', 'date')];
    const values = { title: '', views: 4, meta: '[1, 2]', secret: '', at: '09:05', on: '2026-03-14' };
    assert.deepEqual(apiData(attributes, values), { title: null, views: 4, meta: [1, 2], at: '09:05:00.000', on: '2026-03-14' });
    assert.deepEqual(apiData(attributes, { ...values, title: 'New' }, values), { title: 'New' });
    assert.throws(() => apiData(attributes, { ...values, meta: '{' }), (error: unknown) => error instanceof JsonFieldError && error.field === 'meta');
  });

  it("puts the API's field errors beside their fields", () => {
    const errors = [
      { path: ['title'], message: 'title must be defined.' },
      { path: ['title'], message: 'a second one' },
      { path: ['seo', 'metaTitle'], message: 'too long' },
      { path: [], message: 'about the whole document' },
    ];
    assert.deepEqual(errorsByField(errors), { title: 'title must be defined.', 'seo.metaTitle': 'too long' });
  });

  it('generates uids as Strapi does and picks the list columns', () => {
    assert.equal(slugify('  Héllo, World! 2026 '), 'hello-world-2026');
    const attributes = [attribute('body', 'richtext'), attribute('views', 'integer'), attribute('title', 'string'), attribute('meta', 'json'), attribute('on', 'date'), attribute('kind', 'enumeration'), attribute('x', 'boolean')];
    assert.deepEqual(defaultColumns(attributes, 'title'), ['title', 'views', 'on', 'kind']);
  });
});
