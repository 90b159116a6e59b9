// The builder's attribute form (run by the unit tier: npm run test:unit -- admin/src/builder).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import type { BuilderAttribute, BuilderSchema } from '../../../src/features/content-type-builder/contract.ts';
import {
  attributeOf,
  kindOfType,
  newAttributeValues,
  optionsOf,
  relationKindsFor,
  validateAttribute,
  valuesOf,
  type AttributeContext,
  type AttributeFormValues,
} from './attribute-form.ts';

const schema: BuilderSchema = JSON.parse(
  readFileSync(new URL('../../../test/fixtures/content-type-builder/strapi-reads.json', import.meta.url), 'utf8'),
).schema;
const RESERVED = ['id', 'document_id', 'created_at', 'locale', 'strapi*', 'status'];

const contextFor = (uid: string, name?: string): AttributeContext => {
  const type = schema.contentTypes[uid];
  const model = type ?? schema.components[uid]!;
  return {
    modelType: type ? 'contentType' : 'component',
    ownerUid: uid,
    ownerKind: type?.kind,
    originalName: name,
    localized: (type?.pluginOptions?.i18n as { localized?: boolean } | undefined)?.localized === true,
    otherAttributes: model.attributes.filter((attribute) => attribute.name !== name),
    reservedAttributeNames: RESERVED,
    attributesOf: (target) => schema.contentTypes[target]?.attributes,
    componentUids: Object.keys(schema.components),
  };
};
const values = (kind: AttributeFormValues['kind'], changes: Partial<AttributeFormValues>): AttributeFormValues => ({
  ...newAttributeValues(kind, { localized: false }),
  ...changes,
});

describe('admin panel: the builder attribute form', () => {
  it('gives back every attribute of the blog unchanged when its form is saved untouched', () => {
    const models = [...Object.values(schema.contentTypes), ...Object.values(schema.components)];
    for (const model of models)
      for (const attribute of model.attributes) {
        if (attribute.configurable === false) continue;
        const context = contextFor(model.uid, attribute.name);
        const again = attributeOf(valuesOf(attribute, context), context, attribute);
        // The other side of a relation is written by the API from targetAttribute.
        const { inversedBy: _i, mappedBy: _m, ...expected } = attribute as BuilderAttribute;
        if (expected.targetAttribute === null) delete expected.targetAttribute;
        assert.deepEqual(again, expected, `${model.uid} ${attribute.name}`);
      }
  });

  it('writes each type with its own options only, in Strapi form (numbers as numbers, a big integer as digits)', () => {
    const context = { localized: false, modelType: 'contentType' as const };
    const all = {
      default: '5',
      min: '1',
      max: '20',
      minLength: '2',
      maxLength: '9',
      regex: '^[a-z]+$',
      required: true,
      unique: true,
      private: true,
    };
    assert.deepEqual(attributeOf(values('number', { name: 'servings', ...all }), context), {
      name: 'servings',
      type: 'integer',
      default: 5,
      required: true,
      unique: true,
      max: 20,
      min: 1,
      private: true,
    });
    assert.deepEqual(attributeOf(values('number', { name: 'calories', type: 'biginteger', ...all }), context), {
      name: 'calories',
      type: 'biginteger',
      default: '5',
      required: true,
      unique: true,
      max: '20',
      min: '1',
      private: true,
    });
    assert.deepEqual(attributeOf(values('text', { name: 'title', ...all, default: 'x' }), context), {
      name: 'title',
      type: 'string',
      default: 'x',
      regex: '^[a-z]+$',
      required: true,
      unique: true,
      maxLength: 9,
      minLength: 2,
      private: true,
    });
    assert.deepEqual(attributeOf(values('blocks', { name: 'story', ...all }), context), {
      name: 'story',
      type: 'blocks',
      required: true,
      private: true,
    });
    assert.deepEqual(attributeOf(values('boolean', { name: 'vegan', default: 'false' }), context), {
      name: 'vegan',
      type: 'boolean',
      default: false,
    });
    assert.deepEqual(
      attributeOf(
        values('enumeration', { name: 'course', enum: 'starter\n main \n\ndessert', default: 'main' }),
        context,
      ),
      { name: 'course', type: 'enumeration', enum: ['starter', 'main', 'dessert'], default: 'main' },
    );
    // A uid attached to a field has no default.
    assert.deepEqual(attributeOf(values('uid', { name: 'slug', targetField: 'title', default: 'x' }), context), {
      name: 'slug',
      type: 'uid',
      targetField: 'title',
    });
    assert.deepEqual(
      attributeOf(values('media', { name: 'photo', multiple: false, allowedTypes: ['files', 'images'] }), context),
      {
        name: 'photo',
        type: 'media',
        multiple: false,
        allowedTypes: ['files', 'images'],
      },
    );
    assert.deepEqual(attributeOf(values('media', { name: 'photos', allowedTypes: [] }), context), {
      name: 'photos',
      type: 'media',
      multiple: true,
    });
    assert.deepEqual(
      attributeOf(values('component', { name: 'tools', component: 'kitchen.tool', min: '1', max: '' }), context),
      { name: 'tools', type: 'component', component: 'kitchen.tool', repeatable: true, min: 1 },
    );
    assert.deepEqual(
      attributeOf(
        values('component', {
          name: 'station',
          componentSource: 'new',
          newComponent: { displayName: 'Work station', category: 'kitchen', icon: '' },
          repeatable: false,
          min: '1',
        }),
        context,
      ),
      { name: 'station', type: 'component', component: 'kitchen.work-station', repeatable: false },
    );
    assert.deepEqual(
      attributeOf(
        values('relation', { name: 'tags', relation: 'manyWay', target: 'api::tag.tag', targetAttribute: 'x' }),
        context,
      ),
      { name: 'tags', type: 'relation', relation: 'oneToMany', target: 'api::tag.tag' },
    );
    assert.equal(kindOfType('datetime'), 'date');
    assert.equal(kindOfType('biginteger'), 'number');
    assert.deepEqual(optionsOf({ type: 'component', repeatable: false }), ['required', 'private']);
  });

  it('localizes a field of a localized type as the i18n plugin does: a new one on unless unticked, an edit as ticked', () => {
    const context = { localized: true, modelType: 'contentType' as const };
    const fresh = newAttributeValues('text', context);
    assert.equal(fresh.localized, true);
    assert.deepEqual(attributeOf({ ...fresh, name: 'a' }, context).pluginOptions, { i18n: { localized: true } });
    assert.deepEqual(attributeOf({ ...fresh, name: 'a', localized: false }, context).pluginOptions, {
      i18n: { localized: false },
    });
    // A relation is never localized on its own; a field of a type that is not localized has no setting.
    assert.equal(
      attributeOf(values('relation', { name: 'r', target: 'api::tag.tag' }), context).pluginOptions,
      undefined,
    );
    assert.equal(attributeOf({ ...fresh, name: 'a' }, { ...context, localized: false }).pluginOptions, undefined);
    // An edited field without the setting keeps none while unticked.
    const bare = { name: 'b', type: 'string' };
    assert.equal(attributeOf(valuesOf(bare, context), context, bare).pluginOptions, undefined);
  });

  it('offers the relation kinds the API allows from each owner', () => {
    assert.deepEqual(relationKindsFor({ modelType: 'component' }), ['oneWay', 'manyWay']);
    assert.deepEqual(relationKindsFor({ modelType: 'contentType', ownerKind: 'singleType' }), [
      'oneWay',
      'oneToOne',
      'oneToMany',
      'manyWay',
    ]);
    assert.equal(relationKindsFor({ modelType: 'contentType', ownerKind: 'collectionType' }).length, 6);
    assert.deepEqual(relationKindsFor({ modelType: 'contentType' }, ['oneWay', 'manyWay']), ['oneWay', 'manyWay']);
  });

  it('checks names, numbers and choices before the API does', () => {
    const article = contextFor('api::article.article');
    const errors = (changes: Partial<AttributeFormValues>, kind: AttributeFormValues['kind'] = 'text') =>
      validateAttribute(values(kind, changes), article);
    assert.deepEqual(errors({ name: 'subtitle' }), {});
    assert.equal(errors({ name: '' }).name, 'A name is required');
    assert.equal(errors({ name: '2nd' }).name, 'Letters, digits and underscores, starting with a letter');
    assert.equal(errors({ name: 'documentId' }).name, 'documentId is a reserved name');
    assert.equal(errors({ name: 'Title' }).name, 'This name is already used');
    assert.equal(errors({ name: 'a', minLength: '0' }).minLength, 'A whole number above 0');
    assert.equal(errors({ name: 'a', minLength: '5', maxLength: '3' }).maxLength, 'At least the minimum length');
    assert.equal(errors({ name: 'a', regex: '[' }).regex, 'Not a valid regular expression');
    assert.equal(errors({ name: 'a', min: '5', max: '3' }, 'number').max, 'At least the minimum');
    assert.equal(errors({ name: 'a', default: '1.5' }, 'number').default, 'A whole number');
    assert.deepEqual(errors({ name: 'a', type: 'float', default: '1.5' }, 'number'), {});
    assert.equal(errors({ name: 'a', enum: '' }, 'enumeration').enum, 'At least one value');
    assert.equal(errors({ name: 'a', enum: 'x\nx' }, 'enumeration').enum, 'Each value once');
    assert.equal(errors({ name: 'a', enum: 'x', default: 'y' }, 'enumeration').default, 'One of the values');
    assert.equal(errors({ name: 'a' }, 'dynamiczone').components, 'Pick at least one component');
    assert.equal(errors({ name: 'a' }, 'component').component, 'Pick a component');
    assert.deepEqual(
      errors(
        { name: 'a', componentSource: 'new', newComponent: { displayName: 'Quote', category: 'shared', icon: '' } },
        'component',
      ),
      { 'newComponent.displayName': 'shared.quote already exists' },
    );
    assert.equal(
      errors(
        { name: 'a', componentSource: 'new', newComponent: { displayName: 'X', category: '1st', icon: '' } },
        'component',
      )['newComponent.category'],
      'Letters, digits, - and _, starting with a letter',
    );
    // A relation's other side must be free on its target (its own current other side aside).
    const relation = { relation: 'manyToOne' as const, target: 'api::author.author' };
    assert.equal(errors({ name: 'a', ...relation }, 'relation').targetAttribute, 'A name is required');
    assert.equal(
      errors({ name: 'a', ...relation, targetAttribute: 'email' }, 'relation').targetAttribute,
      'This name on the other side is already used',
    );
    const editing = contextFor('api::article.article', 'author');
    assert.deepEqual(
      validateAttribute(values('relation', { name: 'author', ...relation, targetAttribute: 'articles' }), editing),
      {},
    );
    assert.equal(errors({ name: 'a', relation: 'oneWay' }, 'relation').target, 'Pick the content-type to link to');
  });
});
