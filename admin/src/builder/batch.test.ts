// The builder's draft and the batch it sends (run by the unit tier: npm run test:unit -- admin/src/builder).
// The schema is the blog's as Strapi 5.54's builder answered it (test/fixtures/content-type-builder/strapi-reads.json).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import type { BuilderAttribute, BuilderSchema } from '../../../src/features/content-type-builder/contract.ts';
import { attributeOf, newAttributeValues, type AttributeFormValues } from './attribute-form.ts';
import { toBatch } from './batch.ts';
import {
  addAttribute,
  componentUsages,
  createComponent,
  createContentType,
  deleteComponent,
  deleteContentType,
  editAttribute,
  fromSchema,
  isModified,
  relationsTo,
  removeAttribute,
  updateComponent,
  updateContentType,
  type Draft,
} from './draft.ts';

const blog = (): BuilderSchema =>
  JSON.parse(
    readFileSync(new URL('../../../test/fixtures/content-type-builder/strapi-reads.json', import.meta.url), 'utf8'),
  ).schema;

const AUTHOR = 'api::author.author';
const ARTICLE = 'api::article.article';
const type = (uid: string) => ({ modelType: 'contentType' as const, uid });
const component = (uid: string) => ({ modelType: 'component' as const, uid });
/** An attribute made by the form from some values. */
const field = (
  kind: AttributeFormValues['kind'],
  values: Partial<AttributeFormValues>,
  context = { localized: false, modelType: 'contentType' as const },
): BuilderAttribute => attributeOf({ ...newAttributeValues(kind, context), ...values }, context);
/** A saved type's attributes as the batch sends them back unchanged. */
const unchangedOf = (schema: BuilderSchema, uid: string) =>
  schema.contentTypes[uid]!.attributes.map(({ name, ...properties }) => ({
    action: 'update',
    name,
    properties: Object.fromEntries(Object.entries(properties).filter(([, value]) => value !== null)),
  }));
const dishSettings = {
  displayName: 'Dish',
  singularName: 'dish',
  pluralName: 'dishes',
  kind: 'collectionType' as const,
  description: 'Something to eat',
  draftAndPublish: true,
  localized: true,
};

describe('admin panel: the builder draft and its batch', () => {
  it('sends nothing for an unchanged draft', () => {
    const draft = fromSchema(blog());
    assert.equal(isModified(draft), false);
    assert.deepEqual(toBatch(draft), { data: { components: [], contentTypes: [] } });
  });

  it('creates a type with a new component and a two-way relation: the target gets the other side, all in one batch', () => {
    const schema = blog();
    const created = createContentType(fromSchema(schema), dishSettings);
    const uid = created.uid;
    let draft: Draft = created.draft;
    assert.equal(uid, 'api::dish.dish');
    const localized = { localized: true, modelType: 'contentType' as const };
    draft = addAttribute(
      draft,
      type(uid),
      field('text', { name: 'title', required: true, unique: true, minLength: '2' }, localized),
    );
    draft = addAttribute(draft, type(uid), field('uid', { name: 'slug', targetField: 'title' }, localized));
    draft = addAttribute(
      draft,
      type(uid),
      field('relation', { name: 'chef', relation: 'manyToOne', target: AUTHOR, targetAttribute: 'dishes' }, localized),
    );
    const withTool = createComponent(draft, {
      displayName: 'Tool',
      category: 'kitchen',
      icon: 'hammer',
      description: '',
    });
    const tool = withTool.uid;
    draft = withTool.draft;
    draft = addAttribute(draft, component(tool), field('text', { name: 'label', maxLength: '40' }));
    draft = addAttribute(
      draft,
      type(uid),
      field('component', { name: 'tools', component: tool, repeatable: true, localized: false }, localized),
    );
    assert.ok(isModified(draft));

    const { data } = toBatch(draft);
    assert.deepEqual(data.components, [
      {
        action: 'create',
        uid: 'kitchen.tool',
        category: 'kitchen',
        displayName: 'Tool',
        icon: 'hammer',
        attributes: [{ action: 'create', name: 'label', properties: { type: 'string', maxLength: 40 } }],
      },
    ]);
    assert.deepEqual(data.contentTypes, [
      {
        action: 'update',
        uid: AUTHOR,
        kind: 'collectionType',
        displayName: 'Author',
        draftAndPublish: false,
        attributes: [
          ...unchangedOf(schema, AUTHOR),
          {
            action: 'create',
            name: 'dishes',
            properties: { type: 'relation', relation: 'oneToMany', target: uid, targetAttribute: 'chef' },
          },
        ],
      },
      {
        action: 'create',
        uid,
        kind: 'collectionType',
        displayName: 'Dish',
        singularName: 'dish',
        pluralName: 'dishes',
        description: 'Something to eat',
        draftAndPublish: true,
        pluginOptions: { i18n: { localized: true } },
        attributes: [
          {
            action: 'create',
            name: 'title',
            properties: {
              type: 'string',
              required: true,
              unique: true,
              minLength: 2,
              pluginOptions: { i18n: { localized: true } },
            },
          },
          {
            action: 'create',
            name: 'slug',
            // The i18n plugin starts every new field of a localized type localized, a uid too.
            properties: { type: 'uid', targetField: 'title', pluginOptions: { i18n: { localized: true } } },
          },
          {
            action: 'create',
            name: 'chef',
            properties: { type: 'relation', relation: 'manyToOne', target: AUTHOR, targetAttribute: 'dishes' },
          },
          {
            action: 'create',
            name: 'tools',
            properties: {
              type: 'component',
              component: 'kitchen.tool',
              repeatable: true,
              pluginOptions: { i18n: { localized: false } },
            },
          },
        ],
      },
    ]);
  });

  it('relates a type to itself: both sides are new attributes of the one type', () => {
    const created = createContentType(fromSchema(blog()), { ...dishSettings, localized: false });
    const uid = created.uid;
    let draft = created.draft;
    draft = addAttribute(
      draft,
      type(uid),
      field('relation', { name: 'variants', relation: 'manyToMany', target: uid, targetAttribute: 'variantOf' }),
    );
    draft = addAttribute(draft, type(uid), field('relation', { name: 'pairing', relation: 'oneWay', target: uid }));
    const [dish] = toBatch(draft).data.contentTypes;
    assert.deepEqual(dish!.action !== 'delete' && dish!.attributes, [
      {
        action: 'create',
        name: 'variantOf',
        properties: { type: 'relation', relation: 'manyToMany', target: uid, targetAttribute: 'variants' },
      },
      {
        action: 'create',
        name: 'variants',
        properties: { type: 'relation', relation: 'manyToMany', target: uid, targetAttribute: 'variantOf' },
      },
      { action: 'create', name: 'pairing', properties: { type: 'relation', relation: 'oneToOne', target: uid } },
    ]);
  });

  it("edits a relation: the other side moves to the new target's, the old one is deleted", () => {
    const schema = blog();
    let draft = fromSchema(schema);
    const author = schema.contentTypes[ARTICLE]!.attributes.find((attribute) => attribute.name === 'author')!;
    draft = editAttribute(draft, type(ARTICLE), 'author', {
      ...field('relation', { name: 'writer', relation: 'manyToOne', target: AUTHOR, targetAttribute: 'writings' }),
    });
    assert.ok(author);
    const { contentTypes } = toBatch(draft).data;
    const byUid = Object.fromEntries(contentTypes.map((change) => [change.uid, change]));
    assert.deepEqual(Object.keys(byUid).sort(), [ARTICLE, AUTHOR]);
    const article = byUid[ARTICLE]!;
    assert.ok(article.action === 'update');
    const writer = article.attributes.find((attribute) => attribute.name === 'writer');
    assert.deepEqual(writer, {
      action: 'update',
      name: 'writer',
      properties: { type: 'relation', relation: 'manyToOne', target: AUTHOR, targetAttribute: 'writings' },
    });
    const authorChange = byUid[AUTHOR]!;
    assert.ok(authorChange.action === 'update');
    // `articles` was the other side: replaced where it stood by `writings`.
    assert.deepEqual(
      authorChange.attributes.map((attribute) => `${attribute.action} ${attribute.name}`),
      ['update name', 'update email', 'update bio', 'update avatar', 'update writings'],
    );
    assert.deepEqual(authorChange.attributes[4], {
      action: 'update',
      name: 'writings',
      properties: { type: 'relation', relation: 'oneToMany', target: ARTICLE, targetAttribute: 'writer' },
    });
  });

  it('removes an attribute (a two-way relation on both sides, a uid attached to it let go)', () => {
    let draft = fromSchema(blog());
    draft = removeAttribute(draft, type(ARTICLE), 'author');
    draft = removeAttribute(draft, type(ARTICLE), 'title');
    const { contentTypes } = toBatch(draft).data;
    const article = contentTypes.find((change) => change.uid === ARTICLE)!;
    const author = contentTypes.find((change) => change.uid === AUTHOR)!;
    assert.ok(article.action === 'update' && author.action === 'update');
    assert.deepEqual(article.attributes[0], { action: 'delete', name: 'title' });
    assert.deepEqual(article.attributes[1], {
      action: 'update',
      name: 'slug',
      properties: { type: 'uid', pluginOptions: { i18n: { localized: true } } },
    });
    assert.ok(article.attributes.some((attribute) => attribute.action === 'delete' && attribute.name === 'author'));
    assert.deepEqual(author.attributes.at(-1), { action: 'delete', name: 'articles' });
  });

  it('makes a deleted field again under its name as one entry (the API refuses a name twice)', () => {
    let draft = removeAttribute(fromSchema(blog()), type(AUTHOR), 'bio');
    draft = addAttribute(draft, type(AUTHOR), field('richtext', { name: 'bio' }));
    const author = toBatch(draft).data.contentTypes[0]!;
    assert.ok(author.action === 'update');
    assert.deepEqual(
      author.attributes.map((attribute) => `${attribute.action} ${attribute.name}`),
      ['update name', 'update email', 'update avatar', 'update articles', 'create bio'],
    );
  });

  it('deletes a component: out of the attributes that hold it; a zone loses it as Strapi sends it (unmarked)', () => {
    let draft = fromSchema(blog());
    assert.deepEqual(
      componentUsages(draft, 'shared.seo').map((usage) => `${usage.model.uid} ${usage.attribute} ${usage.zone}`),
      ['api::article.article seo false', 'api::global.global defaultSeo false'],
    );
    assert.deepEqual(
      componentUsages(draft, 'shared.quote').map((usage) => `${usage.model.uid} ${usage.attribute} ${usage.zone}`),
      ['api::article.article blocks true'],
    );
    draft = deleteComponent(draft, 'shared.quote');
    assert.deepEqual(toBatch(draft).data, {
      components: [{ action: 'delete', uid: 'shared.quote' }],
      contentTypes: [],
    });
    draft = deleteComponent(draft, 'shared.seo');
    const { components, contentTypes } = toBatch(draft).data;
    assert.deepEqual(components, [
      { action: 'delete', uid: 'shared.seo' },
      { action: 'delete', uid: 'shared.quote' },
    ]);
    assert.deepEqual(
      contentTypes.map((change) => change.uid),
      [ARTICLE, 'api::global.global'],
    );
    const article = contentTypes[0]!;
    assert.ok(article.action === 'update');
    assert.ok(article.attributes.some((attribute) => attribute.action === 'delete' && attribute.name === 'seo'));
    const blocks = article.attributes.find((attribute) => attribute.name === 'blocks');
    assert.deepEqual(blocks?.action === 'update' && blocks.properties.components, ['shared.rich-text', 'shared.media']);
  });

  it('deletes a type with the relations others have to it; a new type is simply dropped', () => {
    let draft = fromSchema(blog());
    assert.deepEqual(
      relationsTo(draft, 'api::tag.tag').map((usage) => `${usage.model.uid} ${usage.attribute}`),
      ['api::article.article tags'],
    );
    draft = deleteContentType(draft, 'api::tag.tag');
    const { contentTypes } = toBatch(draft).data;
    assert.deepEqual(
      contentTypes.map((change) => `${change.action} ${change.uid}`),
      ['update api::article.article', 'delete api::tag.tag'],
    );
    const created = createContentType(draft, { ...dishSettings, localized: false });
    assert.deepEqual(toBatch(deleteContentType(created.draft, created.uid)), toBatch(draft));
  });

  it("makes a saved type localized (its fields follow) and not (i18n leaves it), as the i18n plugin's screens do", () => {
    const schema = blog();
    const settings = (uid: string, localized: boolean) => {
      const type = schema.contentTypes[uid]!;
      return {
        displayName: type.info.displayName,
        singularName: type.info.singularName,
        pluralName: type.info.pluralName,
        kind: type.kind,
        description: type.info.description ?? '',
        draftAndPublish: type.options.draftAndPublish === true,
        localized,
      };
    };
    let draft = updateContentType(fromSchema(schema), AUTHOR, settings(AUTHOR, true));
    draft = updateContentType(draft, ARTICLE, settings(ARTICLE, false));
    const [article, author] = toBatch(draft).data.contentTypes;
    assert.ok(author?.action === 'update' && article?.action === 'update');
    assert.deepEqual(author.pluginOptions, { i18n: { localized: true } });
    assert.deepEqual(
      author.attributes.map((attribute) => attribute.action === 'update' && attribute.properties.pluginOptions),
      [
        { i18n: { localized: true } },
        { i18n: { localized: true } },
        { i18n: { localized: true } },
        { i18n: { localized: true } },
        undefined,
      ],
    );
    assert.equal(article.pluginOptions, undefined);
    assert.ok(
      article.attributes.every((attribute) => attribute.action === 'update' && !attribute.properties.pluginOptions),
    );
    assert.equal(article.description, 'Blog article');
  });

  it('renames a new component before it is saved: its uid follows, in the attributes that hold it too', () => {
    let { draft, uid } = createComponent(fromSchema(blog()), {
      displayName: 'Tool',
      category: 'kitchen',
      icon: '',
      description: '',
    });
    draft = addAttribute(draft, type(ARTICLE), field('component', { name: 'tool', component: uid, repeatable: false }));
    draft = addAttribute(draft, type(ARTICLE), field('dynamiczone', { name: 'zone', components: [uid] }));
    ({ draft, uid } = updateComponent(draft, uid, {
      displayName: 'Cutting board',
      category: 'cooking',
      icon: 'knife',
      description: 'Wood',
    }));
    assert.equal(uid, 'cooking.cutting-board');
    const { components, contentTypes } = toBatch(draft).data;
    assert.deepEqual(components, [
      {
        action: 'create',
        uid,
        category: 'cooking',
        displayName: 'Cutting board',
        icon: 'knife',
        description: 'Wood',
        attributes: [],
      },
    ]);
    const article = contentTypes[0]!;
    assert.ok(article.action === 'update');
    assert.deepEqual(article.attributes.slice(-2), [
      { action: 'create', name: 'tool', properties: { type: 'component', component: uid, repeatable: false } },
      { action: 'create', name: 'zone', properties: { type: 'dynamiczone', components: [uid] } },
    ]);
    // A saved component keeps its uid and category.
    const saved = updateComponent(fromSchema(blog()), 'shared.quote', {
      displayName: 'Citation',
      category: 'other',
      icon: '',
      description: '',
    });
    assert.equal(saved.uid, 'shared.quote');
    assert.deepEqual(toBatch(saved.draft).data.components, [
      {
        action: 'update',
        uid: 'shared.quote',
        category: 'shared',
        displayName: 'Citation',
        description: '',
        attributes: [
          { action: 'update', name: 'title', properties: { type: 'string' } },
          { action: 'update', name: 'body', properties: { type: 'text' } },
        ],
      },
    ]);
  });

  it('marks a private searchable field not searchable, as Strapi 5.54 does', () => {
    const draft = addAttribute(fromSchema(blog()), type(AUTHOR), field('text', { name: 'note', private: true }));
    const author = toBatch(draft).data.contentTypes[0]!;
    assert.ok(author.action === 'update');
    assert.deepEqual(author.attributes.at(-1), {
      action: 'create',
      name: 'note',
      properties: { type: 'string', private: true, searchable: false },
    });
  });
});
