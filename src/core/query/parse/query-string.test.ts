import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { QueryValidationError } from '../../errors.js';
import { parseQueryString } from './query-string.js';
import { throwsVellum } from '../../../../test/helpers/unit-errors.js';

const WHERE = { source: 'query', param: 'query', key: '', path: '' };
const refused = (raw: string, message: RegExp) =>
  throwsVellum(() => parseQueryString(raw), QueryValidationError, message, WHERE);

describe('query strings (qs syntax, bounded)', () => {
  it('reads Strapi-style brackets, raw or percent-encoded, with or without ?', () => {
    const expected = { filters: { title: { $eq: 'a b' } }, sort: ['title:asc', 'views:desc'], populate: '*' };
    assert.deepEqual(
      parseQueryString('filters[title][$eq]=a%20b&sort[0]=title:asc&sort[1]=views:desc&populate=*'),
      expected,
    );
    assert.deepEqual(
      parseQueryString(
        '?filters%5Btitle%5D%5B%24eq%5D=a+b&sort%5B0%5D=title%3Aasc&sort%5B1%5D=views%3Adesc&populate=%2A',
      ),
      expected,
    );
    assert.deepEqual(parseQueryString(''), {});
  });

  it('compacts sparse lists, and refuses an index of 100 or more', () => {
    assert.deepEqual(parseQueryString('a[0]=x&a[5]=y&b[99]=z'), { a: ['x', 'y'], b: ['z'] });
    refused('a[100]=1', /^Invalid query string: Array limit exceeded/);
  });

  it('does not let a key reach Object.prototype', () => {
    const parsed = parseQueryString('__proto__[x]=1&constructor[prototype][y]=2&a=1');
    assert.equal(({} as Record<string, unknown>).x, undefined);
    assert.equal(({} as Record<string, unknown>).y, undefined);
    assert.equal(parsed.a, '1');
    assert.equal(Object.getPrototypeOf(parsed), Object.prototype);
  });

  it('refuses query strings over 16 KiB before parsing them', () => {
    assert.equal(Object.keys(parseQueryString(`a=${'x'.repeat(16 * 1024 - 2)}`)).length, 1);
    refused(`a=${'x'.repeat(16 * 1024)}`, /^Query string too long \(over 16384 characters\)$/);
  });

  it('refuses more than 1000 parameters, 20 levels of brackets and 100 list items', () => {
    assert.equal(
      Object.keys(parseQueryString(Array.from({ length: 1000 }, (_, i) => `p${i}=1`).join('&'))).length,
      1000,
    );
    refused(Array.from({ length: 1001 }, (_, i) => `p${i}=1`).join('&'), /^Invalid query string: .*parameter/i);
    refused(`a${'[b]'.repeat(21)}=1`, /^Invalid query string: .*depth/i);
    assert.equal(typeof parseQueryString(`a${'[b]'.repeat(20)}=1`).a, 'object');
    assert.equal(
      (parseQueryString(Array.from({ length: 100 }, (_, i) => `a[]=${i}`).join('&')).a as unknown[]).length,
      100,
    );
    refused(Array.from({ length: 101 }, (_, i) => `a[]=${i}`).join('&'), /^Invalid query string: Array limit exceeded/);
  });
});
