import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { exactIntegerText, parseJsonKeepingIntegers } from './exact-integers.js';

describe('JSON bodies keep the digits of integers beyond 2^53', () => {
  it('parses as JSON.parse does', () => {
    for (const text of [
      '{"a":1,"b":[1.5,-2e3],"c":"9007199254740993"}',
      '[]',
      'null',
      '"x"',
      '{"n":12345678901234567890.5}',
    ]) {
      assert.deepEqual(parseJsonKeepingIntegers(text), JSON.parse(text), text);
    }
  });

  it('notes the exact digits of rounded integers beside the object holding them', () => {
    const body = parseJsonKeepingIntegers(
      '{"data":{"big":9007199254740993,"neg":-9223372036854775808,"safe":9007199254740991,"list":[18446744073709551616]}}',
    ) as {
      data: { big: number; neg: number; safe: number; list: number[] };
    };
    assert.equal(body.data.big, 9007199254740992, 'readers see what JSON.parse gives');
    assert.equal(exactIntegerText(body.data, 'big'), '9007199254740993');
    assert.equal(exactIntegerText(body.data, 'neg'), '-9223372036854775808');
    assert.equal(exactIntegerText(body.data, 'safe'), undefined);
    assert.equal(exactIntegerText(body.data.list, '0'), '18446744073709551616');
  });

  it('leaves digits inside strings and fractions alone', () => {
    const body = parseJsonKeepingIntegers(
      '{"s":"12345678901234567890","f":12345678901234567890.5,"e":1e20,"esc":"\\"9007199254740993"}',
    ) as Record<string, unknown>;
    assert.equal(body.s, '12345678901234567890');
    assert.equal(exactIntegerText(body, 's'), undefined);
    assert.equal(exactIntegerText(body, 'f'), undefined);
    assert.equal(exactIntegerText(body, 'e'), undefined);
    assert.equal(body.esc, '"9007199254740993');
  });

  it('throws on invalid JSON as JSON.parse does', () => {
    assert.throws(() => parseJsonKeepingIntegers('{"a":'), SyntaxError);
  });
});
