import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { QueryValidationError } from '../../errors.js';
import type { ContentType } from '../../schema/model.js';
import { COMPARISON_OPERATORS, type FilterNode } from '../types.js';
import { FilterParser, systemField } from './filters.js';
import { throwsVellum } from '../../../../test/helpers/unit-errors.js';
import { typeOf, unitSchema } from '../../../../test/helpers/unit-schema.js';

const schema = unitSchema();
const article = typeOf(schema, 'api::article.article');
const author = typeOf(schema, 'api::author.author');
const item = typeOf(schema, 'api::item.item');

/** A filter as one line: `and(title $eq "a", author{name $eq "b"})`, `seo[...]` for components. */
function show(node: FilterNode | undefined): string {
  if (!node) return '';
  switch (node.kind) {
    case 'and':
    case 'or':
      return `${node.kind}(${node.children.map(show).join(', ')})`;
    case 'not':
      return `not(${show(node.child)})`;
    case 'compare':
      return `${node.field.name} ${node.operator} ${JSON.stringify(node.value)}`;
    case 'relation':
      return `${node.attribute.name}{${show(node.filter)}}`;
    case 'component':
      return `${node.attribute.name}[${show(node.filter)}]`;
    case 'creator':
      return `${node.column}<${show(node.filter)}>`;
  }
}

const parse = (value: unknown, type: ContentType = article, canRead?: (type: ContentType) => boolean) =>
  new FilterParser(schema, { canRead }).parse(type, value, ['filters']);
const filter = (value: unknown, type: ContentType = article) => show(parse(value, type));

/** The 400 a filter gets: its message and Strapi's details (`param`, `key`, `path`). */
const refused = (
  value: unknown,
  message: RegExp | string,
  where: { key: string; path: string | null },
  type: ContentType = article,
) =>
  throwsVellum(() => parse(value, type), QueryValidationError, message, {
    source: 'query',
    param: 'filters',
    ...where,
  });

describe('filters: shapes', () => {
  it('reads nothing from an absent or empty filter', () => {
    assert.equal(parse(undefined), undefined);
    assert.equal(parse(''), undefined);
    assert.equal(filter({}), 'and()');
  });

  it('reads a bare value as $eq and a bare list as $in', () => {
    assert.equal(filter({ title: 'Hello' }), 'title $eq "Hello"');
    assert.equal(filter({ title: ['a', 'b'] }), 'title $in ["a","b"]');
    assert.equal(filter({ views: ['1', '2'] }), 'views $in [1,2]');
  });

  it('combines several fields and several operators on one field with and', () => {
    assert.equal(
      filter({ title: 'a', views: { $gt: '1', $lt: '9' } }),
      'and(title $eq "a", and(views $gt 1, views $lt 9))',
    );
  });

  it('nests $and, $or and $not, at the top and on a field', () => {
    assert.equal(filter({ $or: [{ title: 'a' }, { title: 'b' }] }), 'or(title $eq "a", title $eq "b")');
    assert.equal(filter({ $and: [{ title: 'a' }, { $not: { views: 3 } }] }), 'and(title $eq "a", not(views $eq 3))');
    assert.equal(filter({ $or: { 0: { title: 'a' }, 1: { views: '2' } } }), 'or(title $eq "a", views $eq 2)');
    assert.equal(filter({ $and: { title: 'single object' } }), 'and(title $eq "single object")');
    assert.equal(filter({ views: { $or: [{ $lt: 1 }, { $gt: 9 }] } }), 'or(views $lt 1, views $gt 9)');
    assert.equal(filter({ views: { $not: { $eq: 3 } } }), 'not(views $eq 3)');
    assert.equal(filter({ views: { $and: [{ $gte: 1 }] } }), 'views $gte 1');
    assert.equal(filter({ $not: { $or: [{ title: 'a' }, { views: 1 }] } }), 'not(or(title $eq "a", views $eq 1))');
  });

  it('keeps an empty $or and $and (no children) and drops an empty $not', () => {
    assert.equal(filter({ $or: [] }), 'or()');
    assert.equal(filter({ $and: [{}] }), 'and(and())');
    assert.equal(filter({ $not: '' }), 'and()');
  });

  it('reads the document columns on every content-type, locale only on localized ones', () => {
    assert.equal(
      filter({
        id: '3',
        documentId: 'abc',
        createdAt: '2024-01-02',
        updatedAt: { $gt: 0 },
        publishedAt: { $null: true },
      }),
      'and(id $eq 3, documentId $eq "abc", createdAt $eq "2024-01-02T00:00:00.000Z", updatedAt $gt "1970-01-01T00:00:00.000Z", publishedAt $null true)',
    );
    assert.equal(filter({ locale: 'fr' }), 'locale $eq "fr"');
    refused({ locale: 'fr' }, 'Invalid key locale', { key: 'locale', path: null }, author);
  });

  it('maps the document columns to their SQL columns', () => {
    assert.deepEqual(
      ['id', 'documentId', 'createdAt', 'updatedAt', 'publishedAt', 'locale'].map(
        (name) => systemField(article, name)?.column,
      ),
      ['id', 'document_id', 'created_at', 'updated_at', 'published_at', 'locale'],
    );
    assert.equal(systemField(author, 'locale'), undefined);
    assert.equal(systemField(schema.components.get('shared.seo')!, 'documentId'), undefined);
    assert.equal(systemField(schema.components.get('shared.seo')!, 'id')?.column, 'id');
  });

  it('reads attribute columns in snake case', () => {
    const node = parse({ publishDate: '2024-05-06' });
    assert.ok(node?.kind === 'compare');
    assert.equal(node.field.column, 'publish_date');
    assert.equal(node.field.type, 'date');
    assert.equal(node.field.attribute?.name, 'publishDate');
  });
});

describe('filters: operators', () => {
  it('reads every comparison operator of docs/rest.md "Filters" on a text attribute', () => {
    const values: Record<string, unknown> = {
      $in: ['a'],
      $notIn: ['a'],
      $between: ['a', 'b'],
      $null: 'true',
      $notNull: 'false',
    };
    const read = COMPARISON_OPERATORS.map((operator) => filter({ title: { [operator]: values[operator] ?? 'a' } }));
    assert.deepEqual(read, [
      'title $eq "a"',
      'title $eqi "a"',
      'title $ne "a"',
      'title $nei "a"',
      'title $lt "a"',
      'title $lte "a"',
      'title $gt "a"',
      'title $gte "a"',
      'title $in ["a"]',
      'title $notIn ["a"]',
      'title $contains "a"',
      'title $notContains "a"',
      'title $containsi "a"',
      'title $notContainsi "a"',
      'title $null true',
      'title $notNull false',
      'title $between ["a","b"]',
      'title $startsWith "a"',
      'title $startsWithi "a"',
      'title $endsWith "a"',
      'title $endsWithi "a"',
    ]);
  });

  it('reads $eq null and $ne null as null tests', () => {
    assert.equal(filter({ title: { $eq: null } }), 'title $eq null');
    assert.equal(filter({ views: { $ne: null } }), 'views $ne null');
  });

  it('reads $null and $notNull flags as Strapi does (true/false/t/f/1/0)', () => {
    for (const [given, read] of [
      ['true', true],
      ['t', true],
      ['1', true],
      [true, true],
      [1, true],
      ['false', false],
      ['F', false],
      ['0', false],
      [0, false],
    ] as const) {
      assert.equal(filter({ title: { $null: given } }), `title $null ${read}`, String(given));
    }
    refused({ title: { $null: 'yes' } }, '$null takes true or false', { key: '$null', path: 'title' });
    refused({ title: { $notNull: 2 } }, '$notNull takes true or false', { key: '$notNull', path: 'title' });
  });

  it('reads $in from a list or a single value, and $between from exactly two values', () => {
    assert.equal(filter({ views: { $in: ['1', '2'] } }), 'views $in [1,2]');
    assert.equal(filter({ views: { $in: '7' } }), 'views $in [7]');
    assert.equal(filter({ views: { $notIn: [] } }), 'views $notIn []');
    assert.equal(filter({ views: { $between: ['1', '5'] } }), 'views $between [1,5]');
    refused({ views: { $between: ['1'] } }, '$between takes exactly two values', { key: '$between', path: 'views' });
    refused({ views: { $between: '1' } }, '$between takes exactly two values', { key: '$between', path: 'views' });
  });

  it('keeps text operators to text attributes, documentId and locale', () => {
    assert.equal(
      filter({ documentId: { $startsWith: 'ab' }, locale: { $containsi: 'F' } }),
      'and(documentId $startsWith "ab", locale $containsi "F")',
    );
    assert.equal(filter({ kind: { $endsWith: 'ws' }, slug: { $eqi: 'X' } }), 'and(kind $endsWith "ws", slug $eqi "X")');
    assert.equal(filter({ title: { $contains: 42 } }), 'title $contains "42"');
    refused({ views: { $contains: '1' } }, 'Operator $contains does not apply to integer attribute views', {
      key: '$contains',
      path: 'views',
    });
    refused({ id: { $startsWith: '1' } }, 'Operator $startsWith does not apply to id attribute id', {
      key: '$startsWith',
      path: 'id',
    });
    refused({ title: { $contains: ['a'] } }, '$contains takes a text value', { key: '$contains', path: 'title' });
  });

  it('goes through at most 4 relations from the filtered type', () => {
    assert.ok(parse({ author: { articles: { author: { articles: { title: 'x' } } } } }));
    assert.throws(
      () => parse({ author: { articles: { author: { articles: { author: { name: 'x' } } } } } }),
      /at most 4 relations/,
    );
  });

  it('caps the operand of substring matches at 200 characters (their cost is text length times operand length)', () => {
    const long = 'a'.repeat(201);
    for (const operator of ['$contains', '$notContainsi', '$startsWith', '$endsWithi']) {
      refused({ title: { [operator]: long } }, `${operator} takes at most 200 characters, got 201`, {
        key: operator,
        path: 'title',
      });
    }
    assert.equal(filter({ title: { $containsi: 'é'.repeat(200) } }), `title $containsi "${'é'.repeat(200)}"`);
    assert.equal(filter({ title: { $eqi: long } }), `title $eqi "${long}"`, 'equality is linear: not capped');
  });

  it('allows only $null and $notNull on json and blocks', () => {
    assert.equal(
      filter({ metadata: { $null: true }, content: { $notNull: true } }),
      'and(metadata $null true, content $notNull true)',
    );
    refused({ metadata: { $eq: '{}' } }, 'Only $null and $notNull apply to json attribute metadata', {
      key: '$eq',
      path: 'metadata',
    });
    refused({ content: 'x' }, 'Only $null and $notNull apply to blocks attribute content', {
      key: 'content',
      path: null,
    });
  });

  it('refuses unknown operators, naming the attribute in details.path', () => {
    refused({ title: { $like: 'a' } }, 'Invalid operator $like on title', { key: '$like', path: 'title' });
    refused({ title: { name: 'a' } }, 'Invalid operator name on title', { key: 'name', path: 'title' });
    refused({ $nor: [] }, 'Invalid operator $nor here: an attribute name is expected', { key: '$nor', path: null });
    refused({ title: {} }, 'Empty filter on title', { key: 'title', path: null });
    refused({ $or: 'a' }, '$or must be an array of filters', { key: '$or', path: null });
    refused({ views: { $and: 3 } }, '$and must be an array', { key: '$and', path: 'views' });
  });
});

describe('filters: values', () => {
  it('converts values to the attribute type', () => {
    assert.equal(
      filter(
        {
          count: '-3',
          big: '9223372036854775807',
          ratio: '1.5e2',
          price: '.5',
          active: 't',
          day: '2024-02-29T10:00:00Z',
          hour: '10:20:30.4',
          at: '2024-01-02T03:04:05+02:00',
          stamp: 0,
        },
        item,
      ),
      'and(count $eq -3, big $eq "9223372036854775807", ratio $eq 150, price $eq 0.5, active $eq true, day $eq "2024-02-29", hour $eq "10:20:30.400", at $eq "2024-01-02T01:04:05.000Z", stamp $eq "1970-01-01T00:00:00.000Z")',
    );
    assert.equal(
      filter({ name: 12, level: 'low', code: 'a-b' }, item),
      'and(name $eq "12", level $eq "low", code $eq "a-b")',
    );
  });

  it('refuses a value of the wrong type with the expected type and the path of the value', () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ count: 'x' }, 'Invalid value for count: expected an integer', 'count'],
      [{ count: '2147483648' }, 'Invalid value for count: expected an integer', 'count'],
      [{ count: '1.5' }, 'Invalid value for count: expected an integer', 'count'],
      [{ big: '1e3' }, 'Invalid value for big: expected an integer', 'big'],
      [{ big: '9223372036854775808' }, 'Invalid value for big: expected a 64-bit integer', 'big'],
      [{ ratio: 'NaN' }, 'Invalid value for ratio: expected a number', 'ratio'],
      [{ ratio: '1e999' }, 'Invalid value for ratio: expected a finite number', 'ratio'],
      [{ active: 'yes' }, 'Invalid value for active: expected true or false', 'active'],
      [{ day: '2023-02-29' }, 'Invalid value for day: expected a date (YYYY-MM-DD)', 'day'],
      [{ hour: '25:00:00' }, 'Invalid value for hour: expected a time (HH:mm:ss.SSS)', 'hour'],
      [{ at: 'soon' }, 'Invalid value for at: expected an ISO 8601 date-time or milliseconds since 1970', 'at'],
    ];
    for (const [value, message, key] of cases) refused(value, message, { key, path: null }, item);
  });

  it('names the list position of a bad value in $in', () => {
    const error = refused({ views: { $in: ['1', 'x'] } }, 'Invalid value for views: expected an integer', {
      key: '1',
      path: 'views',
    });
    assert.equal(error.status, 400);
    refused({ id: ['1', { a: 1 }] }, 'Invalid value for id: expected a single value', { key: '1', path: 'id' });
  });
});

describe('filters: relations and components', () => {
  it('filters through a relation on the related fields', () => {
    assert.equal(filter({ author: { name: 'Ann' } }), 'author{name $eq "Ann"}');
    assert.equal(
      filter({ tags: { name: { $in: ['a', 'b'] } }, category: { articles: { title: 'x' } } }),
      'and(tags{name $in ["a","b"]}, category{articles{title $eq "x"}})',
    );
    assert.equal(
      filter({ articles: { author: { name: { $null: true } } } }, author),
      'articles{author{name $null true}}',
    );
  });

  it('reads an operator or a bare value directly on a relation as a test of the related id', () => {
    assert.equal(filter({ author: '3' }), 'author{id $eq 3}');
    assert.equal(filter({ category: { $null: 'true' } }), 'category{id $null true}');
    assert.equal(filter({ tags: { $in: ['1', '2'] } }), 'tags{id $in [1,2]}');
    assert.equal(filter({ tags: ['4', '5'] }), 'tags{id $in [4,5]}');
  });

  it('refuses a relation filter mixing operators and fields, two operators, or nothing', () => {
    refused(
      { author: { $null: true, name: 'a' } },
      'Operators and field names cannot be mixed in the filter on author',
      { key: 'author', path: null },
    );
    refused({ author: { $null: true, $eq: 1 } }, 'Only one operator is allowed directly on author, found $null, $eq', {
      key: 'author',
      path: null,
    });
    // An empty object names no field: it holds for every document (with or without an author).
    assert.equal(filter({ author: {} }), 'author{and()}');
  });

  it('names the relation path of an unknown key in details.path', () => {
    refused({ author: { nope: 1 } }, 'Invalid key nope', { key: 'nope', path: 'author' });
    refused({ category: { articles: { tags: { nope: 1 } } } }, 'Invalid key nope', {
      key: 'nope',
      path: 'category.articles.tags',
    });
    refused({ $and: [{ author: { $or: [{ nope: 1 }] } }] }, 'Invalid key nope', { key: 'nope', path: 'author' });
  });

  it('filters components on their fields, and refuses media and dynamic zones', () => {
    assert.equal(filter({ seo: { metaTitle: { $containsi: 'x' } } }), 'seo[metaTitle $containsi "x"]');
    assert.equal(filter({ links: { label: 'a', url: { $null: true } } }), 'links[and(label $eq "a", url $null true)]');
    assert.equal(filter({ seo: { $null: true } }), 'seo[id $null true]');
    refused({ cover: { $null: true } }, 'Filtering on the media attribute cover is not supported', {
      key: 'cover',
      path: null,
    });
    refused({ blocks: { $null: true } }, 'Filtering on the dynamic zone attribute blocks is not supported', {
      key: 'blocks',
      path: null,
    });
  });

  it('hides private attributes and the types the caller may not read', () => {
    refused({ secret: 'x' }, 'Invalid key secret', { key: 'secret', path: null }, author);
    refused({ author: { secret: 'x' } }, 'Invalid key secret', { key: 'secret', path: 'author' });
    refused({ password: 'x' }, 'Invalid key password', { key: 'password', path: null }, item);
    const noAuthors = (type: ContentType) => type.uid !== 'api::author.author';
    throwsVellum(
      () => parse({ author: { name: 'a' } }, article, noAuthors),
      QueryValidationError,
      'Invalid key author',
      { source: 'query', param: 'filters', key: 'author', path: null },
    );
    assert.equal(show(parse({ tags: { name: 'a' } }, article, noAuthors)), 'tags{name $eq "a"}');
  });

  it('ignores object prototype names: they are unknown keys', () => {
    refused({ constructor: 'x' }, 'Invalid key constructor', { key: 'constructor', path: null });
    refused({ toString: { $eq: 1 } }, 'Invalid key toString', { key: 'toString', path: null });
  });
});

describe('filters: limits', () => {
  it('refuses more than 500 conditions in one filter', () => {
    const conditions = (n: number) => Array.from({ length: n }, () => ({ title: 'a' }));
    // `$or` is one condition, each item's `title` another: 499 items make 500.
    assert.equal((parse({ $or: conditions(499) }) as { children: unknown[] }).children.length, 499);
    refused({ $or: conditions(500) }, 'Too many filter conditions (more than 500)', { key: '499', path: null });
  });

  it('refuses more than 10,000 list values in all', () => {
    const list = (n: number) => Array.from({ length: n }, (_, i) => String(i));
    assert.equal((parse({ views: { $in: list(10_000) } }) as { value: unknown[] }).value.length, 10_000);
    refused(
      { views: { $in: list(6000) }, id: { $notIn: list(4001) } },
      'Too many values in filter lists (more than 10000 in all)',
      { key: '$notIn', path: 'id' },
    );
  });

  it('refuses a filter that is not an object', () => {
    refused('title', 'filters must be an object, e.g. filters[title][$eq]=Hello', { key: 'filters', path: null });
    refused(['a'], 'filters must be an object, e.g. filters[title][$eq]=Hello', { key: 'filters', path: null });
  });
});
