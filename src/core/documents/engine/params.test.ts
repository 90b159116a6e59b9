/**
 * The query engine's parameters, parsed against a schema (no database): `where` in filters'
 * syntax (operators, `$and`/`$or`/`$not`, relations by nested objects or ids), private attributes
 * allowed, `select`, `orderBy`, `limit`/`offset`, and a populate in the engine's shape read as
 * REST's. Bad input is a 400 naming the parameter.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildSchema } from '../../schema/build.js';
import { parseRowQuery, populateToRest } from './params.js';

const schema = buildSchema(
  [
    {
      file: 'article.json',
      uid: 'api::article.article',
      json: {
        kind: 'collectionType',
        collectionName: 'articles',
        info: { singularName: 'article', pluralName: 'articles', displayName: 'Article' },
        options: { draftAndPublish: true },
        attributes: {
          title: { type: 'string' },
          secret: { type: 'string', private: true },
          views: { type: 'integer' },
          category: {
            type: 'relation',
            relation: 'manyToOne',
            target: 'api::category.category',
            inversedBy: 'articles',
          },
        },
      },
    },
    {
      file: 'category.json',
      uid: 'api::category.category',
      json: {
        kind: 'collectionType',
        collectionName: 'categories',
        info: { singularName: 'category', pluralName: 'categories', displayName: 'Category' },
        options: { draftAndPublish: false },
        attributes: {
          name: { type: 'string' },
          articles: { type: 'relation', relation: 'oneToMany', target: 'api::article.article', mappedBy: 'category' },
        },
      },
    },
  ],
  [],
);
const article = schema.contentTypes.get('api::article.article')!;

describe('query engine parameters', () => {
  it('where: operators, logical groups, relations by nested object or id, private attributes', () => {
    const query = parseRowQuery(schema, article, {
      where: {
        $or: [{ title: { $startsWith: 'A' } }, { $not: { views: { $gt: 3 } } }],
        category: { name: 'News' },
        secret: 's',
        publishedAt: { $notNull: true },
      },
    });
    assert.equal(query.filter?.kind, 'and');
    const kinds = (query.filter as { children: { kind: string }[] }).children.map((child) => child.kind);
    assert.deepEqual(kinds, ['or', 'relation', 'compare', 'compare']);
    const byId = parseRowQuery(schema, article, { where: { category: 5 } }).filter as {
      kind: string;
      filter: { field: { name: string }; value: unknown };
    };
    assert.equal(byId.kind, 'relation');
    assert.equal(byId.filter.field.name, 'id');
    assert.equal(byId.filter.value, 5);
  });

  it('select, orderBy in its forms, limit and offset', () => {
    const query = parseRowQuery(schema, article, {
      select: ['title', 'id', 'secret'],
      orderBy: [{ views: 'desc' }, 'title'],
      limit: 5,
      offset: '10',
    });
    assert.deepEqual(query.select, ['title', 'id', 'secret']);
    assert.deepEqual(
      query.sort.map((item) => [item.field.name, item.direction]),
      [
        ['views', 'desc'],
        ['title', 'asc'],
      ],
    );
    assert.equal(query.limit, 5);
    assert.equal(query.offset, 10);
    assert.deepEqual(
      parseRowQuery(schema, article, { orderBy: { category: { name: 'asc' } } }).sort[0]!.through.map((a) => a.name),
      ['category'],
    );
    assert.equal(parseRowQuery(schema, article, {}).select, undefined);
  });

  it('bad input is a ValidationError naming the parameter', () => {
    const rejects = (params: Record<string, unknown>, param: string) =>
      assert.throws(
        () => parseRowQuery(schema, article, params),
        (error: Error & { status?: number; details?: { param?: string } }) =>
          error.name === 'ValidationError' && error.status === 400 && error.details?.param === param,
      );
    rejects({ where: { nope: 1 } }, 'where');
    rejects({ where: { title: { $like: 'x' } } }, 'where');
    rejects({ select: ['category'] }, 'select');
    rejects({ orderBy: { nope: 'asc' } }, 'orderBy');
    rejects({ limit: -1 }, 'limit');
    rejects({ offset: 'x' }, 'offset');
    rejects({ wehre: {} }, 'wehre');
  });

  it('populate: the engine shape (select, where, orderBy) is read as REST populate', () => {
    assert.deepEqual(
      populateToRest({
        category: { select: ['name'], where: { name: 'x' }, orderBy: 'name', populate: { articles: true }, limit: 3 },
      }),
      {
        category: { fields: ['name'], filters: { name: 'x' }, sort: 'name', populate: { articles: true } },
      },
    );
    assert.deepEqual(populateToRest(['category']), ['category']);
    assert.equal(populateToRest(true), true);
    const query = parseRowQuery(schema, article, { populate: { category: { select: ['name'] } } });
    assert.deepEqual(query.populate.category?.fields, ['name']);
  });
});
