// The schema → form → API mapping of the edit view (run by the unit tier: npm run test:unit).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  apiData,
  defaultColumns,
  errorsByField,
  formValues,
  inputKind,
  JsonFieldError,
  modelsOf,
  populateFor,
  slugify,
  withoutIds,
} from './fields.ts';
import type { AttributeDescription } from './schema.ts';

const attribute = (name: string, type: string, extra: Partial<AttributeDescription> = {}): AttributeDescription => ({
  name,
  type,
  required: false,
  localized: false,
  ...extra,
});
const models = modelsOf({
  contentTypes: [
    {
      uid: 'api::tag.tag',
      displayName: 'Tag',
      kind: 'collectionType',
      singularName: 'tag',
      pluralName: 'tags',
      draftAndPublish: true,
      localized: false,
      isDisplayed: true,
      attributes: [attribute('name', 'string')],
      mainField: 'name',
    },
  ],
  components: [
    {
      uid: 'shared.link',
      displayName: 'Link',
      category: 'shared',
      attributes: [
        attribute('label', 'string'),
        attribute('url', 'string'),
        attribute('tag', 'relation', { target: 'api::tag.tag', toMany: false }),
      ],
      mainField: 'label',
    },
    {
      uid: 'shared.quote',
      displayName: 'Quote',
      category: 'shared',
      attributes: [
        attribute('text', 'text'),
        attribute('link', 'component', { component: 'shared.link', repeatable: false }),
      ],
      mainField: null,
    },
  ],
});

describe('admin panel: schema to form fields', () => {
  it('gives each attribute type its input, and leaves the others as stored', () => {
    const kinds = [
      'string',
      'text',
      'richtext',
      'email',
      'password',
      'uid',
      'integer',
      'biginteger',
      'float',
      'decimal',
      'date',
      'time',
      'datetime',
      'timestamp',
      'boolean',
      'enumeration',
      'json',
      'blocks',
      'relation',
      'media',
      'component',
      'dynamiczone',
    ].map((type) => inputKind(attribute('a', type)));
    assert.deepEqual(kinds, [
      'string',
      'text',
      'markdown',
      'email',
      'password',
      'uid',
      'integer',
      'biginteger',
      'decimal',
      'decimal',
      'date',
      'time',
      'datetime',
      'datetime',
      'boolean',
      'enumeration',
      'json',
      'blocks',
      'relation',
      'media',
      'component',
      'dynamiczone',
    ]);
  });

  it('fills a new form with the defaults and a stored document with its values', () => {
    const attributes = [
      attribute('title', 'string'),
      attribute('views', 'integer', { default: 0 }),
      attribute('featured', 'boolean', { default: true }),
      attribute('meta', 'json'),
      attribute('secret', 'password'),
      attribute('at', 'time'),
      attribute('tags', 'relation', { target: 'api::tag.tag', toMany: true }),
      attribute('cover', 'media'),
    ];
    assert.deepEqual(formValues(attributes, null, models), {
      title: '',
      views: 0,
      featured: true,
      meta: '',
      secret: '',
      at: '',
      tags: [],
      cover: [],
    });
    assert.deepEqual(
      formValues(
        attributes,
        { title: 'T', views: 3, featured: false, meta: { a: 1 }, secret: 'never shown', at: '10:30:00.000' },
        models,
      ),
      {
        title: 'T',
        views: 3,
        featured: false,
        meta: '{\n  "a": 1\n}',
        secret: '',
        at: '10:30',
        tags: [],
        cover: [],
      },
    );
  });

  it('turns the form into the API data: empty is null, JSON parsed, untyped passwords and unchanged values left out', () => {
    const attributes = [
      attribute('title', 'string'),
      attribute('views', 'integer'),
      attribute('meta', 'json'),
      attribute('secret', 'password'),
      attribute('at', 'time'),
      attribute('on', 'date'),
    ];
    const values = { title: '', views: 4, meta: '[1, 2]', secret: '', at: '09:05', on: '2026-03-14' };
    assert.deepEqual(apiData(attributes, values, models), {
      title: null,
      views: 4,
      meta: [1, 2],
      at: '09:05:00.000',
      on: '2026-03-14',
    });
    assert.deepEqual(apiData(attributes, { ...values, title: 'New' }, models, values), { title: 'New' });
    assert.throws(
      () => apiData(attributes, { ...values, meta: '{' }, models),
      (error: unknown) => error instanceof JsonFieldError && error.field === 'meta',
    );
  });

  it('maps relations, components and zones both ways, and populates what the form edits', () => {
    const attributes = [
      attribute('tags', 'relation', { target: 'api::tag.tag', toMany: true }),
      attribute('links', 'component', { component: 'shared.link', repeatable: true }),
      attribute('seo', 'component', { component: 'shared.link', repeatable: false }),
      attribute('blocks', 'dynamiczone', { components: ['shared.quote'] }),
      attribute('cover', 'media', { multiple: false }),
      attribute('gallery', 'media', { multiple: true }),
    ];
    const stored = {
      tags: [
        { documentId: 't1', name: 'One' },
        { documentId: 't2', name: null },
      ],
      links: [{ id: 4, label: 'L', url: 'https://x', tag: { documentId: 't1', name: 'One' } }],
      seo: null,
      blocks: [{ __component: 'shared.quote', id: 9, text: 'Q', link: null }],
      cover: { id: 3, name: 'a.png', url: '/uploads/a.png', mime: 'image/png', alternativeText: null },
      gallery: [{ id: 4, name: 'b.pdf', url: '/uploads/b.pdf', mime: 'application/pdf', alternativeText: 'B' }],
    };
    const values = formValues(attributes, stored, models);
    assert.deepEqual(values.tags, [
      { documentId: 't1', label: 'One' },
      { documentId: 't2', label: 't2' },
    ]);
    assert.equal(values.seo, null);
    const [link] = values.links as Record<string, unknown>[];
    assert.deepEqual(
      { ...link, __key: undefined },
      { __key: undefined, __id: 4, label: 'L', url: 'https://x', tag: [{ documentId: 't1', label: 'One' }] },
    );
    assert.deepEqual(apiData(attributes, values, models), {
      tags: { set: ['t1', 't2'] },
      // Stored components keep their ids: the server updates them rather than replacing them.
      links: [{ id: 4, label: 'L', url: 'https://x', tag: { set: ['t1'] } }],
      seo: null,
      blocks: [{ __component: 'shared.quote', id: 9, text: 'Q', link: null }],
      cover: 3,
      gallery: [4],
    });
    // Another locale's values copied in: its components' ids are not this version's.
    const copied = apiData(attributes, withoutIds(values), models);
    assert.deepEqual(copied.links, [{ label: 'L', url: 'https://x', tag: { set: ['t1'] } }]);
    assert.deepEqual(copied.blocks, [{ __component: 'shared.quote', text: 'Q', link: null }]);
    assert.deepEqual(populateFor(attributes, models), {
      tags: { fields: ['name'] },
      links: { populate: { tag: { fields: ['name'] } } },
      seo: { populate: { tag: { fields: ['name'] } } },
      blocks: { on: { 'shared.quote': { populate: { link: { populate: { tag: { fields: ['name'] } } } } } } },
      cover: true,
      gallery: true,
    });
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
    const attributes = [
      attribute('body', 'richtext'),
      attribute('views', 'integer'),
      attribute('title', 'string'),
      attribute('meta', 'json'),
      attribute('on', 'date'),
      attribute('kind', 'enumeration'),
      attribute('x', 'boolean'),
    ];
    assert.deepEqual(defaultColumns(attributes, 'title'), ['title', 'views', 'on', 'kind']);
  });
});
