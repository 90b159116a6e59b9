// The builder's settings forms (run by the unit tier: npm run test:unit -- admin/src/builder).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { createComponent, createContentType, fromSchema, type ContentTypeSettings } from './draft.ts';
import { describeAttribute, relationSentence, validateComponent, validateContentType } from './model-form.ts';

const draft = fromSchema(
  JSON.parse(
    readFileSync(new URL('../../../test/fixtures/content-type-builder/strapi-reads.json', import.meta.url), 'utf8'),
  ).schema,
);
const RESERVED_MODELS = ['boolean', 'date', 'date_time', 'time', 'upload', 'document', 'then', 'strapi*'];
const dish: ContentTypeSettings = {
  displayName: 'Dish',
  singularName: 'dish',
  pluralName: 'dishes',
  kind: 'collectionType',
  description: '',
  draftAndPublish: true,
  localized: false,
};

describe('admin panel: the builder settings forms', () => {
  it("checks a new type's names: kebab case, free, not reserved, singular and plural apart", () => {
    const errors = (changes: Partial<ContentTypeSettings>) =>
      validateContentType({ ...dish, ...changes }, draft, RESERVED_MODELS);
    assert.deepEqual(errors({}), {});
    assert.equal(errors({ displayName: ' ' }).displayName, 'A display name is required');
    assert.equal(errors({ displayName: 'Date time' }).displayName, 'This name is reserved');
    assert.equal(errors({ singularName: 'Dish' }).singularName, 'Lower case letters, digits and dashes (kebab case)');
    assert.equal(errors({ singularName: 'article' }).singularName, 'Another content-type has this name');
    assert.equal(errors({ pluralName: 'articles' }).pluralName, 'Another content-type has this name');
    assert.equal(errors({ pluralName: 'tag' }).pluralName, 'Another content-type has this name');
    assert.equal(
      errors({ singularName: 'news', pluralName: 'news' }).pluralName,
      'The plural name must differ from the singular one',
    );
    assert.equal(errors({ singularName: 'upload' }).singularName, 'This name is reserved');
    const created = createContentType(draft, dish).draft;
    assert.equal(
      validateContentType(dish, created, RESERVED_MODELS).singularName,
      'Another content-type has this name',
    );
  });

  it('refuses to make a single type of a collection type with two-way relations (Strapi refuses them)', () => {
    const article = draft.contentTypes['api::article.article']!;
    const settings = {
      ...dish,
      displayName: 'Article',
      singularName: 'article',
      pluralName: 'articles',
      kind: 'singleType' as const,
    };
    assert.equal(
      validateContentType(settings, draft, RESERVED_MODELS, article.uid).kind,
      'A single type has no two-way relations: remove author, category, tags first',
    );
    assert.deepEqual(
      validateContentType({ ...settings, kind: 'collectionType' }, draft, RESERVED_MODELS, article.uid),
      {},
    );
  });

  it("checks a component's category, icon and uid", () => {
    const tool = { displayName: 'Tool', category: 'kitchen', icon: 'hammer', description: '' };
    assert.deepEqual(validateComponent(tool, draft, RESERVED_MODELS), {});
    assert.equal(
      validateComponent({ ...tool, category: '9lives' }, draft, RESERVED_MODELS).category,
      'Letters, digits, - and _, starting with a letter',
    );
    assert.equal(validateComponent({ ...tool, icon: 'no icon' }, draft, RESERVED_MODELS).icon, 'Letters, digits and -');
    assert.equal(
      validateComponent({ ...tool, displayName: 'Quote', category: 'shared' }, draft, RESERVED_MODELS).displayName,
      'shared.quote already exists',
    );
    const { draft: next, uid } = createComponent(draft, tool);
    assert.equal(validateComponent(tool, next, RESERVED_MODELS).displayName, 'kitchen.tool already exists');
    assert.deepEqual(validateComponent(tool, next, RESERVED_MODELS, uid), {});
    // A saved component keeps its uid when renamed: another's name is no clash.
    assert.deepEqual(
      validateComponent({ ...tool, displayName: 'Link', category: 'shared' }, draft, RESERVED_MODELS, 'shared.quote'),
      {},
    );
  });

  it('says a relation kind in words', () => {
    assert.equal(
      relationSentence('manyToOne', 'Dish', 'Author'),
      'Many to one: Dish has one Author, Author has many Dishes',
    );
    assert.equal(relationSentence('manyWay', 'Dish', 'Category'), 'Many way: Dish has many Categories');
  });

  it('says what an attribute is in a line', () => {
    const name = (uid: string) => ({ 'api::author.author': 'Author', 'shared.quote': 'Quote' })[uid] ?? uid;
    const lines = draft.contentTypes['api::article.article']!.attributes.map((a) => describeAttribute(a, name));
    assert.deepEqual(lines, [
      'Text (short)',
      'UID, from title',
      'Rich text (Markdown)',
      'Rich text (Blocks)',
      'Number (integer)',
      'Number (decimal)',
      'Boolean',
      'Date',
      'Enumeration: news, tutorial, opinion',
      'JSON',
      'Media, single: images',
      'Media, multiple: images, files, videos, audios',
      'Relation, many to one: Author (its articles)',
      'Relation, many to one: api::category.category (its articles)',
      'Relation, many to many: api::tag.tag (its articles)',
      'Component: shared.seo',
      'Component, repeatable: shared.link',
      'Dynamic zone: Quote, shared.rich-text, shared.media',
    ]);
  });
});
