import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { QueryValidationError } from '../../errors.js';
import { asBoolean, asInteger, asList, fail } from './common.js';
import { throwsVellum } from '../../../../test/helpers/unit-errors.js';

describe('query parsing helpers', () => {
  it('fail() names the parameter, the key, and the attributes leading to it', () => {
    const where = (path: (string | number)[]) => throwsVellum(() => fail(path, 'm'), QueryValidationError, 'm').details;
    assert.deepEqual(where(['sort']), { source: 'query', param: 'sort', key: 'sort', path: null });
    assert.deepEqual(where(['filters', 'title']), { source: 'query', param: 'filters', key: 'title', path: null });
    assert.deepEqual(where(['filters', 'author', 'name', '$eq']), {
      source: 'query',
      param: 'filters',
      key: '$eq',
      path: 'author.name',
    });
    assert.deepEqual(where(['filters', '$or', 0, 'tags', '$and', 1, 'name']), {
      source: 'query',
      param: 'filters',
      key: 'name',
      path: 'tags',
    });
    assert.deepEqual(where(['populate', 'author', 'populate', 'articles', 'fields', 0]), {
      source: 'query',
      param: 'populate',
      key: '0',
      path: 'author.articles',
    });
    assert.deepEqual(where(['populate', 'blocks', 'on', 'shared.quote', 'sort']), {
      source: 'query',
      param: 'populate',
      key: 'sort',
      path: 'blocks.shared.quote',
    });
    assert.deepEqual(where([]), { source: 'query', param: '', key: '', path: null });
  });

  it('asList reads arrays and objects with numeric keys in order', () => {
    assert.deepEqual(asList(['a']), ['a']);
    assert.deepEqual(asList({ 10: 'c', 2: 'b', 0: 'a' }), ['a', 'b', 'c']);
    assert.equal(asList({}), undefined);
    assert.equal(asList({ 0: 'a', x: 'b' }), undefined);
    assert.equal(asList('a'), undefined);
  });

  it('asBoolean reads true/false/t/f/1/0 in any case', () => {
    assert.deepEqual(['true', 'TRUE', 't', '1', 1, true].map(asBoolean), [true, true, true, true, true, true]);
    assert.deepEqual(['false', 'False', 'f', '0', 0, false].map(asBoolean), [false, false, false, false, false, false]);
    assert.deepEqual(['yes', '', 2, null, undefined, {}].map(asBoolean), [
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('asInteger reads safe integers written as digits', () => {
    assert.deepEqual(['12', ' -3 ', '+4', 5, '0'].map(asInteger), [12, -3, 4, 5, 0]);
    assert.deepEqual(
      ['1.5', '1e3', '', 'x', 1.5, '12345678901234567', 2 ** 53, null].map(asInteger),
      Array(8).fill(undefined),
    );
  });
});
