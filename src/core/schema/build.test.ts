import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ProjectError } from '../errors.js';
import { buildSchema, resolveCustomFields, type RawSchemaFile } from './build.js';
import type { RelationAttribute, ScalarAttribute, ScalarType } from './model.js';
import { RAW_COMPONENTS, typeOf, unitSchema } from '../../../test/helpers/unit-schema.js';

const schema = unitSchema();
const article = typeOf(schema, 'api::article.article');
const author = typeOf(schema, 'api::author.author');

/** A tag type with these attributes (and options), alone or beside the others. */
const tagWith = (attributes: Record<string, unknown>, extra: Record<string, unknown> = {}): RawSchemaFile => ({
  file: 'src/api/tag/content-types/tag/schema.json',
  uid: 'api::tag.tag',
  json: {
    info: { singularName: 'tag', pluralName: 'tags' },
    options: { draftAndPublish: false },
    attributes,
    ...extra,
  },
});

/** An author without relations, for the tag to relate to. */
const AUTHOR: RawSchemaFile = {
  file: 'src/api/author/content-types/author/schema.json',
  uid: 'api::author.author',
  json: { info: { singularName: 'author', pluralName: 'authors' }, attributes: { name: { type: 'string' } } },
};

/** A schema of that author, this tag and the unit project's components. */
const build = (tag: RawSchemaFile, warn?: (message: string) => void) =>
  buildSchema([AUTHOR, tag], RAW_COMPONENTS, [], warn);

const refused = (tag: RawSchemaFile, message: string) =>
  assert.throws(
    () => build(tag),
    (error: unknown) => {
      assert.ok(error instanceof ProjectError, String(error));
      assert.equal(error.message, `src/api/tag/content-types/tag/schema.json: ${message}`);
      return true;
    },
  );

describe('the model built from schema files', () => {
  it('names tables after collectionName, and routes after the plural and singular names', () => {
    assert.equal(article.table, 'articles');
    assert.equal(article.componentLinkTable, 'articles_cmps');
    assert.equal(schema.byPluralName.get('articles'), article);
    assert.equal(schema.bySingularName.get('global')?.kind, 'singleType');
    assert.equal(schema.components.get('shared.rich-text')?.table, 'components_shared_rich_texts');
    assert.equal(schema.byPluralName.has('files'), false, 'built-in types route on their own');
  });

  it('gives scalars their column and rules', () => {
    const views = article.attributes.views as ScalarAttribute;
    assert.deepEqual(
      { column: views.column, default: views.default, localized: views.localized, unique: views.unique },
      { column: 'views', default: 0, localized: false, unique: false },
    );
    const slug = article.attributes.slug as ScalarAttribute;
    assert.deepEqual(
      { unique: slug.unique, localized: slug.localized, targetField: slug.targetField },
      { unique: true, localized: true, targetField: 'title' },
    );
    assert.equal((article.attributes.publishDate as ScalarAttribute).column, 'publish_date');
    const item = typeOf(schema, 'api::item.item');
    assert.equal((item.attributes.password as ScalarAttribute).private, true, 'passwords are always private');
    assert.equal((item.attributes.name as ScalarAttribute).regex?.source, '^[a-z ]*$');
    assert.equal((item.attributes.unsearched as ScalarAttribute).searchable, false);
    assert.deepEqual(
      article.scalars.map((a) => a.name),
      ['title', 'slug', 'body', 'content', 'views', 'rating', 'featured', 'publishDate', 'kind', 'metadata'],
    );
  });

  it('shares one link table between both sides of a relation, owned by the inversedBy side', () => {
    const owner = article.attributes.author as RelationAttribute;
    const inverse = author.attributes.articles as RelationAttribute;
    assert.equal(owner.owner, true);
    assert.equal(inverse.owner, false);
    assert.equal(inverse.link, owner.link);
    assert.deepEqual(owner.link, {
      table: 'articles_author_lnk',
      ownerUid: 'api::article.article',
      ownerAttribute: 'author',
      targetUid: 'api::author.author',
      inverseAttribute: 'articles',
      ownerToMany: false,
      targetToMany: true,
    });
    assert.equal(schema.linkTables.filter((link) => link.table === 'articles_author_lnk').length, 1);
    assert.deepEqual(schema.linkTables.map((link) => link.table).sort(), [
      'articles_author_lnk',
      'articles_category_lnk',
      'articles_tags_lnk',
    ]);
  });

  it('localizes relations and uids always, other attributes only when they say so (Strapi i18n rule)', () => {
    const localized = Object.values(article.attributes)
      .filter((a) => a.localized)
      .map((a) => a.name);
    assert.deepEqual(localized, [
      'title',
      'slug',
      'body',
      'content',
      'author',
      'category',
      'tags',
      'seo',
      'links',
      'blocks',
    ]);
    assert.equal(
      Object.values(author.attributes).some((a) => a.localized),
      false,
      'nothing is localized on a type without i18n',
    );
  });

  it('accepts what Strapi accepts: numbers as strings, null options, a missing kind, array and customField as json', () => {
    const tag = build(
      tagWith({
        name: { type: 'string', maxLength: '10', min: null },
        list: { type: 'array' },
        color: { type: 'customField', customField: 'x' },
      }),
    ).contentTypes.get('api::tag.tag')!;
    assert.equal(tag.kind, 'collectionType');
    assert.equal((tag.attributes.name as ScalarAttribute).maxLength, 10);
    assert.equal((tag.attributes.name as ScalarAttribute).min, undefined);
    assert.equal((tag.attributes.list as ScalarAttribute).type, 'json');
    assert.equal((tag.attributes.color as ScalarAttribute).type, 'json');
  });

  it('warns, once per attribute, about what it leaves out or ignores, and starts', () => {
    const warnings: string[] = [];
    const tag = build(
      tagWith({
        name: { type: 'string' },
        locale: { type: 'string' },
        createdAt: { type: 'string' },
        pick: { type: 'enumeration', enum: ['a'], default: 'b' },
        code: { type: 'string', regex: '[' },
        slug: { type: 'uid', targetField: 'nothing' },
        owner: { type: 'relation', relation: 'oneToOne', target: 'admin::user' },
        things: { type: 'relation', relation: 'morphToMany' },
      }),
      (message) => warnings.push(message),
    ).contentTypes.get('api::tag.tag')!;
    assert.deepEqual(Object.keys(tag.attributes), ['name', 'pick', 'code', 'slug']);
    const file = 'src/api/tag/content-types/tag/schema.json';
    assert.deepEqual(warnings, [
      `${file}: attribute "locale" is the name of the locale every document carries; the attribute is left out`,
      `${file}: attribute "pick" has the default "b", which is not one of its values; it is ignored`,
      `${file}: attribute "code" has an invalid regex (Invalid regular expression: /[/: Unterminated character class); values are not checked against it`,
      `${file}: attribute "things" is a polymorphic relation (morphToMany), which Vellum does not serve; it is left out`,
      `${file}: attribute "owner" is a relation to admin::user, which Vellum does not have; it is left out`,
      `${file}: attribute "slug" has targetField "nothing", which is not a text attribute of this type; no value is generated from it`,
    ]);
  });

  it('refuses what Strapi refuses, naming the file and the attribute', () => {
    refused(tagWith({ id: { type: 'string' } }), 'attribute "id" uses a reserved name');
    refused(tagWith({ document_id: { type: 'string' } }), 'attribute "document_id" uses a reserved name');
    refused(
      tagWith({ '1st': { type: 'string' } }),
      'attribute "1st" is not a valid name (letters, digits and _; starts with a letter or a single _)',
    );
    refused(
      tagWith({ __x: { type: 'string' } }),
      'attribute "__x" is not a valid name (letters, digits and _; starts with a letter or a single _)',
    );
    refused(tagWith({ name: { type: 'strng' } }), 'attribute "name" has an unknown type "strng"');
    refused(
      tagWith({ pick: { type: 'enumeration' } }),
      'attribute "pick" of type enumeration needs a non-empty "enum" array of strings',
    );
    refused(tagWith({ max: { type: 'integer', max: 'ten' } }), 'attribute "max" max must be a number');
    refused(
      tagWith({ aB: { type: 'string' }, a_b: { type: 'string' } }),
      'attributes "aB" and "a_b" map to the same column a_b',
    );
    refused(
      tagWith({ x: { type: 'relation', relation: 'oneToOne', target: 'api::nothing.nothing' } }),
      'attribute "x" is a relation to the missing target api::nothing.nothing',
    );
    refused(
      tagWith({ x: { type: 'relation', relation: 'sideways', target: 'api::author.author' } }),
      'attribute "x" has an unknown relation kind "sideways"',
    );
    refused(
      tagWith({ x: { type: 'relation', relation: 'manyToOne', target: 'api::author.author', inversedBy: 'tags' } }),
      'attribute "x" is inversedBy "tags", but api::author.author has no relation "tags" mappedBy "x"',
    );
    refused(
      tagWith({ x: { type: 'component', component: 'shared.nothing' } }),
      'attribute "x" uses the missing component shared.nothing',
    );
    refused(
      tagWith({ name: { type: 'string' } }, { kind: 'folder' }),
      '"kind" must be collectionType or singleType, got "folder"',
    );
    refused(
      tagWith({}, { info: { singularName: 'tag', pluralName: 'Tags' } }),
      'info.pluralName "Tags" must be kebab-case',
    );
    refused(
      tagWith({}, { info: { singularName: 'tag', pluralName: 'tag' } }),
      'info.singularName and info.pluralName must differ',
    );
    refused(
      tagWith({}, { info: { singularName: 'tag', pluralName: 'authors' }, collectionName: 'tags' }),
      'the API name "authors" is also used by src/api/author/content-types/author/schema.json',
    );
    refused(
      tagWith({}, { collectionName: 'authors' }),
      'table "authors" is also used by src/api/author/content-types/author/schema.json',
    );
  });
});

describe('custom fields', () => {
  it('take the type registered for them, with their own options; one warning for each that nothing registers', () => {
    const warnings: string[] = [];
    const built = build(
      tagWith({
        mood: { type: 'customField', customField: 'plugin::moods.mood', enum: ['calm', 'busy'], required: true },
        level: { type: 'customField', customField: 'global::level', max: 3 },
        icon: { type: 'customField', customField: 'plugin::absent.icon' },
        badge: { type: 'customField', customField: 'plugin::absent.icon' },
      }),
      (message) => warnings.push(message),
    );
    const tag = typeOf(built, 'api::tag.tag');
    const attribute = (name: string) => tag.attributes[name] as ScalarAttribute;
    assert.deepEqual(
      ['mood', 'level', 'icon'].map((name) => attribute(name).type),
      ['json', 'json', 'json'],
      'JSON until resolved',
    );
    resolveCustomFields(
      built,
      (uid) => ({ 'plugin::moods.mood': 'enumeration', 'global::level': 'integer' })[uid] as ScalarType | undefined,
      (message) => warnings.push(message),
    );
    assert.deepEqual(
      [attribute('mood').type, attribute('mood').enum, attribute('mood').required, attribute('mood').column],
      ['enumeration', ['calm', 'busy'], true, 'mood'],
    );
    assert.deepEqual([attribute('level').type, attribute('level').max], ['integer', 3]);
    // The same attribute object: the type's scalars list sees the change.
    assert.equal(
      tag.scalars.find((scalar) => scalar.name === 'level'),
      attribute('level'),
    );
    assert.equal(attribute('icon').type, 'json');
    assert.equal(warnings.length, 1, warnings.join('\n'));
    assert.match(warnings[0]!, /plugin::absent\.icon .*"icon".*"badge"/);
  });
});
