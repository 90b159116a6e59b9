// The role editor's model (run by the unit tier: npm run test:unit).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { IS_CREATOR, type AdminPermission } from './admin-permissions.ts';
import {
  cellState,
  groupActions,
  hasCondition,
  isGranted,
  leafPaths,
  permissionsBody,
  rowState,
  setCell,
  setCondition,
  setGranted,
  setRow,
  setValue,
  valueState,
  type PermissionSections,
  type RoleDraft,
  type TypeAction,
  type TypeSection,
} from './role-permissions.ts';

const ARTICLE = 'api::article.article';
const TAG = 'api::tag.tag';
const explorer = (label: string, applyToProperties: string[]): TypeAction => ({
  label,
  actionId: `plugin::content-manager.explorer.${label.toLowerCase()}`,
  subjects: [ARTICLE, TAG],
  applyToProperties,
});
const [create, read, update, remove, publish] = [
  explorer('Create', ['fields', 'locales']),
  explorer('Read', ['fields', 'locales']),
  explorer('Update', ['fields', 'locales']),
  explorer('Delete', ['locales']),
  explorer('Publish', ['locales']),
] as const;
const collectionTypes: TypeSection = {
  actions: [create, read, update, remove, publish],
  subjects: [
    {
      uid: ARTICLE,
      label: 'article',
      properties: [
        {
          label: 'Fields',
          value: 'fields',
          children: [
            { label: 'title', value: 'title', required: true },
            { label: 'body', value: 'body' },
            {
              label: 'seo',
              value: 'seo',
              children: [
                { label: 'metaTitle', value: 'metaTitle' },
                { label: 'metaDescription', value: 'metaDescription' },
              ],
            },
          ],
        },
        {
          label: 'Locales',
          value: 'locales',
          children: [
            { label: 'English (en)', value: 'en', isDefault: true },
            { label: 'French (fr)', value: 'fr' },
          ],
        },
      ],
    },
    {
      uid: TAG,
      label: 'tag',
      properties: [{ label: 'Fields', value: 'fields', children: [{ label: 'name', value: 'name' }] }],
    },
  ],
};
const [article, tag] = collectionTypes.subjects as [TypeSection['subjects'][0], TypeSection['subjects'][0]];
const sections: PermissionSections = {
  conditions: [{ id: IS_CREATOR, displayName: 'Is creator', category: 'default' }],
  sections: {
    plugins: [
      {
        displayName: 'Read',
        plugin: 'content-type-builder',
        subCategory: 'general',
        action: 'plugin::content-type-builder.read',
      },
      {
        displayName: 'Access the Media Library',
        plugin: 'upload',
        subCategory: 'general',
        action: 'plugin::upload.read',
      },
      {
        displayName: 'Create (upload)',
        plugin: 'upload',
        subCategory: 'assets',
        action: 'plugin::upload.assets.create',
      },
    ],
    settings: [
      { displayName: 'Read', category: 'users and roles', subCategory: 'users', action: 'admin::users.read' },
      { displayName: 'Read', category: 'users and roles', subCategory: 'roles', action: 'admin::roles.read' },
    ],
    singleTypes: { actions: [], subjects: [] },
    collectionTypes,
  },
};
const find = (draft: RoleDraft, action: TypeAction, uid = ARTICLE) =>
  draft.find((p) => p.action === action.actionId && p.subject === uid);

describe('admin panel: the role editor', () => {
  it('lists a component’s fields as paths below its name', () => {
    assert.deepEqual(leafPaths(article.properties[0]!.children), [
      'title',
      'body',
      'seo.metaTitle',
      'seo.metaDescription',
    ]);
  });

  it('grants a cell with every field and locale, a row with every action, and takes them back', () => {
    let draft: RoleDraft = [];
    assert.equal(cellState(draft, read, article), 'none');
    draft = setCell(draft, read, article, true);
    assert.deepEqual(find(draft, read)!.properties, {
      fields: ['title', 'body', 'seo.metaTitle', 'seo.metaDescription'],
      locales: ['en', 'fr'],
    });
    assert.equal(cellState(draft, read, article), 'all');
    assert.equal(rowState(draft, collectionTypes, article), 'some');
    draft = setCell(draft, remove, article, true);
    assert.deepEqual(find(draft, remove)!.properties, { locales: ['en', 'fr'] }, 'delete narrows locales only');
    draft = setCell(draft, read, tag, true);
    assert.deepEqual(find(draft, read, TAG)!.properties, { fields: ['name'] }, 'a type without locales');
    draft = setRow(draft, collectionTypes, article, true);
    assert.equal(rowState(draft, collectionTypes, article), 'all');
    assert.equal(draft.filter((p) => p.subject === ARTICLE).length, 5);
    draft = setRow(draft, collectionTypes, article, false);
    assert.deepEqual(
      draft.map((p) => p.subject),
      [TAG],
    );
  });

  it('narrows fields (a component’s one by one or whole) and locales, and drops a permission left with none', () => {
    let draft = setCell([], update, article, true);
    draft = setValue(draft, update, article, 'fields', 'body', false);
    draft = setValue(draft, update, article, 'fields', 'seo.metaDescription', false);
    assert.deepEqual(find(draft, update)!.properties.fields, ['title', 'seo.metaTitle']);
    assert.equal(cellState(draft, update, article), 'some');
    assert.equal(valueState(draft, update, article, 'fields', 'seo'), 'some');
    assert.equal(valueState(draft, update, article, 'fields', 'title'), 'all');
    assert.equal(valueState(draft, update, article, 'fields', 'body'), 'none');
    draft = setValue(draft, update, article, 'fields', 'seo', true);
    assert.deepEqual(find(draft, update)!.properties.fields, ['title', 'seo.metaTitle', 'seo.metaDescription']);
    draft = setValue(draft, update, article, 'locales', 'en', false);
    assert.deepEqual(find(draft, update)!.properties.locales, ['fr']);
    assert.equal(valueState(draft, update, article, 'locales', 'en'), 'none');
    // Fields without locales keep the permission (Strapi sends it with `locales: []`) ...
    draft = setValue(draft, update, article, 'locales', 'fr', false);
    assert.deepEqual(find(draft, update)!.properties.locales, []);
    // ... and without either it goes.
    for (const field of ['title', 'seo']) draft = setValue(draft, update, article, 'fields', field, false);
    assert.equal(find(draft, update), undefined);
    // A field ticked on an action not granted makes its permission, on every locale.
    draft = setValue(draft, create, article, 'fields', 'title', true);
    assert.deepEqual(find(draft, create)!.properties, { fields: ['title'], locales: ['en', 'fr'] });
    // A locale ticked likewise, with every field; delete has no fields.
    draft = setValue(draft, remove, article, 'locales', 'fr', true);
    assert.deepEqual(find(draft, remove)!.properties, { locales: ['fr'] });
    draft = setValue(draft, remove, article, 'locales', 'fr', false);
    assert.equal(find(draft, remove), undefined);
  });

  it('reads permissions as stored: no fields is every field, null locales every locale, none left out, a whole component is its fields', () => {
    const stored: AdminPermission[] = [
      {
        id: 7,
        action: read.actionId,
        actionParameters: {},
        subject: ARTICLE,
        properties: { fields: ['title', 'seo'] },
        conditions: [],
      },
      {
        id: 8,
        action: update.actionId,
        actionParameters: {},
        subject: ARTICLE,
        properties: { locales: null },
        conditions: [IS_CREATOR],
      },
    ];
    assert.equal(cellState(stored, read, article), 'some');
    assert.equal(valueState(stored, read, article, 'fields', 'seo.metaDescription'), 'all');
    // Strapi's i18n engine: a permission that leaves `locales` out reaches no locale; `null` every one.
    assert.equal(valueState(stored, read, article, 'locales', 'fr'), 'none');
    assert.equal(valueState(stored, update, article, 'locales', 'fr'), 'all');
    assert.equal(cellState(stored, update, article), 'all');
    // Granting again whole keeps the conditions.
    const again = setCell(stored, update, article, true);
    assert.deepEqual(find(again, update)!.conditions, [IS_CREATOR]);
  });

  it('sets the "is creator" condition per action, and plain actions on and off', () => {
    let draft = setCell([], read, article, true);
    assert.equal(hasCondition(draft, read.actionId, ARTICLE, IS_CREATOR), false);
    draft = setCondition(draft, read.actionId, ARTICLE, IS_CREATOR, true);
    assert.deepEqual(find(draft, read)!.conditions, [IS_CREATOR]);
    assert.equal(setCondition(draft, update.actionId, ARTICLE, IS_CREATOR, true), draft, 'not granted: nothing');
    draft = setCondition(draft, read.actionId, ARTICLE, IS_CREATOR, false);
    assert.deepEqual(find(draft, read)!.conditions, []);
    draft = setGranted(draft, 'plugin::upload.read', true);
    assert.equal(isGranted(draft, 'plugin::upload.read'), true);
    draft = setCondition(draft, 'plugin::upload.read', null, IS_CREATOR, true);
    assert.equal(setGranted(draft, 'plugin::upload.read', true), draft, 'already granted: kept with its condition');
    draft = setGranted(draft, 'plugin::upload.read', false);
    assert.equal(isGranted(draft, 'plugin::upload.read'), false);
  });

  it('groups plugin and settings actions by plugin or category, then sub-category', () => {
    const plugins = groupActions(sections.sections.plugins);
    assert.deepEqual(
      plugins.map((g) => [g.name, g.subCategories.map((s) => `${s.name}:${s.actions.length}`)]),
      [
        ['content-type-builder', ['general:1']],
        ['upload', ['general:1', 'assets:1']],
      ],
    );
    assert.deepEqual(
      groupActions(sections.sections.settings).map((g) => [g.name, g.subCategories.map((s) => s.name)]),
      [['users and roles', ['users', 'roles']]],
    );
  });

  it('sends the whole draft without ids, leaving out what the sections no longer offer', () => {
    const draft: AdminPermission[] = [
      {
        id: 1,
        action: read.actionId,
        actionParameters: {},
        subject: ARTICLE,
        properties: { fields: ['title'] },
        conditions: [],
      },
      { id: 2, action: read.actionId, actionParameters: {}, subject: 'api::gone.gone', properties: {}, conditions: [] },
      { id: 3, action: 'admin::users.read', subject: null, properties: {}, conditions: [] },
      { id: 4, action: 'admin::marketplace.read', subject: null, properties: {}, conditions: [] },
    ];
    assert.deepEqual(permissionsBody(draft, sections), {
      permissions: [
        {
          action: read.actionId,
          actionParameters: {},
          subject: ARTICLE,
          properties: { fields: ['title'] },
          conditions: [],
        },
        { action: 'admin::users.read', actionParameters: {}, subject: null, properties: {}, conditions: [] },
      ],
    });
  });
});
