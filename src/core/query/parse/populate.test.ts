import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { QueryValidationError } from '../../errors.js';
import { buildSchema } from '../../schema/build.js';
import type { ContentType, Model } from '../../schema/model.js';
import type { PopulateNode, PopulateTree } from '../types.js';
import { PopulateParser } from './populate.js';
import { throwsVellum } from '../../../../test/helpers/unit-errors.js';
import { RAW_COMPONENTS, RAW_CONTENT_TYPES, typeOf, unitSchema } from '../../../../test/helpers/unit-schema.js';

const schema = unitSchema();
const article = typeOf(schema, 'api::article.article');
const author = typeOf(schema, 'api::author.author');

/** The tree with filters and sort reduced to their presence, for readable expectations. */
function shape(tree: PopulateTree): Record<string, unknown> {
  const node = (value: PopulateNode): Record<string, unknown> => ({
    ...(value.fields ? { fields: value.fields } : {}),
    ...(value.filters ? { filters: value.filters.kind } : {}),
    ...(value.sort ? { sort: value.sort.map((item) => `${item.field.name}:${item.direction}`) } : {}),
    ...(value.count ? { count: true } : {}),
    ...(value.populate ? { populate: shape(value.populate) } : {}),
    ...(value.on ? { on: Object.fromEntries(Object.entries(value.on).map(([uid, inner]) => [uid, node(inner)])) } : {}),
  });
  return Object.fromEntries(Object.entries(tree).map(([name, value]) => [name, node(value)]));
}

const populate = (value: unknown, model: Model = article, canRead?: (type: ContentType) => boolean) =>
  shape(new PopulateParser(schema, { canRead }).parse(model, value, ['populate']));
const refused = (
  value: unknown,
  message: string | RegExp,
  where: { key: string; path: string | null },
  model: Model = article,
) =>
  throwsVellum(() => new PopulateParser(schema, {}).parse(model, value, ['populate']), QueryValidationError, message, {
    source: 'query',
    param: 'populate',
    ...where,
  });

describe('populate (docs/rest.md "Populate")', () => {
  it('populates nothing when absent, empty or false', () => {
    assert.deepEqual(populate(undefined), {});
    assert.deepEqual(populate(''), {});
    assert.deepEqual(populate(false), {});
    assert.deepEqual(populate({ author: 'false' }), {});
  });

  it('* and true populate every relation, component, zone and media one level, and localizations', () => {
    const all = {
      cover: {},
      gallery: {},
      author: {},
      category: {},
      tags: {},
      seo: {},
      links: {},
      blocks: {},
      localizations: {},
    };
    assert.deepEqual(populate('*'), all);
    assert.deepEqual(populate(true), all);
    assert.deepEqual(populate({ '*': true }), all);
    assert.deepEqual(populate({ '*': 'false' }), {});
    assert.deepEqual(
      populate('*', author),
      { avatar: {}, articles: {} },
      'no localizations on a type without i18n; private secret is a scalar',
    );
  });

  it('* leaves media out when the project has no media library', () => {
    const withoutFiles = buildSchema(
      RAW_CONTENT_TYPES.filter((file) => file.uid !== 'api::item.item'),
      RAW_COMPONENTS,
    );
    const parsed = new PopulateParser(withoutFiles, {}).parse(
      withoutFiles.contentTypes.get('api::author.author')!,
      '*',
      ['populate'],
    );
    assert.deepEqual(Object.keys(parsed), ['articles']);
  });

  it('reads names, comma lists, arrays and dot paths', () => {
    assert.deepEqual(populate('author'), { author: {} });
    assert.deepEqual(populate('author, tags'), { author: {}, tags: {} });
    assert.deepEqual(populate(['author', 'seo.shareImage']), { author: {}, seo: { populate: { shareImage: {} } } });
    assert.deepEqual(populate({ 0: 'category', 1: 'tags.articles' }), {
      category: {},
      tags: { populate: { articles: {} } },
    });
    assert.deepEqual(populate('author.articles.tags,author'), {
      author: { populate: { articles: { populate: { tags: {} } } } },
    });
    assert.deepEqual(populate('author.*'), { author: { populate: { avatar: {}, articles: {} } } });
    assert.deepEqual(populate('localizations'), { localizations: {} });
  });

  it('reads object toggles and * values', () => {
    assert.deepEqual(populate({ author: true, tags: 'true', category: '*', seo: 'false' }), {
      author: {},
      tags: {},
      category: {},
    });
    assert.deepEqual(populate([{ author: true }, 'tags']), { author: {}, tags: {} });
  });

  it('reads fields, filters, sort, count and nested populate per relation', () => {
    assert.deepEqual(
      populate({
        author: {
          fields: ['name'],
          populate: { articles: { filters: { title: { $contains: 'a' } }, sort: 'title:desc', fields: 'title' } },
        },
        tags: { count: 'true' },
      }),
      {
        author: {
          fields: ['name'],
          populate: { articles: { fields: ['title'], filters: 'compare', sort: ['title:desc'] } },
        },
        tags: { count: true },
      },
    );
    assert.deepEqual(populate({ tags: { count: false } }), { tags: {} });
    assert.deepEqual(populate({ author: { populate: '*' } }), { author: { populate: { avatar: {}, articles: {} } } });
    assert.deepEqual(populate({ author: { populate: false } }), { author: { populate: {} } });
    assert.deepEqual(populate({ author: { populate: 'articles' } }), { author: { populate: { articles: {} } } });
  });

  it('reads dynamic zones: shared populate and per-component on', () => {
    assert.deepEqual(populate('blocks'), { blocks: {} });
    assert.deepEqual(
      populate({ blocks: { on: { 'shared.quote': { fields: ['title'] }, 'shared.rich-text': true } } }),
      {
        blocks: { on: { 'shared.quote': { fields: ['title'] }, 'shared.rich-text': {} } },
      },
    );
    assert.deepEqual(populate({ blocks: { on: { 'shared.quote': 'false' } } }), { blocks: { on: {} } });
    assert.deepEqual(populate({ blocks: { on: '' } }), { blocks: { on: {} } }, 'an empty on names no component');
    assert.deepEqual(populate({ blocks: { count: 'true' } }), { blocks: {} }, 'count on a zone answers the zone');
    refused({ blocks: { on: { 'shared.seo': true } } }, 'shared.seo is not a component of the dynamic zone blocks', {
      key: 'shared.seo',
      path: 'blocks',
    });
    refused({ blocks: { fields: ['title'] } }, 'fields does not apply to the dynamic zone blocks; use on', {
      key: 'fields',
      path: 'blocks',
    });
    refused({ blocks: { on: { 'shared.quote': { nope: 1 } } } }, 'Invalid key nope (use fields, populate or filters)', {
      key: 'nope',
      path: 'blocks.shared.quote',
    });
  });

  it('skips sort, filters and fields where Strapi 5.54 skips them: not attributes, or below an attribute', () => {
    assert.deepEqual(populate({ seo: { populate: { fields: ['metaTitle'] } } }), { seo: { populate: {} } });
    assert.deepEqual(populate({ author: { populate: { sort: 'name', filters: { name: 'x' } } } }), {
      author: { populate: {} },
    });
    assert.deepEqual(populate({ fields: ['title'], author: true }), { author: {} });
  });

  it('refuses unknown, hidden and scalar attributes, and unknown node keys', () => {
    refused('nope', 'Invalid key nope in populate', { key: 'nope', path: null });
    refused('author.nope', 'Invalid key nope in populate', { key: 'nope', path: 'author' });
    refused('title', 'Invalid populate key title: it is not a relation, component, dynamic zone or media', {
      key: 'title',
      path: null,
    });
    refused(
      { author: { where: {} } },
      'Invalid key where in populate (use fields, filters, sort, populate, on or count)',
      { key: 'where', path: 'author' },
    );
    refused({ author: { on: {} } }, 'on only applies to dynamic zones', { key: 'on', path: 'author' });
    refused({ cover: { count: true } }, 'count only applies to relations and components', {
      key: 'count',
      path: 'cover',
    });
    refused({ tags: { count: 'yes' } }, 'count must be true or false', { key: 'count', path: 'tags' });
    refused({ author: 3 }, 'populate.author must be true, false or an object', { key: 'author', path: null });
    refused([3], 'populate items must be attribute names', { key: '0', path: null });
    refused(3, 'populate must be *, an attribute name, a list or an object', { key: 'populate', path: null });
    refused('localizations', 'Invalid key localizations in populate', { key: 'localizations', path: null }, author);
  });

  it('names the path of a bad filter below a populated relation', () => {
    refused({ author: { populate: { articles: { filters: { nope: 1 } } } } }, 'Invalid key nope', {
      key: 'nope',
      path: 'author.articles',
    });
  });

  it('keeps relations the caller may not read in the tree (they are left out when reading)', () => {
    assert.deepEqual(
      populate('author,tags', article, (type) => type.uid !== 'api::author.author'),
      { author: {}, tags: {} },
    );
  });

  it('refuses more than 200 populated attributes', () => {
    const paths = (n: number) => Array.from({ length: n }, () => 'author').join(',');
    assert.deepEqual(populate(paths(200)), { author: {} });
    refused(paths(201), 'Too many populated attributes (more than 200)', { key: 'author', path: null });
  });
});
