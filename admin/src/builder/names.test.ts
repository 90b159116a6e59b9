// The builder's names (run by the unit tier: npm run test:unit -- admin/src/builder).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  componentUid,
  contentTypeUid,
  isReservedName,
  KEBAB_CASE,
  namesOf,
  oppositeRelation,
  relationKindOf,
  relationName,
  relationOf,
  sameName,
  targetAttributeName,
} from './names.ts';

describe('admin panel: the builder names things as Strapi does', () => {
  it("derives a type's singular and plural names from its display name (nameToSlug, then pluralize)", () => {
    const cases: [string, string, string][] = [
      ['Dish', 'dish', 'dishes'],
      ['Blog post', 'blog-post', 'blog-posts'],
      ['Category', 'category', 'categories'],
      ['Person', 'person', 'people'],
      ['Child', 'child', 'children'],
      ['Quiz', 'quiz', 'quizzes'],
      ['Café crème', 'cafe-creme', 'cafe-cremes'],
      ['ÜberThing', 'ueber-thing', 'ueber-things'],
      ['  Spaced   Out ', 'spaced-out', 'spaced-outs'],
      ['FAQ item', 'faq-item', 'faq-items'],
      // The same both ways: the form then says they must differ.
      ['News', 'news', 'news'],
    ];
    for (const [displayName, singularName, pluralName] of cases) {
      assert.deepEqual(namesOf(displayName), { singularName, pluralName }, displayName);
      assert.ok(KEBAB_CASE.test(singularName) && KEBAB_CASE.test(pluralName), displayName);
    }
    assert.deepEqual(namesOf(''), { singularName: '', pluralName: '' });
    assert.equal(contentTypeUid('blog-post'), 'api::blog-post.blog-post');
  });

  it("makes a component's uid from its category and display name", () => {
    assert.equal(componentUid('kitchen', 'Tool'), 'kitchen.tool');
    assert.equal(componentUid('Kitchen stuff', 'Cutting board'), 'kitchen-stuff.cutting-board');
    assert.equal(componentUid('shared', 'Rich text'), 'shared.rich-text');
  });

  it('compares names in snake case and matches reserved names and prefixes', () => {
    const reserved = ['id', 'document_id', 'created_at', 'locale', 'strapi*', 'status'];
    assert.ok(isReservedName('documentId', reserved));
    assert.ok(isReservedName('createdAt', reserved));
    assert.ok(isReservedName('strapiThing', reserved));
    assert.ok(isReservedName('locale', reserved));
    assert.ok(!isReservedName('title', reserved));
    assert.ok(!isReservedName('identifier', reserved));
    assert.ok(sameName('blogPost', 'blog_post'));
    assert.ok(!sameName('blogPost', 'blogPosts'));
  });

  it('reads and writes the six relation kinds (one way is a one-to-one without the other side)', () => {
    assert.equal(relationKindOf('oneToOne', null), 'oneWay');
    assert.equal(relationKindOf('oneToOne', 'dish'), 'oneToOne');
    assert.equal(relationKindOf('oneToMany', undefined), 'manyWay');
    assert.equal(relationKindOf('oneToMany', 'dish'), 'oneToMany');
    assert.equal(relationKindOf('manyToOne', 'dishes'), 'manyToOne');
    assert.equal(relationKindOf('manyToMany', 'dishes'), 'manyToMany');
    assert.equal(relationOf('oneWay'), 'oneToOne');
    assert.equal(relationOf('manyWay'), 'oneToMany');
    assert.equal(relationOf('manyToMany'), 'manyToMany');
    assert.equal(oppositeRelation('manyToOne'), 'oneToMany');
    assert.equal(oppositeRelation('oneToMany'), 'manyToOne');
    assert.equal(oppositeRelation('oneToOne'), 'oneToOne');
  });

  it("suggests a relation's names as Strapi's screen does: snake case, plural on a side that holds many", () => {
    assert.equal(relationName('Author', 'manyToOne'), 'author');
    assert.equal(relationName('Blog post', 'manyToMany'), 'blog_posts');
    assert.equal(relationName('Tag', 'manyWay'), 'tags');
    assert.equal(relationName('Tag', 'oneWay'), 'tag');
    assert.equal(targetAttributeName('Dish', 'manyToOne'), 'dishes');
    assert.equal(targetAttributeName('Dish', 'oneToMany'), 'dish');
    assert.equal(targetAttributeName('Blog post', 'manyToMany'), 'blog_posts');
  });
});
