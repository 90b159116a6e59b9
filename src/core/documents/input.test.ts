import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ValidationError, type FieldError } from '../errors.js';
import type { Model } from '../schema/model.js';
import { parseJsonKeepingIntegers } from './exact-integers.js';
import { validateInput, type InputRules, type Mode, type ModelInput } from './input.js';
import { throwsVellum } from '../../../test/helpers/unit-errors.js';
import { typeOf, unitSchema } from '../../../test/helpers/unit-schema.js';

const schema = unitSchema();
const article = typeOf(schema, 'api::article.article');
const item = typeOf(schema, 'api::item.item');

const validate = (
  data: Record<string, unknown>,
  model: Model = item,
  mode: Mode = 'update',
  rules: InputRules = { draft: false },
) => validateInput(schema, model, data, mode, rules);
/** The validated scalars by attribute name. */
const scalars = (input: ModelInput) =>
  Object.fromEntries([...input.scalars].map(([attribute, value]) => [attribute.name, value]));
/** `path: message` per error, in the order reported. */
const problems = (errors: FieldError[]) => errors.map((error) => `${error.path.join('.')}: ${error.message}`);
const problemsOf = (data: Record<string, unknown>, model: Model = item, mode: Mode = 'update', rules?: InputRules) =>
  problems(validate(data, model, mode, rules).errors);

describe('body validation: scalar values', () => {
  it('accepts and normalises every scalar type', () => {
    const { input, errors } = validate({
      name: 'ab cd',
      note: 'long text',
      rich: '# t',
      email: 'a@b.co',
      code: 'a-b_c.d~',
      password: 'secret',
      level: 'low',
      count: '7',
      big: '9007199254740993',
      ratio: '1.5',
      price: 2.25,
      active: 'true',
      day: '2024-02-29T23:00:00Z',
      hour: '10:20:30.4',
      at: '2024-01-02T03:04:05+01:00',
      stamp: 0,
      data: { a: [1] },
      doc: [{ type: 'paragraph', children: [] }],
    });
    assert.deepEqual(errors, []);
    assert.deepEqual(scalars(input), {
      name: 'ab cd',
      note: 'long text',
      rich: '# t',
      email: 'a@b.co',
      code: 'a-b_c.d~',
      password: 'secret',
      level: 'low',
      count: 7,
      big: '9007199254740993',
      ratio: 1.5,
      price: 2.25,
      active: true,
      day: '2024-02-29',
      hour: '10:20:30.400',
      at: new Date('2024-01-02T02:04:05Z'),
      stamp: new Date(0),
      data: { a: [1] },
      doc: [{ type: 'paragraph', children: [] }],
    });
  });

  it('reads booleans as Strapi: true/false, their texts, 1/0', () => {
    const read = [true, false, 'true', 'false', 1, 0, '1', '0'].map(
      (active) => scalars(validate({ active }).input).active,
    );
    assert.deepEqual(read, [true, false, true, false, true, false, true, false]);
    assert.deepEqual(problemsOf({ active: 'yes' }), ['active: active must be a `boolean` type']);
  });

  it('refuses values of the wrong type, naming the attribute', () => {
    assert.deepEqual(problemsOf({ name: 3, count: 'x', ratio: {}, day: 'soon', hour: '25:00', at: 'x', doc: 'x' }), [
      'name: name must be a `string` type',
      'count: count must be a `number` type, but the final value was: `NaN` (cast from the value `"x"`).',
      'ratio: ratio must be a `number` type',
      'day: day: expected a date (yyyy-MM-dd)',
      'hour: hour: expected a time (HH:mm:ss.SSS)',
      'at: at: expected a timestamp or an ISO date',
      'doc: doc must be an array of blocks',
    ]);
  });

  it('keeps integers and decimals in their columns, and bigintegers in 64 bits', () => {
    assert.deepEqual(problemsOf({ count: 1.5 }), ['count: count must be an integer']);
    assert.deepEqual(problemsOf({ count: 2 ** 31 }), ['count: count is out of the integer range']);
    assert.deepEqual(problemsOf({ price: 1e8 }), ['price: price is out of the decimal range']);
    assert.deepEqual(problemsOf({ big: '9223372036854775808' }), ['big: big is out of the 64-bit integer range']);
    assert.deepEqual(problemsOf({ big: 1.5 }), ['big: big must be an integer (as a string or a safe number)']);
    assert.deepEqual(
      problemsOf({ big: 2 ** 60 }),
      ['big: big must be an integer (as a string or a safe number)'],
      'a rounded unsafe number',
    );
    assert.equal(scalars(validate({ big: -12 }).input).big, '-12');
  });

  it('takes the exact digits of a body integer beyond 2^53 (exact-integers.ts)', () => {
    const data = parseJsonKeepingIntegers('{"big": 9223372036854775807, "count": 3}') as Record<string, unknown>;
    assert.equal(data.big, Number('9223372036854775807'), 'the value JSON.parse gives');
    assert.equal(scalars(validate(data).input).big, '9223372036854775807');
  });

  it('applies min, max, minLength, maxLength, regex, email and uid formats, enumerations', () => {
    assert.deepEqual(problemsOf({ count: -1 }), ['count: count must be greater than or equal to 0']);
    assert.deepEqual(problemsOf({ count: 101 }), ['count: count must be less than or equal to 100']);
    assert.deepEqual(problemsOf({ name: 'a' }), ['name: name must be at least 2 characters']);
    assert.deepEqual(problemsOf({ name: 'abcdefghijk' }), ['name: name must be at most 10 characters']);
    assert.deepEqual(problemsOf({ name: 'AB' }), ['name: name must match the pattern ^[a-z ]*$']);
    assert.deepEqual(problemsOf({ email: 'nope' }), ['email: email must be a valid email']);
    assert.deepEqual(problemsOf({ email: '' }), ['email: email cannot be empty']);
    assert.deepEqual(problemsOf({ code: 'a b' }), ['code: code must match the pattern ^[A-Za-z0-9-_.~]*$']);
    assert.deepEqual(problemsOf({ level: 'mid' }), ['level: level must be one of the following values: low, high, ']);
  });

  it('counts characters, not UTF-16 units, and keeps short text to 255', () => {
    assert.deepEqual(problemsOf({ name: 'ab', note: 'x'.repeat(10_000), rich: 'y'.repeat(10_000) }), []);
    assert.deepEqual(problemsOf({ code: 'x'.repeat(256) }), ['code: code must be at most 255 characters']);
    assert.deepEqual(problemsOf({ unsearched: '😀'.repeat(255) }), []);
  });

  it('refuses the NUL character everywhere (PostgreSQL cannot store it)', () => {
    assert.deepEqual(problemsOf({ note: 'a\u0000b' }), ['note: note must not contain the NUL character (U+0000)']);
  });

  it('refuses json and blocks nested deeper than 100 levels, without the value', () => {
    const nest = (depth: number): unknown => (depth === 0 ? 1 : [nest(depth - 1)]);
    assert.deepEqual(problemsOf({ data: nest(100) }), []);
    const { errors } = validate({ data: nest(101) });
    assert.deepEqual(problems(errors), ['data: data nests deeper than 100 levels']);
    assert.equal(errors[0]!.value, undefined);
    assert.deepEqual(problemsOf({ doc: [{ type: 'p' }, 'x'] }), [
      'doc.1: doc blocks must be objects with a string `type`',
    ]);
    assert.deepEqual(problemsOf({ doc: [{ type: 'p', children: 'x' }] }), [
      'doc.0.children: doc block children must be an array',
    ]);
  });

  it('gives list positions as strings in error paths, as Strapi', () => {
    const { errors } = validate({ doc: ['x'] });
    assert.deepEqual(errors[0]!.path, ['doc', '0']);
    assert.equal(errors[0]!.name, 'ValidationError');
    assert.equal(errors[0]!.value, 'x');
  });
});

describe('body validation: required attributes and drafts', () => {
  it('requires attributes on create, except those with a default or a uid source', () => {
    assert.deepEqual(problemsOf({}, item, 'create'), ['required: required must be defined.']);
    // A draft-and-publish type's published entry, in Strapi 5.54's words for the stored entry's null.
    assert.deepEqual(problemsOf({}, article, 'create'), [
      'title: title must be a `string` type, but the final value was: `null`.',
    ]);
    assert.deepEqual(problemsOf({ title: 'x' }, article, 'create'), []);
    assert.deepEqual(problemsOf({}, article, 'update'), []);
    assert.deepEqual(problemsOf({ title: null }, article, 'update'), [
      'title: title must be a `string` type, but the final value was: `null`.',
    ]);
    assert.deepEqual(
      problemsOf({ required: '' }, item, 'update'),
      [],
      '"" is a value: required refuses only null and absence, as Strapi 5.54',
    );
  });

  it('carries value null for a missing attribute only on a draft-and-publish type, as Strapi', () => {
    const onDraftAndPublish = validate({}, article, 'create').errors[0]!;
    const onOther = validate({}, item, 'create').errors[0]!;
    assert.equal(article.modelType === 'contentType' && article.draftAndPublish, true);
    assert.equal(item.modelType === 'contentType' && item.draftAndPublish, false);
    assert.equal(onDraftAndPublish.value, null);
    assert.equal('value' in onOther ? onOther.value : undefined, undefined);
    assert.equal(JSON.stringify(onOther).includes('"value"'), false);
  });

  it('lets a new locale inherit the shared attributes', () => {
    assert.deepEqual(problemsOf({}, article, 'create', { draft: false, inherited: new Set(['title']) }), []);
  });

  it('skips required, minLength, regex, min and formats on drafts, and keeps types, max, maxLength and enumerations', () => {
    const draft = { draft: true };
    assert.deepEqual(problemsOf({ name: 'A', count: -5, email: 'nope', code: 'a b' }, item, 'create', draft), []);
    assert.deepEqual(
      problemsOf({ name: 'abcdefghijk', count: 101, level: 'mid', active: 'x' }, item, 'create', draft),
      [
        'name: name must be at most 10 characters',
        'level: level must be one of the following values: low, high, ',
        'count: count must be less than or equal to 100',
        'active: active must be a `boolean` type',
      ],
    );
  });

  it('does not check a stored password, nor require stored relations and media', () => {
    const stored = { draft: false, stored: true };
    assert.deepEqual(problemsOf({ required: 'x', password: '$2a$10$hash' }, item, 'create', stored), []);
  });

  it('lists errors in the order of the schema, not of the body', () => {
    assert.deepEqual(problemsOf({ level: 'x', name: 3 }), [
      'name: name must be a `string` type',
      'level: level must be one of the following values: low, high, ',
    ]);
  });
});

describe('body validation: keys a body may not carry', () => {
  const invalidKey = (
    data: Record<string, unknown>,
    message: string,
    details: Record<string, unknown>,
    model: Model = article,
  ) => throwsVellum(() => validate(data, model), ValidationError, message, details);

  it('refuses unknown keys before judging any value, naming the first as Strapi does', () => {
    invalidKey({ nope: 1, title: 3 }, 'Invalid key nope', { key: 'nope', path: null, source: 'body' });
    invalidKey({ nope: 1, createdAt: 'x' }, 'Invalid key createdAt', {
      key: 'createdAt',
      path: 'createdAt',
      source: 'body',
    });
    invalidKey({ createdAt: 'x', documentId: 'y' }, 'Invalid key documentId', { key: 'documentId', source: 'body' });
    invalidKey({ id: 3 }, 'Invalid key id', { key: 'id', source: 'body' });
    invalidKey({ localizations: [] }, 'Invalid key localizations', {
      key: 'localizations',
      path: 'localizations',
      source: 'body',
    });
    invalidKey({ constructor: 1 }, 'Invalid key constructor', { key: 'constructor', path: null, source: 'body' });
  });

  it('ignores publishedAt and locale at the root (the query says status and locale)', () => {
    const { input, errors } = validate({ publishedAt: '2024-01-01', locale: 'fr', title: 'x' }, article);
    assert.deepEqual(errors, []);
    assert.deepEqual(scalars(input), { title: 'x' });
  });

  it('names the component holding an unknown key', () => {
    invalidKey({ seo: { metaTitle: 'x', nope: 1 } }, 'Invalid key nope at seo', {
      key: 'nope',
      path: 'seo',
      source: 'body',
    });
    invalidKey({ links: [{ label: 'a' }, { href: 'b' }] }, 'Invalid key href at links', {
      key: 'href',
      path: 'links',
      source: 'body',
    });
    invalidKey({ blocks: [{ __component: 'shared.quote', nope: 1 }] }, 'Invalid key nope at blocks', {
      key: 'nope',
      path: 'blocks',
      source: 'body',
    });
  });

  it('lets a component item carry its id, and a zone entry its __component', () => {
    assert.deepEqual(
      problemsOf(
        { seo: { id: 4, metaTitle: 'x' }, blocks: [{ __component: 'shared.quote', id: 2, title: 't' }] },
        article,
      ),
      [],
    );
  });
});

describe('body validation: components and dynamic zones', () => {
  it('reads a component, a repeatable one and a zone', () => {
    const { input, errors } = validate(
      {
        seo: { metaTitle: 'm' },
        links: [{ label: 'a' }, { id: 7, url: 'u' }],
        blocks: [{ __component: 'shared.rich-text', body: 'b' }],
      },
      article,
    );
    assert.deepEqual(errors, []);
    const seo = [...input.components].find(([attribute]) => attribute.name === 'seo')![1];
    assert.deepEqual(Array.isArray(seo) || seo === null ? undefined : scalars(seo.input), { metaTitle: 'm' });
    const links = [...input.components].find(([attribute]) => attribute.name === 'links')![1];
    assert.deepEqual(Array.isArray(links) ? links.map((entry) => [entry.id, scalars(entry.input)]) : undefined, [
      [undefined, { label: 'a' }],
      [7, { url: 'u' }],
    ]);
    const zone = [...input.zones.values()][0];
    assert.deepEqual(
      zone?.map((entry) => entry.component),
      ['shared.rich-text'],
    );
  });

  it('applies required fields of new items as on create, with their path', () => {
    assert.deepEqual(problemsOf({ seo: { metaDescription: 'd' } }, article), [
      'seo.metaTitle: seo.metaTitle must be a `string` type, but the final value was: `null`.',
    ]);
    assert.deepEqual(problemsOf({ seo: { id: 3, metaDescription: 'd' } }, article), [], 'an existing item is updated');
  });

  it('checks item counts (not on drafts) and shapes', () => {
    assert.deepEqual(problemsOf({ links: [{}, {}, {}, {}] }, article), ['links: links must have at most 3 items']);
    assert.deepEqual(problemsOf({ parts: [] }), [], 'min applies to an optional list only when it is not empty');
    assert.deepEqual(problemsOf({ parts: [{}, {}, {}] }), ['parts: parts must have at most 2 items']);
    assert.deepEqual(problemsOf({ parts: [{}, {}, {}] }, item, 'update', { draft: true }), []);
    assert.deepEqual(problemsOf({ links: {} }, article), ['links: links must be an array']);
    assert.deepEqual(problemsOf({ seo: 'x' }, article), ['seo: must be an object']);
    assert.deepEqual(problemsOf({ links: [{ id: -1 }] }, article), ['links.0.id: id must be a positive integer']);
  });

  it('names a zone entry whose __component is not one of the zone', () => {
    assert.deepEqual(problemsOf({ blocks: [{ __component: 'shared.seo' }] }, article), [
      'blocks.0.__component: __component must be one of: shared.quote, shared.rich-text',
    ]);
    assert.deepEqual(problemsOf({ blocks: ['x'] }, article), ['blocks.0: must be an object']);
    assert.deepEqual(
      problemsOf({ blocks: null }, article),
      ['blocks: blocks must be a `array` type, but the final value was: `null`.'],
      'a list is never null, as Strapi 5.54',
    );
    assert.deepEqual(problemsOf({ links: null }, article), [
      'links: links must be a `array` type, but the final value was: `null`.',
    ]);
  });
});

describe('body validation: relations and media', () => {
  const relation = (value: unknown) => {
    const { input, errors } = validate({ tags: value }, article);
    return { errors: problems(errors), input: input.relations.get(article.attributes.tags as never) };
  };

  it('reads documentIds, entry ids, lists, and connect/disconnect/set', () => {
    assert.deepEqual(relation('abc').input, { set: [{ documentId: 'abc' }] });
    assert.deepEqual(relation(7).input, { set: [{ documentId: '', id: 7 }] });
    assert.deepEqual(relation(['a', '8']).input, { set: [{ documentId: 'a' }, { documentId: '', id: 8 }] });
    assert.deepEqual(relation(null).input, { set: [] });
    assert.deepEqual(relation({ documentId: 'a', locale: 'fr', status: 'draft' }).input, {
      set: [{ documentId: 'a', locale: 'fr', status: 'draft' }],
    });
    assert.deepEqual(
      relation({ connect: ['a', { documentId: 'b', position: { before: 'a' } }], disconnect: [{ id: 3 }] }).input,
      {
        connect: [{ documentId: 'a' }, { documentId: 'b', position: { before: 'a' } }],
        disconnect: [{ documentId: '', id: 3 }],
      },
    );
    assert.deepEqual(relation({ connect: [{ documentId: 'a', position: { end: true } }] }).input, {
      connect: [{ documentId: 'a', position: { end: true } }],
    });
    assert.deepEqual(relation({ set: null }).input, { set: [] });
    assert.deepEqual(
      relation({ documentId: 'd', id: 4 }).input,
      { set: [{ documentId: 'd' }] },
      'documentId wins over id',
    );
  });

  it('refuses bad relation values with their path', () => {
    assert.deepEqual(relation({ set: ['a'], connect: ['b'] }).errors, [
      'tags: tags: set cannot be combined with connect or disconnect',
    ]);
    assert.deepEqual(relation({ link: ['a'] }).errors, [
      'tags.link: Invalid key link (use connect, disconnect or set)',
    ]);
    assert.deepEqual(
      relation({ connect: ['a', 'a'] }).errors,
      [],
      'a repeat is left to the write: once if at the same position, as Strapi',
    );
    assert.deepEqual(relation({ connect: [{ documentId: 'a', where: 1 }] }).errors, [
      'tags.connect.0.where: Invalid key where',
    ]);
    assert.deepEqual(relation({ set: [{ documentId: 'a', position: { end: true } }] }).errors, [
      'tags.set.0.position: position is only allowed in connect',
    ]);
    assert.deepEqual(relation({ connect: [{ documentId: 'a', position: { middle: true } }] }).errors, [
      'tags.connect.0.position: position must have exactly one of before, after, start, end',
    ]);
    assert.deepEqual(relation({ connect: [{ documentId: 'a', status: 'live' }] }).errors, [
      'tags.connect.0.status: status must be draft or published',
    ]);
    assert.deepEqual(relation({ connect: [{ documentId: 'a', locale: 3 }] }).errors, [
      'tags.connect.0.locale: locale must be a string',
    ]);
    assert.deepEqual(relation([true]).errors, [
      'tags.0: must be a documentId, an entry id, or an object with a documentId or an id',
    ]);
    assert.deepEqual(relation(0).errors, [
      'tags: must be a documentId, an entry id, or an object with a documentId or an id',
    ]);
    assert.deepEqual(relation(true).errors, [
      'tags: tags must be a documentId, an array or an object with connect, disconnect or set',
    ]);
  });

  it('reads media as file ids, and reports them to be checked against the files', () => {
    const { input, errors, media } = validate({ cover: { id: 3 }, gallery: [1, '2'] }, article);
    assert.deepEqual(errors, []);
    assert.deepEqual(
      [...input.media].map(([attribute, ids]) => [attribute.name, ids]),
      [
        ['cover', [3]],
        ['gallery', [1, 2]],
      ],
    );
    assert.deepEqual(
      media.map((reference) => [reference.attribute.name, reference.ids, reference.path]),
      [
        ['cover', [3], ['cover']],
        ['gallery', [1, 2], ['gallery']],
      ],
    );
    assert.deepEqual(problemsOf({ cover: [1, 2] }, article), ['cover: cover takes a single file']);
    assert.deepEqual(
      validate({ gallery: [2, 1, 2] }, article).input.media.get(article.attributes.gallery as never),
      [2, 1],
      'a file named twice is linked once, as Strapi',
    );
    assert.deepEqual(problemsOf({ gallery: [1, 'x'] }, article), ['gallery.1: gallery must be file ids']);
    assert.deepEqual(problemsOf({ gallery: { connect: [1] } }, article), [
      'gallery: gallery: connect, disconnect and set cannot be used on media attributes; send file ids',
    ]);
    assert.equal(validate({ cover: null }, article).input.media.get(article.attributes.cover as never), null);
  });
});
